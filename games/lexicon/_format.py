"""The layout of the committed data file, shared by the build and the loader.

``data/lexicon.dat.gz`` is one gzip stream (mtime 0) holding a magic line and
named sections, each introduced by a ``NAME LENGTH`` line::

    MOJILEX 1
    words 1234567
    <LENGTH bytes: sorted words, newline-separated>
    info 987654
    <LENGTH bytes: one little-endian uint32 per word: flag bits 0-15 | zipf*10 << 16
     | base code << 24 (bits 24-30) | NON_PLACE (bit 31)>
    ...

What a capitalised-only entry is reads from its flags: ABBREV an abbreviation or symbol;
PROPER alone a place; PROPER | NON_PLACE | PERSONAL_NAME a person's name; PROPER |
NON_PLACE another proper noun (docs/LEXICON.md, "Names").

A row may carry no dictionary bit (CASUAL, TOURNAMENT): such a row is a theme word only
(a food or animal WordNet knows that neither dictionary lists, or a multi-word one such as
``ice cream``, with single spaces): the judge accepts it under its theme and nowhere else,
and no dictionary's word list, letter table or examples include it.

The base code says which word an -s/-ing/-ed form inflects without a second
lookup (see :func:`encode_base`); ``bases`` (``word<TAB>base`` lines) holds
only the irregular ones the code cannot spell.

Other sections: ``bases`` (irregular inflections),
``persons`` (famous persons, one name a line), ``tables`` (JSON letter
pair/triple tables) and ``meta`` (JSON: sources and counts).
"""

from __future__ import annotations

MAGIC = b"MOJILEX 1\n"

#: In the casual dictionary (SCOWL size <= 60, junk removed).
CASUAL = 1 << 0
#: In the tournament dictionary (SCOWL size <= 80 plus the two-letter game words).
TOURNAMENT = 1 << 1
PROPER = 1 << 2
ABBREV = 1 << 3
CONTRACTION = 1 << 4
FOREIGN = 1 << 5
PLURAL_S = 1 << 6
ING = 1 << 7
ED = 1 << 8
NOUN = 1 << 9
VERB = 1 << 10
ADJ = 1 << 11
FOOD = 1 << 12
ANIMAL = 1 << 13
#: A plain word in the tournament dictionary whose common reading (casual) is a proper noun,
#: abbreviation or contraction (paris, english, ok): those three flags apply in casual only.
TOURNAMENT_PLAIN = 1 << 14
#: A proper noun that names a person (Einstein, Mary), not a place (Paris, Nile) or another
#: thing (Monday): always set together with PROPER. Ban code "names".
PERSONAL_NAME = 1 << 15
#: A proper noun that names no place: a person, or another name (a weekday, a language, a
#: demonym, a brand, a symbol written as a name such as Sn). Always set together with
#: PROPER; a PROPER row without it is a place (Paris, Nile, München). Ban code "non-place"
#: (Mark My Words: every capitalised-only entry but places). Bit 31, the last free one.
NON_PLACE = 1 << 31
#: The flags TOURNAMENT_PLAIN switches off in the tournament dictionary.
NAME_FLAGS = PROPER | ABBREV | CONTRACTION | PERSONAL_NAME | NON_PLACE

ZIPF_SHIFT = 16
ZIPF_MASK = 0xFF

#: Base code (bits 24-30): strip 1-7 letters from the end and add one of BASE_ENDINGS
#: (``walked`` -> strip 2 -> ``walk``; ``cities`` -> strip 3, add "y"), or BASE_LISTED:
#: the base is irregular and stands in the ``bases`` section. Zero: no base.
BASE_STRIP_SHIFT = 24
BASE_STRIP_MASK = 0x7
BASE_END_SHIFT = 27
BASE_END_MASK = 0x7
BASE_LISTED = 1 << 30
#: The endings a base code can add, by index (the eight most frequent in the data).
BASE_ENDINGS: tuple[str, ...] = ("", "y", "e", "is", "s", "x", "f", "fe")

