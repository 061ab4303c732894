"""The board game's options, declared once, and the settings they make."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.common.languages import LANGUAGES
from games.common.options import (
    BOT_LEVELS,
    STRONG_LEVEL_HELP,
    OptionSpec,
    OptionValue,
    computer_players,
    language_option,
    recorded_before,
)
from games.common.speech import N_

LAYOUTS = ("mojo", "classic")
DICTIONARIES = ("tournament", "casual")
LEVELS = BOT_LEVELS

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "layout", "choice", "mojo", N_("the board: mojo (16x16, clusters) or classic (15x15)"), LAYOUTS
    ),
    OptionSpec("dict", "choice", "tournament", N_("the dictionary words are judged by"), DICTIONARIES),
    OptionSpec(
        "turn",
        "int",
        72,
        N_("hours each player has for a turn (a player out of time loses)"),
        low=1,
        high=168,
    ),
    OptionSpec("live", "bool", False, N_("live mode: minutes per turn (live-minutes) instead of hours")),
    OptionSpec("live-minutes", "int", 3, N_("minutes per turn in live mode"), low=1, high=60),
    *computer_players(3, STRONG_LEVEL_HELP),
    OptionSpec("missed", "bool", False, N_("after the game, show each player the best move they missed")),
    OptionSpec(
        "scoreless",
        "int",
        3,
        N_(
            "full rounds of scoreless turns in a row (passes, swaps, words worth 0) that end the game "
            "(3: six turns with two players, the tournament rule)"
        ),
        low=1,
        high=5,
    ),
    language_option(),
)


@dataclass(frozen=True, slots=True)
class BoardConfig:
    """The options of one game, typed."""

    layout: str = "mojo"
    dictionary: str = "tournament"
    turn_seconds: float = 72 * 3600.0
    live: bool = False
    missed: bool = False
    #: Full rounds of scoreless turns in a row that end the game; 0 (only a game recorded
    #: before the option existed) for no such limit, as it was played.
    scoreless: int = 3
    #: The language of the words and tiles; a game recorded before the option existed has
    #: no ``language`` and was played in English, the default.
    language: str = "en"

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue]) -> BoardConfig:
        """Read (already validated) options; missing ones take their defaults."""
        live = bool(options.get("live", False))
        hours = _int(options.get("turn"), 72)
        minutes = _int(options.get("live-minutes"), 3)
        layout = str(options.get("layout", "mojo"))
        dictionary = str(options.get("dict", "tournament"))
        language = str(options.get("language", "en"))
        scoreless = _int(options.get("scoreless"), 3)
        if recorded_before(options, "scoreless", ("layout", "dict", "turn")):
            scoreless = 0  # the old end: replays a recorded game exactly as it was played
        return cls(
            layout=layout if layout in LAYOUTS else "mojo",
            dictionary=dictionary if dictionary in DICTIONARIES else "tournament",
            turn_seconds=minutes * 60.0 if live else hours * 3600.0,
            live=live,
            missed=bool(options.get("missed", False)),
            scoreless=scoreless,
            language=language if language in LANGUAGES else "en",
        )


def _int(value: OptionValue | None, default: int) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else default
