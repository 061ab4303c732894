"""The moji deck: 104 letter cards, A–Z in four colours, with their points."""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

#: Card colours, in deck order.
COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")

#: Points per letter (house default; the printed values were lost).
POINTS: dict[str, int] = {
    **dict.fromkeys("aeioulnstr", 1),
    **dict.fromkeys("dg", 2),
    **dict.fromkeys("bcmp", 3),
    **dict.fromkeys("fhvwy", 4),
    "k": 5,
    **dict.fromkeys("jx", 8),
    **dict.fromkeys("qz", 10),
}

DECK_SIZE = 26 * len(COLOURS)


@dataclass(frozen=True, slots=True)
class Card:
    """One letter card. ``id`` is unique in the deck (0..103); ``letter`` is lower-case."""

    id: int
    letter: str
    colour: str

    @property
    def points(self) -> int:
        """The card's points."""
        return POINTS[self.letter]

    @property
    def label(self) -> str:
        """The card as players read it: the upper-case letter."""
        return self.letter.upper()


def full_deck() -> list[Card]:
    """The 104 cards in a fixed order (colour by colour, A to Z)."""
    return [
        Card(i * 26 + j, letter, colour)
        for i, colour in enumerate(COLOURS)
        for j, letter in enumerate(string.ascii_lowercase)
    ]


def shuffled_deck(rng: random.Random) -> list[Card]:
    """A full deck shuffled with ``rng`` (the game's rule randomness)."""
    deck = full_deck()
    rng.shuffle(deck)
    return deck


def stack_size(players: int, wanted: int) -> int:
    """Cards dealt to each player: ``wanted`` (15 by default), at most 104 // players."""
    return max(1, min(wanted, DECK_SIZE // max(1, players)))


def letters_text(cards: list[Card] | tuple[Card, ...]) -> str:
    """``A C T`` for a list of cards."""
    return " ".join(c.label for c in cards)
