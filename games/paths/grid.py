"""Grid geometry: square names (``E5``), edge neighbours and text grids.

A grid is a flat list of squares, row by row from the top left. A square holds
a lower-case letter, :data:`EMPTY` or :data:`BLANK` (a blank tile, which is no
letter and blocks paths). Squares are named by column letter and row number
from the top left, like ``A1`` … ``L12``.
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache

from games.common.languages import ENGLISH, Language

EMPTY = ""
BLANK = "#"

_SQUARE = re.compile(r"^([a-zA-Z])(\d{1,2})$")


class GridError(ValueError):
    """A text grid or a square name that could not be read (the message says why)."""


@cache
def neighbours(width: int, height: int) -> tuple[tuple[int, ...], ...]:
    """For each square, the squares sharing an edge with it (never a corner)."""
    out: list[tuple[int, ...]] = []
    for row in range(height):
        for col in range(width):
            near: list[int] = []
            if row > 0:
                near.append((row - 1) * width + col)
            if col > 0:
                near.append(row * width + col - 1)
            if col < width - 1:
                near.append(row * width + col + 1)
            if row < height - 1:
                near.append((row + 1) * width + col)
            out.append(tuple(near))
    return tuple(out)


def square_name(index: int, width: int) -> str:
    """``E5`` for the square at ``index`` on a grid ``width`` squares wide."""
    row, col = divmod(index, width)
    return f"{chr(65 + col)}{row + 1}"


def parse_square(text: str, width: int, height: int) -> int | None:
    """The index of square ``text`` (``E5``, ``e5``), or None if it is not a square of this grid."""
    match = _SQUARE.match(text.strip())
    if match is None:
        return None
    col = ord(match.group(1).upper()) - 65
    row = int(match.group(2)) - 1
    if not (0 <= col < width and 0 <= row < height):
        return None
    return row * width + col


def looks_like_square(text: str) -> bool:
    """True when ``text`` has the shape of a square name (a letter and a number)."""
    return _SQUARE.match(text.strip()) is not None


def read_letter(text: str, language: Language = ENGLISH) -> str | None:
    """One tile's letter as typed (``E``, ``é``, ``Ñ``), folded to ``language``'s letters, or
    None when it is not one letter of the language (``ß`` is two: SS)."""
    if len(text) == 1 and text.isascii() and text.isalpha():
        return text.lower()
    folded = language.fold(text) if len(text) <= 2 else None  # a letter and a combining mark
    return folded if folded is not None and len(folded) == 1 else None


def read_grid(text: str, language: Language = ENGLISH) -> tuple[list[str], int, int]:
    """Read a text grid: one row per line, a letter per square, ``.`` empty, ``#`` a blank tile.

    Letters fold to ``language``'s (``Ä`` is ``ä`` in German, ``a`` in French). Spaces
    between squares are ignored; blank lines are skipped. Returns
    ``(squares, width, height)``; raises :class:`GridError` with a reason.
    """
    rows: list[list[str]] = []
    for number, line in enumerate(text.splitlines(), start=1):
        cells = [ch for ch in unicodedata.normalize("NFC", line) if not ch.isspace()]
        if not cells:
            continue
        row: list[str] = []
        for ch in cells:
            if ch == ".":
                row.append(EMPTY)
            elif ch == BLANK:
                row.append(BLANK)
            elif (letter := read_letter(ch, language)) is not None:
                row.append(letter)
            else:
                raise GridError(f"line {number}: {ch!r} is not a letter, '.' (empty) or '#' (blank tile)")
        rows.append(row)
    if not rows:
        raise GridError("the grid is empty")
    width = len(rows[0])
    if any(len(row) != width for row in rows):
        raise GridError("every row of the grid must have the same number of squares")
    if width > 26:
        raise GridError("a grid is at most 26 squares wide (columns A to Z)")
    return [cell for row in rows for cell in row], width, len(rows)


def text_rows(squares: list[str], width: int) -> list[str]:
    """The grid as text rows, with column letters and row numbers."""
    height = len(squares) // width
    pad = len(str(height))
    out = [" " * (pad + 1) + " ".join(chr(65 + c) for c in range(width))]
    for row in range(height):
        cells = squares[row * width : (row + 1) * width]
        shown = " ".join("." if c == EMPTY else c.upper() for c in cells)
        out.append(f"{row + 1:>{pad}} {shown}")
    return out
