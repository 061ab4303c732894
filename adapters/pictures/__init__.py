"""Card and table pictures (PNG), drawn with Pillow; shared by every platform.

Each card shows its letter big, its points in the corner and a shape that
stands for its colour (red ● circle, blue ■ square, yellow ▲ triangle,
green ◆ diamond — the same cues as the terminal), so no player ever needs to
tell the colours apart. The palette is Okabe–Ito, which stays distinct under
the common forms of colour blindness.

The API is platform-neutral: anything with ``cards`` (and optionally
``title``) can be drawn — a :class:`bot.core.views.View` or a game snapshot::

    png: bytes = render_table(view)

Each face is drawn once and kept, a table is composed from the kept faces on one palette
(:mod:`adapters.pictures.palette`) and encoded cheaply, and the last pictures asked for are
kept whole, so a table already drawn is never drawn twice (:func:`cache_info` counts).
Rendering is still CPU work; call it off the event loop (``asyncio.to_thread``): the caches
are safe to share between threads.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple, Protocol

from PIL import Image, ImageDraw

from adapters.pictures import palette
from adapters.pictures.board import board_image, render_board
from adapters.pictures.fonts import font
from games.common.speech import _p

__all__ = [
    "CARD_SIZE",
    "STYLES",
    "CardStyle",
    "cache_info",
    "render_board",
    "render_card",
    "render_cards",
    "render_table",
    "render_view",
]

#: Width and height of one card, in pixels.
CARD_SIZE = (120, 168)
_GAP = 14
_PAD = 18
_BACKGROUND = (47, 49, 54)  # reads well on dark and light chat themes
_TITLE_COLOUR = (235, 236, 240)


class Face(Protocol):
    """What a card shows (``games.common.protocol.CardFace`` fits)."""

    @property
    def letter(self) -> str: ...
    @property
    def colour(self) -> str: ...
    @property
    def points(self) -> int: ...
    @property
    def under(self) -> int: ...


class Table(Protocol):
    """Anything with face-up cards: a neutral view or a game snapshot."""

    @property
    def cards(self) -> Sequence[Face]: ...


class CardStyle:
    """How one card colour is drawn: fill, ink and the shape that names it."""

    __slots__ = ("fill", "ink", "name", "shape")

    def __init__(self, name: str, fill: tuple[int, int, int], ink: tuple[int, int, int], shape: str) -> None:
        self.name = name
        self.fill = fill
        self.ink = ink
        self.shape = shape


#: Card colour → style (Okabe–Ito colours; a distinct shape for each).
STYLES: dict[str, CardStyle] = {
    "red": CardStyle("red", (213, 94, 0), (255, 255, 255), "circle"),
    "blue": CardStyle("blue", (0, 114, 178), (255, 255, 255), "square"),
    "yellow": CardStyle("yellow", (240, 228, 66), (20, 20, 20), "triangle"),
    "green": CardStyle("green", (0, 158, 115), (255, 255, 255), "diamond"),
    "": CardStyle("plain", (225, 225, 225), (20, 20, 20), "dot"),
}


def _shape(
    draw: ImageDraw.ImageDraw, shape: str, box: tuple[int, int, int, int], colour: tuple[int, ...]
) -> None:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if shape == "circle":
        draw.ellipse(box, fill=colour)
    elif shape == "square":
        draw.rectangle(box, fill=colour)
    elif shape == "triangle":
        draw.polygon([(cx, y0), (x1, y1), (x0, y1)], fill=colour)
    elif shape == "diamond":
        draw.polygon([(cx, y0), (x1, cy), (cx, y1), (x0, cy)], fill=colour)
    else:
        r = (x1 - x0) / 4
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colour)


def _draw_card(image: Image.Image, face: Face, left: int, top: int, blank: str) -> None:
    style = STYLES.get(face.colour, STYLES[""])
    width, height = CARD_SIZE
    draw = ImageDraw.Draw(image)
    box = (left, top, left + width - 1, top + height - 1)
    draw.rounded_rectangle(box, radius=14, fill=style.fill, outline=(255, 255, 255), width=3)
    # the shape that names the colour, in two corners (readable without colour vision)
    _shape(draw, style.shape, (left + 10, top + 10, left + 34, top + 34), style.ink)
    _shape(
        draw,
        style.shape,
        (left + width - 35, top + height - 35, left + width - 11, top + height - 11),
        style.ink,
    )
    if face.letter:
        big = font(78 if len(face.letter) == 1 else 48)
        draw.text(
            (left + width / 2, top + height / 2 + 2), face.letter, font=big, fill=style.ink, anchor="mm"
        )
    else:  # a blank
        draw.text((left + width / 2, top + height / 2), blank, font=font(24), fill=style.ink, anchor="mm")
    draw.text((left + width - 12, top + 10), str(face.points), font=font(26), fill=style.ink, anchor="ra")
    if face.under:
        draw.text(
            (left + 12, top + height - 12), f"+{face.under}", font=font(20), fill=style.ink, anchor="ld"
        )


class _Shown(NamedTuple):
    """What one card's picture shows: its face, and on a blank the word for it in the
    language spoken."""

    letter: str
    colour: str
    points: int
    under: int
    blank: str

    @classmethod
    def of(cls, face: Face) -> _Shown:
        # TRANSLATORS: written on a blank card's picture, under 9 letters
        blank = "" if face.letter else _p("card picture", "blank")
        return cls(face.letter, face.colour, face.points, face.under, blank)


@lru_cache(maxsize=1024)
def _card(shown: _Shown) -> Image.Image:
    """One card's face on the palette, drawn once (a deck has about a hundred faces)."""
    tile = Image.new("RGB", CARD_SIZE, _BACKGROUND)
    _draw_card(tile, shown, 0, 0, shown.blank)
    return palette.on_palette(tile)


