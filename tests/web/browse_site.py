"""A workspace to browse, for tests: the local web platform's runtime on a real SQLite database
(its games recorded by the store's game log, as in a serving process), the game pages and the
browsing pages served together by a real aiohttp server, and an admin who types in its chat."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer

from adapters.web.browse import BrowseServer
from adapters.web.local import LocalTable
from bot.core import views
from bot.core.clock import Clock
from bot.core.events import ChatKey, Command, Outbound, Player, Post, Private
from bot.core.registry import Registry, load_default
from bot.features.workspace import BROWSE_LINK, Workspace
from bot.sessions.gamelog import StoreGameLog
from games.board.player import choose
from storage.sqlite import SQLiteStore

CHAT = ChatKey("web", "W1", "C1")
ANN = Player("web", "ann", "Ann")
BOB = Player("web", "bob", "Bob")
#: The local web platform's admin (``adapters.web.local.WebPlatform``).
ADMIN = Player("web", "you", "Admin", is_admin=True)
#: The seed of the site's deals.
SEED = 1


@dataclass
class Site:
    """A workspace's chat and its pages."""

    table: LocalTable
    store: SQLiteStore
    workspace: Workspace
    browse: BrowseServer
    server: TestServer
    url: str
    said: list[views.View] = field(default_factory=list)
    #: The moves played by :meth:`play_a_game` (notation).
    moves: list[str] = field(default_factory=list)

    async def say(self, who: Player, name: str, *args: str) -> views.View:
        """Type a command in the chat; moji's answer."""
        before = len(self.said)
        await self.table.runtime.ingest(Command(name, args, CHAT, who))
        assert len(self.said) > before, f"no answer to {name} {' '.join(args)}"
        return self.said[-1]

    def client(self) -> TestClient:
        return TestClient(self.server)

    async def play_a_game(self) -> str:
        """Ann and Bob play MOJO from the racks they were dealt (each plays the best word a hard
        computer player would find), then the first resigns. The game's id.

        The deals come from the site's seeded manager (:func:`browse_site`), so both moves place
        tiles every run: a random deal with no word on a rack would make a move a swap, and the
        replay tests step through placed words."""
        ended = asyncio.Event()
        self.table.closed.append(lambda chat: ended.set() if chat == CHAT else None)
        await self.table.start([ANN, BOB], "board", ("bots=0",), chat=CHAT)
        session = self.table.runtime.session(CHAT)
        assert session is not None
        game_id = session.game_id
        engine: Any = session.engine
        for _ in range(2):
            active = next(s for s in session.snapshot(None).seats if s.active)
            who = ANN if active.seat == ANN.seat_id else BOB
            rules = engine._rules_for_bots()
            move = choose(engine.board, engine.racks[who.seat_id], engine.check, "hard", Random(1), rules)
            assert not move.startswith(("swap", "pass")), f"the seeded deal made no word: {move}"
            self.moves.append(move)
            await self.table.runtime.ingest(Command("play", tuple(move.split()), CHAT, who))
        active = next(s for s in session.snapshot(None).seats if s.active)
        loser = ANN if active.seat == ANN.seat_id else BOB
        await self.table.runtime.ingest(Command("play", ("resign",), CHAT, loser))
        await ended.wait()
        assert await self.store.game_status(game_id) == "finished"
        return game_id


def link_of(view: views.View) -> str | None:
    """The browsing link button's address in ``view``, if it has one."""
    return next((b.url for b in view.buttons if b.action == BROWSE_LINK), None)


@asynccontextmanager
async def browse_site(
    tmp_path: Path, clock: Clock, *, port: int = 0, registry: Registry | None = None
) -> AsyncIterator[Site]:
    """A workspace whose chat is the local web platform's, its pages served on 127.0.0.1
    (``registry``: its games; every installed one by default)."""
    store = SQLiteStore(tmp_path / "browse.db")
    await store.open()
    registry = registry or load_default()
    workspace = Workspace(store, registry)
    table = LocalTable(
        registry, StoreGameLog(store), store.web_links, clock, "http://127.0.0.1", workspace=workspace
    )
    # the deals, the same every run (play_a_game's moves place tiles; see there)
    table.runtime.manager.rng = Random(SEED)
    browse = BrowseServer(store, registry, clock)
    app: web.Application = table.app()
    browse.add_routes(app)
    server = TestServer(app, host="127.0.0.1", port=port or None)
    await server.start_server()
    url = f"http://127.0.0.1:{server.port}"
    table.public_url(url)
    workspace.web_url = url
    site = Site(table, store, workspace, browse, server, url)

    async def keep(message: Outbound) -> Outbound | None:
        if isinstance(message, Post | Private):
            site.said.append(message.view)
        return message

    table.outbox.taps.append(keep)
    try:
        yield site
    finally:
        await table.close()
        await server.close()
        await store.close()
