"""The words the dice game allows, as one sorted list the solver can walk like a trie.

Built once per judge and rule set from the game's verdict (:func:`game_words`): the
dictionary's entries (plus a workspace's own words) it allows that ten dice and a shared
letter can spell. A sorted list needs no extra memory for a trie: the words sharing a prefix
are one contiguous slice, found by bisection.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from games.common.languages import ENGLISH, Language
from games.common.words import GameWords, Verdict, WordRules
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
_cache: dict[tuple[int, WordRules, str, float | None], tuple[object, WordList]] = {}
_CACHE_SIZE = 12


def game_words(lexicon: DiceLexicon, rules: WordRules, language: Language = ENGLISH) -> GameWords:
    """The verdict of a letter-dice game: ``lexicon`` under ``rules``, in ``language``'s letters.

    A challenge (or, in a strict game, every word) is judged by it, and the word lists the
    solver searches (the automatic loss, the word shown on a concession, the computer players'
    words) are built from it.
    """
    return GameWords(lexicon, rules, language)


def allowed_words(words: GameWords, level: str = "hard") -> WordList:
    """The words the verdict ``words`` allows that dice can spell (at most :data:`MAX_WORD`
    letters), that a computer player of ``level`` knows (hard, the default: every word; see
    :mod:`games.lexicon.vocabulary`). Cached per judge, rules, language and vocabulary."""
    rules, code = words.rules, words.language.code
    key = (id(words.judge), rules, code, min_zipf(level))
    found = _cache.get(key)
    if found is not None and found[0] is words.judge:
        return found[1]
    known = vocabulary(level, code)
    kept = WordList(words.allowed(known, longest=MAX_WORD))
    with _lock:
        if len(_cache) >= _CACHE_SIZE:
            _cache.pop(next(iter(_cache)))
        _cache[key] = (words.judge, kept)
    return kept
