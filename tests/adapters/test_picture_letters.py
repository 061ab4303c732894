"""Every playing language's own letters are drawn whole on cards, dice and board tiles.

A letter with an accent is its base letter plus a mark above it: drawn right, the picture
differs from the base letter's only above the base letter's top, and stays inside the card
or the tile (an accent pushed out of the tile, or a missing glyph's box, fails).
"""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from adapters.pictures import CARD_SIZE, render_board, render_cards
from adapters.pictures.board import CELL
from games.common.languages import LANGUAGES
from games.common.protocol import CardFace, Cell

#: Every letter beyond A-Z of a playing language, with the letter it is drawn over.
OWN_LETTERS = sorted({ch for lang in LANGUAGES.values() for ch in lang.extra_letters})
BASE = {"ä": "a", "ö": "o", "ü": "u", "ñ": "n"}
#: Where pictures put their first card or square (their padding, no title, no labels).
CARD_PAD = 18
BOARD_PAD = 16


def picture(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def ink_top(image: Image.Image, box: tuple[int, int, int, int], ink: tuple[int, int, int]) -> int:
    """The highest row in ``box`` holding the ink colour (the top of a letter)."""
    left, top, right, bottom = box
    for y in range(top, bottom):
        if any(image.getpixel((x, y)) == ink for x in range(left, right)):
            return y
    raise AssertionError("no ink in the box")


def test_every_language_letter_has_a_known_base() -> None:
    assert set(OWN_LETTERS) == set(BASE)


@pytest.mark.parametrize("letter", OWN_LETTERS)
def test_a_card_or_die_draws_the_whole_letter(letter: str) -> None:
    base = picture(render_cards([CardFace(BASE[letter].upper(), "", 0)]))
    own = picture(render_cards([CardFace(letter.upper(), "", 0)]))
    changed = ImageChops.difference(base, own).getbbox()
    assert changed is not None, f"{letter.upper()} is drawn like {BASE[letter].upper()}"
    width, height = CARD_SIZE
    card = (CARD_PAD, CARD_PAD, CARD_PAD + width, CARD_PAD + height)
    # the letter sits mid-card, under the points: look below the corners
    letter_area = (CARD_PAD + 36, CARD_PAD + 40, CARD_PAD + width - 36, CARD_PAD + height - 40)
    top = ink_top(base, letter_area, (20, 20, 20))
    left, upper, right, lower = changed
    assert card[0] + 3 < left and right < card[2] - 3 and card[1] + 3 < upper, "the accent leaves the card"
    assert lower <= top + 2, f"{letter.upper()} differs from {BASE[letter].upper()} below its accent"


@pytest.mark.parametrize("letter", OWN_LETTERS)
@pytest.mark.parametrize("blank", [False, True])
def test_a_board_tile_draws_the_whole_letter(letter: str, blank: bool) -> None:
    def tile(text: str) -> Image.Image:
        shown = text if blank else text.upper()  # (a blank's letter may come in lower case)
        return picture(render_board([[Cell(shown, 0 if blank else 8, blank=blank)]], labels=False))

    base, own = tile(BASE[letter]), tile(letter)
    changed = ImageChops.difference(base, own).getbbox()
    assert changed is not None, f"{letter} is drawn like {BASE[letter]}"
    left, upper, right, lower = changed
    square = (BOARD_PAD, BOARD_PAD, BOARD_PAD + CELL - 1, BOARD_PAD + CELL - 1)
    inside = square[0] < left and right <= square[2] and square[1] < upper and lower <= square[3]
    assert inside, f"{letter} is cut by its tile: {changed} vs {square}"
