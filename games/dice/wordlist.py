"""The words the dice game allows, as one sorted list the solver can walk like a trie.

Built once per judge and rule set from the dictionary's entries (plus a workspace's own
words), keeping only what the judge allows and what ten dice and a shared letter can
spell. A sorted list needs no extra memory for a trie: the words sharing a prefix are
one contiguous slice, found by bisection.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from games.common.languages import ENGLISH, Language
from games.common.words import Verdict, WordRules
from games.dice.rules import MAX_WORD
from games.lexicon.vocabulary import min_zipf, vocabulary


@runtime_checkable
class DiceLexicon(Protocol):
    """What the dice game needs from a lexicon: verdicts and the list of its entries."""

    def judge(self, word: str, rules: WordRules) -> Verdict:
        """Is ``word`` allowed under ``rules``?"""
        ...

    def words(self, dictionary: str | None = None) -> list[str]:
        """Every entry of ``dictionary`` (any order)."""
        ...


class WordList:
    """The allowed words, sorted, with their count (for "checked N words" proofs)."""

    __slots__ = ("words",)

    def __init__(self, words: Iterable[str]) -> None:
        self.words: tuple[str, ...] = tuple(sorted(set(words)))

    def __len__(self) -> int:
        return len(self.words)


_lock = threading.Lock()
_cache: dict[tuple[int, WordRules, str, float | None], tuple[DiceLexicon, WordList]] = {}
_CACHE_SIZE = 12


def allowed_words(
    lexicon: DiceLexicon, rules: WordRules, language: Language = ENGLISH, level: str = "hard"
) -> WordList:
    """The words ``lexicon`` allows under ``rules`` that dice can spell, in ``language``'s
    letters, that a computer player of ``level`` knows (hard, the default: every word; see
    :mod:`games.lexicon.vocabulary`). Cached per judge, rules, language and vocabulary."""
    key = (id(lexicon), rules, language.code, min_zipf(level))
    found = _cache.get(key)
    if found is not None and found[0] is lexicon:
        return found[1]
    known = vocabulary(level, language.code)
    entries = [*lexicon.words(rules.dictionary), *sorted(rules.added)] if known is None else known
    kept = WordList(
        w for w in entries if 2 <= len(w) <= MAX_WORD and language.is_word(w) and lexicon.judge(w, rules).ok
    )
    with _lock:
        if len(_cache) >= _CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        _cache[key] = (lexicon, kept)
    return kept
