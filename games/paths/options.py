"""The options of Mark My Words, declared once, and the config read from them."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.common.language_rules import english_only
from games.common.languages import language
from games.common.options import (
    BOT_LEVELS,
    OptionSpec,
    OptionValue,
    computer_players,
    language_option,
    recorded_before,
)
from games.common.speech import N_
from games.common.words import BANS

LEVELS = BOT_LEVELS
SCORING: tuple[str, ...] = ("word", "letter")
DICTIONARIES: tuple[str, ...] = ("tournament", "casual")
#: Word bans that mean something here ("repeat" is what "new" already decides).
WORD_BANS: tuple[str, ...] = tuple(b for b in BANS if b != "repeat")
#: The rulebook: no abbreviations or first and surnames; "geographical terms like cities,
#: countries and rivers are allowable". "non-place" refuses every entry the dictionary lists
#: only capitalised but places (names, weekdays, languages, brands, symbols such as SN, XE).
#: A game recorded before this default (bans "proper", "abbrev", "contraction", or "names",
#: "abbrev", "contraction") recorded its rules and replays with them.
#: "names" stays in the set so a first name is refused as "a personal name" (the lowest ban bit).
DEFAULT_BANS: tuple[str, ...] = ("names", "non-place", "abbrev", "contraction")
#: What happens to a letter tile placed where it makes no new word: the rulebook sends it
#: to the Free Letter Pile and the turn ends; "retry" (casual tables) refuses the move instead.
MISPLACED: tuple[str, ...] = ("pile", "retry")
#: The options a game recorded before ``misplaced`` existed: such a record replays with "retry".
_BEFORE_MISPLACED: tuple[str, ...] = (
    "size",
    "scoring",
    "knock",
    "turn",
    "blanks",
    "free-pile",
    "min",
    "dictionary",
    "rules",
)

#: Which of the words a player names count: each that is new and allowed (the rulebook marks
#: down every new word named; a tile is lost only when it made none), or all of them or none.
NAMED: tuple[str, ...] = ("each", "all")
#: The options a game recorded before ``named`` existed: such a record replays with "all".
_BEFORE_NAMED: tuple[str, ...] = (*_BEFORE_MISPLACED, "misplaced")

OPTIONS: tuple[OptionSpec, ...] = (
    *computer_players(5),
    OptionSpec("size", "int", 12, N_("squares on each side of the grid"), low=5, high=20, aliases=("grid",)),
    OptionSpec(
        "scoring",
        "choice",
        "word",
        N_("a point per new word, or a point per letter of each new word"),
        choices=SCORING,
        choice_aliases={"words": "word", "letters": "letter", "per-word": "word", "per-letter": "letter"},
    ),
    OptionSpec(
        "knock",
        "int",
        20,
        N_("seconds after each turn in which anyone may knock to claim new words (0: no knocking)"),
        low=0,
        high=600,
    ),
    OptionSpec(
        "turn",
        "int",
        0,
        N_("seconds per turn before it passes (0: no time limit; 60 or 90 in the rulebook)"),
        low=0,
        high=86_400,
        aliases=("timer", "time"),
    ),
    OptionSpec("blanks", "bool", True, N_("everyone starts with a blank tile")),
    OptionSpec(
        "free-pile",
        "bool",
        True,
        N_("the Free Letter Pile: discard a tile you can't use; anyone may take free tiles for a word"),
        aliases=("free",),
    ),
    OptionSpec(
        "misplaced",
        "choice",
        "pile",
        N_(
            "a letter tile that makes no new word: pile (the rulebook: it goes to the Free Letter Pile "
            "and the turn ends) or retry (the move is refused and you try again)"
        ),
        choices=MISPLACED,
        choice_aliases={"lose": "pile", "lost": "pile", "free-pile": "pile", "refuse": "retry"},
    ),
    OptionSpec(
        "named",
        "choice",
        "each",
        N_(
            "the words you name with a move: each (the rulebook: every new, allowed word is marked; "
            "the others are listed and don't count) or all (one word that doesn't count refuses the move)"
        ),
        choices=NAMED,
        choice_aliases={"every": "each", "any": "each", "strict": "all", "all-or-nothing": "all"},
    ),
    OptionSpec("min", "int", 2, N_("minimum word length"), low=2, high=5, aliases=("min-length", "length")),
    OptionSpec(
        "dictionary", "choice", "tournament", N_("the word list that judges words"), choices=DICTIONARIES
    ),
    OptionSpec(
        "rules",
        "set",
        DEFAULT_BANS,
        N_("kinds of words that don't count"),
        choices=WORD_BANS,
        aliases=("bans",),
    ),
    language_option(),
)


@dataclass(frozen=True, slots=True)
class PathsConfig:
    """The options of one game, typed."""

    size: int = 12
    scoring: str = "word"
    knock: float = 20.0
    turn: float = 0.0
    blanks: bool = True
    free_pile: bool = True
    misplaced: str = "pile"
    named: str = "each"
    min_length: int = 2
    dictionary: str = "tournament"
    bans: frozenset[str] = frozenset(DEFAULT_BANS)
    level: str = "normal"
    #: a game recorded before the option existed has no ``language``: English, the default
    language: str = "en"

    @classmethod
    def from_options(cls, options: Mapping[str, object]) -> PathsConfig:
        """Read the options (missing or unreadable ones take their defaults).

        Values may come back from storage as JSON (a list for a set option) or
        as text (a workspace default): both are read like typed values.
        """
        values = {spec.name: _read(spec, options.get(spec.name, spec.default)) for spec in OPTIONS}
        bans = values["rules"]
        misplaced = str(values["misplaced"])
        if recorded_before(options, "misplaced", _BEFORE_MISPLACED):
            misplaced = "retry"  # a game started before the rule was enforced replays as it was played
        named = str(values["named"])
        if recorded_before(options, "named", _BEFORE_NAMED):
            named = "all"  # likewise: every named word had to count
        return cls(
            size=_int(values["size"]),
            scoring=str(values["scoring"]),
            knock=float(_int(values["knock"])),
            turn=float(_int(values["turn"])),
            blanks=bool(values["blanks"]),
            free_pile=bool(values["free-pile"]),
            misplaced=misplaced,
            named=named,
            min_length=_int(values["min"]),
            dictionary=str(values["dictionary"]),
            bans=frozenset(bans) if isinstance(bans, tuple) else frozenset(DEFAULT_BANS),
            level=str(values["level"]),
            language=str(values["language"]),
        )

    def refusal(self) -> str | None:
        """Why a game with these options can't start (None: it can)."""
        return english_only(language(self.language), bans=self.bans)


def _read(spec: OptionSpec, value: object) -> OptionValue:
    if isinstance(value, list):
        value = tuple(str(v) for v in value)
    if isinstance(value, str) and spec.kind != "text":
        try:
            return spec.parse(value)
        except ValueError:
            return spec.default
    if isinstance(value, bool) and spec.kind == "bool":
        return value
    if isinstance(value, int) and not isinstance(value, bool) and spec.kind == "int":
        return value
    if isinstance(value, tuple) and spec.kind == "set":
        return value
    return spec.default


def _int(value: OptionValue) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else int(str(value))
