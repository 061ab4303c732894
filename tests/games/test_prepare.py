"""A lobby with non-default word rules prepares its computer players' word index, so the first
computer move builds nothing (counted, not timed)."""

from __future__ import annotations

import asyncio

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Command
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from games.board import GAME as BOARD
from games.board import trie
from games.board.engine import BoardGame
from games.common.protocol import GameInfo
from games.shed import GAME as SHED
from games.shed import bots as shed_bots
from games.shed.engine import ShedGame
from tests.bot.conftest import ANN, CHAT
from tests.doubles import FakeOutbox, MemoryLog


def builds() -> tuple[int, int]:
    """Shed word indexes and board tries built so far in this process."""
    return len(shed_bots.built()), len(trie.built())


async def first_computer_move(info: GameInfo, *options: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """Open a lobby with ``options`` as a server would (preparing in a thread), then play until
    a computer player has moved: the build counts after the lobby and after that move."""
    manager = GameManager(Registry([info]), FakeOutbox(), MemoryLog(), FakeClock(), think_in_thread=True)
    await manager.handle(Command("start", (info.name, "bots=1", "level=normal", *options), CHAT, ANN))
    await asyncio.gather(*[t for t in manager.tasks if t.get_name().startswith("prepare ")])
    prepared = builds()
    await manager.handle(Command("go", (), CHAT, ANN))
    clock = manager.clock
    assert isinstance(clock, FakeClock)
    for _ in range(200):
        engine = manager.sessions[CHAT].engine
        if isinstance(engine, ShedGame) and engine.bot_turn_done >= 0:
            break
        if isinstance(engine, BoardGame) and engine.moves >= 2:  # two players take turns: the bot moved
            break
        if engine.current == ANN.seat_id:  # type: ignore[attr-defined]
            await manager.handle(Command("play", ("draw" if info is SHED else "pass",), CHAT, ANN))
        await clock.advance(5.0)
    after = builds()
    await manager.shutdown()
    return prepared, after


@pytest.mark.parametrize(
    ("info", "options"),
    [
        (SHED, ("min=5", "easy=on", "dictionary=casual")),
        (BOARD, ("dict=casual",)),
    ],
    ids=["shed", "board"],
)
async def test_the_first_computer_move_after_a_lobby_finds_its_words_ready(
    info: GameInfo, options: tuple[str, ...]
) -> None:
    prepared, after = await first_computer_move(info, *options)
    assert after == prepared  # the computer player's first move built nothing: the lobby had
    if info is SHED:
        assert any(key[1].min_length == 5 and key[-1] == 2.5 for key in shed_bots.built())  # type: ignore[attr-defined]
    else:
        assert ("casual", "en", 2.5) in trie.built()


def test_without_preparing_the_first_move_builds_the_index() -> None:
    """The count the test above relies on does count a move's own build."""
    from games.common.options import parse_options
    from games.common.protocol import Action, Seat, Setup

    options = parse_options(SHED.options, ("min=4", "dictionary=casual", "verbs=off"))
    seats = [Seat("bot:1", "One", "easy"), Seat("bot:2", "Two", "easy")]
    game = SHED.create(Setup(options=options, seats=seats, seed=3))
    game.apply(Action("begin", 0.0))
    before = builds()
    due = game.next_bot_time()
    assert due is not None
    assert game.bot_claims(due)
    assert builds()[0] == before[0] + 1
