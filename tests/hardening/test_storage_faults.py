"""The database locked or gone for a while: the game waits and goes on, or stops with a message.

A :class:`FlakyStore` wraps a real SQLite store and refuses writes while it is
"down" (or performs a write and then reports a failure, as a lost reply does);
time is a fake clock, so the session's retries are deterministic. The last test
locks a real SQLite file from a second connection.
"""

from __future__ import annotations

import asyncio
import math
import random
import sqlite3
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Button, Command, MessageRef, Text
from bot.core.registry import Registry
from bot.core.views import GO, JOIN
from bot.hosting.manager import STORAGE_MESSAGE, GameManager
from bot.sessions.gamelog import StoreGameLog
from bot.sessions.journal import STORAGE_WAITS
from storage import StorageError, open_store
from storage.sqlite import SQLiteStore
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox
from tests.waiting import PATIENCE

WRITES = frozenset(
    {"start_game", "append_action", "finish_game", "rate_game", "void_game", "save_lobby", "delete_lobby"}
)


class FlakyStore:
    """A store whose writes fail while ``down`` (``lost_reply``: the write lands, the answer is lost)."""

    def __init__(self, store: Any) -> None:
        self.store = store
        self.down = False
        self.lost_reply = 0
        self.refused: list[str] = []
        #: writes under way in the database's thread
        self.inflight = 0

    def __getattr__(self, name: str) -> Any:
        method = getattr(self.store, name)
        if name not in WRITES:
            return method

        async def write(*args: Any, **kw: Any) -> Any:
            if self.down:
                self.refused.append(name)
                raise StorageError("database is locked")
            self.inflight += 1
            try:
                result = await method(*args, **kw)
            finally:
                self.inflight -= 1
            if self.lost_reply and name == "finish_game":
                self.lost_reply -= 1
                raise StorageError("connection lost")
            return result

        return write


@pytest.fixture
async def flaky(tmp_path: Path) -> AsyncIterator[FlakyStore]:
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    try:
        yield FlakyStore(store)
    finally:
        await store.close()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(start=datetime.now(UTC).timestamp())


@pytest.fixture
async def game(flaky: FlakyStore, clock: FakeClock) -> AsyncIterator[tuple[GameManager, FakeOutbox]]:
    outbox = FakeOutbox()
    manager = GameManager(
        Registry([TOY]), outbox, StoreGameLog(flaky), clock, settle=0.15, rng=random.Random(4)
    )
    await manager.handle(Command("start", ("toy", "target=2"), CHAT, ANN))
    await manager.handle(Button(CHAT, BOB, JOIN))
    await manager.handle(Button(CHAT, ANN, GO))
    yield manager, outbox
    await manager.shutdown()


async def claim(manager: GameManager, clock: FakeClock, who: Any, mid: str) -> None:
    letter = manager.sessions[CHAT].engine.letter  # type: ignore[union-attr]
    await manager.handle(Text(CHAT, who, letter + "ab", clock.now(), MessageRef(CHAT, mid)))


async def scores(flaky: FlakyStore) -> list[tuple[str, int, int]]:
    rows = await flaky.leaderboard(CHAT.platform, CHAT.workspace_id, "toy", "all", datetime.now(UTC), 10)
    return sorted((r.display_name, r.points, r.games) for r in rows)


async def idle(flaky: FlakyStore, clock: FakeClock) -> None:
    """Wait (on events, not on time) until no write is under way: they run in the store's thread."""
    deadline = time.monotonic() + PATIENCE  # only a hang takes this long
    while time.monotonic() < deadline:
        await clock.settle()
        if flaky.inflight == 0:
            await clock.settle()
            if flaky.inflight == 0:
                return
        await asyncio.sleep(0.001)
    raise AssertionError("a database write never finished")


async def run_for(flaky: FlakyStore, clock: FakeClock, seconds: float, step: float = 0.25) -> None:
    """Let ``seconds`` of game time pass in small steps, the bot idle after each."""
    steps = max(1, math.ceil(seconds / step))
    for _ in range(steps):
        await clock.advance(seconds / steps)
        await idle(flaky, clock)


def marked(outbox: FakeOutbox, mid: str) -> list[str]:
    return [r.mark for r in outbox.reactions() if r.ref.message_id == mid]


