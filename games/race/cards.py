"""The moji deck: every letter of the game's alphabet in four colours, with their points.

English is the rulebook's 104 cards (A–Z in red, blue, yellow and green). Another
language keeps the design, one card of each of its letters per colour: German adds
Ä Ö Ü (116 cards), Spanish Ñ (108 cards); Dutch and French play A–Z (104 cards).
Points are the language's Scrabble values (``games.common.letter_tables``).
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from games.common.languages import ENGLISH, LANGUAGES, Language
from games.common.letter_tables import points as letter_points
from games.common.protocol import CardFace

#: Card colours, in deck order.
COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green")

#: Points per letter in English (house default; the printed values were lost).
POINTS: Mapping[str, int] = letter_points("en")

#: Points per letter, by language code.
POINTS_BY_LANGUAGE: dict[str, Mapping[str, int]] = {code: letter_points(code) for code in LANGUAGES}

#: Cards in the English deck (the rulebook's 104).
DECK_SIZE = 26 * len(COLOURS)


def deck_size(language: Language = ENGLISH) -> int:
    """Cards in the deck of ``language``: its letters times the four colours."""
    return len(language.alphabet) * len(COLOURS)


@dataclass(frozen=True, slots=True)
class Card:
    """One letter card. ``id`` is unique in the deck (0..103 in English); ``letter`` is lower-case.

    ``value`` is the card's points (the language's value of its letter).
    """

    id: int
    letter: str
    colour: str
    value: int = -1

    @property
    def points(self) -> int:
        """The card's points."""
        return self.value if self.value >= 0 else POINTS[self.letter]

    @property
    def label(self) -> str:
        """The card as players read it: the upper-case letter."""
        return self.letter.upper()


def full_deck(language: Language = ENGLISH) -> list[Card]:
    """The deck in a fixed order (colour by colour, in alphabet order)."""
    alphabet = language.alphabet
    values = POINTS_BY_LANGUAGE[language.code]
    return [
        Card(i * len(alphabet) + j, letter, colour, values[letter])
        for i, colour in enumerate(COLOURS)
        for j, letter in enumerate(alphabet)
    ]


def faces(language: Language = ENGLISH) -> tuple[CardFace, ...]:
    """Every face of the deck of ``language`` as the table shows it (one per card: letter, colour,
    points)."""
    return tuple(CardFace(card.label, card.colour, card.points) for card in full_deck(language))


def shuffled_deck(rng: random.Random, language: Language = ENGLISH) -> list[Card]:
    """A full deck shuffled with ``rng`` (the game's rule randomness)."""
    deck = full_deck(language)
    rng.shuffle(deck)
    return deck


def stack_size(players: int, wanted: int, cards: int = DECK_SIZE) -> int:
    """Cards dealt to each player: ``wanted`` (15 by default), at most ``cards`` // players."""
    return max(1, min(wanted, cards // max(1, players)))


def letters_text(cards: list[Card] | tuple[Card, ...]) -> str:
    """``A C T`` for a list of cards."""
    return " ".join(c.label for c in cards)
