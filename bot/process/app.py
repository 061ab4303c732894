"""Wiring: settings → storage → games → manager → adapters.

The services every adapter runs on (:class:`Services`, :func:`services`), the platforms'
process (:func:`serve`, with its HTTP server) and the one-shot modes ``migrate`` and ``purge``.
The local terminal game is :mod:`bot.process.local`;
preparing the games at start-up, :func:`bot.hosting.preparing.prepare_at_start`.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.core import metrics
from bot.core.clock import SystemClock
from bot.core.events import ChatKey
from bot.core.outbox import Outbox
from bot.core.registry import Registry, load_default
from bot.core.wire import InteractionCodec
from bot.features.workspace import Workspace
from bot.hosting.host import Recovery
from bot.hosting.leases import KEEP_ALIVE
from bot.hosting.manager import GameManager
from bot.hosting.preparing import prepare_at_start
from bot.inbound.routing import Router
from bot.process.config import Config, instance_name
from bot.sessions.gamelog import StoreGameLog
from games.common.protocol import GameInfo

if TYPE_CHECKING:
    from bot.inbound.builder import Companion
    from bot.process.health import HealthServer
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
    #: to each platform's runtime as it is built (:func:`bot.inbound.builder.build`).
    companions: list[Companion] = field(default_factory=list)
    #: The key of the daily's deal (``Config.daily_secret``: docs/DAILY.md).
    daily_secret: bytes = b""
    #: Games not prepared at start-up (PREPARE_AT_START): their first lobby prepares them.
    later: tuple[GameInfo, ...] = ()

    def router(
        self,
        manager: GameManager,
        platform: str,
        *,
        codec: InteractionCodec | None = None,
        mine: Callable[[ChatKey], bool] = lambda chat: True,
    ) -> Router:
        """A router for ``manager``'s events between the processes sharing the database (put in
        front of it by the platform's :class:`~bot.inbound.runtime.Runtime`, started by :meth:`recover`
        once this process's own games are back)."""
        return Router(
            manager, self.store, self.game_log, platform, codec=codec, mine=mine, every=self.keep_alive
        )

    async def recover(
        self, manager: GameManager, platform: str, mine: Callable[[ChatKey], bool] = lambda chat: True
    ) -> Recovery:
        """Rebuild this process's unfinished games on ``platform`` (``mine`` picks e.g. a shard's)."""
        from bot.hosting.recovery import REDELIVERY_WINDOW
        from bot.sessions.gamelog import load_lobbies, load_recently_ended, load_unannounced, load_unfinished

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
        recovery.announced = await manager.recovery.announce_finished(finished)
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


def prepared_later(registry: Registry, at_start: tuple[str, ...] | None) -> tuple[GameInfo, ...]:
    """The games PREPARE_AT_START leaves out (None: none is left out); an unknown name is a
    :class:`StartupError`."""
    if at_start is None:
        return ()
    named = []
    for name in at_start:
        info = registry.find(name)
        if info is None:
            raise StartupError(
                f"PREPARE_AT_START names {name!r}, which is not a game here "
                f"(games: {', '.join(registry.names())}; or all, or none)"
            )
        named.append(info)
    return tuple(info for info in registry if info not in named)


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
            daily_secret=config.daily_secret,
            later=prepared_later(registry, config.prepare_at_start),
        )
    finally:
        await store.close()


def make_manager(config: Config, svc: Services, outbox: Outbox, clock: SystemClock) -> GameManager:
    """A manager wired to the shared services."""
    manager = GameManager(
        svc.registry,
        outbox,
        svc.game_log,
        clock,
        workspace=svc.workspace,
        settle=config.settle,
        lobby_timeout=config.lobby_timeout,
        keep_alive=svc.keep_alive,
    )
    manager.dailies.secret = svc.daily_secret
    return manager


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
        warming = asyncio.create_task(
            prepare_at_start(info for info in svc.registry if info not in svc.later), name="prepare games"
        )
        stop = asyncio.Event()
        stop_on_signals(stop.set)
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
    pages, served on the process's HTTP server, and so do the workspaces that turned their web on
    (leaderboards, players, replays); without it, players are told how to turn it on."""
    from adapters.web.browse import browse_for
    from adapters.web.proxy import PageProxy, internal_url
    from adapters.web.wiring import companion_for

    proxy = None
    if config.public_url and svc.http is not None:  # (pages of other processes' games: passed on)
        url = internal_url(config.web_internal_url, config.host, svc.http.port)
        proxy = PageProxy(svc.store, svc.game_log.owner, clock, url, guard=svc.http.guard)
        svc.on_stop.append(proxy.close)
    svc.companions.append(companion_for(config.public_url, svc.store.web_links, clock, svc.http, proxy=proxy))
    browse_for(config.public_url, svc.store, svc.registry, svc.workspace, clock, svc.http)


#: Seconds a stopping process gives its games to wind down (settle windows, last messages).
STOP_GRACE = 8.0


@asynccontextmanager
async def http_server(config: Config, svc: Services) -> AsyncIterator[HealthServer]:
    """The process's one HTTP server on ``HOST:PORT`` (``/healthz``, ``/readyz``, ``/metrics``).

    Ready once the database answers and every configured platform says it is connected
    (each adapter replaces its "starting" check with its own); Slack's HTTP mode adds its
    routes to it.
    """
    from bot.process.health import HealthServer
    from bot.process.httpguard import Limits

    server = HealthServer(
        config.host,
        config.port,
        limits=Limits(per_peer=config.http_per_address, trusted=config.trusted_proxies),
    )
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


def stop_on_signals(stop: Callable[[], None]) -> None:
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
