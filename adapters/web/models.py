"""What a game's page is rendered from: the models its templates read (the board's squares, the
scores, the page's whole state for one viewer), built from the game's neutral snapshot. The
companion (:mod:`adapters.web.companion`) builds them for players and watchers of a running game,
the watch page (:mod:`adapters.web.watch`) and a replay (:mod:`adapters.web.replay`) too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.common.protocol import Snapshot
from games.common.speech import N_, _, _n

#: Premium names for people (a cell's accessible name: "H8, double word").
PREMIUMS = {
    "DL": N_("double letter"),
    "TL": N_("triple letter"),
    "DW": N_("double word"),
    "TW": N_("triple word"),
    "star": N_("star"),
}


@dataclass(frozen=True, slots=True)
class CellModel:
    """One square, as a page shows it."""

    row: int
    col: int
    name: str  # "H8"
    label: str  # "H8, double word" / "H8, A, 1 point"
    letter: str
    points: int
    blank: bool
    premium: str
    shade: str
    recent: bool


@dataclass(frozen=True, slots=True)
class SeatModel:
    """One line of the scoreboard."""

    name: str
    score: int
    detail: str
    active: bool
    you: bool


@dataclass(frozen=True, slots=True)
class PageModel:
    """Everything one page shows: the board (the snapshot's squares, for a game that has one),
    scores, whose turn, the time left and the last moves, and the game's own part (its view's:
    a player's rack or hand, never a watcher's). Built per viewer, never shared.

    ``lines`` and ``log`` are moji's text with their user parts marked (:mod:`games.common.text`):
    a template shows them through the ``chat`` filter (:func:`adapters.web.text.web_html`)."""

    title: str
    game_id: str
    watcher: bool
    board: tuple[tuple[CellModel, ...], ...]
    seats: tuple[SeatModel, ...]
    lines: tuple[str, ...]
    deadline: float | None
    your_turn: bool
    running: bool
    ended: str = ""
    log: tuple[str, ...] = ()
    #: The game (its page's templates: :mod:`adapters.web.pages`) and its view's own part of the
    #: page, built for this viewer.
    game: str = ""
    part: Any = None


def cell_label(name: str, letter: str, points: int, blank: bool, premium: str) -> str:
    """A square's accessible name: its coordinate and what is on it."""
    if letter:
        if blank:
            return _("{square}, {letter}, blank", square=name, letter=letter)
        return _n(
            "{square}, {letter}, {count} point",
            "{square}, {letter}, {count} points",
            points,
            square=name,
            letter=letter,
        )
    if premium:
        return _(
            "{square}, {bonus}", square=name, bonus=_(PREMIUMS[premium]) if premium in PREMIUMS else premium
        )
    return _("{square}, empty", square=name)


def cells(snapshot: Snapshot) -> tuple[tuple[CellModel, ...], ...]:
    """The squares of ``snapshot``'s board (none: no board), each named for people."""
    rows = []
    for r, row in enumerate(snapshot.board):
        cells = []
        for c, cell in enumerate(row):
            name = f"{chr(65 + c)}{r + 1}"
            cells.append(
                CellModel(
                    r,
                    c,
                    name,
                    cell_label(name, cell.letter, cell.points, cell.blank, cell.premium),
                    cell.letter,
                    cell.points,
                    cell.blank,
                    cell.premium,
                    cell.shade,
                    cell.recent,
                )
            )
        rows.append(tuple(cells))
    return tuple(rows)
