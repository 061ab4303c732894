"""A board game in the terminal adapter against a computer player, on a fake clock."""

from __future__ import annotations

import asyncio
import random

from adapters.terminal.app import TerminalAdapter, TerminalOutbox
from bot.core.clock import FakeClock
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from games.board import GAME
from games.board.engine import BoardGame
from games.board.player import choose
from tests.doubles import Keyboard, MemoryLog


async def test_a_whole_board_game_in_the_terminal_against_a_computer_player() -> None:
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    log = MemoryLog()
    manager = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(3))
    keys = Keyboard()
    options = ["bots=1", "level=hard", "layout=classic", "live"]
    adapter = TerminalAdapter(manager, outbox, keys.lines(), screen.append, game="board", options=options)
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)
    engine = next(iter(manager.sessions.values())).engine
    assert isinstance(engine, BoardGame)
    mine = random.Random(1)
    for _ in range(300):
        if engine.finished:
            break
        if engine.current.startswith("bot:"):
            await clock.advance(2.5)
            continue
        rack = engine.racks[engine.current]
        rules = (engine.layout.rack, engine.layout.bingo, len(engine.bag), "tournament")
        keys.type(choose(engine.board, rack, engine.check, "normal", mine, rules))
        await clock.advance(0.1)
    text = "".join(screen)
    assert engine.finished, text[-2000:]
    assert engine.board.count > 20 and "Final scores" in engine.summary
    assert " 8 " in text and "A B C D E F G H I J K L M N O" in text  # the text board
    assert "game over" in text
    (result,) = log.results.values()
    assert set(result.scores) == {"test:you", "bot:1"} or len(result.scores) == 2
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()
