"""A turn-based game's buttons: one's own rack privately, and the moves that need no typing."""

from __future__ import annotations

import random

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Button, Command
from bot.core.registry import Registry
from bot.core.views import HAND, MOVE
from bot.hosting.handlers.buttons import button_command
from bot.hosting.manager import GameManager
from tests.bot.conftest import ANN, BOB, CHAT
from tests.doubles import FakeOutbox, MemoryLog

board = pytest.importorskip("games.board")


def test_buttons_stand_for_commands() -> None:
    assert button_command(HAND) == ("hand", ())
    assert button_command(MOVE + "pass") == ("play", ("pass",))
    assert button_command("moji:join") == ("join", ())
    assert button_command(MOVE) is None and button_command("moji:nope") is None


async def test_the_board_has_rack_and_move_buttons_that_work() -> None:
    clock, outbox = FakeClock(), FakeOutbox()
    manager = GameManager(Registry([board.GAME]), outbox, MemoryLog(), clock, rng=random.Random(3))
    await manager.handle(Command("start", ("board",), CHAT, ANN))
    await manager.handle(Command("join", (), CHAT, BOB))
    await manager.handle(Command("go", (), CHAT, ANN))
    table = [p for p in outbox.posts() if p.view.kind == "table"][-1]
    assert [b.label for b in table.view.buttons] == ["My rack", "Pass", "Resign"]

    await manager.handle(Button(CHAT, BOB, HAND))
    rack = outbox.privates()[-1]
    assert rack.player == BOB and "Your rack" in rack.view.plain() and not rack.view.board

    session = manager.sessions[CHAT]
    first = next(s for s in session.engine.snapshot(None).seats if s.active)
    other = BOB if first.seat == ANN.seat_id else ANN
    await manager.handle(Button(CHAT, other, MOVE + "pass"))  # not their turn: refused privately
    assert outbox.privates()[-1].player == other and "turn" in outbox.privates()[-1].view.plain()
    await manager.handle(Button(CHAT, other, MOVE + "resign"))  # resigning needs no turn
    assert CHAT not in manager.sessions
    final = [p for p in outbox.posts() if p.view.kind == "table"][-1]
    assert final.view.buttons == (), "a finished game's table has no buttons"
