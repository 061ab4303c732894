"""Wiring: settings → storage → games → manager → adapters."""

from __future__ import annotations

import argparse
import contextlib
import importlib
import logging
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot import metrics
from bot.clock import SystemClock
from bot.config import Config, instance_name
from bot.events import ChatKey
from bot.host import Recovery
from bot.leases import KEEP_ALIVE
from bot.manager import GameManager
from bot.outbox import Outbox
from bot.recording import StoreGameLog
from bot.registry import Registry, load_default
from bot.routing import Router
from bot.wire import InteractionCodec
from bot.workspace import Workspace
from games.common.protocol import GameInfo

if TYPE_CHECKING:
    from bot.delivery import Tap
    from bot.health import HealthServer
    from bot.runtime import Companion, Runtime
    from storage.base import Store

log = logging.getLogger(__name__)


class StartupError(Exception):
    """Why the bot cannot start, in one sentence."""


@dataclass
class Services:
    """What every adapter runs on."""

    registry: Registry
    workspace: Workspace
    game_log: StoreGameLog
    store: Store
    #: What each adapter does when the process is asked to stop (SIGTERM…), before it exits.
    on_stop: list[Callable[[], Awaitable[None]]] = field(default_factory=list)
    #: The process's HTTP server (probes, metrics): adapters add their readiness checks and
    #: routes to it. None where nothing serves HTTP (the terminal, some tests).
    http: HealthServer | None = None
    #: Seconds between renewals of this process's leases on its games.
    keep_alive: float = KEEP_ALIVE
    #: Front doors that show the games of every platform's chats (the web companion), attached
    #: to each platform's runtime as it is built (:meth:`bot.runtime.Runtime.build`).
    companions: list[Companion] = field(default_factory=list)

    def router(
        self,
        manager: GameManager,
        platform: str,
        *,
        codec: InteractionCodec | None = None,
        mine: Callable[[ChatKey], bool] = lambda chat: True,
    ) -> Router:
        """A router for ``manager``'s events between the processes sharing the database (put in
        front of it by the platform's :class:`~bot.runtime.Runtime`, started by :meth:`recover`
        once this process's own games are back)."""
        return Router(
            manager, self.store, self.game_log, platform, codec=codec, mine=mine, every=self.keep_alive
        )

    async def recover(
        self, manager: GameManager, platform: str, mine: Callable[[ChatKey], bool] = lambda chat: True
    ) -> Recovery:
        """Rebuild this process's unfinished games on ``platform`` (``mine`` picks e.g. a shard's)."""
        from bot.recording import load_lobbies, load_recently_ended, load_unannounced, load_unfinished
        from bot.recovery import REDELIVERY_WINDOW

        games = [
            (start, actions)
            for start, actions in await load_unfinished(self.store)
            if start.chat.platform == platform and mine(start.chat)
        ]
        lobbies = [
            lobby
            for lobby in await load_lobbies(self.store)
            if lobby.chat.platform == platform and mine(lobby.chat)
        ]
        ended = [
            (start, actions)
            for start, actions in await load_recently_ended(
                self.store, manager.clock.now() - REDELIVERY_WINDOW
            )
            if start.chat.platform == platform and mine(start.chat)
        ]
        recovery = await manager.recover(games, lobbies=lobbies, ended=ended)
        finished = [
            (start, actions)
            for start, actions in await load_unannounced(self.store)
            if start.chat.platform == platform and mine(start.chat)
        ]
        recovery.announced = await manager.announce_finished(finished)
        if manager.router is not None:
            await manager.router.start()
        metrics.recovered("resumed", len(recovery.resumed))
        metrics.recovered("voided", len(recovery.voided))
        metrics.recovered("lobbies", len(recovery.lobbies))
        metrics.recovered("announced", len(recovery.announced))
        if games or lobbies or finished:
            log.info(
                "restart: resumed %d game(s), voided %d, reopened %d lobby(ies), announced %d result(s)",
                len(recovery.resumed),
                len(recovery.voided),
                len(recovery.lobbies),
                len(recovery.announced),
            )
        return recovery


