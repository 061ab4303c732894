"""The allowed words of a game, as a :class:`WordList`, built once per rule set."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING

from games.common.languages import language
from games.common.options import OptionValue
from games.common.words import WordJudge, WordRules
from games.paths.finder import WordList

if TYPE_CHECKING:
    from games.lexicon import Lexicon

_cache: dict[tuple[WordRules, str], WordList] = {}
_lock = threading.Lock()


def lexicon(dictionary: str, code: str = "en") -> Lexicon:
    """The lexicon of ``dictionary`` in language ``code``."""
    from games.lexicon import load

    return load(dictionary, language=code)


def allowed_words(rules: WordRules, judge: WordJudge | None = None, code: str = "en") -> WordList:
    """Every word of ``rules.dictionary`` in language ``code`` that ``rules`` allows, plus the
    workspace's added words.

    Built from the project lexicon (0.3 s the first time, then cached per rule
    set and language). With a ``judge`` other than the lexicon, every lexicon word
    is checked by that judge instead (and the result is not cached).
    """
    lex = lexicon(rules.dictionary, code)
    alphabet = language(code).alphabet
    if judge is not None and judge is not lex:
        candidates = set(lex.words()) | set(rules.added)
        return WordList((w for w in candidates if judge.judge(w, rules).ok), rules.min_length, alphabet)
    with _lock:
        found = _cache.get((rules, code))
        if found is None:
            candidates = set(lex.words()) | set(rules.added)
            found = WordList((w for w in candidates if lex.judge(w, rules).ok), rules.min_length, alphabet)
            _cache[rules, code] = found
        return found


def word_rules(options: Mapping[str, OptionValue]) -> WordRules:
    """The word rules (without a workspace's words) of a game with ``options``."""
    from games.paths.options import PathsConfig

    config = PathsConfig.from_options(options)
    return WordRules(dictionary=config.dictionary, min_length=config.min_length, bans=config.bans)


def prepare(language: str = "en", options: Mapping[str, OptionValue] | None = None) -> WordList | None:
    """Build the word list of a game with ``options`` (default: the default game) in
    ``language`` now (1 to 2 s), so a server pays it at start-up (or as a lobby opens).

    Otherwise the first Mark My Words game to start builds it, inside the
    session that starts it. None for options that can't make a game.
    """
    from games.lexicon.glosses import load as load_glosses
    from games.paths.options import PathsConfig

    full = {**(options or {}), "language": language}
    if PathsConfig.from_options(full).refusal() is not None:
        return None
    load_glosses(language)  # the meanings of computer players' words
    return allowed_words(word_rules(full), None, language)
