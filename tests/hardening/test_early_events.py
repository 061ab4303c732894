"""Events that arrive before restart recovery has run (found by the soak).

discord.py hands the bot interactions and messages as soon as the gateway is up,
while recovery waits for every guild to arrive. A game opened (or even finished) in
that gap is in the list of unfinished games recovery read: it must not be voided,
closed or counted twice.
"""

from __future__ import annotations

import asyncio
import random

from bot.core.clock import FakeClock
from bot.core.events import Button, ChatKey, Command
from bot.core.registry import Registry
from bot.core.views import GO, JOIN
from bot.hosting.manager import GameManager
from bot.inbound.runtime import Runtime
from bot.sessions.state import Phase
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_manager import cmd, letter, text
from tests.bot.test_runtime import FakePlatform
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox, MemoryLog


def manager_on(log: MemoryLog, clock: FakeClock) -> tuple[GameManager, FakeOutbox]:
    outbox = FakeOutbox()
    return GameManager(Registry([TOY]), outbox, log, clock, settle=0.15, rng=random.Random(5)), outbox


async def test_a_game_started_before_recovery_is_not_voided() -> None:
    clock, log = FakeClock(), MemoryLog()
    manager, outbox = manager_on(log, clock)
    await manager.handle(cmd("start toy target=1"))
    await manager.handle(Button(CHAT, BOB, JOIN))
    await manager.handle(Button(CHAT, ANN, GO))
    stale = [(start, list(log.actions[gid])) for gid, start in log.started.items()]
    report = await manager.recover(stale, lobbies=list(log.lobbies.values()))
    assert report.voided == [] and report.resumed == []
    assert not log.voided
    assert not any("restarted" in t for t in outbox.texts())
    await manager.handle(text(letter(manager) + "x", clock.now(), ANN, "a1"))
    await clock.advance(0.2)
    assert CHAT not in manager.sessions
    (result,) = log.results.values()
    assert sum(result.scores.values()) == 1
    assert not manager.errors
    await manager.shutdown()


async def test_a_game_finished_before_recovery_is_not_voided_afterwards() -> None:
    clock, log = FakeClock(), MemoryLog()
    manager, outbox = manager_on(log, clock)
    await manager.handle(cmd("start toy target=1"))
    await manager.handle(Button(CHAT, BOB, JOIN))
    await manager.handle(Button(CHAT, ANN, GO))
    # recovery read the unfinished games here; the game then ended before it went on
    stale = [(start, list(log.actions[gid])) for gid, start in log.started.items()]
    await manager.handle(text(letter(manager) + "x", clock.now(), ANN, "a1"))
    await clock.advance(0.2)
    assert CHAT not in manager.sessions and len(log.results) == 1
    report = await manager.recover(stale)
    assert report.voided == [] and not log.voided
    assert CHAT not in manager.sessions
    assert not any("restarted" in t for t in outbox.texts())
    await manager.shutdown()


async def test_an_open_lobby_before_recovery_stays_open() -> None:
    clock, log = FakeClock(), MemoryLog()
    manager, _ = manager_on(log, clock)
    await manager.handle(cmd("start toy"))
    lobbies = list(log.lobbies.values())
    assert lobbies
    report = await manager.recover([], lobbies=lobbies)
    assert report.lobbies == []
    assert [state.game_id for state in log.lobbies.values()] == [s.game_id for s in lobbies]
    await manager.handle(Button(CHAT, BOB, JOIN))
    assert len(manager.sessions[CHAT].players) == 2
    await manager.shutdown()


async def test_leftovers_of_an_earlier_process_are_still_recovered() -> None:
    clock, log = FakeClock(), MemoryLog()
    first, _ = manager_on(log, clock)
    await first.handle(cmd("start toy target=3"))
    await first.handle(Button(CHAT, BOB, JOIN))
    await first.handle(Button(CHAT, ANN, GO))
    await first.shutdown()
    second, _ = manager_on(log, clock)
    await second.handle(cmd("start toy", chat=CHAT.__class__("test", "w1", "other")))
    unfinished = [(start, list(log.actions[gid])) for gid, start in log.started.items()]
    report = await second.recover(unfinished)
    assert len(report.resumed) == 1 and CHAT in second.sessions
    await second.shutdown()


async def test_an_event_for_a_game_being_restored_waits_for_it() -> None:
    clock, log = FakeClock(), MemoryLog()
    first, _ = manager_on(log, clock)
    await first.handle(cmd("start toy target=1"))
    await first.handle(Button(CHAT, BOB, JOIN))
    await first.shutdown()  # the process dies with the lobby open
    second, outbox = manager_on(log, clock)
    second.recovery.expect([CHAT])  # known before the platform's events flow
    front = Runtime(FakePlatform(), second)  # (the inbound pipeline waits for recovery)
    # the host presses Start on the old lobby a moment before recovery has run
    pressed = asyncio.ensure_future(front.ingest(Button(CHAT, ANN, GO)))
    await asyncio.sleep(0)
    assert not pressed.done() and CHAT not in second.sessions
    other = ChatKey(CHAT.platform, CHAT.workspace_id, "elsewhere")
    await front.ingest(Command("start", ("toy",), other, ANN))  # other chats do not wait
    assert second.sessions[other].phase is Phase.LOBBY
    await second.recover([], lobbies=list(log.lobbies.values()))
    await pressed
    assert second.sessions[CHAT].phase is Phase.RUNNING, "Start found its lobby"
    assert not [t for t in outbox.texts(CHAT) if "no game" in t]
    await second.shutdown()
