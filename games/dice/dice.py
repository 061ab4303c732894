"""The ten letter dice of each language: their faces (letters and points) written down as data.

The rulebook's picture of the dice is lost, so the faces are a house choice (see
``docs/DICE.md``). In every language: ten dice, 58 letter faces and exactly two blank
faces; the first two dice carry the vowels and the blanks, the last one the language's
dear letters; the other faces follow how often the language's Scrabble set has each
letter, and the rarest letters are left out (a blank stands in for them). English leaves
out J and Q (Q needs a U); its faces spread like English text (E and A five times, I and
O four, T S R N four, L three...). A German set has Ä Ö Ü, a Spanish one Ñ.
Points are the language's Scrabble values (``games.common.letter_tables``); a blank is
worth 0.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass

from games.common.languages import LANGUAGES
from games.common.letter_tables import points as letter_points
from games.common.speech import _

#: Points of each English letter (the race deck's values, the usual word-game scale).
LETTER_POINTS: Mapping[str, int] = letter_points("en")

#: The faces of the ten dice of each language, one string per die; ``?`` is a blank face.
DICE_FACES_BY_LANGUAGE: dict[str, tuple[str, ...]] = {
    "en": (
        "aeiou?",  # die 1: the vowels and a blank
        "aeioy?",  # die 2: vowels, Y and the other blank
        "eatsrn",
        "eatsrl",
        "eitsnd",
        "aornlh",
        "outscm",
        "irnldp",
        "hcmpgb",
        "fwkvxz",  # die 10: the hard letters
    ),
    "nl": (
        "aeiou?",
        "aeiou?",
        "enatrd",
        "enstrl",
        "enodkg",
        "enrtlm",
        "easidh",
        "enortl",
        "skgmbp",
        "fjvzwc",  # left out: Q X Y
    ),
    "fr": (
        "aeiou?",
        "aeiou?",
        "eastrn",
        "eastrl",
        "eisntd",
        "ernluc",
        "eaistm",
        "ournlp",
        "dmcpgb",
        "fhvxzq",  # left out: J K W Y
    ),
    "de": (
        "aeiou?",
        "aeiuä?",
        "enstra",
        "enstrl",
        "enitdh",
        "ensrdl",
        "asrtum",
        "iodhgc",
        "hcgmbü",
        "kfwzpö",  # left out: J Q V X Y
    ),
    "es": (
        "aeiou?",
        "aeiou?",
        "aesrnt",
        "aesrld",
        "aeonct",
        "aeorls",
        "isrndc",
        "ltdcmp",
        "gbmphf",
        "vyqjñz",  # left out: K W X
    ),
}

#: The English dice (the first set, kept by name for the tools that show it).
DICE_FACES: tuple[str, ...] = DICE_FACES_BY_LANGUAGE["en"]

BLANK = "?"


@dataclass(frozen=True, slots=True)
class Face:
    """One face of a die: a lower-case letter with its points, or a blank (``letter == ""``)."""

    letter: str
    points: int

    @property
    def blank(self) -> bool:
        """True for a blank face (it may stand for any letter, worth 0)."""
        return self.letter == ""

    def label(self) -> str:
        """``A1`` / ``?0``: the face as the table shows it."""
        return f"{self.letter.upper() or '?'}{self.points}"


def face(char: str, language: str = "en") -> Face:
    """The face written as ``char`` (``?`` for a blank) with ``language``'s points."""
    if char == BLANK:
        return Face("", 0)
    return Face(char, letter_points(language)[char])


Dice = tuple[tuple[Face, ...], ...]

#: Every language's dice: each die's six faces, die by die (index 0..9).
DICE_BY_LANGUAGE: dict[str, Dice] = {
    code: tuple(tuple(face(c, code) for c in faces) for faces in DICE_FACES_BY_LANGUAGE[code])
    for code in LANGUAGES
}

#: The English dice.
DICE: Dice = DICE_BY_LANGUAGE["en"]
DICE_COUNT = len(DICE)


def dice_for(language: str) -> Dice:
    """The ten dice of ``language`` (a code of ``games.common.languages``)."""
    return DICE_BY_LANGUAGE[language]


def roll(rng: random.Random, dice: list[int], faces: Dice = DICE) -> list[tuple[int, Face]]:
    """Roll the dice numbered ``dice`` (sorted) of the set ``faces``: each shows one random face."""
    return [(d, faces[d][rng.randrange(6)]) for d in sorted(dice)]


def faces_table(language: str = "en") -> str:
    """The dice as text, one die a line (for the rules help)."""
    rows = []
    for n, faces in enumerate(dice_for(language), 1):
        shown = " ".join(f.label() for f in faces)
        number = f"{n:>2}"
        rows.append("  " + _("die {number}: {faces}", number=number, faces=shown))
    return "\n".join(rows)
