"""The web companion: many watchers of one game on one process (docs/WEB.md, docs/PERFORMANCE.md).

A MOJO game of two people served by ``adapters.web`` (a real aiohttp server on 127.0.0.1, links
in SQLite); ``WATCHERS`` pages hold the live channel open (raw sockets, each with its own watch
session); the players pass ``MOVES`` times, each through the runtime as a typed move. Prints
JSON: how long each move took to reach every watcher (median, p99, max), the bytes each update
took on the wire (the first, whole state of a page, then each move's: since #33's "smaller live
updates" only the regions that changed), the server's CPU time per move, the memory the
watchers cost (the process's peak RSS growth while they connected, server and clients
together: an upper bound for the server's share), and the time to load a player's page.

    PYTHONPATH=. python bench/bench_web_watchers.py [WATCHERS] [MOVES]

``race`` as a third argument watches a race instead (adapters/web/watch.py): Ann and Bob take
cards ``MOVES`` times (each take a typed word the face-up cards make, the game's own example;
no pause before the next flip), and with each take the other player types a wrong word (a
refusal: the table is marked). Prints how long each take took, from the moment the game
announced it, to reach every watcher's page, and how many renderings the watchers' feed made for
how many changes of the game (the coalescing).

    PYTHONPATH=. python bench/bench_web_watchers.py [WATCHERS] [MOVES] race
"""

from __future__ import annotations

import asyncio
import json
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from aiohttp import web

from adapters.web.local import LocalTable
from adapters.web.server import COOKIE
from bot.core.clock import SystemClock
from bot.core.events import ChatKey, Command, Outbound, Player, Post, Text
from bot.core.registry import load_default
from games.common.text import plain
from storage.sqlite import SQLiteStore
from tests.doubles import MemoryLog

CHAT = ChatKey("web", "bench", "table")
#: The budget: updates reach every watcher within a second at the 99th percentile.
BUDGET_P99_MS = 1000.0
ANN, BOB = Player("web", "ann", "Ann"), Player("web", "bob", "Bob")


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class Watcher:
    """One page's live channel on a raw socket: notes when each update arrives."""

    def __init__(self) -> None:
        self.arrived: list[float] = []
        self.sizes: list[int] = []
        self.first = asyncio.Event()
        self.updated = asyncio.Event()
        self.reader: asyncio.StreamReader | None = None
        #: (race) what the next awaited update holds, and when each target first arrived.
        self.target = b""
        self.hits: dict[bytes, float] = {}
        self.hit = asyncio.Event()
        self.writer: asyncio.StreamWriter | None = None

    async def open(self, port: int, game: str, session: str) -> None:
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)
        self.writer.write(
            f"GET /g/{game}/events HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Cookie: {COOKIE}={session}\r\n\r\n".encode()
        )
        await self.writer.drain()

    async def read(self) -> None:
        assert self.reader is not None
        while True:
            line = await self.reader.readline()
            if not line:
                return
            if line.startswith((b"event: state", b"event: patch")):
                now = time.perf_counter()
                data = await self.reader.readline()
                self.arrived.append(now)
                self.sizes.append(len(line) + len(data))
                self.first.set()
                self.updated.set()
                if self.target and self.target in data:  # (race) the take this page waits for
                    self.hits.setdefault(self.target, now)
                    self.hit.set()


async def main(watchers: int, moves: int) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "bench.db")
        await store.open()
        clock = SystemClock()
        table = LocalTable(load_default(), MemoryLog(), store.web_links, clock, "http://127.0.0.1")
        runner = web.AppRunner(table.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0, backlog=4096)
        await site.start()
        port = runner.addresses[0][1]
        table.public_url(f"http://127.0.0.1:{port}")
        await table.start([ANN, BOB], "board", ("bots=0",), chat=CHAT)
        session = table.runtime.session(CHAT)
        assert session is not None
        game = session.game_id

        # a player's page: load time (rendered on the server, 16×16 board)
        player_link = await table.companion.link(CHAT, ANN)
        assert player_link is not None
        opened = await table.companion.links.open(player_link.split("#", 1)[1])
        assert opened is not None
        loads = []
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(30):
            started = time.perf_counter()
            writer.write(
                f"GET /g/{game} HTTP/1.1\r\nHost: x\r\nCookie: {COOKIE}={opened.secret}\r\n\r\n".encode()
            )
            await writer.drain()
            length = 0
            while (line := await reader.readline()) != b"\r\n":
                if line.lower().startswith(b"content-length:"):
                    length = int(line.split(b":")[1])
            body = await reader.readexactly(length)
            loads.append((time.perf_counter() - started) * 1000)
        writer.close()

        # the watchers: a session each, then the live channel
        sessions = []
        for _ in range(watchers):
            link = await table.companion.link(CHAT, None)
            assert link is not None
            got = await table.companion.links.open(link.split("#", 1)[1])
            assert got is not None
            sessions.append(got.secret)
        before = rss_mb()
        pages = [Watcher() for _ in range(watchers)]
        for page, secret in zip(pages, sessions, strict=True):
            await page.open(port, game, secret)
        readers = [asyncio.ensure_future(page.read()) for page in pages]
        await asyncio.wait_for(asyncio.gather(*(page.first.wait() for page in pages)), 300)
        after = rss_mb()

        latencies: list[float] = []
        cpu = time.process_time()
        for _ in range(moves):
            counts = [len(page.arrived) for page in pages]
            for page in pages:
                page.updated.clear()
            mover = ANN if session.is_player(ANN) and session.state.turn_seats() == {ANN.seat_id} else BOB
            started = time.perf_counter()
            await table.runtime.ingest(Command("play", ("pass",), CHAT, mover))
            for page, count in zip(pages, counts, strict=True):
                while len(page.arrived) <= count:
                    await page.updated.wait()
                latencies.append((page.arrived[count] - started) * 1000)
            if session.engine is None or session.phase.value != "running":
                break
        cpu_per_move = (time.process_time() - cpu) * 1000 / moves
        update_bytes = sorted(size for page in pages for size in page.sizes[1:])
        for task in readers:
            task.cancel()
        for page in pages:
            if page.writer is not None:
                page.writer.close()
        await table.close()
        await runner.cleanup()
        await store.close()
        latencies.sort()
        p99 = latencies[int(len(latencies) * 0.99) - 1]
        return {
            "budget": {"update_p99_ms": BUDGET_P99_MS},
            "within_budget": p99 <= BUDGET_P99_MS,
            "watchers": watchers,
            "moves": moves,
            "update_ms": {
                "median": round(statistics.median(latencies), 1),
                "p99": round(p99, 1),
                "max": round(latencies[-1], 1),
            },
            "bytes": {
                "first_state": pages[0].sizes[0],
                "per_update_median": statistics.median(update_bytes),
                "per_update_max": update_bytes[-1],
            },
            "cpu_ms_per_move": round(cpu_per_move, 1),
            "memory_per_watcher_kb": round((after - before) * 1024 / watchers, 1),
            "page_load_ms": {"median": round(statistics.median(loads), 2), "max": round(max(loads), 2)},
            "page_bytes": len(body),
        }


