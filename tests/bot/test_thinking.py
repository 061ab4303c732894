"""Turn-based computer players think in a worker thread on the real clock, inline on a fake one."""

from __future__ import annotations

import asyncio
import threading

from bot.core.clock import FakeClock, SystemClock
from bot.core.events import Command
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from games.common.engine import GameEngine, nothing_to_prepare
from games.common.options import OptionSpec
from games.common.protocol import Action, Claim, GameInfo, Notice, Reading, Result, SeatLine, Setup, Snapshot
from tests.bot.conftest import ANN, CHAT
from tests.doubles import FakeOutbox, MemoryLog


class CountEngine(GameEngine):
    """Players take turns saying the next number; a computer player says it after thinking."""

    def __init__(self, setup: Setup) -> None:
        self.seats = [s.id for s in setup.seats]
        self.bots = {s.id for s in setup.seats if s.bot}
        self.count = 0
        self.turn = 0
        self.turn_started = 0.0
        self.thought_on: list[int] = []  # thread ids bot_claims ran on
        self.started = threading.Event()  # the computer player has started thinking
        self.release = threading.Event()  # the test lets the computer player finish
        self.release.set()

    @property
    def current(self) -> str:
        return self.seats[self.turn % len(self.seats)]

    def apply(self, action: Action) -> list[Notice]:
        if action.kind == "begin":
            self.turn_started = action.now
            return [Notice("table")]
        if action.kind == "say" and action.seat == self.current and action.text == str(self.count + 1):
            self.count += 1
            self.turn += 1
            self.turn_started = action.now
            return [Notice("accepted", f"counted {self.count}", ref=action.ref)]
        return [Notice("rejected", "not your number", seat=action.seat, ref=action.ref)]

    def next_deadline(self) -> float | None:
        return None

    def bot_claims(self, now: float) -> list[Claim]:
        self.thought_on.append(threading.get_ident())
        self.started.set()
        assert self.release.wait(timeout=30), "the test never let the computer player finish"
        return [Claim(self.current, str(self.count + 1), now)]

    def next_bot_time(self) -> float | None:
        return self.turn_started + 1.0 if self.current in self.bots and not self.finished else None

    @property
    def finished(self) -> bool:
        return self.count >= 4

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        return Snapshot("count", seats=tuple(SeatLine(s, s, 0) for s in self.seats))

    def result(self) -> Result:
        return Result({s: 0 for s in self.seats}, (), f"counted to {self.count}")


class CountReader:
    def read(self, text: str, *, private: bool = False) -> Reading:
        return Reading(text if text.isdigit() else None)


COUNT = GameInfo(
    name="count",
    title="count",
    summary="Say the next number.",
    rules="Say the next number.",
    options=(OptionSpec("bots", "int", 1, "computer players", low=0, high=3),),
    create=CountEngine,
    reads=lambda options, seed: CountReader(),
    prepare=nothing_to_prepare,
    realtime=False,
)


class SignallingOutbox(FakeOutbox):
    """A FakeOutbox that wakes a waiter whenever something is sent."""

    def __init__(self) -> None:
        super().__init__()
        self.changed = asyncio.Event()

    async def send(self, message):  # type: ignore[no-untyped-def]
        self.changed.set()
        return await super().send(message)

    async def wait_for(self, text: str) -> None:
        while not any(text in t for t in self.texts()):
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), timeout=30)


async def start(manager: GameManager) -> CountEngine:
    await manager.handle(Command("start", ("count", "bots=1"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    engine = manager.sessions[CHAT].engine
    assert isinstance(engine, CountEngine)
    return engine


async def test_on_a_fake_clock_the_computer_player_thinks_inline() -> None:
    clock, outbox = FakeClock(), FakeOutbox()
    manager = GameManager(Registry([COUNT]), outbox, MemoryLog(), clock)
    assert manager.think_in_thread is False
    engine = await start(manager)
    await manager.handle(Command("play", ("1",), CHAT, ANN))
    await clock.advance(1.0)
    assert engine.count == 2
    assert engine.thought_on == [threading.get_ident()]


async def test_on_the_real_clock_the_computer_player_thinks_in_a_worker_thread() -> None:
    outbox = SignallingOutbox()
    manager = GameManager(Registry([COUNT]), outbox, MemoryLog(), SystemClock(speed=1000.0))
    assert manager.think_in_thread is True
    engine = await start(manager)
    engine.release.clear()
    await manager.handle(Command("play", ("1",), CHAT, ANN))
    # While the computer player thinks, the event loop is free: this very coroutine runs.
    assert await asyncio.to_thread(engine.started.wait, 30)
    assert engine.count == 1
    engine.release.set()
    await outbox.wait_for("counted 2")
    assert engine.count == 2
    assert engine.thought_on[0] != threading.get_ident()
    await manager.handle(Command("stop", (), CHAT, ANN))
