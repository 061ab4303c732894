"""The dice mat: where the words lie, as text rows and as squares for the pictures.

During a turn only the word to cross is on the mat (the word it crossed was picked up
with the dice to roll); when play stops, the last word is shown crossing the one before.
Words alternate across and down.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.common.protocol import Cell
from games.dice.rules import Fit, Placed

EMPTY = "·"


@dataclass(frozen=True, slots=True)
class MatWord:
    """A word lying on the mat: its dice, direction and the square of its first letter."""

    fit: Fit
    across: bool
    row: int
    col: int

    @property
    def placed(self) -> tuple[Placed, ...]:
        """The word's dice, first letter first."""
        return self.fit.placed

    def squares(self) -> list[tuple[int, int, Placed]]:
        """``(row, col, die)`` for each letter."""
        if self.across:
            return [(self.row, self.col + k, p) for k, p in enumerate(self.placed)]
        return [(self.row + k, self.col, p) for k, p in enumerate(self.placed)]


def lay(fit: Fit, under: MatWord | None) -> MatWord:
    """Where ``fit`` lies: the first word across at the origin, later ones crossing ``under``."""
    if under is None or fit.cross is None or fit.prev is None:
        return MatWord(fit, True, 0, 0)
    row, col, _ = under.squares()[fit.prev]
    if under.across:
        return MatWord(fit, False, row - fit.cross, col)
    return MatWord(fit, True, row, col - fit.cross)


def _letter(p: Placed) -> str:
    return p.letter if p.blank else p.letter.upper()


def _layout(
    words: Sequence[MatWord],
) -> tuple[dict[tuple[int, int], tuple[Placed, bool]], int, int, int, int]:
    squares: dict[tuple[int, int], tuple[Placed, bool]] = {}
    for n, word in enumerate(words):
        recent = n == len(words) - 1
        for row, col, p in word.squares():
            if (row, col) not in squares or recent:
                squares[(row, col)] = (p, recent)
    rows = [r for r, _ in squares]
    cols = [c for _, c in squares]
    return squares, min(rows), max(rows), min(cols), max(cols)


def grid(words: Sequence[MatWord]) -> tuple[str, ...]:
    """Text rows of the mat (blanks in lower case, ``·`` for an empty square); () when empty."""
    if not words:
        return ()
    squares, top, bottom, left, right = _layout(words)
    out: list[str] = []
    for r in range(top, bottom + 1):
        cells = [_letter(squares[(r, c)][0]) if (r, c) in squares else EMPTY for c in range(left, right + 1)]
        out.append(" ".join(cells).rstrip(" " + EMPTY) or EMPTY)
    return tuple(out)


def board(words: Sequence[MatWord]) -> tuple[tuple[Cell, ...], ...]:
    """The same mat square by square (the newest word marked ``recent``); () when empty."""
    if not words:
        return ()
    squares, top, bottom, left, right = _layout(words)
    rows: list[tuple[Cell, ...]] = []
    for r in range(top, bottom + 1):
        row: list[Cell] = []
        for c in range(left, right + 1):
            found = squares.get((r, c))
            if found is None:
                row.append(Cell())
            else:
                p, recent = found
                row.append(Cell(letter=p.letter.upper(), points=p.points, blank=p.blank, recent=recent))
        rows.append(tuple(row))
    return tuple(rows)
