"""Letter dice: ten letter dice, two sides, crossing words, as a pure turn-based engine.

``GAME`` is what the registry and the help know; ``create(setup)`` builds the engine.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.common.options import BOT_LEVELS, OptionValue
from games.common.protocol import Engine, GameInfo, Setup
from games.common.speech import N_
from games.dice.engine import DiceReader, LetterDice
from games.dice.options import OPTIONS
from games.dice.rules_text import RULES, faces


def prepare(language: str = "en", options: Mapping[str, OptionValue] | None = None) -> None:
    """Build the word list of ``language`` and its computer players' (one per level's
    vocabulary) now (0.3–1 s) instead of inside the first game's first roll (the word rules
    have no option: ``options`` change nothing).

    A server may call this at start-up, like ``Lexicon.prepare()``; workspaces with their
    own word lists still build theirs on first use.
    """
    from games.common.languages import language as language_named
    from games.common.words import WordRules
    from games.dice.engine import BANS, DICTIONARY, load_lexicon
    from games.dice.wordlist import allowed_words, game_words

    lang = language_named(language)
    words = game_words(load_lexicon(lang.code), WordRules(dictionary=DICTIONARY, bans=BANS), lang)
    for level in BOT_LEVELS:
        allowed_words(words, level)
    from games.lexicon.glosses import load as load_glosses

    load_glosses(lang.code)  # the meanings of computer players' words


def create(setup: Setup) -> Engine:
    """A new letter-dice engine for ``setup``."""
    return LetterDice(setup)


GAME = GameInfo(
    name="dice",
    page="games.dice.web",
    title=N_("Letter dice"),
    summary=N_("Roll ten letter dice and make words that cross the last word played."),
    rules=RULES,
    rules_extra=faces,
    options=OPTIONS,
    create=create,
    reads=DiceReader,
    min_players=2,
    max_players=8,
    realtime=False,
    aliases=("letter-dice", "letterdice"),
    start_form=("bots", "level", "words", "turn", "live", "strict", "language"),
    prepare=prepare,
)

__all__ = ["GAME", "LetterDice", "create", "prepare"]
