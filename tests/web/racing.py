"""A race (or any game) of a chat with its watchers' pages: a real aiohttp server, links in a real
SQLite database, the game played through the chat's runtime as typed words (the manager judges
them as it judges chat). Shared by the watch tests over HTTP and in Chromium."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp import ClientResponse
from aiohttp.test_utils import TestClient, TestServer

from adapters.web.local import LocalTable
from bot.core.clock import FakeClock
from bot.core.events import Outbound, Player, Text
from bot.core.registry import load_default
from bot.sessions.session import Session
from games.common.text import plain
from storage.sqlite import SQLiteStore
from tests.doubles import MemoryLog
from tests.web.helpers import ANN, BOB, CHAT


@dataclass
class Game:
    """A running game of Ann and Bob, and its pages' server."""

    table: LocalTable
    clock: FakeClock
    server: TestServer
    url: str

    @property
    def session(self) -> Session:
        session = self.table.runtime.session(CHAT)
        assert session is not None
        return session

    async def watch_link(self) -> str:
        """The game's watch link, as `watch` in chat or the table's button gives it."""
        link = await self.table.companion.watch_link(CHAT)
        assert link is not None
        return link

    async def watcher(self) -> tuple[TestClient, str]:
        """A watcher's HTTP client with its session open, and the game's id."""
        game, token = (await self.watch_link()).split("/g/", 1)[1].split("#", 1)
        client = TestClient(self.server)
        await client.start_server()
        opened = await client.post(f"/g/{game}/session", json={"token": token}, headers={"Origin": self.url})
        assert opened.status == 200, await opened.text()
        return client, game

    async def take(self, player: Player) -> str:
        """``player`` types a word the face-up cards make (the game's own example); the take's
        announcement is returned (as the page shows it: plain text) once the game has judged it."""
        engine: Any = self.session.engine
        word = engine._example()
        for _ in range(60):  # (a random deal: the next flips, on the game's clock, until one shows)
            if word:
                break
            await self.clock.advance(1.0)
            word = engine._example()
        assert word, "the face-up cards make a word"
        await self.table.runtime.ingest(Text(CHAT, player, word, self.clock.now()))
        await self.clock.advance(1.0)  # the tie window closes: the take is judged
        lines = self.table.companion.moves.get(CHAT, [])
        assert lines and word.upper() in lines[-1], lines
        return plain(lines[-1])


@asynccontextmanager
async def game_table(
    tmp_path: Path,
    game: str = "race",
    options: Sequence[str] = ("bots=0",),
    *,
    seen: list[Outbound] | None = None,
) -> AsyncIterator[Game]:
    """``game`` of Ann and Bob in ``CHAT``, its pages served on 127.0.0.1 (``seen``: every
    message from the lobby on, as the platform would get it)."""
    clock = FakeClock(1_000_000.0)
    store = SQLiteStore(tmp_path / "watch.db")
    await store.open()
    table = LocalTable(load_default(), MemoryLog(), store.web_links, clock, "http://127.0.0.1")
    server = TestServer(table.app(), host="127.0.0.1")
    await server.start_server()
    url = f"http://127.0.0.1:{server.port}"
    table.public_url(url)
    if seen is not None:

        async def tap(message: Outbound) -> Outbound:
            seen.append(message)
            return message

        table.outbox.taps.append(tap)
    try:
        await table.start([ANN, BOB], game, options, chat=CHAT)
        yield Game(table, clock, server, url)
    finally:
        await table.close()
        await server.close()
        await store.close()


class Channel:
    """A watcher's live channel, read event by event."""

    def __init__(self, response: ClientResponse) -> None:
        self.response = response

    async def next(self) -> tuple[str, dict[str, Any]]:
        """The next event's name and data."""
        name = ""
        while True:
            line = (await self.response.content.readline()).decode()
            if not line:
                raise EOFError("the live channel closed")
            if line.startswith("event: "):
                name = line[7:].strip()
            elif line.startswith("data: "):
                return name, json.loads(line[6:])