async def race(watchers: int, takes: int) -> dict[str, object]:
    """Watchers of a race: each take's way to every page, and the feed's renderings."""
    with tempfile.TemporaryDirectory() as tmp:
        store = SQLiteStore(Path(tmp) / "bench.db")
        await store.open()
        clock = SystemClock()
        table = LocalTable(load_default(), MemoryLog(), store.web_links, clock, "http://127.0.0.1")
        runner = web.AppRunner(table.app(), access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0, backlog=4096)
        await site.start()
        port = runner.addresses[0][1]
        table.public_url(f"http://127.0.0.1:{port}")
        announced: dict[str, float] = {}

        async def note(message: Outbound) -> Outbound:  # when the game announced each take
            if isinstance(message, Post) and message.view.kind == "announce":
                for line in message.view.lines:
                    if " takes " in line:
                        announced.setdefault(plain(line), time.perf_counter())
            return message

        table.outbox.taps.append(note)
        options = ("bots=0", "cards=52", "flip-pause=0", "hourglass=300")
        await table.start([ANN, BOB], "race", options, chat=CHAT)
        session = table.runtime.session(CHAT)
        assert session is not None
        game = session.game_id
        link = await table.companion.watch_link(CHAT)
        assert link is not None
        sessions = []
        for _ in range(watchers):  # one watch link, a session for each page
            got = await table.companion.links.open(link.split("#", 1)[1])
            assert got is not None
            sessions.append(got.secret)
        before = rss_mb()
        pages = [Watcher() for _ in range(watchers)]
        for page, secret in zip(pages, sessions, strict=True):
            await page.open(port, game, secret)
        readers = [asyncio.ensure_future(page.read()) for page in pages]
        await asyncio.wait_for(asyncio.gather(*(page.first.wait() for page in pages)), 300)
        after = rss_mb()
        feed = table.server.watch.feeds[game]
        renders0, changes0 = feed.renders, table.companion.versions.get(CHAT, 0)

        latencies: list[float] = []
        made = 0
        for i in range(takes):
            engine: Any = session.engine
            word = engine._example() if engine is not None else None
            if not word:
                break
            taker, other = (ANN, BOB) if i % 2 == 0 else (BOB, ANN)
            target = f"with {word.upper()}".encode()
            for page in pages:
                page.target = target
                page.hit.clear()
            await table.runtime.ingest(Text(CHAT, taker, word, clock.now()))
            # and a wrong word from the other (refused: the table is marked; one only, as three
            # wrong words in a row would sit its writer out for a while)
            await table.runtime.ingest(Text(CHAT, other, "qzx", clock.now()))
            for page in pages:
                while target not in page.hits:
                    await asyncio.wait_for(page.hit.wait(), 30)
                    page.hit.clear()
            said = next((at for line, at in announced.items() if f"with {word.upper()}" in line), None)
            assert said is not None, f"the take of {word} was announced"
            latencies += [(page.hits[target] - said) * 1000 for page in pages]
            made += 1
        renders, changes = feed.renders - renders0, table.companion.versions.get(CHAT, 0) - changes0
        for task in readers:
            task.cancel()
        for page in pages:
            if page.writer is not None:
                page.writer.close()
        await table.close()
        await runner.cleanup()
        await store.close()
        latencies.sort()
        p99 = latencies[max(0, int(len(latencies) * 0.99) - 1)]
        return {
            "game": "race",
            "budget": {"update_p99_ms": BUDGET_P99_MS},
            "within_budget": p99 <= BUDGET_P99_MS,
            "watchers": watchers,
            "takes": made,
            "take_to_every_page_ms": {
                "median": round(statistics.median(latencies), 1),
                "p99": round(p99, 1),
                "max": round(latencies[-1], 1),
            },
            "game_changes": changes,
            "renderings": renders,
            "coalescing_window_s": table.server.watch.window,
            "memory_per_watcher_kb": round((after - before) * 1024 / watchers, 1),
        }


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    moves = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    run = race if sys.argv[3:4] == ["race"] else main
    print(json.dumps(asyncio.run(run(count, moves)), indent=2))
