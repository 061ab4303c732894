"""Which words can be made from the rolled dice crossing the word on the mat.

The bot uses it to prove that no word exists (the automatic loss), to show a word a
player missed, and to plan the computer players' moves. The search walks the sorted word
list as if it were a trie: a prefix is extended by a letter only while some allowed word
still starts with it and a rolled die (or a blank, or the one shared letter of the mat's
word) can supply that letter. Every word found is then fitted with :func:`fit_word`,
which picks its best crossing and scoring.
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


@dataclass(slots=True)
class _Search:
    words: tuple[str, ...]
    have: Counter[str]
    mat: frozenset[str]
    need_mat: bool
    max_steps: int | None
    steps: int = 0

    def walk(self, prefix: str, lo: int, hi: int, blanks: int, mat_free: bool) -> Iterator[str]:
        words = self.words
        if lo < hi and words[lo] == prefix and len(prefix) >= 2 and not (self.need_mat and mat_free):
            yield prefix
        n = len(prefix)
        i = lo
        while i < hi and (self.max_steps is None or self.steps < self.max_steps):
            word = words[i]
            if len(word) <= n:
                i += 1
                continue
            ch = word[n]
            longer = prefix + ch
            end = bisect_left(words, longer + "{", i, hi)  # "{" sorts after "z"
            self.steps += 1
            if self.have[ch] > 0:
                self.have[ch] -= 1
                yield from self.walk(longer, i, end, blanks, mat_free)
                self.have[ch] += 1
            elif blanks > 0:
                yield from self.walk(longer, i, end, blanks - 1, mat_free)
            if mat_free and ch in self.mat:
                yield from self.walk(longer, i, end, blanks, False)
            i = end


def spellable(
    wordlist: WordList,
    rolled: Sequence[tuple[int, Face]],
    mat: Sequence[Placed],
    max_steps: int | None = None,
) -> Iterator[str]:
    """Allowed words spelled by the rolled dice plus exactly one letter of the mat's word.

    On the first turn (an empty mat) the rolled dice alone. Each word once, in
    alphabetical order (a word may repeat when it can share different letters; callers
    that care keep a set). ``max_steps`` cuts a long search short (None: search it all).
    """
    if not rolled:
        return
    have = Counter(f.letter for _, f in rolled if not f.blank)
    blanks = sum(1 for _, f in rolled if f.blank)
    search = _Search(wordlist.words, have, frozenset(p.letter for p in mat), bool(mat), max_steps)
    yield from search.walk("", 0, len(wordlist.words), blanks, bool(mat))


def candidates(
    wordlist: WordList,
    rolled: Sequence[tuple[int, Face]],
    mat: Sequence[Placed],
    max_steps: int | None = None,
) -> Iterator[Fit]:
    """Every allowed word that fits, each once with its best crossing."""
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
    """The highest-scoring word (longer, then alphabetical, on a tie), or None."""
    best: Fit | None = None
    for fit in candidates(wordlist, rolled, mat, max_steps):
        if best is None or (fit.score, len(fit.word)) > (best.score, len(best.word)):
            best = fit
    return best