@asynccontextmanager
async def services(config: Config) -> AsyncIterator[Services]:
    """Open storage (applying migrations) and load the games."""
    from storage import StorageError, open_store

    store: Store | None = None
    try:
        store = open_store(config.database_url)
        store.lease_ttl = config.lease
        await store.open()
    except StorageError as exc:
        if store is not None:  # nothing half-open may outlive the event loop
            with contextlib.suppress(Exception):
                await store.close()
        raise StartupError(f"cannot open the database: {exc}") from None
    try:
        registry = load_default()
        if not len(registry):
            raise StartupError("no games are installed")
        game_log = StoreGameLog(store, owner=instance_name(config))
        log.info("this process is %r among those sharing the database", game_log.owner)
        yield Services(
            registry,
            Workspace(store, registry),
            game_log,
            store,
            keep_alive=min(KEEP_ALIVE, config.lease / 3),
        )
    finally:
        await store.close()


def make_manager(config: Config, svc: Services, outbox: Outbox, clock: SystemClock) -> GameManager:
    """A manager wired to the shared services."""
    return GameManager(
        svc.registry,
        outbox,
        svc.game_log,
        clock,
        workspace=svc.workspace,
        settle=config.settle,
        lobby_timeout=config.lobby_timeout,
        keep_alive=svc.keep_alive,
    )


async def migrate(config: Config) -> int:
    """``python -m bot migrate``."""
    from storage import StorageError, migrations, open_store

    store = open_store(config.database_url)
    try:
        # opening a store applies what is pending; `migrate` again finds nothing left
        await store.open()
        await store.migrate()
    except StorageError as exc:
        raise StartupError(f"cannot migrate the database: {exc}") from None
    finally:
        await store.close()
    latest = max((m.version for m in migrations.load()), default=0)
    print(f"Database is up to date: schema version {latest}.")
    return 0


async def purge(config: Config, platform: str, workspace_id: str, *, confirmed: bool) -> int:
    """``python -m bot purge --platform P --workspace W --yes``: delete a workspace's data."""
    from storage import StorageError, open_store

    where = f"{platform} workspace {workspace_id}"
    if not confirmed:
        print(f"This deletes everything moji keeps about {where}. Add --yes to do it.")
        return 1
    store = open_store(config.database_url)
    try:
        await store.open()
        if await store.workspace_owner(platform, workspace_id) is not None:
            print(f"A game or lobby is open in {where}: stop it first (or wait until it ends).")
            return 1
        with contextlib.suppress(ModuleNotFoundError):  # the platform's own tables (Slack's installations)
            importlib.import_module(f"{PLATFORMS[platform]}.store").attach(store)
        await store.purge_workspace(platform, workspace_id)
    except StorageError as exc:
        raise StartupError(f"cannot purge {where}: {exc}") from None
    finally:
        await store.close()
    print(f"Deleted everything moji kept about {where}.")
    return 0


#: ``python -m bot`` (mode ``run``) with no platform configured and no terminal to play in.
NOTHING_TO_RUN = (
    "no platform is configured, and there is no terminal to play in: set DISCORD_TOKEN (Discord), "
    "or SLACK_BOT_TOKEN with SLACK_APP_TOKEN or SLACK_SIGNING_SECRET (Slack), in the environment "
    "or .env (see .env.example); or run `python -m bot terminal` to play a local game from a pipe"
)
#: ``python -m bot`` (mode ``run``) with no platform configured, at a terminal.
LOCAL_GAME = "No Discord or Slack token is configured, so here is a local game. (See README: Configuration.)"
#: ``python -m bot terminal`` with nothing to read moves from.
NO_INPUT = (
    "the terminal game reads your moves from standard input, but it is /dev/null or closed: "
    "run it in a terminal, or pipe the moves in"
)


