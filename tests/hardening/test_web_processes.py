"""A game's page on two ``python -m bot`` processes sharing one PostgreSQL ("several
processes"): the page reaches the process that runs its game, whichever process it is served by.

Two real bot processes on the fake Discord (the harness of test_processes_discord.py), each with
PUBLIC_URL and its own HTTP server on 127.0.0.1. Ann and Bob play MOJO in a thread; ``p0``
runs the game. ``p1`` starts later (so the fake gives it the guild's events: it forwards the
thread's moves to ``p0``), and every page request goes to ``p1``, the non-owner:

* the page shows the game (the player's own rack, rendered by ``p0``);
* a move made on the page is played (it shows in the thread);
* the page's live channel follows a move typed in chat;
* after ``p0``'s kill -9, ``p1`` adopts the game and the live channel, reconnecting as a
  browser's EventSource does (``retry``), follows the game there: a move typed in chat and one
  made on the page.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import pytest

from adapters.web.server import COOKIE
from storage.postgres import PostgresStore
from storage.weblinks import Grant, digest
from tests.adapters.discord.fakediscord import CHANNEL_ID, GUILD_ID
from tests.hardening.botprocess import BotProcess, free_port
from tests.hardening.test_processes_discord import (
    ADOPT_WITHIN,
    Cluster,
    cluster,  # noqa: F401 (the fixture)
    pytestmark,
    until,
)
from tests.web.helpers import shown

__all__ = ["pytestmark"]  # (PostgreSQL and POSIX signals; one worker: tests/conftest.py)

ANN = ("100000000000000001", "Ann")
BOB = ("100000000000000002", "Bob")
SITE = "http://moji.test"  # (PUBLIC_URL: the same on both processes, as behind one address)


async def up(world: Cluster, proc: BotProcess) -> None:
    """Start ``proc`` and wait until it routes events and has prepared MOJO, the one game it is
    told to prepare at start (PREPARE_AT_START): that is worker threads that hold the interpreter
    for seconds on a busy machine, and the test counts on quick answers after it."""
    await world.up(proc)
    await proc.logged(r"board prepared in|preparing board failed", within=300)
    assert "race prepared in" not in proc.output(), "(the race comes first: it was left out)"


async def link(world: Cluster, who: tuple[str, str], game: dict[str, Any]) -> str:
    """A fresh link's secret to ``who``'s page of ``game`` (as a My rack note would carry)."""
    store = PostgresStore(world.url)
    await store.open()
    try:
        secret = secrets.token_urlsafe(32)
        grant = Grant(
            "discord", GUILD_ID, game["channel_id"], game["thread_key"] or None, game["game_id"], who[0]
        )
        now = time.time()
        await store.web_links.add_link(digest(secret), grant, now + 3600, now)
        return secret
    finally:
        await store.close()


class Page:
    """A browser's page on one process: its session cookie, its requests, and its live channel,
    which reconnects as an EventSource does (after the server's ``retry``) whenever it ends."""

    def __init__(self, http: aiohttp.ClientSession, base: str, game: str) -> None:
        self.http, self.base, self.game = http, base, game
        self.headers: dict[str, str] = {"Origin": base}
        self.states: asyncio.Queue[str] = asyncio.Queue()
        self.connections = 0
        self._task: asyncio.Task[None] | None = None

    async def open(self, secret: str) -> None:
        async with self.http.post(
            f"{self.base}/g/{self.game}/session", json={"token": secret}, headers=self.headers
        ) as r:
            assert r.status == 200, await r.text()
            self.headers["Cookie"] = f"{COOKIE}={r.cookies[COOKIE].value}"

    async def get(self) -> tuple[int, str]:
        async with self.http.get(f"{self.base}/g/{self.game}", headers=self.headers) as r:
            return r.status, await r.text()

    async def move(self, action: str) -> tuple[int, dict[str, Any]]:
        async with self.http.post(
            f"{self.base}/g/{self.game}/move", json={"action": action}, headers=self.headers
        ) as r:
            return r.status, await r.json()

    def follow(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._live())

    async def _live(self) -> None:
        retry = 3.0  # (EventSource's default until the server says)
        while True:
            self.connections += 1
            with contextlib.suppress(aiohttp.ClientError, asyncio.TimeoutError):
                async with self.http.get(f"{self.base}/g/{self.game}/events", headers=self.headers) as r:
                    assert r.status == 200, f"an EventSource gives up on {r.status}"
                    html, event = None, ""  # (each connection starts with the whole state)
                    async for raw in r.content:
                        line = raw.decode().rstrip("\n")
                        if line.startswith("retry: "):
                            retry = int(line[7:]) / 1000
                        elif line.startswith("event: "):
                            event = line[7:]
                        elif line.startswith("data: "):
                            html = shown(html, event, json.loads(line[6:]))
                            self.states.put_nowait(html)
            await asyncio.sleep(retry)

    async def state_where(self, holds: Callable[[str], bool], within: float = 60.0) -> str:
        """The first live update (from now) for which ``holds(html)``."""
        async with asyncio.timeout(within):
            while True:
                html = await self.states.get()
                if holds(html):
                    return html

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def passes(html: str) -> int:
    """How many passes the page's Last moves show."""
    found = re.search(r'<ol id="log">(.*?)</ol>', html, re.S)
    return found.group(1).count(" passes") if found else -1


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=None, sock_read=60)) as session:
        yield session


