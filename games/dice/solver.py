"""Which words can be made from the rolled dice crossing the word on the mat.

The bot uses it to prove that no word exists (the automatic loss), to show a word a
player missed, and to plan the computer players' moves. The search walks the sorted word
list as if it were a trie: a prefix is extended by a letter only while some allowed word
still starts with it and a rolled die (or a blank, or the one shared letter of the mat's
word) can supply that letter. It adds up each word's points on the way, exactly as
:func:`fit_word` would score the word's best crossing, so only a chosen word needs fitting.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from games.dice.dice import Face
from games.dice.rules import Fit, Placed, fit_word
from games.dice.wordlist import WordList

#: Search steps a computer player spends at most on one roll (bounds the rare roll with two
#: blanks and ten letters, deterministically). Proofs that no word exists are never cut short.
BOT_STEPS = 150_000

#: Sorts after every letter of every language (German ü, Spanish ñ too): a prefix's words
#: end before ``prefix + _AFTER``.
_AFTER = "\U0010ffff"


@dataclass(frozen=True, slots=True)
class Found:
    """A word that can be made, and its score with its best crossing."""

    word: str
    score: int


@dataclass(slots=True)
class _Search:
    words: tuple[str, ...]
    have: Counter[str]
    points: dict[str, int]  # letter of a rolled die -> its points
    mat_points: dict[str, int]  # letter of the mat's word -> the most points a die of it shows
    max_steps: int | None
    steps: int = 0

    def walk(self, prefix: str, lo: int, hi: int, blanks: int, mat_free: bool, score: int) -> Iterator[Found]:
        words = self.words
        if lo < hi and words[lo] == prefix and len(prefix) >= 2 and not (self.mat_points and mat_free):
            yield Found(prefix, score)
        n = len(prefix)
        i = lo
        while i < hi and (self.max_steps is None or self.steps < self.max_steps):
            word = words[i]
            if len(word) <= n:
                i += 1
                continue
            ch = word[n]
            longer = prefix + ch
            end = bisect_left(words, longer + _AFTER, i, hi)
            self.steps += 1
            # a letter die if one is left, else a blank (keeping the blank is never worse)
            if self.have[ch] > 0:
                self.have[ch] -= 1
                yield from self.walk(longer, i, end, blanks, mat_free, score + self.points[ch])
                self.have[ch] += 1
            elif blanks > 0:
                yield from self.walk(longer, i, end, blanks - 1, mat_free, score)
            if mat_free and ch in self.mat_points:
                yield from self.walk(longer, i, end, blanks, False, score + self.mat_points[ch])
            i = end


def _search(
    wordlist: WordList, rolled: Sequence[tuple[int, Face]], mat: Sequence[Placed], max_steps: int | None
) -> Iterator[Found]:
    if not rolled:
        return
    have = Counter(f.letter for _, f in rolled if not f.blank)
    points = {f.letter: f.points for _, f in rolled if not f.blank}
    blanks = sum(1 for _, f in rolled if f.blank)
    mat_points: dict[str, int] = {}
    for p in mat:
        mat_points[p.letter] = max(mat_points.get(p.letter, 0), p.points)
    search = _Search(wordlist.words, have, points, mat_points, max_steps)
    yield from search.walk("", 0, len(wordlist.words), blanks, bool(mat), 0)


def spellable(
    wordlist: WordList,
    rolled: Sequence[tuple[int, Face]],
    mat: Sequence[Placed],
    max_steps: int | None = None,
) -> Iterator[str]:
    """Allowed words spelled by the rolled dice plus exactly one letter of the mat's word.

    On the first turn (an empty mat) the rolled dice alone. Alphabetical order; a word
    may repeat when it can share different letters. ``max_steps`` cuts a long search
    short (None: search it all).
    """
    for found in _search(wordlist, rolled, mat, max_steps):
        yield found.word


def scored(
    wordlist: WordList,
    rolled: Sequence[tuple[int, Face]],
    mat: Sequence[Placed],
    max_steps: int | None = None,
) -> list[Found]:
    """Every word that can be made, once each with its best score, alphabetically."""
    best: dict[str, int] = {}
    for found in _search(wordlist, rolled, mat, max_steps):
        if found.score > best.get(found.word, -1):
            best[found.word] = found.score
    return [Found(w, s) for w, s in best.items()]


def candidates(
    wordlist: WordList,
    rolled: Sequence[tuple[int, Face]],
    mat: Sequence[Placed],
    max_steps: int | None = None,
) -> Iterator[Fit]:
    """Every allowed word that fits, each once with its best crossing (fitted one by one)."""
    seen: set[str] = set()
    for word in spellable(wordlist, rolled, mat, max_steps):
        if word in seen:
            continue
        seen.add(word)
        fit = fit_word(word, rolled, mat)
        if isinstance(fit, Fit):
            yield fit


def any_word(wordlist: WordList, rolled: Sequence[tuple[int, Face]], mat: Sequence[Placed]) -> Fit | None:
    """One word that can be made (the first found), or None when none exists (a complete search)."""
    return next(candidates(wordlist, rolled, mat), None)


def best_word(
    wordlist: WordList,
    rolled: Sequence[tuple[int, Face]],
    mat: Sequence[Placed],
    max_steps: int | None = None,
) -> Fit | None:
    """The highest-scoring word (the longer, then the first alphabetically, on a tie), or None."""
    found = scored(wordlist, rolled, mat, max_steps)
    if not found:
        return None
    top = max(found, key=lambda f: (f.score, len(f.word), [-ord(c) for c in f.word]))
    fit = fit_word(top.word, rolled, mat)
    assert isinstance(fit, Fit)  # the search only finds words that fit
    return fit
