"""Shed: the shedding card game — make words from your hand, extend and raid the table's words.

``GAME`` is what the registry and the help know; the engine is
:class:`games.shed.engine.ShedGame`, the notation ``games.shed.notation``.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping

from games.common.options import BOT_LEVELS, OptionValue, parse_options
from games.common.protocol import Engine, GameInfo, GameVerb, Setup, VerbArgument
from games.common.speech import N_
from games.shed.engine import ShedGame, ShedReader
from games.shed.options import OPTIONS, ShedConfig
from games.shed.rules_text import RULES


def create(setup: Setup) -> Engine:
    """A new shed game for ``setup``."""
    return ShedGame(setup)


def prepare(language: str = "en", options: Mapping[str, OptionValue] | None = None) -> None:
    """Build the computer players' word indexes (one per level's vocabulary) for the word rules
    of ``options`` (default: the default rules) in ``language`` now (1–2 s), not in a game."""
    from games.common.protocol import Seat
    from games.shed.bots import word_index

    seats = (Seat("bot:1", "Ada", bot="normal"), Seat("bot:2", "Basil", bot="normal"))
    full = {**parse_options(OPTIONS, ()), **(options or {}), "language": language}
    game = ShedGame(Setup(options=full, seats=seats, seed=0))
    if game.refusal:
        return  # a game that can't be played judges no word
    for level in BOT_LEVELS:
        word_index(game, level)
    from games.lexicon.glosses import load as load_glosses

    load_glosses(language)  # the meanings of computer players' words


def _word_rules(options: Mapping[str, OptionValue]) -> Hashable:
    config = ShedConfig.from_options(options)
    return config.word_rules(), config.verbs_allowed


#: Shed's own command: ``skip NAME`` plays a Skip card (the same move typed in the chat).
SKIP = GameVerb(
    "skip",
    "skip NAME",
    N_("play a Skip card: NAME misses their next turn"),
    "move",
    argument=VerbArgument("who", N_("Who misses their next turn (Shed's Skip card)")),
    missing=N_("Shed has no skip vote: to play a Skip card, name who skips: `skip NAME`."),
    absent=N_("`skip NAME` plays a Skip card in Shed; {title} has no Skip cards."),
)

GAME = GameInfo(
    name="shed",
    page="games.shed.web",
    title=N_("Shed"),
    summary=N_("Shed your hand of letter cards by making words and reworking the words on the table."),
    rules=RULES,
    options=OPTIONS,
    create=create,
    reads=ShedReader,
    min_players=2,
    max_players=6,
    realtime=False,
    turn_moves=((N_("Draw a card"), "draw"),),
    aliases=("shedding", "wordshed"),
    start_form=("bots", "level", "hand", "pace", "dictionary", "rounds", "language"),
    prepare=prepare,
    prepare_key=_word_rules,
    refusal=lambda options: ShedConfig.from_options(options).refusal,
    verbs=(SKIP,),
)

__all__ = ["GAME", "create", "prepare"]
