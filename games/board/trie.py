"""A compact array-based trie of the lexicon, for the computer player's move generator.

Built at run time from ``games.lexicon`` (standard library only), lazily, once
per process, and shared by every game (:func:`tournament_trie`). Nodes are
numbered level by level; node ``i`` stores a mask of the letters that follow it
(a bit per letter of the language's alphabet: 26 for English, 29 for German), the
number of its first child (its children are consecutive, in letter order), the
mask of the letters after which a word ends (``ends``) and whether it ends a word
itself. A child is found with a popcount: ``first[i] + popcount(mask[i] & (bit - 1))``.
Four flat arrays of about 570,000 entries (about 7 MB) instead of millions of
nested dicts.
"""

from __future__ import annotations

import re
import threading
import time
from array import array
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import accumulate

from games.common.languages import ASCII_LETTERS
from games.common.words import GameWords
from games.lexicon.vocabulary import min_zipf, vocabulary

#: Longest word kept (the largest board is 16 squares wide).
MAX_LENGTH = 16


class Trie:
    """The words of a dictionary as a trie in flat arrays (see the module docstring)."""

    __slots__ = (
        "all",
        "alphabet",
        "ends",
        "first",
        "index",
        "lower",
        "mask",
        "nodes",
        "source",
        "term",
        "upper",
        "words",
    )

    def __init__(
        self, words: Iterable[str], max_length: int = MAX_LENGTH, alphabet: str = ASCII_LETTERS
    ) -> None:
        """Build the trie of ``words`` spelled in ``alphabet`` (lower case; others are left out).

        A letter's bit is its place in ``alphabet``, so English keeps ``a`` = bit 0 … ``z`` = bit 25.
        """
        self.alphabet = alphabet
        #: (dictionary, language) of a shared trie (see :func:`trie_for`), None for any other
        self.source: tuple[str, str] | None = None
        #: the letters by bit number, as tiles (upper case) and as blanks (lower case)
        self.upper: tuple[str, ...] = tuple(ch.upper() for ch in alphabet)
        self.lower: tuple[str, ...] = tuple(alphabet)
        #: the mask of every letter
        self.all = (1 << len(alphabet)) - 1
        #: letter (lower or upper case) -> its bit number
        self.index: dict[str, int] = {ch: i for i, ch in enumerate(alphabet)}
        self.index.update({ch.upper(): i for i, ch in enumerate(alphabet)})
        letters = re.escape(alphabet)
        kept = sorted(set(filter(re.compile(f"[{letters}]{{2,{max_length}}}").fullmatch, words)))
        self.words = len(kept)
        by_length: dict[int, list[str]] = {}
        for w in kept:
            by_length.setdefault(len(w), []).append(w)
        longest = max(by_length, default=0)
        # level d holds every prefix of length d, sorted; built from the longest words up
        levels: list[list[str]] = [[] for _ in range(longest + 1)]
        below: set[str] = set()
        for d in range(longest, 0, -1):
            level = below | set(by_length.get(d, ()))
            levels[d] = sorted(level)
            below = {s[:-1] for s in level} if d > 1 else set()
        levels[0] = [""]
        offsets = [0]
        for names in levels:
            offsets.append(offsets[-1] + len(names))
        total = offsets[-1]
        word_set = set(kept)
        mask = [0] * total
        first = [0] * total
        ends = [0] * total
        for d in range(1, len(levels)):
            prev, cur = levels[d - 1], levels[d]
            base_prev, base_cur = offsets[d - 1], offsets[d]
            ids = dict(zip(prev, range(base_prev, base_prev + len(prev)), strict=True))
            parents = list(map(ids.__getitem__, [s[:-1] for s in cur]))
            # children are consecutive: their masks are sums of bits over a run
            index = self.index
            bits = [1 << index[s[-1]] for s in cur]
            cum = [0, *accumulate(bits)]
            cum_ends = [0, *accumulate(b if s in word_set else 0 for b, s in zip(bits, cur, strict=True))]
            starts = dict(zip(reversed(parents), range(len(cur) - 1, -1, -1), strict=True))
            stops = dict(zip(parents, range(1, len(cur) + 1), strict=True))
            for node, j in starts.items():
                first[node] = base_cur + j
                mask[node] = cum[stops[node]] - cum[j]
                ends[node] = cum_ends[stops[node]] - cum_ends[j]
        term = bytearray(b"".join(bytes(map(word_set.__contains__, level)) for level in levels))
        self.mask = array("I", mask)
        self.first = array("I", first)
        self.ends = array("I", ends)
        self.term = term
        self.nodes = total

    def child(self, node: int, letter: int) -> int:
        """The node after ``letter`` (its place in the alphabet) from ``node``, or -1."""
        m = self.mask[node]
        bit = 1 << letter
        if not m & bit:
            return -1
        return int(self.first[node]) + (m & (bit - 1)).bit_count()

    def walk(self, text: str, node: int = 0) -> int:
        """The node reached by spelling ``text`` (lower or upper case) from ``node``, or -1."""
        index = self.index
        for ch in text:
            letter = index.get(ch)
            node = -1 if letter is None else self.child(node, letter)
            if node < 0:
                return -1
        return node

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str) or not word:
            return False
        node = self.walk(word)
        return node >= 0 and bool(self.term[node])

    def memory(self) -> int:
        """Bytes held by the arrays."""
        arrays = (self.mask, self.first, self.ends)
        return sum(a.itemsize * len(a) for a in arrays) + len(self.term)