@lru_cache(maxsize=64)
def _title(title: str, width: int) -> Image.Image:
    strip = Image.new("RGB", (width, 44), _BACKGROUND)
    ImageDraw.Draw(strip).text((_PAD, _PAD), title[:60], font=font(28), fill=_TITLE_COLOUR)
    return palette.on_palette(strip)


def _cards_image(shown: tuple[_Shown, ...], title: str) -> Image.Image:
    width, height = CARD_SIZE
    per_row = max(1, min(8, len(shown)))
    rows = max(1, -(-len(shown) // per_row))
    title_height = 44 if title else 0
    size = (
        _PAD * 2 + per_row * width + (per_row - 1) * _GAP,
        _PAD * 2 + title_height + rows * height + (rows - 1) * _GAP,
    )
    image = palette.blank(size, _BACKGROUND)
    if title:
        image.paste(_title(title, size[0]), (0, 0))
    for index, face in enumerate(shown):
        row, col = divmod(index, per_row)
        image.paste(_card(face), (_PAD + col * (width + _GAP), _PAD + title_height + row * (height + _GAP)))
    return image


@lru_cache(maxsize=512)
def _cards_png(shown: tuple[_Shown, ...], title: str) -> bytes:
    """A row of cards as PNG, kept: a table shown again (edited, re-posted, another
    platform's) costs nothing."""
    return palette.encode(_cards_image(shown, title))


def render_card(face: Face) -> bytes:
    """One card as a PNG."""
    return render_cards([face], title="")


def render_cards(cards: Sequence[Face], *, title: str = "") -> bytes:
    """A row of cards (wrapping after 8), with an optional title above, as a PNG."""
    return _cards_png(tuple(_Shown.of(face) for face in cards), title)


def render_table(table: Table) -> bytes:
    """The face-up cards of a table (a view or a snapshot) as a PNG."""
    return render_cards(list(table.cards))


def render_view(view: Table) -> bytes | None:
    """A view's picture, or None when it has nothing to draw (a ``Renderer`` for adapters).

    A view with a ``board`` gets the board, with its cards (a rack, the dice)
    in a row underneath; otherwise the cards alone.
    """
    board = getattr(view, "board", ())
    if not board:
        return render_table(view) if view.cards else None
    labels = bool(getattr(view, "board_labels", True))
    if not view.cards:
        return render_board(board, labels=labels)
    shown = tuple(_Shown.of(face) for face in view.cards)
    return palette.encode(_stack(board_image(board, labels=labels), _cards_image(shown, "")))


def cache_info() -> dict[str, int]:
    """How many parts and pictures were drawn (misses) and reused (hits), for tests and benches."""
    cards, pictures = _card.cache_info(), _cards_png.cache_info()
    return {
        "faces_drawn": cards.misses,
        "faces_reused": cards.hits,
        "pictures_drawn": pictures.misses,
        "pictures_reused": pictures.hits,
    }


def _stack(upper: Image.Image, lower: Image.Image) -> Image.Image:
    if lower.width > upper.width:  # a long rack under a small grid: shrink the rack (in RGB, smooth)
        scale = upper.width / lower.width
        size = (upper.width, max(1, int(lower.height * scale)))
        lower = palette.on_palette(lower.convert("RGB").resize(size))
    image = palette.blank((upper.width, upper.height + lower.height), _BACKGROUND)
    image.paste(upper, (0, 0))
    image.paste(lower, ((upper.width - lower.width) // 2, upper.height))
    return image


def _sample() -> Image.Image:
    """A card of every style, with every kind of mark, for the palette's shades."""
    faces = [_Shown(letter, colour, 10, 2, "blank") for colour in STYLES for letter in ("W", "QU", "")]
    sheet = Image.new("RGB", (CARD_SIZE[0] * len(faces), CARD_SIZE[1] + 44), _BACKGROUND)
    for index, face in enumerate(faces):
        _draw_card(sheet, face, index * CARD_SIZE[0], 44, face.blank)
    ImageDraw.Draw(sheet).text((_PAD, 8), "Race MOJO 0123", font=font(28), fill=_TITLE_COLOUR)
    return sheet


palette.register(
    [_BACKGROUND, _TITLE_COLOUR, (255, 255, 255)]
    + [colour for style in STYLES.values() for colour in (style.fill, style.ink)],
    _sample,
)
