"""Whole board games through the real manager, registry entry and lexicon, on a fake clock."""

from __future__ import annotations

import random

from bot.clock import FakeClock
from bot.events import ChatKey, Command, Player
from bot.manager import GameManager
from bot.registry import Registry
from bot.testing import FakeOutbox, MemoryLog
from games.board import GAME
from games.board.engine import BoardGame

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


async def test_a_game_survives_a_restart_mid_turn_with_its_deadline() -> None:
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

    await clock.advance(5 * 3600.0)  # down for five hours
    second, outbox = _manager(clock, log)
    unfinished = [(start, list(log.actions[gid])) for gid, start in log.started.items()]
    await second.recover(unfinished)
    await clock.settle()
    after = second.sessions[CHAT].engine
    assert isinstance(after, BoardGame)
    assert after.racks == racks and after.turn_ends() == turn_ends and after.next_deadline() == deadline
    assert after.current == engine.current
    # the reminder at 8 hours left and then the timeout still come on time
    await clock.advance(turn_ends - 8 * 3600.0 - clock.now())
    assert any("8 hours left" in t for t in outbox.texts(CHAT))
    await clock.advance(turn_ends - clock.now())
    assert CHAT not in second.sessions
    (result,) = log.results.values()
    assert result.winners == (("test:ann" if engine.current == "test:bob" else "test:bob"),)
    assert not second.errors
    await second.shutdown()


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
