"""Whole board games through the real manager, registry entry and lexicon, on a fake clock."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, Player
from bot.core.registry import Registry
from bot.hosting.leases import KEEP_ALIVE
from bot.hosting.manager import GameManager
from games.board import GAME
from games.board.engine import BoardGame
from tests.doubles import FakeOutbox, MemoryLog

CHAT = ChatKey("test", "w", "c")
ANN = Player("test", "ann", "Ann")
BOB = Player("test", "bob", "Bob")


async def test_computer_players_play_a_classic_game_to_the_end() -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(4))
    await manager.handle(Command("start", ("board", "bots=2", "level=hard", "layout=classic"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    engine = manager.sessions[CHAT].engine
    assert isinstance(engine, BoardGame)
    total = engine.total_tiles()
    for _ in range(400):
        if CHAT not in manager.sessions:
            break
        if engine.current == "test:ann":
            await manager.handle(Command("play", ("resign",), CHAT, ANN))
        await clock.advance(5.0)
    assert CHAT not in manager.sessions, "the game should have ended"
    (result,) = log.results.values()
    assert set(result.scores) == {"test:ann", "bot:1", "bot:2"}
    assert "test:ann" not in result.winners and result.winners
    assert engine.board.count > 20 and engine.total_tiles() == total
    assert not manager.errors
    await manager.shutdown()


def _manager(clock: FakeClock, log: MemoryLog) -> tuple[GameManager, FakeOutbox]:
    outbox = FakeOutbox()
    return GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(9)), outbox


async def test_a_game_survives_a_restart_mid_turn_and_its_clock_stood_still() -> None:
    clock, log = FakeClock(), MemoryLog()
    first, outbox = _manager(clock, log)
    await first.handle(Command("start", ("board", "turn=24"), CHAT, ANN))
    await first.handle(Command("join", (), CHAT, BOB))
    await first.handle(Command("go", (), CHAT, ANN))
    engine = first.sessions[CHAT].engine
    assert isinstance(engine, BoardGame)
    mover = ANN if engine.current == "test:ann" else BOB
    await first.handle(Command("play", ("pass",), CHAT, mover))
    await clock.advance(3600.0)  # an hour into the second turn
    deadline = engine.next_deadline()
    turn_ends = engine.turn_ends()
    racks = {s: list(r) for s, r in engine.racks.items()}
    assert any("Your rack" in p.view.plain() for p in outbox.privates())
    await first.shutdown()  # the process dies mid-turn

    down = 5 * 3600.0
    await clock.advance(down)  # down for five hours
    second, outbox = _manager(clock, log)
    unfinished = [
        (replace(start, alive_at=log.alive.get(gid)), list(log.actions[gid]))
        for gid, start in log.started.items()
    ]
    await second.recover(unfinished)
    await clock.settle()
    session = second.sessions[CHAT]
    after = session.engine
    assert isinstance(after, BoardGame)
    # the same game, on a clock that stood still while moji was down
    assert after.racks == racks and after.turn_ends() == turn_ends and after.next_deadline() == deadline
    assert after.current == engine.current
    assert session.snapshot(None).deadline == pytest.approx(turn_ends + down, abs=KEEP_ALIVE)
    texts = outbox.texts(CHAT)
    assert any("The clock stood still while moji was down (5 h)" in t for t in texts), texts
    assert any("it's your turn again in MOJO: 23 h left" in t for t in texts), texts
    # the reminder at 8 hours left and then the timeout come five hours later than they would have
    await clock.advance(turn_ends + down - 8 * 3600.0 - clock.now() - 60)
    assert not any("8 h left" in t for t in outbox.texts(CHAT))
    await clock.advance(2 * KEEP_ALIVE + 60)
    assert any("8 h left" in t for t in outbox.texts(CHAT))
    await clock.advance(turn_ends + down - clock.now() - 60)
    assert CHAT in second.sessions
    await clock.advance(2 * KEEP_ALIVE + 60)
    assert CHAT not in second.sessions
    (result,) = log.results.values()
    assert result.winners == (("test:ann" if engine.current == "test:bob" else "test:bob"),)
    assert not second.errors
    await second.shutdown()

    # a third process replays the log, pause included, to the same end
    third, _ = _manager(clock, log)
    start = next(iter(log.started.values()))
    replayed = third.recovery.restored(GAME, start, list(log.actions[start.game_id]))
    assert replayed.engine is not None and replayed.engine.finished
    assert replayed.engine.result() == result


async def test_a_refused_move_is_explained_to_its_author() -> None:
    clock, log = FakeClock(), MemoryLog()
    manager, outbox = _manager(clock, log)
    await manager.handle(Command("start", ("board", "bots=1"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    engine = manager.sessions[CHAT].engine
    assert isinstance(engine, BoardGame)
    if engine.current != "test:ann":
        await clock.advance(3.0)  # the computer player moves first
    await manager.handle(Command("play", ("Z99", "across", "HI"), CHAT, ANN))
    assert any("Z99 is not a square" in p.view.plain() for p in outbox.privates())
    await manager.shutdown()