async def play_in_terminal(config: Config, args: argparse.Namespace) -> int:
    """A local game against computer players."""
    from adapters.terminal.app import TerminalAdapter, TerminalOutbox, stdin_lines
    from adapters.terminal.live import input_source, interactive, live_terminal, wants_colour

    source = input_source()
    if args.mode != "terminal" and source != "terminal":
        # a service started without its token (systemd, `docker run -d`): no one to play with
        raise StartupError(NOTHING_TO_RUN)
    if source == "none":
        raise StartupError(NO_INPUT)
    if args.mode != "terminal":
        print(LOCAL_GAME)

    if logging.getLogger().level > logging.DEBUG:
        logging.getLogger().setLevel(logging.WARNING)  # keep the game screen clean
    # colour on a terminal, unless NO_COLOR or TERM=dumb says otherwise (or --no-colour)
    colour = wants_colour() if args.colour is None else args.colour

    def write(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    clock = SystemClock(args.speed)
    async with services(config) as svc:
        info = svc.registry.find(args.game)
        if info is None:
            raise StartupError(
                f"there is no game called {args.game!r} (games: {', '.join(svc.registry.names())})"
            )
        options = list(args.options)
        names = {spec.name for spec in info.options}
        given = {token.split("=", 1)[0] for token in options}
        if "bots" in names and "bots" not in given:
            options.append(f"bots={args.bots}")
        if "level" in names and "level" not in given:
            options.append(f"level={args.level}")
        await _void_terminal_games(svc)

        async def play(outbox: TerminalOutbox, lines: AsyncIterator[str]) -> int:
            manager = make_manager(config, svc, outbox, clock)
            adapter = TerminalAdapter(manager, outbox, lines, write, game=info.name, options=options)
            manager.spawn(warm_up([info]), f"prepare {info.name}")  # during the 3… 2… 1… countdown
            async with terminal_pages(config, svc, clock, adapter.runtime, outbox.taps):
                try:
                    return await adapter.run()
                finally:
                    await manager.shutdown()

        if not interactive():  # a pipe, a file or TERM=dumb: plain lines
            return await play(TerminalOutbox(write, clock, colour=colour), stdin_lines())
        async with live_terminal(clock, colour=colour) as live:  # the table holds still
            return await play(TerminalOutbox(write, clock, colour=colour, live=live.table), live.lines)


async def play_in_browser(config: Config, args: argparse.Namespace) -> int:
    """``python -m bot web``: a MOJO game against computer players, in a browser, served on
    127.0.0.1:PORT (adapters/web/local.py)."""
    from adapters.web.local import serve_local

    clock = SystemClock(args.speed)
    async with services(config) as svc:
        info = svc.registry.find("board")
        if info is None:
            raise StartupError("the board game is not installed")
        options = list(args.options)
        given = {token.split("=", 1)[0] for token in options}
        if "bots" not in given:
            options.append(f"bots={max(1, args.bots)}")
        if "level" not in given:
            options.append(f"level={args.level}")
        # (the lobby prepares the computer players' words while the page opens)

        def announce(text: str) -> None:
            print(text, flush=True)

        try:
            return await serve_local(
                svc.registry,
                svc.game_log,
                svc.store.web_links,
                clock,
                workspace=svc.workspace,
                host="127.0.0.1",
                port=config.port,
                options=options,
                announce=announce,
            )
        except OSError as exc:
            raise StartupError(
                f"cannot listen on 127.0.0.1:{config.port} ({exc.strerror or exc}): set PORT to a free port"
            ) from None


@asynccontextmanager
async def terminal_pages(
    config: Config, svc: Services, clock: SystemClock, runtime: Runtime, taps: list[Tap]
) -> AsyncIterator[None]:
    """With ``PUBLIC_URL`` set, a terminal game's board also has its page: served on HOST:PORT,
    its link printed under the player's rack (docs/WEB.md); without it, nothing."""
    if not config.public_url:
        yield
        return
    from aiohttp import web

    from adapters.web.companion import WebCompanion
    from adapters.web.links import Links
    from adapters.web.server import WebServer

    companion = WebCompanion(Links(svc.store.web_links, clock, config.public_url))
    companion.attach(runtime, taps)
    runner = web.AppRunner(WebServer(companion, clock, config.public_url).app(), access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, config.host, config.port).start()
    except OSError as exc:
        log.warning("the board's page is off: cannot listen on %s:%d (%s)", config.host, config.port, exc)
    try:
        yield
    finally:
        await runner.cleanup()


async def warm_up(games: Iterable[GameInfo]) -> None:
    """Run each game's ``prepare`` in a worker thread, one after another (see GameInfo)."""
    for info in games:
        started = time.monotonic()
        try:
            await in_daemon_thread(info.prepare, "en", {})  # the default options
        except Exception:
            log.exception("preparing %s failed; its first game will do the work instead", info.name)
        else:
            log.info("%s prepared in %.1f s", info.name, time.monotonic() - started)


async def in_daemon_thread(work: Callable[..., object], *args: object) -> object:
    """``work(*args)`` in a thread of its own that never holds the process up at exit.

    A game's preparation builds tables in memory for seconds (tens on a busy machine); in
    asyncio's default executor a stop signal arriving meanwhile would wait for it after the
    bot has said "stopped" — past a container's grace period, into a SIGKILL.
    """
    import asyncio
    import threading

    loop = asyncio.get_running_loop()
    done: asyncio.Future[object] = loop.create_future()

    def settle(result: object, error: BaseException | None) -> None:
        if done.cancelled():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)

    def run() -> None:
        try:
            result = work(*args)
        except BaseException as exc:  # (handed to the awaiting task)
            error: BaseException | None = exc
            result = None
        else:
            error = None
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name=f"moji {getattr(work, '__name__', 'work')}", daemon=True).start()
    return await done


