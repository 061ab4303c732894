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
