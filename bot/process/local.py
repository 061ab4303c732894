"""The local games: ``python -m bot terminal`` (or ``run`` with no platform configured, at a
terminal) plays one game against computer players in this terminal; ``python -m bot web``
plays MOJO (or paths, shed, dice) against them in a browser, on 127.0.0.1.

The process's other modes are wired in :mod:`bot.process.app`; this module is the one place that
starts the terminal front door (:mod:`adapters.terminal`) and the local web pages
(:mod:`adapters.web.local`).
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

from bot.core.clock import SystemClock
from bot.hosting.preparing import prepare_at_start
from bot.process.app import Services, StartupError, make_manager, services, stop_on_signals
from bot.process.config import Config

if TYPE_CHECKING:
    from bot.delivery.delivery import Tap
    from bot.inbound.runtime import Runtime

log = logging.getLogger(__name__)

#: ``python -m bot`` (mode ``run``) with no platform configured and no terminal to play in.
NOTHING_TO_RUN = (
    "no platform is configured, and there is no terminal to play in: set DISCORD_TOKEN (Discord), "
    "or SLACK_BOT_TOKEN with SLACK_APP_TOKEN or SLACK_SIGNING_SECRET (Slack), in the environment "
    "or .env (see .env.example); or run `python -m bot terminal` to play a local game from a pipe"
)
#: ``python -m bot terminal`` with nothing to read moves from.
NO_INPUT = (
    "the terminal game reads your moves from standard input, but it is /dev/null or closed: "
    "run it in a terminal, or pipe the moves in"
)


async def play_in_terminal(config: Config, args: argparse.Namespace) -> int:
    """A local game against computer players."""
    from adapters.terminal.app import DAILY, TerminalAdapter, TerminalOutbox, local_game_banner, stdin_lines
    from adapters.terminal.live import input_source, interactive, live_terminal, wants_colour

    source = input_source()
    if args.mode != "terminal" and source != "terminal":
        # a service started without its token (systemd, `docker run -d`): no one to play with
        raise StartupError(NOTHING_TO_RUN)
    if source == "none":
        raise StartupError(NO_INPUT)
    if args.mode != "terminal":
        print(local_game_banner())  # (in the system's language)

    if logging.getLogger().level > logging.DEBUG:
        logging.getLogger().setLevel(logging.WARNING)  # keep the game screen clean
    # colour on a terminal, unless NO_COLOR or TERM=dumb says otherwise (or --no-colour)
    colour = wants_colour() if args.colour is None else args.colour

    def write(text: str) -> None:
        sys.stdout.write(text)
        sys.stdout.flush()

    clock = SystemClock(args.speed)
    async with services(config) as svc:
        game = args.game or "race"
        info = svc.registry.find(game)
        if info is None:
            raise StartupError(f"there is no game called {game!r} (games: {', '.join(svc.registry.names())})")
        options = list(args.options)
        names = {spec.name for spec in info.options}
        given = {token.split("=", 1)[0] for token in options}
        if "bots" in names and "bots" not in given:
            options.append(f"bots={args.bots}")
        if "level" in names and "level" not in given:
            options.append(f"level={args.level}")
        await _void_local_games(svc, "terminal", "the terminal was closed mid-game")

        async def play(outbox: TerminalOutbox, lines: AsyncIterator[str]) -> int:
            manager = make_manager(config, svc, outbox, clock)
            game = DAILY if getattr(args, "daily", False) else info.name
            adapter = TerminalAdapter(manager, outbox, lines, write, game=game, options=options)
            manager.spawn(prepare_at_start([info]), f"prepare {info.name}")  # during the 3… 2… 1… countdown
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
    """``python -m bot web [--game GAME]``: a game against computer players in a browser, served
    on 127.0.0.1:PORT (adapters/web/local.py): any game with a page of its own
    (:attr:`GameInfo.page <games.common.protocol.GameInfo.page>`), the first of them unless
    ``--game`` says."""
    from adapters.web.local import serve_local

    clock = SystemClock(args.speed)
    async with services(config) as svc:
        paged = [info.name for info in svc.registry if info.page is not None]
        game = args.game or paged[0]
        info = svc.registry.find(game)
        if info is None or info.page is None:
            raise StartupError(f"{game!r} has no page to play in a browser (games: {', '.join(paged)})")
        options = list(args.options)
        names = {spec.name for spec in info.options}
        given = {token.split("=", 1)[0] for token in options}
        if "bots" not in given:
            options.append(f"bots={max(1, args.bots)}")
        if "level" in names and "level" not in given:
            options.append(f"level={args.level}")
        # (the lobby prepares the computer players' words while the page opens)

        def announce(text: str) -> None:
            print(text, flush=True)

        # the last run's game, left when it was stopped, frees the table
        await _void_local_games(svc, "web", "the local game was stopped mid-game")
        # Ctrl-C and SIGTERM stop it however it was started (a shell's background job or a test
        # harness starts it with SIGINT ignored, which Python would keep)
        stop = asyncio.Event()
        stop_on_signals(stop.set)
        try:
            status = await serve_local(
                svc.registry,
                svc.game_log,
                svc.store.web_links,
                clock,
                workspace=svc.workspace,
                host="127.0.0.1",
                port=config.port,
                options=options,
                game=game,
                announce=announce,
                stop=stop,
            )
            print("\nBye!", flush=True)
            return status
        except OSError as exc:
            raise StartupError(
                f"cannot listen on 127.0.0.1:{config.port} ({exc.strerror or exc}): set PORT to a free port"
            ) from None


@asynccontextmanager
async def terminal_pages(
    config: Config, svc: Services, clock: SystemClock, runtime: Runtime, taps: list[Tap]
) -> AsyncIterator[None]:
    """With ``PUBLIC_URL`` set, a terminal game with a page also has it: served on HOST:PORT,
    its link printed under the player's rack (docs/WEB.md), and so do the terminal workspace's
    leaderboards, players and replays once `config web on`; without it, nothing."""
    if not config.public_url:
        yield
        return
    from aiohttp import web

    from adapters.web.browse import BrowseServer
    from adapters.web.companion import WebCompanion
    from adapters.web.links import Links
    from adapters.web.server import WebServer

    companion = WebCompanion(Links(svc.store.web_links, clock, config.public_url))
    companion.attach(runtime, taps)
    app = WebServer(companion, clock, config.public_url).app()
    BrowseServer(svc.store, svc.registry, clock).add_routes(app)  # (the workspace's pages: `config web on`)
    svc.workspace.web_url = config.public_url
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, config.host, config.port).start()
    except OSError as exc:
        log.warning("the game's page is off: cannot listen on %s:%d (%s)", config.host, config.port, exc)
    try:
        yield
    finally:
        await runner.cleanup()


async def _void_local_games(svc: Services, platform: str, reason: str) -> None:
    """A local game left unfinished (the window was closed, Ctrl-C) never counts, and leaves its
    table free for the next one."""
    from bot.sessions.gamelog import load_lobbies, load_unfinished

    for start, _ in await load_unfinished(svc.store):
        if start.chat.platform == platform:
            await svc.game_log.void(start.game_id, reason)
    for lobby in await load_lobbies(svc.store):
        if lobby.chat.platform == platform:
            await svc.game_log.lobby_closed(lobby.game_id)
