from __future__ import annotations

import random
from collections.abc import AsyncIterator

import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Player
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox, MemoryLog

CHAT = ChatKey("test", "w1", "c1")
ANN = Player("test", "u1", "Ann")
BOB = Player("test", "u2", "Bob")


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def outbox() -> FakeOutbox:
    return FakeOutbox()


@pytest.fixture
def game_log() -> MemoryLog:
    return MemoryLog()


@pytest.fixture
async def manager(clock: FakeClock, outbox: FakeOutbox, game_log: MemoryLog) -> AsyncIterator[GameManager]:
    mgr = GameManager(
        Registry([TOY]), outbox, game_log, clock, settle=0.15, lobby_timeout=60, rng=random.Random(7)
    )
    yield mgr
    await mgr.shutdown()
