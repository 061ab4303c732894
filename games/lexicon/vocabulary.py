"""What a computer player of each level knows: the words it may play, by how common they are.

A hard computer player plays any word of its game's dictionary. An easy or a normal one plays
only the words a person of its level would recognise: plain words (no name, abbreviation or
contraction) of its language's casual dictionary that wordfreq finds at least as common as its
level's Zipf frequency. Every game builds its computer players' word sources from
:func:`vocabulary` (board tries, Shed's anagram index, the dice word list) or filters the words
they find with :func:`knows` (race, Mark My Words), so an easy or normal player never plays a
rarer word (words it forms by the way, such as the board's cross-words and Shed's words left
after a take, included).

The cut-offs were chosen from measurement (docs/LEXICON.md, "Computer players' vocabulary"):

- normal, Zipf ≥ 2.5 (about once in 3 million words): 36,000 English word forms (22,000
  lemmas, well inside the 42,000 an average adult knows by Brysbaert et al. 2016), 41,000–57,000
  in the other languages; nearly every word of random samples just above the cut was
  recognisable.
- easy, Zipf ≥ 3.5 (once in 300,000 words): 13,000–16,000 word forms in every language
  (8,500 English lemmas), everyday words.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from games.lexicon import _format as F

#: The least Zipf frequency of the words a computer player of each level plays (hard: every word).
LEVEL_ZIPF: dict[str, float] = {"easy": 3.5, "normal": 2.5}

Known = Callable[[str], bool]


def min_zipf(level: str) -> float | None:
    """The least Zipf frequency of the words a computer player of ``level`` plays (None: any word)."""
    return LEVEL_ZIPF.get(level)


def knows(level: str, language: str = "en") -> Known | None:
    """A test of whether a computer player of ``level`` knows a (folded) word of ``language``,
    or None when it knows every word of the game's dictionary (hard, or an unknown level).

    The test is a lookup and two bit tests (well under a microsecond).
    """
    least = LEVEL_ZIPF.get(level)
    if least is None:
        return None
    from games.lexicon import load

    info = load("casual", language)._info
    get = info.get
    casual, names = F.CASUAL, F.NAME_FLAGS
    shift, mask = F.ZIPF_SHIFT, F.ZIPF_MASK
    threshold = round(least * 10)

    def known(word: str) -> bool:
        v = get(word, 0)
        return bool(v & casual) and (v >> shift & mask) >= threshold and not F.effective(v, casual) & names

    return known


_lock = threading.Lock()
_words: dict[tuple[float, str], tuple[str, ...]] = {}


def vocabulary(level: str, language: str = "en") -> tuple[str, ...] | None:
    """Every word a computer player of ``level`` knows in ``language``, most common first (None:
    every word of the game's dictionary). Built once per level and language (a pass over the
    casual dictionary): the games build their computer players' word sources from it rather
    than from a whole dictionary, several times faster."""
    least = LEVEL_ZIPF.get(level)
    if least is None:
        return None
    key = (least, language)
    found = _words.get(key)
    if found is None:
        from games.lexicon import load
        from games.lexicon.core import _items_with

        known = knows(level, language)
        assert known is not None
        info = load("casual", language)._info
        shift, mask = F.ZIPF_SHIFT, F.ZIPF_MASK
        with _lock:
            found = _words.get(key)
            if found is None:
                ranked = sorted((-(v >> shift & mask), w) for w, v in _items_with(info, F.CASUAL) if known(w))
                found = _words[key] = tuple(w for _, w in ranked)
    return found
