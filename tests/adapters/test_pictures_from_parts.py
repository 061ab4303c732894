"""Pictures from parts (adapters.pictures): each face and square drawn once, a table composed
from them on one palette, a table already drawn never drawn twice — and every picture still
looks as the same cards drawn whole."""

from __future__ import annotations

import io
import random
from concurrent.futures import ThreadPoolExecutor

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageStat

import adapters.pictures as pictures
from adapters.pictures import CARD_SIZE, STYLES, board, cache_info, render_board, render_cards, render_view
from bot.core import views
from games.common.protocol import CardFace, Cell, Snapshot
from games.common.speech import speaking

#: How far a composed picture's pixel may be from the drawing made whole in RGB: the palette
#: keeps every flat colour exactly and the antialiased edges within a few shades.
WORST, MEAN = 40, 2.0

faces = st.builds(
    CardFace,
    letter=st.sampled_from(["A", "Q", "W", "Ñ", "Ü", "QU", "TH", "IJ", ""]),
    colour=st.sampled_from(["red", "blue", "yellow", "green", ""]),
    points=st.integers(0, 12),
    under=st.sampled_from([0, 0, 2, 5]),
)


def decoded(png: bytes) -> Image.Image:
    assert png.startswith(b"\x89PNG")
    return Image.open(io.BytesIO(png)).convert("RGB")


def drawn_whole(cards: list[CardFace]) -> Image.Image:
    """The cards drawn straight onto one RGB picture, as pictures were drawn before parts."""
    width, height = CARD_SIZE
    per_row = max(1, min(8, len(cards)))
    rows = max(1, -(-len(cards) // per_row))
    size = (36 + per_row * width + (per_row - 1) * 14, 36 + rows * height + (rows - 1) * 14)
    image = Image.new("RGB", size, (47, 49, 54))
    for index, face in enumerate(cards):
        row, col = divmod(index, per_row)
        shown = pictures._Shown.of(face)
        pictures._draw_card(image, shown, 18 + col * (width + 14), 18 + row * (height + 14), shown.blank)
    return image


def assert_alike(composed: Image.Image, whole: Image.Image) -> None:
    assert composed.size == whole.size
    difference = ImageChops.difference(composed, whole)
    worst = max(high for _low, high in difference.getextrema())
    mean = sum(ImageStat.Stat(difference).mean) / 3
    assert worst <= WORST and mean <= MEAN, (worst, mean)


@settings(max_examples=25, deadline=None)
@given(st.lists(faces, min_size=1, max_size=10))
def test_a_table_composed_from_parts_looks_as_the_cards_drawn_whole(cards: list[CardFace]) -> None:
    assert_alike(decoded(render_cards(cards)), drawn_whole(cards))


def test_flat_colours_stay_exact() -> None:
    picture = decoded(
        render_cards([CardFace("A", colour, 1) for colour in ("red", "blue", "yellow", "green")])
    )
    assert picture.getpixel((2, 2)) == (47, 49, 54), "the background"
    for index, colour in enumerate(("red", "blue", "yellow", "green")):
        left = 18 + index * (CARD_SIZE[0] + 14)
        assert picture.getpixel((left + 60, 18 + 140)) == STYLES[colour].fill, colour


def test_a_table_already_drawn_is_not_drawn_again_and_faces_are_drawn_once() -> None:
    table = [CardFace("K", "red", 5), CardFace("E", "blue", 1), CardFace("Y", "green", 4)]
    first = render_cards(table)
    before = cache_info()
    assert render_cards(list(table)) == first
    after = cache_info()
    assert after["pictures_drawn"] == before["pictures_drawn"]
    assert after["pictures_reused"] == before["pictures_reused"] + 1
    # one card on: a new picture, composed from the faces already drawn and one new face
    render_cards([*table[:2], CardFace("S", "yellow", 1)])
    later = cache_info()
    assert later["pictures_drawn"] == after["pictures_drawn"] + 1
    assert later["faces_drawn"] <= after["faces_drawn"] + 1


def test_the_kept_pictures_are_bounded() -> None:
    rng = random.Random(3)
    for _ in range(pictures._cards_png.cache_info().maxsize + 50):
        render_cards([CardFace(rng.choice("ABCDEFG"), "red", rng.randint(0, 99)) for _ in range(2)])
    kept = pictures._cards_png.cache_info()
    assert kept.maxsize is not None and kept.currsize <= kept.maxsize
    assert pictures._card.cache_info().currsize <= (pictures._card.cache_info().maxsize or 0)


def test_threads_drawing_at_once_get_the_pictures_drawn_alone() -> None:
    rng = random.Random(11)
    letters = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    colours = ["red", "blue", "yellow", "green"]
    tables = [
        [
            CardFace(rng.choice(letters), rng.choice(colours), rng.randint(1, 10))
            for _ in range(rng.randint(3, 8))
        ]
        for _ in range(120)
    ]
    with ThreadPoolExecutor(8) as pool:
        together = list(pool.map(render_cards, tables))
    pictures._cards_png.cache_clear()
    alone = [render_cards(table) for table in tables]
    assert together == alone


def test_a_blank_card_says_blank_in_the_language_spoken() -> None:
    blank = [CardFace("", "yellow", 0)]
    english = render_cards(blank)
    with speaking("fr"):
        french = render_cards(blank)
        assert render_cards(blank) == french
    assert french != english
    with speaking("fr"):
        assert_alike(decoded(french), drawn_whole(blank))


def board_drawn_whole(cells: list[list[Cell]]) -> Image.Image:
    """A board without labels drawn straight onto one RGB picture."""
    size = (32 + len(cells[0]) * board.CELL, 32 + len(cells) * board.CELL)
    image = Image.new("RGB", size, (47, 49, 54))
    draw = ImageDraw.Draw(image)
    for r, row in enumerate(cells):
        for c, cell in enumerate(row):
            board._draw_square(draw, board._Shown.of(cell), 16 + c * board.CELL, 16 + r * board.CELL)
    return image


def test_a_board_composed_from_squares_looks_as_the_board_drawn_whole() -> None:
    rng = random.Random(5)
    premiums = ["", "", "DL", "TL", "DW", "TW", "star"]
    cells = [
        [
            Cell(
                letter=rng.choice("AZK"),
                points=rng.randint(1, 10),
                blank=rng.random() < 0.2,
                recent=rng.random() < 0.2,
            )
            if rng.random() < 0.4
            else Cell(premium=rng.choice(premiums), shade=rng.choice(["", "blue", "pink"]))
            for _ in range(9)
        ]
        for _ in range(9)
    ]
    assert_alike(decoded(render_board(cells, labels=False)), board_drawn_whole(cells))
    assert render_board(cells, labels=False) == render_board([list(row) for row in cells], labels=False)


def test_a_board_with_cards_under_it_is_one_picture() -> None:
    cells = tuple(tuple(Cell(premium="DW") for _ in range(3)) for _ in range(3))
    snapshot = Snapshot(title="board", board=cells, cards=tuple(CardFace(c, "", 1) for c in "ABCDEFG"))
    picture = decoded(render_view(views.table(snapshot, "board", realtime=False)) or b"")
    alone = decoded(render_board(cells))
    assert picture.width == alone.width and picture.height > alone.height
