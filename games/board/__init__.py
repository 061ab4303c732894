"""MOJO, the board game: a 16×16 board of clusters (or the classic 15×15), as a pure engine.

``GAME`` is what the registry and the help know; the engine is
:class:`games.board.engine.BoardGame`; ``python -m games.board replay`` checks
and scores a game written down move by move.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.board.engine import BoardGame, BoardReader
from games.board.options import OPTIONS, BoardConfig
from games.board.rules_text import RULES
from games.common.options import BOT_LEVELS, OptionValue
from games.common.protocol import Engine, GameInfo, Setup
from games.common.speech import N_


def create(setup: Setup) -> Engine:
    """A new board game for ``setup``."""
    return BoardGame(setup)


def _dictionary(options: Mapping[str, OptionValue]) -> str:
    return BoardConfig.from_options(options).dictionary


def prepare(language: str = "en", options: Mapping[str, OptionValue] | None = None) -> None:
    """Build the computer players' tries (one per level's vocabulary) of the dictionary the
    ``options`` name (default: tournament) in ``language`` now (1–6 s), not in a game."""
    from games.board.trie import trie_for
    from games.lexicon.glosses import load as load_glosses

    dictionary = _dictionary(options or {})
    for level in BOT_LEVELS:
        trie_for(dictionary, language, level)
    load_glosses(language)  # the meanings of computer players' words


GAME = GameInfo(
    name="board",
    page="games.board.web",
    title="MOJO",
    summary=N_("Lay words on a 16×16 board of bonus clusters, turn by turn."),
    rules=RULES,
    options=OPTIONS,
    create=create,
    reads=BoardReader,
    min_players=2,
    max_players=4,
    realtime=False,
    turn_moves=((N_("Pass"), "pass"), (N_("Resign"), "resign")),
    aliases=("mojo",),
    start_form=("layout", "bots", "level", "dict", "turn", "live", "language"),
    prepare=prepare,
    prepare_key=_dictionary,
)

__all__ = ["GAME", "BoardGame", "create", "prepare"]
