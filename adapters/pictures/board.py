"""Board and grid pictures (MOJO, dice crossings, Mark My Words paths).

Any view or snapshot with a ``board`` (rows of cells, see
:class:`games.common.protocol.Cell`) can be drawn. Squares are labelled with
their text as well as their colour ("TL", "DW", ★), tiles show their letter
and points, a blank tile's letter is drawn hollow-grey with no points, and the
tiles of the last move get a thick orange frame — nothing depends on telling
colours apart.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Protocol

from PIL import Image, ImageDraw

from adapters.pictures.fonts import font
from games.common.speech import N_, _

__all__ = ["CELL", "render_board"]

#: Side of one square, in pixels (a 16×16 board is about 700 px wide).
CELL = 40
_PAD = 16
_LABEL = 22
_BACKGROUND = (47, 49, 54)
_TITLE = (235, 236, 240)
_LABEL_INK = (185, 187, 194)
_EMPTY = (214, 208, 196)
_GRID_LINE = (120, 116, 108)
_TILE = (250, 236, 200)
_TILE_INK = (30, 30, 30)
_BLANK_INK = (110, 110, 110)
_RECENT = (230, 159, 0)  # Okabe–Ito orange
_SHADES = {"blue": (186, 210, 230), "pink": (236, 200, 214)}
#: Bonus squares: fill and label (Okabe–Ito based, all with a text label too).
_PREMIUMS = {
    # TRANSLATORS: short labels drawn on bonus squares (double/triple letter, double/triple word)
    "DL": ((148, 196, 228), N_("DL")),
    "TL": ((0, 114, 178), N_("TL")),
    "DW": ((230, 150, 180), N_("DW")),
    "TW": ((204, 121, 167), N_("TW")),
    "star": ((240, 228, 66), "★"),
}


class Square(Protocol):
    """One square (``games.common.protocol.Cell`` fits)."""

    @property
    def letter(self) -> str: ...
    @property
    def points(self) -> int: ...
    @property
    def blank(self) -> bool: ...
    @property
    def premium(self) -> str: ...
    @property
    def shade(self) -> str: ...
    @property
    def recent(self) -> bool: ...


def _column_label(index: int) -> str:
    label = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        label = chr(ord("A") + rest) + label
    return label


def _draw_square(draw: ImageDraw.ImageDraw, square: Square, left: int, top: int) -> None:
    box = (left, top, left + CELL - 1, top + CELL - 1)
    if square.letter:
        draw.rectangle(box, fill=_TILE, outline=_GRID_LINE)
        ink = _BLANK_INK if square.blank else _TILE_INK
        draw.text(
            (left + CELL / 2 - 2, top + CELL / 2 + 1), square.letter[:2], font=font(24), fill=ink, anchor="mm"
        )
        if not square.blank and square.points:  # tiles without points (Mark My Words) show none
            draw.text(
                (left + CELL - 4, top + CELL - 3), str(square.points), font=font(11), fill=ink, anchor="rd"
            )
        if square.recent:
            draw.rectangle(box, outline=_RECENT, width=3)
        return
    fill = _SHADES.get(square.shade, _EMPTY)
    premium = _PREMIUMS.get(square.premium)
    if premium is not None:
        fill = premium[0]
    draw.rectangle(box, fill=fill, outline=_GRID_LINE)
    if premium is not None:
        size = 20 if square.premium == "star" else 13
        ink = (20, 20, 20) if square.premium in {"DL", "star"} else (255, 255, 255)
        shown = premium[1] if square.premium == "star" else _(premium[1])
        draw.text((left + CELL / 2, top + CELL / 2), shown, font=font(size), fill=ink, anchor="mm")


def render_board(board: Sequence[Sequence[Square]], *, labels: bool = True, title: str = "") -> bytes:
    """A board as a PNG: squares, tiles, bonus squares and (optionally) A1-style labels."""
    rows = len(board)
    cols = max((len(row) for row in board), default=0)
    label = _LABEL if labels else 0
    title_height = 40 if title else 0
    size = (_PAD * 2 + label + cols * CELL, _PAD * 2 + title_height + label + rows * CELL)
    image = Image.new("RGB", size, _BACKGROUND)
    draw = ImageDraw.Draw(image)
    if title:
        draw.text((_PAD, _PAD), title[:60], font=font(26), fill=_TITLE)
    top0 = _PAD + title_height + label
    left0 = _PAD + label
    if labels:
        for col in range(cols):
            draw.text(
                (left0 + col * CELL + CELL / 2, top0 - 4),
                _column_label(col),
                font=font(13),
                fill=_LABEL_INK,
                anchor="md",
            )
        for row in range(rows):
            draw.text(
                (left0 - 5, top0 + row * CELL + CELL / 2),
                str(row + 1),
                font=font(13),
                fill=_LABEL_INK,
                anchor="rm",
            )
    for r, row_cells in enumerate(board):
        for c, square in enumerate(row_cells):
            _draw_square(draw, square, left0 + c * CELL, top0 + r * CELL)
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()