#: Ban code -> flag bit.
BAN_FLAGS: dict[str, int] = {
    "proper": PROPER,
    "abbrev": ABBREV,
    "contraction": CONTRACTION,
    "foreign": FOREIGN,
    "plural-s": PLURAL_S,
    "ing": ING,
    "ed": ED,
    "names": PERSONAL_NAME,
    "non-place": NON_PLACE,
}

#: Theme code -> flag bit (themes the word data decides).
THEME_FLAGS: dict[str, int] = {
    "nouns": NOUN,
    "verbs": VERB,
    "adjectives": ADJ,
    "food": FOOD,
    "animals": ANIMAL,
}

#: Dictionary name -> flag bit.
DICT_FLAGS: dict[str, int] = {"casual": CASUAL, "tournament": TOURNAMENT}

#: Bans applied when the letter tables are built in their two strengths.
BASE_BANS: tuple[str, ...] = ("proper", "abbrev", "contraction", "foreign")
STRICT_BANS: tuple[str, ...] = (*BASE_BANS, "plural-s", "ing", "ed")

#: Placements in the letter tables (values of games.common.placement.Placement).
PLACEMENTS: tuple[str, ...] = ("anywhere", "first-or-last", "first-and-last", "in-between")


#: What a capitalised-only entry is, by :func:`name_kind`.
NAME_KINDS: tuple[str, ...] = ("place", "person", "abbreviation", "other")


def name_kind(info: int) -> str | None:
    """What a row's flags say it names: "abbreviation" (or symbol), "person", "other" (a
    proper noun that is neither person nor place), "place"; None for an everyday word."""
    if info & ABBREV:
        return "abbreviation"
    if info & PERSONAL_NAME:
        return "person"
    if info & NON_PLACE:
        return "other"
    if info & PROPER:
        return "place"
    return None


def effective(info: int, dict_bit: int) -> int:
    """A word's flags as seen from one dictionary (see TOURNAMENT_PLAIN)."""
    if info & TOURNAMENT_PLAIN and dict_bit == TOURNAMENT:
        return info & ~NAME_FLAGS
    return info


def encode_base(word: str, base: str) -> int:
    """The base code for ``word`` inflecting ``base`` (BASE_LISTED when it can't be spelled)."""
    common = 0
    while common < min(len(word), len(base)) and word[common] == base[common]:
        common += 1
    strip, ending = len(word) - common, base[common:]
    if 1 <= strip <= BASE_STRIP_MASK and ending in BASE_ENDINGS:
        return strip << BASE_STRIP_SHIFT | BASE_ENDINGS.index(ending) << BASE_END_SHIFT
    return BASE_LISTED


def decode_base(word: str, info: int) -> str | None:
    """The base a base code spells for ``word``; None for no code or a listed base."""
    strip = info >> BASE_STRIP_SHIFT & BASE_STRIP_MASK
    if not strip:
        return None
    return word[:-strip] + BASE_ENDINGS[info >> BASE_END_SHIFT & BASE_END_MASK]


def table_key(dictionary: str, strict: bool, placement: str) -> str:
    """Name of one pair table inside the ``tables`` section."""
    return f"{dictionary}/{'strict' if strict else 'base'}/{placement}"


def pack_sections(sections: list[tuple[str, bytes]]) -> bytes:
    """The uncompressed container for ``sections`` (in the given order)."""
    out = [MAGIC]
    for name, blob in sections:
        out.append(f"{name} {len(blob)}\n".encode("ascii"))
        out.append(blob)
    return b"".join(out)


def unpack_sections(raw: bytes) -> dict[str, bytes]:
    """Split an uncompressed container back into its sections."""
    if not raw.startswith(MAGIC):
        raise ValueError("not a moji lexicon data file (bad magic line)")
    pos = len(MAGIC)
    sections: dict[str, bytes] = {}
    while pos < len(raw):
        end = raw.index(b"\n", pos)
        name, size_text = raw[pos:end].decode("ascii").split(" ")
        size = int(size_text)
        sections[name] = raw[end + 1 : end + 1 + size]
        pos = end + 1 + size
    return sections
