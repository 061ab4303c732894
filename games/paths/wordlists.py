"""The one verdict on a word in Mark My Words (:func:`game_words`), and the finder's word list
built from it once per rule set (:func:`allowed_words`)."""

from __future__ import annotations

import threading
from collections.abc import Mapping
from typing import TYPE_CHECKING

from games.common.languages import language
from games.common.options import OptionValue
from games.common.words import GameWords, Judge, WordRules
from games.paths.finder import WordList

if TYPE_CHECKING:
    from games.lexicon import Lexicon

_cache: dict[tuple[WordRules, str], WordList] = {}
_lock = threading.Lock()


def lexicon(dictionary: str, code: str = "en") -> Lexicon:
    """The lexicon of ``dictionary`` in language ``code``."""
    from games.lexicon import load

    return load(dictionary, language=code)


def game_words(rules: WordRules, judge: Judge | None = None, code: str = "en") -> GameWords:
    """The verdict of a Mark My Words game with ``rules`` in language ``code``: the lexicon (or
    ``judge``) under those rules, in the language's letters.

    The claim check, the finder's word list (and so the computer players, the end-of-game
    solver and ``python -m games.paths words``) and ``define`` all ask it.
    """
    found = judge if judge is not None else lexicon(rules.dictionary, code)
    return GameWords(found, rules, language(code))


def allowed_words(words: GameWords) -> WordList:
    """Every word ``words`` allows (its dictionary's entries and the workspace's added words), as
    the finder's :class:`WordList`.

    Built from the project lexicon (1 to 2 s the first time, then cached per rule set and
    language); with any other judge it is built each time.
    """
    rules, code = words.rules, words.language.code
    if words.judge is not lexicon(rules.dictionary, code):
        return WordList(words.allowed(), rules.min_length, words.alphabet)
    with _lock:
        found = _cache.get((rules, code))
        if found is None:
            found = WordList(words.allowed(), rules.min_length, words.alphabet)
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
    return allowed_words(game_words(word_rules(full), None, language))
