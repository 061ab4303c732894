"""Board and grid pictures (MOJO, dice crossings, Mark My Words paths).

Any view or snapshot with a ``board`` (rows of cells, see
:class:`games.common.protocol.Cell`) can be drawn. Squares are labelled with
their text as well as their colour ("TL", "DW", ★), tiles show their letter
and points, a blank tile's letter is drawn hollow-grey with no points, and the
tiles of the last move get a thick orange frame — nothing depends on telling
colours apart.

Each square is drawn once and kept (:func:`_square`), the frame of a board (its background,
labels and title) too, and a board is composed from them on the shared palette
(:mod:`adapters.pictures.palette`); the last boards asked for are kept whole.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple, Protocol

from PIL import Image, ImageDraw

from adapters.pictures import palette
from adapters.pictures.fonts import font
from games.common.speech import N_, _

__all__ = ["CELL", "board_image", "render_board"]

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


class _Shown(NamedTuple):
    """What one square's picture shows (a bonus square's label in the language spoken)."""

    letter: str
    points: int
    blank: bool
    premium: str
    shade: str
    recent: bool
    label: str

    @classmethod
    def of(cls, square: Square) -> _Shown:
        premium = _PREMIUMS.get(square.premium)
        label = (
            ""
            if premium is None or square.letter
            else (premium[1] if square.premium == "star" else _(premium[1]))
        )
        return cls(
            square.letter[:2], square.points, square.blank, square.premium, square.shade, square.recent, label
        )


def _draw_square(draw: ImageDraw.ImageDraw, square: _Shown, left: int, top: int) -> None:
    box = (left, top, left + CELL - 1, top + CELL - 1)
    if square.letter:
        draw.rectangle(box, fill=_TILE, outline=_GRID_LINE)
        ink = _BLANK_INK if square.blank else _TILE_INK
        draw.text(
            (left + CELL / 2 - 2, top + CELL / 2 + 1), square.letter, font=font(24), fill=ink, anchor="mm"
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
        draw.text((left + CELL / 2, top + CELL / 2), square.label, font=font(size), fill=ink, anchor="mm")


@lru_cache(maxsize=2048)
def _square(square: _Shown) -> Image.Image:
    """One square on the palette, drawn once."""
    tile = Image.new("RGB", (CELL, CELL), _BACKGROUND)
    _draw_square(ImageDraw.Draw(tile), square, 0, 0)
    return palette.on_palette(tile)


@lru_cache(maxsize=64)
def _frame(rows: int, cols: int, labels: bool, title: str) -> Image.Image:
    """A board's background, title and A1-style labels, without its squares, on the palette."""
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
    return palette.on_palette(image)


def _compose(shown: tuple[tuple[_Shown, ...], ...], labels: bool, title: str) -> Image.Image:
    cols = max((len(row) for row in shown), default=0)
    image = _frame(len(shown), cols, labels, title).copy()
    label = _LABEL if labels else 0
    top0 = _PAD + (40 if title else 0) + label
    left0 = _PAD + label
    for r, row_cells in enumerate(shown):
        for c, square in enumerate(row_cells):
            image.paste(_square(square), (left0 + c * CELL, top0 + r * CELL))
    return image


def _shown(board: Sequence[Sequence[Square]]) -> tuple[tuple[_Shown, ...], ...]:
    return tuple(tuple(_Shown.of(square) for square in row) for row in board)


def board_image(board: Sequence[Sequence[Square]], *, labels: bool = True, title: str = "") -> Image.Image:
    """A board as a palette image (for pictures that put more under it)."""
    return _compose(_shown(board), labels, title)


@lru_cache(maxsize=128)
def _board_png(shown: tuple[tuple[_Shown, ...], ...], labels: bool, title: str) -> bytes:
    return palette.encode(_compose(shown, labels, title))


def render_board(board: Sequence[Sequence[Square]], *, labels: bool = True, title: str = "") -> bytes:
    """A board as a PNG: squares, tiles, bonus squares and (optionally) A1-style labels."""
    return _board_png(_shown(board), labels, title)


def _sample() -> Image.Image:
    """A square of every kind (tiles, blanks, the last move's frame, bonus squares, shades) and
    the labels' figures, for the palette's shades."""
    kinds = [
        _Shown("QU", 10, False, "", "", True, ""),
        _Shown("W", 4, True, "", "", False, ""),
        _Shown("", 0, False, "", "blue", False, ""),
        _Shown("", 0, False, "", "pink", False, ""),
        _Shown("", 0, False, "", "", False, ""),
        *(_Shown("", 0, False, name, "", False, "DW" if name != "star" else "★") for name in _PREMIUMS),
    ]
    sheet = Image.new("RGB", (CELL * len(kinds), CELL + 20), _BACKGROUND)
    draw = ImageDraw.Draw(sheet)
    for index, kind in enumerate(kinds):
        _draw_square(draw, kind, index * CELL, 20)
    draw.text((4, 2), "ABC 123", font=font(13), fill=_LABEL_INK)
    return sheet


palette.register(
    [_BACKGROUND, _TITLE, _LABEL_INK, _EMPTY, _GRID_LINE, _TILE, _TILE_INK, _BLANK_INK, _RECENT]
    + [*_SHADES.values()]
    + [fill for fill, _label in _PREMIUMS.values()]
    + [(20, 20, 20), (255, 255, 255)],
    _sample,
)
