"""The dice game's options (one declaration for chat, slash commands and help)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.common.languages import LANGUAGES
from games.common.options import BOT_LEVELS, OptionSpec, OptionValue, computer_players, language_option
from games.common.speech import N_

LEVELS = BOT_LEVELS

#: Live mode: minutes per turn and seconds to challenge the last word (the ``live`` option's
#: help says them).
LIVE_TURN_MINUTES = 2
LIVE_WINDOW_SECONDS = 30

OPTIONS: tuple[OptionSpec, ...] = (
    *computer_players(7),
    OptionSpec(
        "strict",
        "bool",
        False,
        N_("the lexicon refuses invalid words at once (no challenges)"),
        aliases=("lexicon",),
    ),
    OptionSpec(
        "words", "int", 5, N_("words each player (or team) makes"), low=1, high=10, aliases=("rounds",)
    ),
    OptionSpec(
        "turn",
        "int",
        1440,
        N_("minutes per turn (1440 = 24 hours); a missed turn scores 0"),
        low=1,
        high=10080,
        aliases=("turn-minutes",),
    ),
    OptionSpec(
        "live",
        "bool",
        False,
        N_("live play: 2-minute turns, 30 s to challenge the last word"),
    ),
    OptionSpec(
        "window",
        "int",
        3600,
        N_("seconds the opponents have to challenge the game's last word"),
        low=10,
        high=86400,
        aliases=("challenge-time",),
    ),
    language_option(),
)


@dataclass(frozen=True, slots=True)
class DiceConfig:
    """Typed view of the options, with defaults filled in (times in seconds)."""

    bots: int = 0
    level: str = "normal"
    strict: bool = False
    words: int = 5
    turn: float = 1440 * 60.0
    window: float = 3600.0
    live: bool = False
    language: str = "en"  # games recorded before the option existed were English

    @property
    def reminder(self) -> float:
        """Seconds before the turn ends when the player is reminded (a quarter of the turn)."""
        return self.turn / 4

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue]) -> DiceConfig:
        """Read an option dict (missing or unreadable values take their defaults)."""
        specs = {spec.name: spec for spec in OPTIONS}

        def get(name: str) -> OptionValue:
            spec = specs[name]
            value = options.get(name, spec.default)
            if isinstance(value, str) and spec.kind in ("int", "bool"):
                try:
                    value = spec.parse(value)
                except ValueError:
                    value = spec.default
            return value

        def num(name: str) -> int:
            value = get(name)
            if isinstance(value, bool) or not isinstance(value, int):
                value = specs[name].default
            assert isinstance(value, int)
            low, high = specs[name].low or 0, specs[name].high or value
            return min(max(value, low), high)

        level = str(get("level"))
        live = get("live") is True
        code = str(get("language"))
        return cls(
            bots=num("bots"),
            level=level if level in LEVELS else "normal",
            strict=get("strict") is True,
            words=num("words"),
            turn=(LIVE_TURN_MINUTES if live else num("turn")) * 60.0,
            window=float(LIVE_WINDOW_SECONDS if live else num("window")),
            live=live,
            language=code if code in LANGUAGES else "en",
        )