async def test_a_locked_database_pauses_the_game_which_then_goes_on(
    game: tuple[GameManager, FakeOutbox], flaky: FlakyStore, clock: FakeClock
) -> None:
    manager, outbox = game
    await claim(manager, clock, ANN, "a1")
    await run_for(flaky, clock, 0.2)
    assert marked(outbox, "a1") == ["accepted"]

    flaky.down = True
    await claim(manager, clock, BOB, "b1")
    await run_for(flaky, clock, 0.2)
    await run_for(flaky, clock, 3.0)  # several tries, all refused: the game waits
    assert flaky.refused and marked(outbox, "b1") == []
    assert CHAT in manager.sessions

    flaky.down = False
    await run_for(flaky, clock, 10.0)
    assert marked(outbox, "b1") == ["accepted"]
    await claim(manager, clock, ANN, "a2")
    await run_for(flaky, clock, 0.2)
    assert CHAT not in manager.sessions
    assert await scores(flaky) == [("Ann", 2, 1), ("Bob", 1, 1)]
    assert not manager.errors


async def test_the_result_waits_for_the_database_and_is_counted_once(
    game: tuple[GameManager, FakeOutbox], flaky: FlakyStore, clock: FakeClock
) -> None:
    manager, outbox = game
    await claim(manager, clock, ANN, "a1")
    await run_for(flaky, clock, 0.2)
    await claim(manager, clock, ANN, "a2")
    flaky.down = True
    await run_for(flaky, clock, 0.2)
    await run_for(flaky, clock, 30.0)
    assert "finish_game" not in flaky.refused or CHAT in manager.sessions
    flaky.down = False
    flaky.lost_reply = 1  # the first try after the outage lands, but its answer is lost
    await run_for(flaky, clock, 120.0)
    assert CHAT not in manager.sessions
    assert await scores(flaky) == [("Ann", 2, 1), ("Bob", 0, 1)]
    assert any("game over" in t.lower() for t in outbox.texts())
    assert not manager.errors


async def test_a_database_gone_for_good_stops_the_game_with_a_message(
    game: tuple[GameManager, FakeOutbox], flaky: FlakyStore, clock: FakeClock
) -> None:
    manager, outbox = game
    await claim(manager, clock, ANN, "a1")
    await run_for(flaky, clock, 0.2)
    flaky.down = True
    await claim(manager, clock, BOB, "b1")
    await run_for(flaky, clock, 0.2)
    await run_for(flaky, clock, sum(STORAGE_WAITS) * 1.2 + 1.0)  # every wait, jitter (±20 %) included
    assert CHAT not in manager.sessions, "the game should stop once the tries run out"
    assert outbox.texts()[-1].endswith(STORAGE_MESSAGE) or STORAGE_MESSAGE in outbox.texts()[-1]
    assert [type(e).__name__ for e in manager.errors] == ["StorageError"]

    # the database is back: nothing was scored, and a new game can start in the channel
    flaky.down = False
    assert await scores(flaky) == []
    await manager.handle(Command("start", ("toy",), CHAT, BOB))
    assert CHAT in manager.sessions


async def test_a_real_sqlite_lock_is_a_storage_error_and_the_write_can_be_repeated(tmp_path: Path) -> None:
    from storage.base import GameRecord

    path = tmp_path / "locked.db"
    store = SQLiteStore(path, busy_timeout_ms=20)
    await store.open()
    try:
        record = GameRecord(
            game_id="g1",
            game="toy",
            platform="test",
            workspace_id="w1",
            channel_id="c1",
            thread_id=None,
            options={},
            seed=1,
            seats=(),
            started_at=0.0,
            host="test:u1",
            names={},
            added_words=frozenset(),
            banned_words=frozenset(),
        )
        await store.start_game(record)
        other = sqlite3.connect(path, timeout=0.01, isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            with pytest.raises(StorageError, match=r"locked|busy"):
                await store.append_action("g1", 0, {"kind": "begin", "now": 0.0})
        finally:
            other.execute("ROLLBACK")
            other.close()
        await store.append_action("g1", 0, {"kind": "begin", "now": 0.0})
        await store.append_action("g1", 0, {"kind": "begin", "now": 0.0})  # a repeat is ignored
        [game] = [g for g in await store.unfinished_games() if g.record.game_id == "g1"]
        assert len(game.actions) == 1
    finally:
        await store.close()
