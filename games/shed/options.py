"""The shedding game's options (one declaration for chat, slash commands and help)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from games.common.language_rules import english_only
from games.common.languages import LANGUAGES, Language
from games.common.languages import language as language_named
from games.common.options import (
    BOT_LEVELS,
    OptionSpec,
    OptionValue,
    computer_players,
    language_option,
    recorded_before,
)
from games.common.speech import N_
from games.common.words import BANS, WordRules
from games.shed.cards import CARD_SETS

LEVELS = BOT_LEVELS
PACES: tuple[str, ...] = ("live", "slow")
#: Seconds per turn by pace: 2 minutes live, 24 hours in slow mode.
PACE_SECONDS: dict[str, float] = {"live": 120.0, "slow": 86_400.0}
#: The rulebook's advice: no names, place names, countries or abbreviations.
DEFAULT_BANS: tuple[str, ...] = ("proper", "abbrev", "contraction", "foreign")
WORD_BANS: tuple[str, ...] = tuple(b for b in BANS if b != "repeat")
#: When an action card may be played: as the whole turn (the rulebook: "Playing an action card
#: counts as a turn. Afterwards, you cannot do anything else.") or last, after words.
ACTION_TURNS: tuple[str, ...] = ("alone", "last")
#: What an empty deck is refilled with: the discard pile's letters and jokers (played action cards
#: are out of the game), or nothing. A game recorded before the option existed replays with
#: "all" (the discard pile, action cards too), as it was played: see docs/SHED.md, "The end".
RESHUFFLES: tuple[str, ...] = ("letters", "off")
#: Options every recorded game has had (``reshuffle`` came later).
_BEFORE_RESHUFFLE = ("hand", "min", "verbs")
#: The options a game recorded before ``actions`` existed: such a record replays with "last".
_BEFORE_ACTIONS = (
    "cards",
    "hand",
    "min",
    "dictionary",
    "rules",
    "verbs",
    "easy",
    "opening",
    "pace",
    "minutes",
)

OPTIONS: tuple[OptionSpec, ...] = (
    *computer_players(5),
    OptionSpec(
        "cards",
        "choice",
        "auto",
        N_(
            "card set: two (blue + 3 jokers + actions), group (blue + red + jokers + actions), "
            "children (all 110); auto picks by the number of players"
        ),
        choices=CARD_SETS,
        aliases=("set", "deck"),
        choice_aliases={"2": "two", "adults": "group", "kids": "children", "all": "children"},
    ),
    OptionSpec("hand", "int", 7, N_("cards dealt to each player"), low=3, high=10),
    OptionSpec("min", "int", 3, N_("minimum word length"), low=3, high=5, aliases=("min-length", "length")),
    OptionSpec(
        "dictionary",
        "choice",
        "tournament",
        N_("the word list: tournament (big) or casual (common words)"),
        choices=("tournament", "casual"),
        aliases=("dict",),
    ),
    OptionSpec(
        "rules",
        "set",
        DEFAULT_BANS,
        N_("Word Rules bans in force"),
        choices=WORD_BANS,
        aliases=("bans",),
        choice_aliases={"plural": "plural-s", "plurals": "plural-s"},
    ),
    OptionSpec("verbs", "bool", True, N_("verbs are allowed (off: words that are only verbs are refused)")),
    OptionSpec(
        "easy",
        "bool",
        False,
        N_("ignore the Word Rules: any dictionary word counts (good with children)"),
        aliases=("no-rules",),
    ),
    OptionSpec(
        "opening",
        "choice",
        "game",
        N_("a word of your own before touching table words: once a game (each round), or every turn"),
        choices=("game", "turn"),
    ),
    OptionSpec(
        "actions",
        "choice",
        "alone",
        N_(
            "an action card is a whole turn: alone (the rulebook: no words with it) or last (it may end "
            "a turn after words)"
        ),
        choices=ACTION_TURNS,
        aliases=("action",),
        choice_aliases={"strict": "alone", "turn": "alone", "lenient": "last", "after-words": "last"},
    ),
    OptionSpec(
        "reshuffle",
        "choice",
        "letters",
        N_(
            "when the deck runs out: letters (the discard pile's letters and jokers make a new deck; "
            "played action cards are out of the game) or off (no new deck)"
        ),
        choices=RESHUFFLES,
        choice_aliases={"on": "letters", "no": "off", "none": "off"},
    ),
    OptionSpec(
        "pace",
        "choice",
        "live",
        N_("turn timer: live (2 minutes) or slow (24 hours)"),
        choices=PACES,
        aliases=("mode",),
    ),
    OptionSpec(
        "minutes",
        "int",
        0,
        N_("minutes per turn (0: the pace's default)"),
        low=0,
        high=2880,
        aliases=("timer",),
    ),
    OptionSpec(
        "rounds",
        "int",
        1,
        N_("rounds to play, adding up points (the Counting Points variant)"),
        low=1,
        high=10,
    ),
    language_option(),
)


def _int(options: Mapping[str, OptionValue], name: str, default: int) -> int:
    value = options.get(name, default)
    return value if isinstance(value, int) and not isinstance(value, bool) else default


@dataclass(frozen=True, slots=True)
class ShedConfig:
    """The options a game was started with, typed."""

    card_set: str = "auto"
    hand: int = 7
    min_length: int = 3
    dictionary: str = "tournament"
    bans: frozenset[str] = frozenset(DEFAULT_BANS)
    verbs: bool = True
    easy: bool = False
    opening: str = "game"
    actions: str = "alone"
    #: "letters", "off", or "all" (only a game recorded before the option: the old rules)
    reshuffle: str = "letters"
    turn_seconds: float = PACE_SECONDS["live"]
    rounds: int = 1
    language: str = "en"  # games recorded before the option existed were English

    @property
    def lang(self) -> Language:
        """The game's language: its letters, how words fold, the lexicon it loads."""
        return language_named(self.language)

    @property
    def refusal(self) -> str | None:
        """Why this game can't start (the -s, -ing or -ed bans in another language), or None."""
        return None if self.easy else english_only(self.lang, bans=self.bans)

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue]) -> ShedConfig:
        """Read a full or partial option dict (missing values take their defaults)."""
        pace = str(options.get("pace", "live"))
        minutes = _int(options, "minutes", 0)
        bans = options.get("rules", DEFAULT_BANS)
        actions = str(options.get("actions", "alone"))
        if recorded_before(options, "actions", _BEFORE_ACTIONS):
            actions = "last"  # a game started before the rule was enforced replays as it was played
        reshuffle = str(options.get("reshuffle", "letters"))
        if recorded_before(options, "reshuffle", _BEFORE_RESHUFFLE):
            reshuffle = "all"  # the old end: replays a recorded game exactly as it was played
        return cls(
            card_set=str(options.get("cards", "auto")),
            hand=_int(options, "hand", 7),
            min_length=_int(options, "min", 3),
            dictionary=str(options.get("dictionary", "tournament")),
            bans=frozenset(bans) if isinstance(bans, tuple) else frozenset(DEFAULT_BANS),
            verbs=bool(options.get("verbs", True)),
            easy=bool(options.get("easy", False)),
            opening=str(options.get("opening", "game")),
            actions=actions if actions in ACTION_TURNS else "alone",
            reshuffle=reshuffle if reshuffle in (*RESHUFFLES, "all") else "letters",
            turn_seconds=minutes * 60.0 if minutes else PACE_SECONDS.get(pace, PACE_SECONDS["live"]),
            rounds=_int(options, "rounds", 1),
            language=code if (code := str(options.get("language", "en"))) in LANGUAGES else "en",
        )

    def word_rules(
        self, added: frozenset[str] = frozenset(), banned: frozenset[str] = frozenset()
    ) -> WordRules:
        """The judge's rules for this game (``easy`` lifts every ban)."""
        return WordRules(
            dictionary=self.dictionary,
            min_length=self.min_length,
            bans=frozenset() if self.easy else self.bans,
            added=added,
            banned=banned,
        )

    @property
    def legacy_end(self) -> bool:
        """True for a game recorded before ``reshuffle``: action cards are shuffled back in and any
        play holds the round open (which need not end: kept only so old records replay)."""
        return self.reshuffle == "all"

    @property
    def verbs_allowed(self) -> bool:
        """False when words that are only verbs are refused."""
        return self.verbs or self.easy
