"""Mark My Words: place letter tiles on a grid, read words along paths of touching tiles.

``GAME`` is what the registry and the help know; :class:`PathsEngine` is the
pure rule engine and :mod:`games.paths.finder` the word finder it (and
``python -m games.paths words``) uses.
"""

from __future__ import annotations

from games.common.protocol import Engine, GameInfo, Setup
from games.common.speech import N_
from games.paths.engine import PathsEngine, PathsReader
from games.paths.options import OPTIONS, PathsConfig
from games.paths.rules_text import RULES
from games.paths.tiles import MAX_PLAYERS, MIN_PLAYERS
from games.paths.wordlists import prepare, word_rules


def create(setup: Setup) -> Engine:
    """A new Mark My Words engine for ``setup``."""
    return PathsEngine(setup)


GAME = GameInfo(
    name="paths",
    page="games.paths.web",
    title=N_("Mark My Words"),
    summary=N_("Place letter tiles on a grid; words run along paths of touching tiles."),
    rules=RULES,
    options=OPTIONS,
    create=create,
    reads=PathsReader,
    min_players=MIN_PLAYERS,
    max_players=MAX_PLAYERS,
    realtime=False,
    turn_moves=((N_("Pass"), "pass"),),
    aliases=("mark-my-words", "mmw"),
    start_form=("bots", "level", "size", "scoring", "turn", "knock", "language"),
    prepare=prepare,
    prepare_key=word_rules,
    refusal=lambda options: PathsConfig.from_options(options).refusal(),
)

__all__ = ["GAME", "PathsEngine", "create", "prepare"]
