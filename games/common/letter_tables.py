"""Each playing language's letter values and letter frequencies, as its Scrabble set has them.

The card, dice and tile games take their points and their letter mix from here, so a
German Ä is worth what German players expect and the rarest letters are the dearest.
The tables are the standard published tile sets (Wikipedia, "Scrabble letter
distributions"; the French set as played under FISF rules, the Spanish 100-tile set
used outside North America):

- ``en``: 100 tiles; ``nl``, ``fr``, ``de``: 102 tiles; ``es``: 100 tiles (blanks aside).
- Spanish has digraph tiles CH, LL and RR. moji plays the plain-letter set (the folded
  words spell CH as C then H), so :data:`COUNTS` counts each digraph tile as its letters
  (CH adds one C and one H, LL two Ls, RR two Rs) and the plain letters keep their own
  points. K and W have no tile in that set; they take their value in the North American
  Spanish edition (8 points) and a count of 0.
- Dutch IJ is I + J (no IJ tile in today's Dutch set).

Every letter of each language's alphabet (``games.common.languages``) has points here;
counts may be 0 for a letter with no tile.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType


def _table(groups: dict[int, str]) -> dict[str, int]:
    return {letter: value for value, letters in groups.items() for letter in letters}


def _counts(groups: dict[int, str]) -> dict[str, int]:
    return {letter: count for count, letters in groups.items() for letter in letters}


_POINTS: dict[str, dict[str, int]] = {
    "en": _table({1: "aeioulnstr", 2: "dg", 3: "bcmp", 4: "fhvwy", 5: "k", 8: "jx", 10: "qz"}),
    "nl": _table({1: "aeino", 2: "drst", 3: "bgklmp", 4: "fhjuvz", 5: "cw", 8: "xy", 10: "q"}),
    "fr": _table({1: "aeilnorstu", 2: "dgm", 3: "bcp", 4: "fhv", 8: "jq", 10: "kwxyz"}),
    "de": _table({1: "adeinrstu", 2: "ghlo", 3: "bmwz", 4: "cfkp", 6: "äjüv", 8: "öx", 10: "qy"}),
    "es": _table({1: "aeilnorstu", 2: "dg", 3: "bcmp", 4: "fhvy", 5: "q", 8: "jñxkw", 10: "z"}),
}

_COUNTS: dict[str, dict[str, int]] = {
    "en": _counts({12: "e", 9: "ai", 8: "o", 6: "nrt", 4: "lsud", 3: "g", 2: "bcmpfhvwy", 1: "kjxqz"}),
    "nl": _counts({18: "e", 10: "n", 6: "ao", 5: "drst", 4: "i", 3: "gklmu", 2: "bpfhjvzcw", 1: "xyq"}),
    "fr": _counts({15: "e", 9: "a", 8: "i", 6: "norstu", 5: "l", 3: "dm", 2: "gbcpfhv", 1: "jqkwxyz"}),
    "de": _counts(
        {15: "e", 9: "n", 7: "s", 6: "irtu", 5: "a", 4: "dhm", 3: "glo", 2: "bcfk", 1: "wzpäjüvöxqy"}
    ),
    # the 100-tile set with CH, LL and RR split into their letters (C+1, H+1, L+2, R+2)
    "es": _counts(
        {12: "ae", 9: "o", 7: "r", 6: "isl", 5: "nudc", 4: "t", 3: "h", 2: "gbmp", 1: "fvyqjñxz", 0: "kw"}
    ),
}

#: Points per letter, by language code: the language's Scrabble values.
POINTS: Mapping[str, Mapping[str, int]] = MappingProxyType(
    {code: MappingProxyType(table) for code, table in _POINTS.items()}
)

#: Tiles per letter in the language's Scrabble set (blanks aside; Spanish digraphs split).
COUNTS: Mapping[str, Mapping[str, int]] = MappingProxyType(
    {code: MappingProxyType(table) for code, table in _COUNTS.items()}
)

#: Where each table comes from, as the docs cite it.
SOURCES: Mapping[str, str] = MappingProxyType(
    {
        "en": "English Scrabble, 100 tiles",
        "nl": "Dutch Scrabble, 102 tiles (no IJ tile: IJ is I + J)",
        "fr": "French Scrabble (FISF), 102 tiles",
        "de": "German Scrabble, 102 tiles",
        "es": "Spanish Scrabble outside North America, 100 tiles; CH, LL, RR split into plain "
        "letters; K and W (no tile) at the North American edition's 8 points",
    }
)


def points(code: str) -> Mapping[str, int]:
    """The letter points of language ``code`` (``en``, ``nl``, ``fr``, ``de``, ``es``)."""
    return POINTS[code]