def verdict_trie(verdict: GameWords, words: Iterable[str] | None = None) -> Trie:
    """The trie of the words of ``words`` (default: the verdict's dictionary entries and added
    words) that the game's ``verdict`` allows: a trie holds no word a move would be refused for,
    and every word a move may form (up to :data:`MAX_LENGTH` letters)."""
    return Trie(verdict.allowed(words, longest=MAX_LENGTH), alphabet=verdict.alphabet)


@dataclass(frozen=True, slots=True)
class BuildInfo:
    """How long the shared trie took to build, and its size."""

    seconds: float
    words: int
    nodes: int
    bytes: int


_LOCK = threading.Lock()
_SHARED: dict[tuple[str, str, float | None], tuple[Trie, BuildInfo]] = {}


def tournament_trie() -> Trie:
    """The trie of the English tournament dictionary's words a MOJO game allows: built on first
    use, then shared."""
    return _shared("tournament")[0]


def trie_for(dictionary: str, language: str = "en", level: str = "hard") -> Trie:
    """The trie of ``dictionary``'s words (``tournament`` or ``casual``) in ``language`` that a
    MOJO game allows (:func:`games.board.words.game_words`) and a computer player of ``level``
    knows (hard: every word; see :mod:`games.lexicon.vocabulary`), built once per process."""
    return _shared(dictionary, language, level)[0]


def level_trie(trie: Trie, level: str) -> Trie:
    """The words of the shared ``trie`` that a computer player of ``level`` knows (``trie`` itself
    for hard, or for a trie :func:`trie_for` did not build: a test's own words)."""
    if trie.source is None or min_zipf(level) is None:
        return trie
    return trie_for(*trie.source, level)


def built() -> set[tuple[str, str, float | None]]:
    """The (dictionary, language, least Zipf) of every trie built so far in this process."""
    with _LOCK:
        return set(_SHARED)


def build_info() -> BuildInfo:
    """Build time and size of the shared trie (building it if needed; lexicon loading excluded)."""
    return _shared("tournament")[1]


def _shared(name: str, language: str = "en", level: str = "hard") -> tuple[Trie, BuildInfo]:
    with _LOCK:
        key = (name, language, min_zipf(level))
        if key not in _SHARED:
            from games.board.words import game_words

            verdict = game_words(name, language)
            verdict.entries()  # (the lexicon's word order, built once, is not the trie's time)
            start = time.perf_counter()
            trie = verdict_trie(verdict, vocabulary(level, language) or None)
            trie.source = (name, language)
            info = BuildInfo(time.perf_counter() - start, trie.words, trie.nodes, trie.memory())
            _SHARED[key] = (trie, info)
        return _SHARED[key]
