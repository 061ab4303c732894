"""``python -m bot web``: a game of MOJO (or ``--game paths|shed|dice``) against computer players,
in a browser, on 127.0.0.1.

The local table is a chat of its own little platform (``web``), with no chat to post in: its
only window is the page. It runs on the same runtime as every platform (the page's moves enter
:meth:`~bot.inbound.runtime.Runtime.ingest` as a typed move would), so what works here works for a game
of Discord, Slack or the terminal seen from a page.
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Callable, Sequence

from aiohttp import web

from adapters.terminal.app import system_language
from adapters.web.companion import WebCompanion
from adapters.web.links import Links
from adapters.web.server import WebServer
from bot.core.clock import Clock
from bot.core.events import ChatKey, Command, MessageRef, Outbound, Player, Post, Private
from bot.core.outbox import GameLog
from bot.core.platform import Capabilities
from bot.core.registry import Registry
from bot.delivery.delivery import Tap
from bot.features.workspace import Workspace
from bot.inbound.builder import build_local
from bot.inbound.wiring import FrontDoor
from games.common.speech import _, speaking
from storage.weblinks import WebLinkStore

log = logging.getLogger(__name__)

CHAT = ChatKey("web", "local", "table")
YOU = Player("web", "you", "You", is_admin=True)


class WebPlatform:
    """The local web table as the runtime sees it: buttons and private replies on the page,
    nothing crossing to another process, and whoever runs it an admin of their own table."""

    name = "web"
    capabilities = Capabilities(ephemeral=True, threads=False, buttons=True, timestamp_precision=0.001)
    codec = None

    def may_adopt(self, chat: ChatKey) -> bool:
        """A local table is never carried on by another process."""
        return False

    async def is_admin(
        self, player: Player, chat: ChatKey, *, interaction: object | None = None, fresh: bool = False
    ) -> bool:
        """The person at the local table runs it."""
        return player.user_id == YOU.user_id


class PageOutbox:
    """The local table's outbox: no chat to post in, so every message goes to the pages' taps
    (a private reply owed to a page is answered there; the rest wakes the pages)."""

    def __init__(self) -> None:
        self.taps: list[Tap] = []
        self._ids = itertools.count(1)
        #: The last messages that no page answered (printed by ``python -m bot web``).
        self.notes: list[str] = []

    async def send(self, message: Outbound) -> MessageRef | None:
        """Show ``message`` to the taps; a post gets a reference as a chat's would."""
        for tap in self.taps:
            shown = await tap(message)
            if shown is None:
                return None
            message = shown
        if isinstance(message, Private) and message.view.kind == "error":
            self.notes.append(message.view.plain())
        if isinstance(message, Post):
            ref = MessageRef(message.chat, f"w{next(self._ids)}")
            if message.receipt is not None:
                message.receipt(ref)
            return ref
        return None


class LocalTable:
    """A web platform's game table: its core, companion and server, wired once."""

    def __init__(
        self,
        registry: Registry,
        game_log: GameLog,
        links: WebLinkStore,
        clock: Clock,
        public_url: str,
        *,
        workspace: Workspace | None = None,
        settle: float = 0.15,
        lobby_timeout: float = 600.0,
    ) -> None:
        self.outbox = PageOutbox()
        #: Called with the chat whenever one of its games ends.
        self.closed: list[Callable[[ChatKey], None]] = []
        self.runtime = build_local(
            WebPlatform(),
            self.outbox,
            registry,
            game_log,
            clock,
            workspace=workspace,
            settle=settle,
            lobby_timeout=lobby_timeout,
            door=FrontDoor(on_closed=(self._closed,)),
        )
        self.companion = WebCompanion(Links(links, clock, public_url))
        self.companion.attach(self.runtime, self.outbox.taps)
        self.server = WebServer(self.companion, clock, public_url)

    def app(self) -> web.Application:
        """The pages' application."""
        return self.server.app()

    async def start(
        self, players: Sequence[Player], game: str, options: Sequence[str], chat: ChatKey = CHAT
    ) -> None:
        """Open ``game`` in ``chat`` with ``players`` (the first hosts) and start it."""
        host, *others = players
        await self.runtime.ingest(Command("start", (game, *options), chat, host))
        for player in others:
            await self.runtime.ingest(Command("join", (), chat, player))
        await self.runtime.ingest(Command("go", (), chat, host))
        if not self.runtime.runs(chat):
            raise RuntimeError(" ".join(self.outbox.notes) or f"the {game} game did not start")

    def public_url(self, url: str) -> None:
        """Links and origin checks use ``url`` from now on (once the server's port is known)."""
        self.companion.links.public_url = url.rstrip("/")
        self.server.public_url(url)

    def _closed(self, chat: ChatKey) -> None:
        for listener in self.closed:
            listener(chat)

    async def close(self) -> None:
        """Stop every game's tasks."""
        await self.runtime.close()


async def serve_local(
    registry: Registry,
    game_log: GameLog,
    links: WebLinkStore,
    clock: Clock,
    *,
    workspace: Workspace | None,
    host: str,
    port: int,
    options: Sequence[str],
    announce: Callable[[str], None],
    game: str,
    stop: asyncio.Event | None = None,
) -> int:
    """Serve a local game of ``game`` on ``host:port`` until ``stop`` is set (or the task is
    cancelled: Ctrl-C); ``announce`` is told each game's link. Returns the exit status (0)."""
    table = LocalTable(registry, game_log, links, clock, f"http://127.0.0.1:{port}", workspace=workspace)
    runner = web.AppRunner(table.app(), access_log=None)
    try:
        await runner.setup()
        await web.TCPSite(runner, host, port).start()
        bound = runner.addresses[0][1] if runner.addresses else port  # (PORT=0: the system chose)
        table.public_url(f"http://127.0.0.1:{bound}")
        ended = asyncio.Event()
        table.closed.append(lambda chat: ended.set() if chat == CHAT else None)
        first = True
        while True:  # one game after another, until Ctrl-C
            ended.clear()
            await table.start([YOU], game, options)
            link = await table.companion.link(CHAT, YOU)
            session = table.runtime.session(CHAT)
            title = session.info.title if session is not None else game
            with speaking(system_language()):  # (the console is its one person's: docs/LANGUAGES.md)
                if first:
                    ready = _("Your {game} game is ready: open {link}", game=_(title), link=link)
                else:
                    ready = _("Game over. A new game is ready: open {link}", link=link)
                announce(ready + "\n" + _("(Press Ctrl-C to stop.)"))
            first = False
            if await _either(ended, stop) is stop:
                return 0
    finally:
        await table.close()
        await runner.cleanup()


async def _either(first: asyncio.Event, second: asyncio.Event | None) -> asyncio.Event:
    """Whichever of two events is set first (``first`` when ``second`` is None)."""
    waits = {asyncio.ensure_future(e.wait()): e for e in (first, second) if e is not None}
    try:
        done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for wait in waits:
            wait.cancel()
    return waits[next(iter(done))]
