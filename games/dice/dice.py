"""The ten letter dice: their faces (letters and points) written down as data.

The rulebook's picture of the dice is lost, so the faces are a house choice
(see ``docs/DICE.md``): 58 letter faces spread roughly like English text (E and A
five times, I and O four, T S R N four, L three...), J and Q left out (Q needs a U,
J is rare), X and Z together on one "hard" die, and exactly two blank faces in all.
Points follow the usual letter values (A E I O U L N S T R = 1 ... X = 8, Z = 10);
a blank is worth 0.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

#: Points of each letter (the race deck's values, the usual word-game scale).
LETTER_POINTS: dict[str, int] = {
    **dict.fromkeys("aeioulnstr", 1),
    **dict.fromkeys("dg", 2),
    **dict.fromkeys("bcmp", 3),
    **dict.fromkeys("fhvwy", 4),
    "k": 5,
    "j": 8,
    "x": 8,
    "q": 10,
    "z": 10,
}

#: The faces of the ten dice, one string per die; ``?`` is a blank face.
DICE_FACES: tuple[str, ...] = (
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
)

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


def face(char: str) -> Face:
    """The face written as ``char`` (``?`` for a blank)."""
    if char == BLANK:
        return Face("", 0)
    return Face(char, LETTER_POINTS[char])


#: Every die's six faces, die by die (index 0..9).
DICE: tuple[tuple[Face, ...], ...] = tuple(tuple(face(c) for c in faces) for faces in DICE_FACES)
DICE_COUNT = len(DICE)


def roll(rng: random.Random, dice: list[int]) -> list[tuple[int, Face]]:
    """Roll the dice numbered ``dice`` (sorted): each shows one random face."""
    return [(d, DICE[d][rng.randrange(6)]) for d in sorted(dice)]


def faces_table() -> str:
    """The dice as text, one die a line (for the rules help)."""
    rows = []
    for n, faces in enumerate(DICE, 1):
        rows.append(f"  die {n:>2}: " + " ".join(f.label() for f in faces))
    return "\n".join(rows)
