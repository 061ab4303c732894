"""Restart recovery: unfinished games are rebuilt from their action logs."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Button
from bot.core.registry import Registry
from bot.core.views import GO, JOIN
from bot.hosting.leases import KEEP_ALIVE
from bot.hosting.manager import GameManager
from bot.sessions.state import Phase
from games.common.protocol import GameInfo
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_manager import cmd, letter, text
from tests.bot.toygame import TOY, ToyEngine
from tests.doubles import FakeOutbox, MemoryLog


async def play_a_point(manager: GameManager, clock: FakeClock) -> None:
    await manager.handle(cmd("start toy target=3"))
    await manager.handle(Button(CHAT, BOB, JOIN))
    await manager.handle(Button(CHAT, ANN, GO))
    wanted = letter(manager)
    await manager.handle(text(wanted + "x", clock.now(), ANN, "a1"))
    await clock.advance(0.2)


def new_manager(
    clock: FakeClock, log: MemoryLog, registry: Registry | None = None
) -> tuple[GameManager, FakeOutbox]:
    outbox = FakeOutbox()
    registry = registry or Registry([TOY])
    return GameManager(registry, outbox, log, clock, settle=0.15, rng=random.Random(3)), outbox


async def crash_and_restart(
    clock: FakeClock, log: MemoryLog, downtime: float, registry: Registry | None = None
) -> tuple[GameManager, FakeOutbox, ToyEngine]:
    first, _ = new_manager(clock, log)
    await play_a_point(first, clock)
    before = first.sessions[CHAT].engine
    assert isinstance(before, ToyEngine)
    await first.shutdown()  # the process dies: nothing is finished or voided
    await clock.advance(downtime)
    second, outbox = new_manager(clock, log, registry)
    unfinished = [(start, list(log.actions[gid])) for gid, start in log.started.items()]
    await second.recover(unfinished)
    await clock.settle()
    return second, outbox, before


async def test_recent_race_resumes_with_the_same_state() -> None:
    clock, log = FakeClock(), MemoryLog()
    manager, outbox, before = await crash_and_restart(clock, log, downtime=5)
    session = manager.sessions[CHAT]
    assert session.phase is Phase.RUNNING
    after = session.engine
    assert isinstance(after, ToyEngine)
    assert after.scores == before.scores and after.letter == before.letter
    texts = outbox.texts(CHAT)
    assert any("carries on" in t for t in texts)
    assert outbox.posts(CHAT)[-1].view.kind == "table"
    # it keeps playing and finishes with everything recorded exactly once
    for _ in range(2):
        await manager.handle(text(letter(manager) + "q", clock.now(), ANN))
        await clock.advance(0.2)
    assert CHAT not in manager.sessions
    (result,) = log.results.values()
    assert result.scores["test:u1"] == 3
    assert len(next(iter(log.actions.values()))) >= 4
    await manager.shutdown()


async def test_an_answer_redelivered_after_a_restart_is_not_judged_again() -> None:
    clock, log = FakeClock(), MemoryLog()
    manager, outbox, before = await crash_and_restart(clock, log, downtime=5)
    session = manager.sessions[CHAT]
    assert isinstance(session.engine, ToyEngine)
    # Slack (or the gateway) delivers Ann's winning message "a1" again, now that it fits anew
    await manager.handle(text(letter(manager) + "x", clock.now(), ANN, "a1"))
    await clock.advance(0.2)
    assert session.engine.scores == before.scores, "the same message never scores twice"
    assert not outbox.reactions()
    await manager.shutdown()


async def test_an_answer_to_an_earlier_game_redelivered_after_a_restart_is_not_an_answer() -> None:
    clock, log = FakeClock(), MemoryLog()
    first, _ = new_manager(clock, log)
    await play_a_point(first, clock)
    early = clock.now()
    for _ in range(2):  # Ann wins that game
        await first.handle(text(letter(first) + "q", clock.now(), ANN, f"old{clock.now()}"))
        await clock.advance(0.2)
    assert CHAT not in first.sessions
    await clock.advance(60.0)
    await play_a_point(first, clock)  # the next game
    await first.shutdown()
    second, outbox = new_manager(clock, log)
    ended = [(start, list(log.actions[gid])) for gid, start in log.started.items() if gid in log.results]
    await second.recover(log.unfinished(), ended=ended)
    await clock.settle()
    session = second.sessions[CHAT]
    assert isinstance(session.engine, ToyEngine)
    scores = dict(session.engine.scores)
    # Slack still retries an answer from the first game, which nothing remembers after the restart
    [won] = [c.ref for a in ended[0][1] for c in a.claims if c.ref and c.ref.startswith("old")][-1:]
    await second.handle(text(letter(second) + "x", early, ANN, won))
    await clock.advance(0.2)
    assert session.engine.scores == scores and not outbox.reactions()
    await second.shutdown()


async def test_players_keep_their_seats_after_resume() -> None:
    clock, log = FakeClock(), MemoryLog()
    manager, outbox, _ = await crash_and_restart(clock, log, downtime=1)
    await manager.handle(text(letter(manager) + "z", clock.now(), BOB, "b9"))
    await clock.advance(0.2)
    engine = manager.sessions[CHAT].engine
    assert isinstance(engine, ToyEngine)
    assert engine.scores["test:u2"] == 1
    assert [r.mark for r in outbox.reactions()] == ["accepted"]
    await manager.shutdown()


async def test_stale_race_is_voided_with_a_notice() -> None:
    clock, log = FakeClock(), MemoryLog()
    manager, outbox, _ = await crash_and_restart(clock, log, downtime=3600)
    assert CHAT not in manager.sessions
    assert list(log.voided.values()) == ["restart"]
    assert any("won't count" in t for t in outbox.texts(CHAT))
    await manager.handle(cmd("start toy"))  # the channel is free again
    assert manager.sessions[CHAT].phase is Phase.LOBBY
    await manager.shutdown()


async def test_turn_based_game_always_resumes() -> None:
    clock, log = FakeClock(), MemoryLog()
    slow = Registry([replace(TOY, realtime=False)])
    manager, _, _ = await crash_and_restart(clock, log, downtime=3600, registry=slow)
    assert manager.sessions[CHAT].phase is Phase.RUNNING
    assert not log.voided
    await manager.shutdown()


async def test_unknown_or_broken_game_is_voided_not_crashed() -> None:
    clock, log = FakeClock(), MemoryLog()

    def broken(setup: object) -> ToyEngine:
        raise RuntimeError("engine changed")

    registry = Registry([GameInfo(**{**TOY.__dict__, "create": broken})])
    manager, outbox, _ = await crash_and_restart(clock, log, downtime=1, registry=registry)
    assert CHAT not in manager.sessions
    assert any("couldn't restore" in t for t in outbox.texts(CHAT))
    assert not manager.errors
    await manager.shutdown()


async def test_an_open_lobby_reopens_on_its_old_message() -> None:
    clock, log = FakeClock(), MemoryLog()
    first, _ = new_manager(clock, log)
    await first.handle(cmd("start toy target=2"))
    await first.handle(Button(CHAT, BOB, JOIN))
    (kept,) = log.lobbies.values()
    assert [p.display_name for p in kept.players] == ["Ann", "Bob"]
    await first.shutdown()

    second, outbox = new_manager(clock, log)
    report = await second.recover([], lobbies=list(log.lobbies.values()))
    await clock.settle()
    assert report.lobbies == [kept.game_id]
    session = second.sessions[CHAT]
    assert session.phase is Phase.LOBBY and [p.display_name for p in session.players] == ["Ann", "Bob"]
    assert outbox.edits()[-1].ref.message_id == kept.message_id  # the old message, buttons and all
    await second.handle(Button(CHAT, ANN, GO))
    assert session.phase is Phase.RUNNING
    assert not log.lobbies  # a started game is no longer a lobby
    await second.shutdown()


async def test_a_lobby_that_timed_out_while_down_closes_with_a_notice() -> None:
    clock, log = FakeClock(), MemoryLog()
    first, _ = new_manager(clock, log)
    await first.handle(cmd("start toy"))
    await first.shutdown()
    await clock.advance(3600)
    second, outbox = new_manager(clock, log)
    await second.recover([], lobbies=list(log.lobbies.values()))
    await clock.settle()
    assert CHAT not in second.sessions
    assert any("Nobody started" in t for t in outbox.texts(CHAT))
    assert not log.lobbies
    await second.shutdown()


async def test_a_result_is_recorded_as_announced_once_posted() -> None:
    clock, log = FakeClock(), MemoryLog()
    manager, _ = new_manager(clock, log)
    await manager.handle(cmd("start toy target=1"))
    await manager.handle(Button(CHAT, BOB, JOIN))
    await manager.handle(Button(CHAT, ANN, GO))
    await manager.handle(text(letter(manager) + "x", clock.now(), ANN))
    await clock.advance(0.2)
    await clock.settle()
    (game_id,) = log.results
    assert game_id in log.announcements
    await manager.shutdown()


async def test_a_game_that_ended_just_before_a_crash_is_announced_after_the_restart() -> None:
    clock, log = FakeClock(), MemoryLog()
    first, _ = new_manager(clock, log)
    await first.handle(cmd("start toy target=1"))
    await first.handle(Button(CHAT, BOB, JOIN))
    await first.handle(Button(CHAT, ANN, GO))
    await first.handle(text(letter(first) + "x", clock.now(), ANN))
    await clock.advance(0.2)
    (game_id,) = log.results
    log.announcements.clear()  # the process died between recording the result and posting it
    await first.shutdown()

    second, outbox = new_manager(clock, log)
    finished = [(log.started[game_id], list(log.actions[game_id]))]
    assert await second.recovery.announce_finished(finished) == [game_id]
    await clock.settle()
    (posted,) = outbox.posts(CHAT)
    assert posted.view.kind == "result" and "moji restarted" in posted.view.plain()
    assert "Ann — 1 pt 👑" in posted.view.plain()
    assert game_id in log.announcements
    await second.shutdown()


async def test_a_resumed_race_gets_its_hourglass_back_for_the_downtime() -> None:
    clock, log = FakeClock(), MemoryLog()
    first, _ = new_manager(clock, log)
    await play_a_point(first, clock)
    session = first.sessions[CHAT]
    engine = session.engine
    assert isinstance(engine, ToyEngine) and engine.deadline is not None
    await clock.advance(7.0)  # 7 of the hourglass's 10 s are gone
    left = engine.deadline - clock.now()
    await first.shutdown()  # the process dies
    await clock.advance(30.0)  # down for half a minute

    second, outbox = new_manager(clock, log)
    ((start, _),) = log.unfinished()
    assert start.alive_at is not None and clock.now() - start.alive_at >= 30.0
    down = clock.now() - start.alive_at
    await second.recover(log.unfinished())
    await clock.settle()
    texts = outbox.texts(CHAT)
    assert any("carries on" in t and "clock stood still while moji was down (3" in t for t in texts), texts
    resumed = second.sessions[CHAT]
    table = outbox.posts(CHAT)[-1].view
    assert table.kind == "table" and table.deadline == resumed.snapshot(None).deadline
    # as much time left as at the crash, plus the few seconds since the last keep-alive record
    extra = down - 30.0
    assert 0 <= extra <= KEEP_ALIVE
    assert table.deadline == pytest.approx(clock.now() + left + extra)
    letter_before = resumed.engine.letter if isinstance(resumed.engine, ToyEngine) else ""
    await clock.advance(left + extra - 0.5)
    assert not any("Nobody found a word" in t for t in outbox.texts(CHAT))
    await clock.advance(1.0)
    assert any(f"Nobody found a word with {letter_before.upper()}" in t for t in outbox.texts(CHAT))

    # a second crash: both outages are in the log, and a replay is the same game
    await second.shutdown()
    await clock.advance(10.0)
    third, outbox = new_manager(clock, log)
    (game_id,) = log.started
    assert [a.kind for a in log.actions[game_id]].count("resume") == 1
    await third.recover(log.unfinished())
    await clock.settle()
    assert [a.kind for a in log.actions[game_id]].count("resume") == 2
    replayed = third.sessions[CHAT].engine
    assert isinstance(replayed, ToyEngine) and isinstance(resumed.engine, ToyEngine)
    assert (replayed.letter, replayed.scores) == (resumed.engine.letter, resumed.engine.scores)
    assert not third.errors
    await third.shutdown()


async def test_a_graceful_stop_holds_the_clock_from_the_stop() -> None:
    clock, log = FakeClock(), MemoryLog()
    first, _ = new_manager(clock, log)
    await play_a_point(first, clock)
    await clock.advance(2.0)  # between two keep-alive records
    await first.wind_down()  # SIGTERM
    stopped_at = clock.now()
    await first.shutdown()
    await clock.advance(12.0)
    ((start, _),) = log.unfinished()
    assert start.alive_at == stopped_at
    second, outbox = new_manager(clock, log)
    await second.recover(log.unfinished())
    await clock.settle()
    assert any("(12 s)" in t for t in outbox.texts(CHAT))
    await second.shutdown()


async def test_a_game_recorded_as_started_but_never_dealt_is_dealt_after_the_restart() -> None:
    clock, log = FakeClock(), MemoryLog()
    first, _ = new_manager(clock, log)
    await first.handle(cmd("start toy target=3"))
    await first.handle(Button(CHAT, BOB, JOIN))
    assert log.lobbies
    await first.handle(Button(CHAT, ANN, GO))
    (game_id,) = log.started
    assert not log.lobbies, "the start and the lobby's end are one write"
    log.actions[game_id].clear()  # the process died before the first deal was logged
    await first.shutdown()
    second, outbox = new_manager(clock, log)
    report = await second.recover(log.unfinished())
    await clock.settle()
    assert report.resumed == [game_id]
    assert [a.kind for a in log.actions[game_id]] == ["begin"]
    assert outbox.posts(CHAT)[-1].view.kind == "table" and outbox.posts(CHAT)[-1].view.cards
    await second.handle(text(letter(second) + "x", clock.now(), ANN))
    await clock.advance(0.2)
    engine = second.sessions[CHAT].engine
    assert isinstance(engine, ToyEngine) and engine.scores["test:u1"] == 1
    await second.shutdown()


async def test_a_lobby_is_recorded_before_it_is_posted_and_reopens_with_a_message() -> None:
    clock, log = FakeClock(), MemoryLog()
    first, outbox = new_manager(clock, log)
    recorded_when_posted: list[bool] = []
    send = outbox.send

    async def watching(item: object) -> object:
        if getattr(getattr(item, "view", None), "kind", "") == "lobby" and not recorded_when_posted:
            recorded_when_posted.append(bool(log.lobbies))
        return await send(item)  # type: ignore[arg-type]

    outbox.send = watching  # type: ignore[method-assign]
    await first.handle(cmd("start toy"))
    assert recorded_when_posted == [True]
    (state,) = log.lobbies.values()
    assert state.message_id is not None  # recorded again with its message
    # the process died between recording the lobby and posting it: no message yet
    log.lobbies[state.game_id] = replace(state, message_id=None)
    await first.shutdown()
    second, outbox2 = new_manager(clock, log)
    report = await second.recover([], lobbies=list(log.lobbies.values()))
    await clock.settle()
    assert report.lobbies == [state.game_id]
    assert [p.view.kind for p in outbox2.posts(CHAT)] == ["lobby"]
    assert log.lobbies[state.game_id].message_id is not None
    await second.handle(Button(CHAT, BOB, JOIN))
    await second.handle(Button(CHAT, ANN, GO))
    assert second.sessions[CHAT].phase is Phase.RUNNING
    await second.shutdown()