async def test_a_page_on_another_process_plays_and_follows_its_game_and_then_its_adopter(
    cluster: Cluster,  # noqa: F811 (the fixture)
    http: aiohttp.ClientSession,
) -> None:
    world, fake = cluster, cluster.fake
    ports = {name: free_port() for name in ("p0", "p1")}
    procs = {
        name: world.process(name, PUBLIC_URL=SITE, HOST="127.0.0.1", PORT=str(port), PREPARE_AT_START="board")
        for name, port in ports.items()
    }
    await up(world, procs["p0"])

    # Ann and Bob start MOJO in a thread: p0 runs it
    await fake.slash(*ANN, "start", {"game": "board", "more": "bots=0"})

    async def lobby() -> bool:
        return bool(await world.db.fetchval("SELECT count(*) FROM active_games WHERE thread_key <> ''"))

    await until(lobby, within=30)
    [row] = await world.db.fetch("SELECT channel_id, thread_key, game_id, owner FROM active_games")
    thread = row["thread_key"]
    await fake.slash(*BOB, "join", channel=thread, thread_parent=CHANNEL_ID)

    async def joined() -> bool:
        return BOB[0] in str(await world.db.fetchval("SELECT data FROM open_lobbies"))

    await until(joined, within=30)
    await fake.slash(*ANN, "go", channel=thread, thread_parent=CHANNEL_ID)

    async def running() -> bool:
        return bool(
            await world.db.fetchval(
                "SELECT count(*) FROM games WHERE status = 'running' AND thread_id = $1", thread
            )
        )

    await until(running, within=30)
    game = dict(await world.db.fetchrow("SELECT channel_id, thread_key, game_id, owner FROM active_games"))
    assert game["owner"] == "p0"

    # p1 starts: the guild's events reach it now, and every page request goes to it
    await up(world, procs["p1"])
    base = f"http://127.0.0.1:{ports['p1']}"
    pages = {who: Page(http, base, game["game_id"]) for who in (ANN, BOB)}
    try:
        for who, page in pages.items():
            await page.open(await link(world, who, game))
        shown = {who: await page.get() for who, page in pages.items()}
        for status, html in shown.values():
            assert status == 200 and 'role="grid"' in html, html[:300]
        first = next(who for who, (_, html) in shown.items() if 'data-your-turn="yes"' in html)
        second = BOB if first == ANN else ANN
        assert (await world.owners())[game["channel_id"]] == ("p0", 1), "p0 runs it: p1 passed the pages on"
        assert 'id="rack"' in shown[first][1] and "adopted" not in procs["p0"].output()

        watching = pages[second]
        watching.follow()
        await watching.state_where(lambda html: passes(html) == 0)

        # a move made on the page (on p1) is played by p0's game: it shows in the thread
        status, body = await pages[first].move("pass")
        assert status == 200 and body["ok"], body
        await fake.until(
            lambda: any(f"{first[1]} passes" in r.text for r in fake.requests if thread in r.path), 60
        )
        await watching.state_where(lambda html: passes(html) == 1)

        # a move typed in chat (reaching p1, forwarded to p0): the page follows it
        await fake.say(*second, "pass", channel=thread)
        await watching.state_where(lambda html: passes(html) == 2)
        before = watching.connections

        # p0 dies: p1 adopts the game, and the page's live channel comes back to it
        procs["p0"].kill9()
        while not watching.states.empty():  # (what p0 sent before it died)
            watching.states.get_nowait()

        async def adopted() -> bool:
            return (await world.owners()).get(game["channel_id"]) == ("p1", 2)

        await until(adopted, within=ADOPT_WITHIN + 30)
        # (p1 renders it now; its Last moves carry on from before the adoption: the log, replayed)
        await watching.state_where(
            lambda html: 'role="grid"' in html and 'data-your-turn="no"' in html and passes(html) == 2
        )
        assert watching.connections > before, "the live channel reconnected"
        await fake.say(*first, "pass", channel=thread)
        await watching.state_where(lambda html: passes(html) == 3 and 'data-your-turn="yes"' in html)
        status, body = await pages[second].move("pass")
        assert status == 200 and body["ok"], body
        await watching.state_where(lambda html: passes(html) == 4 and 'data-your-turn="no"' in html)
        status, html = await pages[first].get()
        assert status == 200 and 'data-your-turn="yes"' in html
    finally:
        for page in pages.values():
            await page.close()
