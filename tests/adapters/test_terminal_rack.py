"""The terminal is one person's screen: their own rack or hand stays in the live table under
the prompt in a turn-based game (and no one else's), and after a game every command is
answered at the "play again" question as it is anywhere.

In process, on a fake clock, with the real games and their computer players.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

import pytest

from adapters.terminal.app import YOU, TerminalAdapter, TerminalOutbox
from adapters.terminal.live import LiveTable
from bot.core import views
from bot.core.clock import FakeClock
from bot.core.registry import Registry, load_default
from bot.hosting.manager import GameManager
from games.common.engine import GameEngine
from tests.bot.toygame import TOY, ToyEngine
from tests.doubles import Keyboard, MemoryLog

#: Wide and tall enough that the whole live table shows: what is missing is missing.
ROWS, COLUMNS = 60, 200


@dataclass
class Table:
    """A terminal game under way: its screen, its live table and its keyboard."""

    clock: FakeClock
    screen: list[str]
    live: LiveTable
    manager: GameManager
    keys: Keyboard
    run: asyncio.Future[int]

    def engine(self) -> GameEngine:
        session = next(iter(self.manager.sessions.values()))
        assert isinstance(session.engine, GameEngine)
        return session.engine

    def shown(self) -> str:
        return self.live.text(ROWS, COLUMNS)

    async def close(self) -> None:
        self.keys.type("/quit")
        assert await self.run == 0
        await self.manager.shutdown()


async def _terminal(game: str, *options: str) -> Table:
    """The terminal playing ``game`` in a real terminal's way (the table held live), dealt."""
    clock = FakeClock()
    screen: list[str] = []
    live = LiveTable(clock, colour=False)
    outbox = TerminalOutbox(screen.append, clock, colour=False, live=live)
    manager = GameManager(load_default(), outbox, MemoryLog(), clock, rng=random.Random(5))
    keys = Keyboard()
    adapter = TerminalAdapter(
        manager, outbox, keys.lines(), screen.append, game=game, options=options, language="en"
    )
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)  # 3… 2… 1…, and the deal
    assert live.view is not None, "the first table"
    return Table(clock, screen, live, manager, keys, run)


def _own_lines(engine: GameEngine, seat: str) -> list[str]:
    """What ``seat``'s own view of the game says that the public table does not."""
    public = engine.snapshot(None).lines
    return [line for line in views.private(engine.snapshot(seat), "").lines if line not in public]


def _seats(engine: GameEngine) -> list[str]:
    return [seat.seat for seat in engine.snapshot(None).seats]


@pytest.mark.parametrize(
    ("game", "options", "label"),
    [
        ("board", ("bots=2", "live=on"), "Your rack: "),
        ("shed", ("bots=2",), "Your hand: "),
        ("paths", ("bots=2",), "Your tiles: "),
    ],
)
async def test_the_live_table_shows_your_own_rack_and_no_one_else_s(
    game: str, options: tuple[str, ...], label: str
) -> None:
    table = await _terminal(game, *options)
    engine = table.engine()
    mine = _own_lines(engine, YOU.seat_id)
    assert any(line.startswith(label) for line in mine), mine
    shown = table.shown().split("\n")
    assert all(line in shown for line in mine), (mine, shown)
    others = [seat for seat in _seats(engine) if seat != YOU.seat_id]
    assert len(others) == 2
    for seat in others:
        theirs = _own_lines(engine, seat)
        assert theirs and not any(line in shown for line in theirs), (seat, theirs, shown)
    assert shown[-1].startswith(label), "under the table, at the bottom of the screen"
    await table.close()


async def test_dice_hide_nothing_so_the_live_table_only_says_whose_side_moves() -> None:
    table = await _terminal("dice", "bots=1", "live=on")
    assert table.shown().split("\n")[-1] in {"Your side's turn.", "Waiting for the other side."}
    await table.close()


async def test_your_hand_in_the_live_table_follows_each_draw() -> None:
    table = await _terminal("shed", "bots=1")
    engine = table.engine()
    for _ in range(3):
        # a computer player's turn takes game time: the clock moves until it is the person's
        for _turn in range(600):
            if any(s.active and s.seat == YOU.seat_id for s in engine.snapshot(None).seats):
                break
            await table.clock.advance(1.0)
        before = _own_lines(engine, YOU.seat_id)
        table.keys.type("draw")
        await table.clock.advance(0.1)
        after = _own_lines(engine, YOU.seat_id)
        assert after != before, "the draw"
        shown = table.shown().split("\n")
        assert all(line in shown for line in after) and not any(line in shown for line in before), shown
    await table.close()


async def test_a_race_keeps_its_live_table_as_it_was() -> None:
    table = await _terminal("race", "bots=1", "cards=4")
    assert table.live.own is None
    await table.close()


async def test_after_the_game_commands_are_answered_and_only_enter_plays_again() -> None:
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([TOY]), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    adapter = TerminalAdapter(manager, outbox, keys.lines(), screen.append, game="toy", options=["target=1"])
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)
    engine = next(iter(manager.sessions.values())).engine
    assert isinstance(engine, ToyEngine)
    keys.type(engine.letter + "ox")
    await clock.advance(0.2)  # the settle window: won, and over
    assert "Press Enter to play again, or type /quit.\n" in screen
    asked = len(screen)
    keys.type("/help")
    keys.type("/rules toy")
    await clock.advance(0.1)
    after = "".join(screen[asked:])
    assert "moji commands" in after and "First to the target wins." in after
    assert "(The game is over.)" not in after
    assert after.count("Press Enter to play again, or type /quit.") == 2, "asked again under each answer"
    assert "Go!" not in after and not manager.sessions, "a command is not Enter"
    keys.type("")  # Enter: another game
    await clock.advance(3)
    assert "".join(screen).count("Go!") == 2
    keys.type(None)
    assert await run == 0
    await manager.shutdown()


async def test_without_a_live_table_each_printed_table_carries_your_own_rack() -> None:
    # a pipe or TERM=dumb: tables scroll as printed, each with the person's rack under it
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(load_default(), outbox, MemoryLog(), clock, rng=random.Random(5))
    keys = Keyboard()
    adapter = TerminalAdapter(
        manager,
        outbox,
        keys.lines(),
        screen.append,
        game="board",
        options=("bots=2", "live=on"),
        language="en",
    )
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)
    session = next(iter(manager.sessions.values()))
    assert isinstance(session.engine, GameEngine)
    for _ in range(40):  # a few turns of the computer players
        await clock.advance(1.0)
    engine = session.engine
    mine = [line for line in _own_lines(engine, YOU.seat_id) if line.startswith("Your rack: ")]
    assert mine, "the person has a rack"
    tables = [text for text in screen if "Your rack: " in text and "(only you see this)" not in text]
    assert tables, "a printed table with the rack under it"
    assert tables[-1].rstrip("\n").split("\n")[-1] == mine[0], "the rack as it is now, under the table"
    others = [seat for seat in _seats(engine) if seat != YOU.seat_id]
    theirs = {line for seat in others for line in _own_lines(engine, seat)}
    assert not any(line in text for text in screen for line in theirs), "no one else's rack"
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()
