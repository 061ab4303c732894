"""The Mark My Words tile set and the deal.

The box holds 81 tiles: 75 letter tiles (the counts below, as printed in the
rulebook) and 6 blank tiles — the rulebook's "81 Letter tiles" counts the
blanks too. Every player takes one blank; the letter tiles are shuffled and
each player draws a fixed number by player count. The rest stay in the box.
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

#: Blank tiles in the box (one per player, so at most six players).
BLANKS = 6

#: Every tile in the box.
TOTAL_TILES = sum(LETTER_COUNTS.values()) + BLANKS

#: Letter tiles each player draws, by number of players.
TILES_PER_PLAYER: dict[int, int] = {2: 15, 3: 10, 4: 7, 5: 6, 6: 5}

MIN_PLAYERS = min(TILES_PER_PLAYER)
MAX_PLAYERS = max(TILES_PER_PLAYER)


def letter_bag() -> list[str]:
    """Every letter tile in the box, in alphabetical order (before shuffling)."""
    return [letter for letter, count in LETTER_COUNTS.items() for _ in range(count)]


@dataclass(frozen=True, slots=True)
class Deal:
    """The tiles each seat starts with, and what stays in the box."""

    racks: dict[str, list[str]]  # seat id -> letter tiles, sorted
    blanks: dict[str, int]  # seat id -> blank tiles held
    box: list[str]  # letter tiles set aside, sorted
    spare_blanks: int  # blank tiles left in the box


def deal(seats: Sequence[str], rng: random.Random, *, blanks: bool = True) -> Deal:
    """Shuffle the letter tiles with ``rng`` and deal them to ``seats`` in order.

    With ``blanks`` off (the rulebook's first-game suggestion) every blank stays
    in the box. The rulebook plays 2 to 6; one player (practice) gets the
    two-player count, and past six the letters are shared out and the blanks
    go to the first six seats.
    """
    bag = letter_bag()
    count = TILES_PER_PLAYER.get(len(seats)) or (
        TILES_PER_PLAYER[MIN_PLAYERS] if len(seats) < MIN_PLAYERS else len(bag) // len(seats)
    )
    rng.shuffle(bag)
    racks: dict[str, list[str]] = {}
    for seat in seats:
        racks[seat], bag = sorted(bag[:count]), bag[count:]
    held = {seat: 1 if blanks and n < BLANKS else 0 for n, seat in enumerate(seats)}
    return Deal(racks, held, sorted(bag), BLANKS - sum(held.values()))