async def _void_terminal_games(svc: Services) -> None:
    """A terminal game left unfinished (the window was closed) never counts."""
    from bot.recording import load_lobbies, load_unfinished

    for start, _ in await load_unfinished(svc.store):
        if start.chat.platform == "terminal":
            await svc.game_log.void(start.game_id, "the terminal was closed mid-game")
    for lobby in await load_lobbies(svc.store):
        if lobby.chat.platform == "terminal":
            await svc.game_log.lobby_closed(lobby.game_id)


PLATFORMS = {"discord": "adapters.discord", "slack": "adapters.slack"}


async def serve(config: Config) -> int:
    """Run every configured platform until stopped."""
    runners = []
    for platform in config.platforms:
        try:
            module = importlib.import_module(PLATFORMS[platform])
        except ModuleNotFoundError:
            raise StartupError(
                f"{platform.title()} is configured, but this build of moji has no {platform} adapter yet"
            ) from None
        runners.append(module)
    async with services(config) as svc, http_server(config, svc):
        import asyncio

        clock = SystemClock()
        web_companion(config, svc, clock)
        warming = asyncio.create_task(warm_up(svc.registry), name="prepare games")
        stop = asyncio.Event()
        _on_signals(stop.set)
        running = asyncio.ensure_future(
            asyncio.gather(*(module.serve(config, svc, clock) for module in runners))
        )
        stopping = asyncio.ensure_future(stop.wait())
        try:
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if running.done():
                running.result()  # a platform's own error (a bad token…) ends the process
                return 0
            log.info("stopping: letting the games wind down")
            if svc.http is not None:
                svc.http.fail("process", "stopping")  # load balancers: no new work here
            try:
                await asyncio.wait_for(
                    asyncio.gather(*(hook() for hook in svc.on_stop), return_exceptions=True), STOP_GRACE
                )
            except TimeoutError:
                log.warning("stopping: the games did not wind down within %g s", STOP_GRACE)
            running.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await running
        finally:
            stopping.cancel()
            warming.cancel()
    log.info("stopped")
    return 0


def web_companion(config: Config, svc: Services, clock: SystemClock) -> None:
    """The web companion (docs/WEB.md): with ``PUBLIC_URL``, every platform's board games get
    pages, served on the process's HTTP server; without it, players are told how to turn it on."""
    from adapters.web.wiring import companion_for

    svc.companions.append(companion_for(config.public_url, svc.store.web_links, clock, svc.http))


#: Seconds a stopping process gives its games to wind down (settle windows, last messages).
STOP_GRACE = 8.0


@asynccontextmanager
async def http_server(config: Config, svc: Services) -> AsyncIterator[HealthServer]:
    """The process's one HTTP server on ``HOST:PORT`` (``/healthz``, ``/readyz``, ``/metrics``).

    Ready once the database answers and every configured platform says it is connected
    (each adapter replaces its "starting" check with its own); Slack's HTTP mode adds its
    routes to it.
    """
    from bot.health import HealthServer

    server = HealthServer(config.host, config.port)
    server.watch_database(svc.store)
    for platform in config.platforms:
        server.expect(platform)
    try:
        await server.start()
    except OSError as exc:
        raise StartupError(
            f"cannot listen on {config.host}:{config.port} ({exc.strerror or exc}): "
            "set HOST and PORT to a free address"
        ) from None
    svc.http = server
    try:
        yield server
    finally:
        svc.http = None
        await server.stop()


def _on_signals(stop: Callable[[], None]) -> None:
    """SIGTERM, SIGINT and SIGHUP stop the process gracefully (also as PID 1 in a container)."""
    import asyncio
    import signal

    loop = asyncio.get_running_loop()
    for name in ("SIGTERM", "SIGINT", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is None:
            continue
        # no handler where the platform cannot add one (Windows' loop: NotImplementedError; not
        # the main thread: RuntimeError or ValueError): the default stop applies there
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(number, stop)
