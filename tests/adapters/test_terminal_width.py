"""The terminal table fits the window: every player's score shows, whatever the width.

The live table sits in the prompt's bottom toolbar, which cuts a line at the window's
edge; the table is wrapped to the window's width instead. Checked on the text of every
game's real table (for several player counts and widths), as a property over any players'
names and details, and on the screen of a real pseudo-terminal as a player sees it.
"""

from __future__ import annotations

import os
import re
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from adapters.terminal.live import LiveTable
from adapters.terminal.render import columns, render, shorten
from bot.core import views
from bot.core.clock import FakeClock
from bot.core.registry import load_default
from bot.sessions.lobby import BOT_NAMES
from games.common.protocol import CardFace, Seat, SeatLine, Setup

WIDTHS = (40, 60, 80, 120)


def _fits(text: str, width: int) -> None:
    for line in text.split("\n"):
        assert columns(line) <= width or " " not in line.strip(), (width, line)


def _scores_show(text: str, seats: tuple[SeatLine, ...], width: int = 0) -> None:
    """Each seat's name and score on one line (for a name too wide for the window: its last word)."""
    lines = text.split("\n")
    for seat in seats:
        shown = f"{seat.name}: {seat.score}"
        if columns(f"  ▶{shown}") > width > 0:
            # a name wider than the window is shortened (with …) so that its score shows
            shown = f"{shorten(seat.name, width - 3 - columns(f': {seat.score}'))}: {seat.score}"
        assert any(shown in line for line in lines), (shown, text)


@cache
def _table(game: str, players: int) -> views.View:
    """The real opening table of ``game`` for ``players`` players (the first one a person)."""
    info = load_default().find(game)
    assert info is not None
    seats = [Seat("terminal:you", "You")] + [
        Seat(f"bot:{i}", f"{BOT_NAMES[i - 1]} (bot)", "normal") for i in range(1, players)
    ]
    engine = info.create(Setup({}, seats, seed=7))
    return views.table(engine.snapshot(), game, realtime=info.realtime)


GAMES = [(game, players) for game in ("race", "board", "dice", "paths", "shed") for players in (2, 4)]


@pytest.mark.parametrize(("game", "players"), GAMES)
@pytest.mark.parametrize("width", WIDTHS)
def test_every_games_table_fits_with_every_score_shown(game: str, players: int, width: int) -> None:
    view = _table(game, players)
    assert view.seats, "a table names its players"
    table = LiveTable(FakeClock(), colour=False)
    table.show(view)
    text = table.text(rows=50, columns=width)
    _fits(text, width)
    _scores_show(text, view.seats)
    coloured = render(view, colour=True, now=0.0, width=width)
    _fits(coloured, width)


def test_the_three_bot_race_of_the_issue_fits_80_columns() -> None:
    # "▶Basil (bot): 5 (7 car" was all that showed of the last player at 80 columns
    seats = (
        SeatLine("you", "You", 0, "13 cards left, waiting to flip"),
        SeatLine("bot:1", "Ada (bot)", 6, "13 cards left, waiting to flip"),
        SeatLine("bot:2", "Basil (bot)", 5, "7 cards left", active=True),
        SeatLine("bot:3", "Cleo (bot)", 12, "7 cards left", active=True),
    )
    view = views.View(kind="table", title="moji race", cards=(CardFace("Q", 10, "blue"),), seats=seats)
    for width in (40, 80, 120):
        text = render(view, colour=False, now=0.0, width=width)
        _fits(text, width)
        _scores_show(text, seats)
        assert "Cleo (bot): 12 (7 cards left)" in text
        assert text.count("waiting to flip") == 2 or width < 50
    # no width (a pipe): one line, as before
    assert render(view, colour=False).count("│") == 3


names = st.text(st.characters(codec="utf-8", categories=["L", "N", "Zs"]), min_size=1, max_size=32).map(
    lambda name: " ".join(name.split()) or "x"
)
seat_lines = st.builds(
    SeatLine,
    seat=st.just("s"),
    name=names,
    score=st.integers(-999, 9999),
    detail=st.sampled_from(["", "to play", "12 cards left", "13 cards left, waiting to flip", "out"]),
    active=st.booleans(),
)


@settings(max_examples=200, deadline=None)
@given(seats=st.lists(seat_lines, min_size=1, max_size=12), width=st.integers(40, 220))
def test_any_players_scores_show_at_any_width(seats: list[SeatLine], width: int) -> None:
    view = views.View(kind="table", title="moji", seats=tuple(seats), deadline=30.0)
    text = render(view, colour=False, now=0.0, width=width)
    _fits(text, width)
    _scores_show(text, view.seats, width)


# ------------------------------------------------------------------ a real pseudo-terminal

pexpect = pytest.importorskip("pexpect")
pyte = pytest.importorskip("pyte")


class Screen(pyte.Screen):  # type: ignore[misc]
    """A terminal emulator's screen that answers the program's cursor position requests."""

    def __init__(self, columns: int, lines: int, child: Any) -> None:
        super().__init__(columns, lines)
        self.child = child

    def write_process_input(self, data: str) -> None:
        self.child.send(data)


@pytest.mark.parametrize("width", [40, 80])
def test_a_player_sees_every_score_at_the_bottom_of_the_window(tmp_path: Path, width: int) -> None:
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path}/moji.db", NO_COLOR="1", TERM="xterm")
    args = ["-m", "bot", "terminal", "--bots", "3", "--speed", "20", "--no-colour"]
    child = pexpect.spawn(sys.executable, args, env=env, encoding="utf-8", dimensions=(24, width), timeout=90)
    screen = Screen(width, 24, child)
    stream = pyte.Stream(screen)
    names = ("You", "Ada (bot)", "Basil (bot)", "Cleo (bot)")
    wanted = [re.compile(rf"{re.escape(name)}: \d+") for name in names]
    try:
        while True:  # read what the bot draws until the whole scoreboard is on the screen
            stream.feed(child.read_nonblocking(4096, timeout=60))
            shown = "\n".join(screen.display)
            if all(pattern.search(shown) for pattern in wanted) and "⏳" in shown:
                break
            assert "Press Enter to play again" not in shown, f"game over first:\n{shown}"
        assert all(columns(line.rstrip()) <= width for line in screen.display)
        child.send("/quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)
