"""The allowed words of a game, as a :class:`WordList`, built once per rule set."""

from __future__ import annotations

import threading

from games.common.words import WordJudge, WordRules
from games.paths.finder import WordList

_cache: dict[WordRules, WordList] = {}
_lock = threading.Lock()


def allowed_words(rules: WordRules, judge: WordJudge | None = None) -> WordList:
    """Every word of ``rules.dictionary`` that ``rules`` allows, plus the workspace's added words.

    Built from the project lexicon (0.3 s the first time, then cached per rule
    set). With a ``judge`` other than the lexicon, every lexicon word is checked
    by that judge instead (and the result is not cached).
    """
    from games.lexicon import load

    lexicon = load(rules.dictionary)
    if judge is not None and judge is not lexicon:
        candidates = set(lexicon.words()) | set(rules.added)
        return WordList((w for w in candidates if judge.judge(w, rules).ok), rules.min_length)
    with _lock:
        found = _cache.get(rules)
        if found is None:
            candidates = set(lexicon.words()) | set(rules.added)
            found = WordList((w for w in candidates if lexicon.judge(w, rules).ok), rules.min_length)
            _cache[rules] = found
        return found


def prepare() -> WordList:
    """Build the default game's word list now (1 to 2 s), so a server pays it at start-up.

    Otherwise the first Mark My Words game to start builds it, inside the
    session that starts it.
    """
    from games.paths.options import DEFAULT_BANS

    return allowed_words(WordRules(dictionary="tournament", bans=frozenset(DEFAULT_BANS)))
