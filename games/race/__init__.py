"""moji, the flip race: the flagship real-time word game, as a pure engine.

``GAME`` is what the registry and the help know; ``create(setup)`` builds the
engine for the chosen options: the flip race (:class:`FlipRace`), or the
variations that change the game's shape: Off the Grid (:class:`OffTheGrid`)
and Eagle Eyes (:class:`EagleEyes`).
"""

from __future__ import annotations

from collections.abc import Mapping

from games.common.options import OptionValue
from games.common.protocol import CardFace, Engine, GameInfo, Setup
from games.common.speech import N_
from games.race.cards import faces as deck_faces
from games.race.eagle import EagleEyes
from games.race.engine import FlipRace
from games.race.grid import OffTheGrid
from games.race.masters import after_game
from games.race.options import OPTIONS, RaceConfig
from games.race.reading import reads
from games.race.rules_text import RULES
from games.race.verbs import VERBS


def create(setup: Setup) -> Engine:
    """A new race engine for ``setup``: the variation chosen picks the game's shape."""
    variations = RaceConfig.from_options(setup.options).variations
    if "off-the-grid" in variations:
        return OffTheGrid(setup)
    if "eagle-eyes" in variations:
        return EagleEyes(setup)
    return FlipRace(setup)


def faces(options: Mapping[str, OptionValue]) -> tuple[CardFace, ...]:
    """Every face a race with ``options`` may show: its language's deck (every variation deals it)."""
    return deck_faces(RaceConfig.from_options(options).lang)


def prepare(language: str = "en", options: Mapping[str, OptionValue] | None = None) -> None:
    """Load the casual lexicon of ``language`` and build its example finder now (about 0.7 s),
    not in a game (the computer players' first claims would wait for it). Every race judges by
    the casual dictionary: ``options`` change nothing."""
    from games.lexicon import load
    from games.lexicon.glosses import load as load_glosses

    load("casual", language=language).prepare()
    load_glosses(language)  # the meanings in hints and computer players' words (0.2 s)


GAME = GameInfo(
    name="race",
    title="moji",
    summary=N_("Flip letter cards and race to name a word that uses them."),
    rules=RULES,
    options=OPTIONS,
    create=create,
    reads=reads,
    min_players=1,
    max_players=12,
    realtime=True,
    aliases=("moji", "flip"),
    start_form=("cards", "bots", "min", "placement", "themes", "variation", "level", "language"),
    prepare=prepare,
    refusal=lambda options: RaceConfig.from_options(options).refusal,
    after_game=after_game,
    verbs=VERBS,
    faces=faces,
)

__all__ = ["GAME", "create", "faces", "prepare"]
