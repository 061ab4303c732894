"""The Mark My Words tile set and the deal.

The box holds 81 tiles: 75 letter tiles (the counts below, as printed in the
rulebook) and 6 blank tiles — the rulebook's "81 Letter tiles" counts the
blanks too. Every player takes one blank; the letter tiles are shuffled and
each player draws a fixed number by player count. The rest stay in the box.

The rulebook prints English tiles only. Every other language has 75 letter tiles
made by one rule from its standard Scrabble set (the classic sets of
``games/board/tilesets.py``, with their sources): one tile of every letter of the
alphabet, and the other 75 − (letters) tiles shared out in proportion to the tiles
the Scrabble set has of each letter beyond its first (largest remainders first; ties:
the letter with more Scrabble tiles, then alphabet order). A letter the Scrabble set
has once keeps one tile. docs/PATHS.md prints the tables; a test checks the rule.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

#: Letter tiles in the box, as printed in the rulebook (75 in all).
LETTER_COUNTS: dict[str, int] = {
    "a": 4, "b": 2, "c": 3, "d": 3, "e": 6, "f": 2, "g": 2, "h": 3, "i": 5, "j": 1,
    "k": 2, "l": 4, "m": 2, "n": 5, "o": 4, "p": 2, "q": 1, "r": 5, "s": 5, "t": 4,
    "u": 3, "v": 2, "w": 2, "x": 1, "y": 1, "z": 1,
}  # fmt: skip

#: Letter tiles in the box by language (75 in each; English: :data:`LETTER_COUNTS`).
LETTERS_BY_LANGUAGE: dict[str, dict[str, int]] = {
    "en": LETTER_COUNTS,
    "nl": {
        "a": 4, "b": 2, "c": 2, "d": 4, "e": 12, "f": 2, "g": 2, "h": 2, "i": 3, "j": 2,
        "k": 2, "l": 2, "m": 2, "n": 7, "o": 4, "p": 2, "q": 1, "r": 4, "s": 3, "t": 3,
        "u": 2, "v": 2, "w": 2, "x": 1, "y": 1, "z": 2,
    },
    "fr": {
        "a": 6, "b": 2, "c": 2, "d": 2, "e": 10, "f": 2, "g": 2, "h": 2, "i": 6, "j": 1,
        "k": 1, "l": 4, "m": 2, "n": 4, "o": 4, "p": 2, "q": 1, "r": 4, "s": 4, "t": 4,
        "u": 4, "v": 2, "w": 1, "x": 1, "y": 1, "z": 1,
    },
    "de": {
        "a": 4, "b": 2, "c": 2, "d": 3, "e": 10, "f": 2, "g": 2, "h": 3, "i": 4, "j": 1,
        "k": 2, "l": 2, "m": 3, "n": 6, "o": 2, "p": 1, "q": 1, "r": 4, "s": 5, "t": 4,
        "u": 4, "v": 1, "w": 1, "x": 1, "y": 1, "z": 1, "ä": 1, "ö": 1, "ü": 1,
    },
    "es": {
        "a": 8, "b": 2, "c": 4, "d": 4, "e": 8, "f": 1, "g": 2, "h": 2, "i": 4, "j": 1,
        "k": 1, "l": 4, "m": 2, "n": 3, "o": 6, "p": 2, "q": 1, "r": 4, "s": 4, "t": 3,
        "u": 3, "v": 1, "w": 1, "x": 1, "y": 1, "z": 1, "ñ": 1,
    },
}  # fmt: skip

#: Blank tiles in the box (one per player, so at most six players).
BLANKS = 6

#: Every tile in the box.
TOTAL_TILES = sum(LETTER_COUNTS.values()) + BLANKS

#: Letter tiles each player draws, by number of players.
TILES_PER_PLAYER: dict[int, int] = {2: 15, 3: 10, 4: 7, 5: 6, 6: 5}

MIN_PLAYERS = min(TILES_PER_PLAYER)
MAX_PLAYERS = max(TILES_PER_PLAYER)


def letter_counts(language: str = "en") -> dict[str, int]:
    """The letter tiles of ``language``'s box, by letter (in alphabet order)."""
    return LETTERS_BY_LANGUAGE.get(language, LETTER_COUNTS)


def letter_bag(language: str = "en") -> list[str]:
    """Every letter tile in ``language``'s box, in alphabet order (before shuffling)."""
    return [letter for letter, count in letter_counts(language).items() for _ in range(count)]


@dataclass(frozen=True, slots=True)
class Deal:
    """The tiles each seat starts with, and what stays in the box."""

    racks: dict[str, list[str]]  # seat id -> letter tiles, sorted
    blanks: dict[str, int]  # seat id -> blank tiles held
    box: list[str]  # letter tiles set aside, sorted
    spare_blanks: int  # blank tiles left in the box


def deal(seats: Sequence[str], rng: random.Random, *, blanks: bool = True, language: str = "en") -> Deal:
    """Shuffle ``language``'s letter tiles with ``rng`` and deal them to ``seats`` in order.

    With ``blanks`` off (the rulebook's first-game suggestion) every blank stays
    in the box. The rulebook plays 2 to 6; one player (practice) gets the
    two-player count, and past six the letters are shared out and the blanks
    go to the first six seats.
    """
    bag = letter_bag(language)
    count = TILES_PER_PLAYER.get(len(seats)) or (
        TILES_PER_PLAYER[MIN_PLAYERS] if len(seats) < MIN_PLAYERS else len(bag) // len(seats)
    )
    rng.shuffle(bag)
    racks: dict[str, list[str]] = {}
    for seat in seats:
        racks[seat], bag = sorted(bag[:count]), bag[count:]
    held = {seat: 1 if blanks and n < BLANKS else 0 for n, seat in enumerate(seats)}
    return Deal(racks, held, sorted(bag), BLANKS - sum(held.values()))
