"""The board's tiles in every language: counts and points, classic and scaled to MOJO's 16×16.

English keeps the tiles of its layout files (``layouts/classic.json``: the classic set;
``layouts/mojo.json``: that set scaled by hand to 120 tiles). Every other language
has its standard Scrabble distribution here, with its source, for the classic 15×15
layout, and MOJO's set is worked out from it by one rule (:func:`scaled`), the way
English grows from 100 to 120 tiles. ``docs/BOARD.md`` prints every table; a test
checks that it prints these.

Spanish plays plain letters: its classic set's digraph tiles CH, LL and RR are each
one more C, L and R (words are spelled letter by letter, as the word lists spell them:
CHICO is C-H-I-C-O), and K and W, which the set leaves out, get a tile each at 8
points (their value in the North American Spanish edition), since Spanish word lists
hold words with them (KILO, WEB).
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from math import floor

from games.common.languages import LANGUAGES

#: A tile set: letter (upper case, ``?`` the blank) -> (tiles in the bag, points).
TileSet = Mapping[str, tuple[int, int]]

BLANK = "?"


def _set(blanks: int, by_points: Mapping[int, str]) -> dict[str, tuple[int, int]]:
    """``{1: "E15 N9 …"}`` -> ``{"E": (15, 1), "N": (9, 1), …}`` (as the sources print them)."""
    tiles: dict[str, tuple[int, int]] = {}
    for points, spec in by_points.items():
        for item in spec.split():
            tiles[item[0]] = (int(item[1:]), points)
    tiles[BLANK] = (blanks, 0)
    return tiles


#: The classic sets (15×15 board, racks of 7) by language, with their sources.
CLASSIC: dict[str, TileSet] = {
    # Dutch: the Mattel set since 1998, without the IJ tile (IJ is I + J); 102 tiles.
    # Source: Wikipedia, "Scrabble letter distributions", Dutch; gtoal.com/wordgames/details/dutch.
    "nl": _set(
        2,
        {
            1: "E18 N10 A6 O6 I4",
            2: "D5 R5 S5 T5",
            3: "G3 K3 L3 M3 B2 P2",
            4: "U3 F2 H2 J2 V2 Z2",
            5: "C2 W2",
            8: "X1 Y1",
            10: "Q1",
        },
    ),
    # French: the Mattel set; 102 tiles.
    # Source: Wikipedia, "Scrabble letter distributions", French (FISF rules).
    "fr": _set(
        2,
        {
            1: "E15 A9 I8 N6 O6 R6 S6 T6 U6 L5",
            2: "D3 M3 G2",
            3: "B2 C2 P2",
            4: "F2 H2 V2",
            8: "J1 Q1",
            10: "K1 W1 X1 Y1 Z1",
        },
    ),
    # German: the Mattel set, with Ä Ö Ü tiles; 102 tiles.
    # Source: Wikipedia, "Scrabble letter distributions", German (de.wikipedia.org/wiki/Scrabble).
    "de": _set(
        2,
        {
            1: "E15 N9 S7 I6 R6 T6 U6 A5 D4",
            2: "H4 G3 L3 O3",
            3: "M4 B2 W1 Z1",
            4: "C2 F2 K2 P1",
            6: "Ä1 J1 Ü1 V1",
            8: "Ö1 X1",
            10: "Q1 Y1",
        },
    ),
    # Spanish: the Mattel set sold outside North America (FISE), in plain letters (see the
    # module docstring): CH, LL, RR become C, L, R; K and W added at 8 points; 102 tiles.
    # Source: Wikipedia, "Scrabble letter distributions", Spanish.
    "es": _set(
        2,
        {
            1: "A12 E12 O9 I6 S6 R6 N5 L5 U5 T4",
            2: "D5 G2",
            3: "C5 B2 M2 P2",
            4: "H2 F1 V1 Y1",
            5: "Q1",
            8: "J1 Ñ1 X1 K1 W1",
            10: "Z1",
        },
    ),
}

#: MOJO grows the classic letter tiles by this factor (English: 98 letter tiles to 118).
MOJO_FACTOR = Fraction(6, 5)


def scaled(classic: TileSet, factor: Fraction = MOJO_FACTOR) -> dict[str, tuple[int, int]]:
    """MOJO's tiles from a classic set: ``factor`` times the letter tiles, shared out fairly.

    The letter tiles come to ``round(factor × letters)`` (100 -> 120). A letter with one
    tile keeps one (the rare letters stay single); every other letter gets the whole
    part of ``factor × count``, and the tiles still to hand out go to the largest
    fractions left (ties: the letter with more tiles, then alphabet order). Blanks and
    points stay as they are.
    """
    letters = {k: v for k, v in classic.items() if k != BLANK}
    total = round(factor * sum(count for count, _ in letters.values()))
    counts = {k: count if count == 1 else floor(factor * count) for k, (count, _) in letters.items()}
    order = sorted(
        (k for k, (count, _) in letters.items() if count > 1),
        key=lambda k: (-(factor * letters[k][0] - counts[k]), -letters[k][0], k),
    )
    for k in order[: max(0, total - sum(counts.values()))]:
        counts[k] += 1
    out = {k: (counts[k], points) for k, (_, points) in letters.items()}
    out[BLANK] = classic[BLANK]
    return out


#: MOJO's sets (16×16 board) by language, English aside (its own layout file).
MOJO: dict[str, TileSet] = {code: scaled(tiles) for code, tiles in CLASSIC.items()}


def tiles_for(layout: str, language: str) -> TileSet | None:
    """The tile set of a shipped ``layout`` (``mojo`` or ``classic``) in ``language``.

    None for English, and for a layout of its own: the layout file's letters apply.
    """
    if language == "en" or language not in LANGUAGES:
        return None
    if layout == "classic":
        return CLASSIC[language]
    if layout == "mojo":
        return MOJO[language]
    return None
