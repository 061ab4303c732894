"""Letter placement: which face-up letters a word claims, and where.

The race rulebook's Letter Placement challenge only decides whether a word is
valid; when it is, the word collects every face-up card it can match (one card
per letter occurrence). Its table, for face-up A, C, T::

    first-or-last   TEACH, ACHE, PART, ART ok      BACK refused
    first-and-last  CART, CULT ok                  TEACH, PART refused
    in-between      HEARTACHE, HEARTH, PACT ok     CART refused

A card "sits" first or last when the word's first or last letter can be
matched by a face-up card; first-and-last needs two different cards, so
``TOT`` needs two T cards.
"""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from games.common.speech import N_, _, _n


class Placement(enum.Enum):
    """Where the claimed letters must sit in the word."""

    ANYWHERE = "anywhere"
    FIRST_OR_LAST = "first-or-last"
    FIRST_AND_LAST = "first-and-last"
    IN_BETWEEN = "in-between"

    @classmethod
    def parse(cls, text: str) -> Placement:
        """Parse a placement name, forgiving case, spaces and underscores."""
        key = text.strip().lower().replace("_", "-").replace(" ", "-")
        aliases = {
            "any": "anywhere",
            "first-last": "first-and-last",
            "between": "in-between",
            "inside": "in-between",
            "ends": "first-or-last",
            "edge": "first-or-last",
        }
        key = aliases.get(key, key)
        for member in cls:
            if member.value == key:
                return member
        names = ", ".join(m.value for m in cls)
        raise ValueError(f"unknown placement {text!r}: choose one of {names}")


#: Refusal reasons (shared with games that decide the common cases themselves).
#: Marked for the catalogue; :class:`LetterMatch` holds them translated, a caller that shows one
#: itself shows ``_(NONE_USED)``.
NONE_USED = N_("uses none of the face-up letters")
NOT_FIRST_OR_LAST = N_("no face-up letter is the first or last letter of the word")


def too_few(total: int, minimum: int) -> str:
    """The reason for a word that claims fewer than ``minimum`` cards."""
    return _n(
        "uses only {count} face-up card; at least {minimum} are needed",
        "uses only {count} face-up cards; at least {minimum} are needed",
        total,
        minimum=minimum,
    )


@dataclass(frozen=True, slots=True)
class LetterMatch:
    """Result of matching a word against face-up letters.

    ``claimed`` is the multiset of letters the word collects (empty when the
    word is refused); ``reason`` explains a refusal.
    """

    claimed: Counter[str]
    reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.reason is None


def match_letters(
    word: str, letters: Iterable[str], placement: Placement = Placement.ANYWHERE, minimum: int = 2
) -> LetterMatch:
    """Match lower-case ``word`` against the multiset ``letters``.

    The word must claim at least ``minimum`` cards and satisfy ``placement``.
    """
    available = Counter(letters)
    in_word = Counter(word)
    claimed = Counter({ch: min(n, available[ch]) for ch, n in in_word.items() if available[ch]})
    total = sum(claimed.values())
    if total < minimum:
        if total == 0:
            return LetterMatch(Counter(), _(NONE_USED))
        return LetterMatch(Counter(), too_few(total, minimum))
    first, last = word[0], word[-1]
    if placement is Placement.FIRST_OR_LAST:
        if not (available[first] or available[last]):
            return LetterMatch(Counter(), _(NOT_FIRST_OR_LAST))
    elif placement is Placement.FIRST_AND_LAST:
        if not available[first]:
            return LetterMatch(Counter(), _("no face-up letter is the first letter of the word"))
        if not available[last]:
            return LetterMatch(Counter(), _("no face-up letter is the last letter of the word"))
        if first == last and (len(word) < 2 or available[first] < 2):
            return LetterMatch(
                Counter(),
                _(
                    "first and last need two different cards, and only one {letter} is face-up",
                    letter=first.upper(),
                ),
            )
    elif placement is Placement.IN_BETWEEN:
        inner = Counter(word[1:-1])
        inside = sum(min(n, available[ch]) for ch, n in inner.items())
        if inside < 2:
            return LetterMatch(
                Counter(), _("at least two face-up letters must sit between the first and last letter")
            )
    return LetterMatch(claimed)
