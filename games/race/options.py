"""The race game's options (one declaration for chat, slash commands and help)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

from games.common.language_rules import english_only, judged_bans, without_english_bans
from games.common.languages import LANGUAGES, Language
from games.common.languages import language as language_named
from games.common.options import (
    BOT_LEVELS,
    QUICK_LEVEL_HELP,
    OptionSpec,
    OptionValue,
    computer_players,
    language_option,
)
from games.common.placement import Placement
from games.common.speech import N_, _
from games.common.words import BANS, THEMES, describe_bans

#: Variations, by option code.
VARIATIONS: tuple[str, ...] = (
    "stack-em-up",
    "do-si-do",
    "ball-and-chain",
    "monochrome",
    "three-amigos",
    "off-the-grid",
    "eagle-eyes",
)


#: Bans on by default: rule 2 of the General Rules (words that are not plain
#: English words). Plurals, -ing, -ed and repeats are allowed in a casual game.
DEFAULT_BANS: tuple[str, ...] = ("proper", "abbrev", "contraction", "foreign")

LEVELS = BOT_LEVELS

OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "cards",
        "int",
        15,
        N_("cards in each player's stack (5 makes a quick office break)"),
        low=1,
        high=52,
        aliases=("stack",),
    ),
    *computer_players(7, QUICK_LEVEL_HELP),
    OptionSpec(
        "min",
        "int",
        2,
        N_("minimum word length (the Minimum Word Length challenge: 3, 4 or 5)"),
        low=2,
        high=5,
        aliases=("min-length", "length"),
    ),
    OptionSpec(
        "placement",
        "choice",
        "anywhere",
        N_("where the used letters must sit in the word"),
        choices=tuple(p.value for p in Placement),
        choice_aliases={
            "any": "anywhere",
            "first-last": "first-and-last",
            "between": "in-between",
            "ends": "first-or-last",
            "first-or-last-letter": "first-or-last",
        },
    ),
    OptionSpec(
        "themes",
        "set",
        (),
        N_("words must fit one of these themes"),
        choices=THEMES,
        aliases=("theme",),
        choice_aliases={
            "noun": "nouns",
            "verb": "verbs",
            "adjective": "adjectives",
            "drink": "food",
            "tv": "movies",
            "person": "persons",
            "people": "persons",
            "famous": "persons",
            "book": "books",
            "animal": "animals",
            "movie": "movies",
        },
    ),
    OptionSpec(
        "rules",
        "set",
        DEFAULT_BANS,
        N_("General Rules bans in force (repeat = no word twice in a game)"),
        choices=BANS,
        aliases=("bans",),
        choice_aliases={
            "plural": "plural-s",
            "plurals": "plural-s",
            "proper-nouns": "proper",
            "repeats": "repeat",
        },
    ),
    OptionSpec(
        "general",
        "bool",
        False,
        N_("apply every General Rules ban (overrides rules=)"),
        aliases=("general-rules",),
    ),
    OptionSpec(
        "variation",
        "set",
        (),
        N_("game variations"),
        choices=VARIATIONS,
        aliases=("variations", "var"),
        choice_aliases={
            "stack": "stack-em-up",
            "stackemup": "stack-em-up",
            "dosido": "do-si-do",
            "ball": "ball-and-chain",
            "amigos": "three-amigos",
            "mono": "monochrome",
            "grid": "off-the-grid",
            "offthegrid": "off-the-grid",
            "eagle": "eagle-eyes",
            "eagleeyes": "eagle-eyes",
        },
    ),
    OptionSpec(
        "masters-choice",
        "bool",
        False,
        N_("the moji Master picks the next game's challenges"),
        aliases=("master",),
    ),
    OptionSpec(
        "challenge-of-round",
        "bool",
        False,
        N_("draw a random Word Challenge card for this game"),
        aliases=("random-challenge", "challenge"),
    ),
    OptionSpec(
        "hourglass",
        "int",
        30,
        N_("seconds before stuck cards are discarded (Eagle Eyes: writing time)"),
        low=5,
        high=300,
    ),
    OptionSpec(
        "flip-pause",
        "int",
        1500,
        N_("milliseconds before a player whose card was taken flips again"),
        low=0,
        high=10000,
    ),
    OptionSpec(
        "tie-ms",
        "int",
        10,
        N_("claims this close (milliseconds) are a tie: first to name another word wins"),
        low=0,
        high=1000,
    ),
    OptionSpec("turn", "int", 30, N_("seconds per turn in Off the Grid"), low=5, high=300),
    OptionSpec("rounds", "int", 1, N_("rounds of Eagle Eyes"), low=1, high=10),
    OptionSpec(
        "vote-time", "int", 20, N_("seconds for the other players to vote on a theme answer"), low=5, high=120
    ),
    OptionSpec("max-claims", "int", 3, N_("claims per player per flip (anti-cheat)"), low=1, high=50),
    OptionSpec(
        "cooldown",
        "int",
        5,
        N_("seconds a player waits after too many wrong claims in a row (0: never)"),
        low=0,
        high=120,
    ),
    OptionSpec("cooldown-after", "int", 3, N_("wrong claims in a row before the cooldown"), low=1, high=20),
    OptionSpec(
        "cps-limit",
        "int",
        20,
        N_("typing speed (characters per second after a flip) that gets flagged"),
        low=3,
        high=200,
    ),
    OptionSpec(
        "reject-fast", "bool", False, N_("reject claims typed faster than cps-limit instead of only flagging")
    ),
    language_option(),
)

#: The Word Challenge cards in the box, as option settings (challenge of the round).
CHALLENGE_CARDS: tuple[tuple[str, str], ...] = (
    ("min", "3"),
    ("min", "4"),
    ("min", "5"),
    ("placement", "first-or-last"),
    ("placement", "first-and-last"),
    ("placement", "in-between"),
    ("themes", "nouns"),
    ("themes", "verbs"),
    ("themes", "adjectives"),
    ("themes", "food"),
    ("themes", "animals"),
)

#: The Word Challenge cards that work in every language (no theme cards).
NON_THEME_CHALLENGES: tuple[tuple[str, str], ...] = tuple(c for c in CHALLENGE_CARDS if c[0] != "themes")


@dataclass(frozen=True, slots=True)
class RaceConfig:
    """Typed view of the options, with defaults filled in."""

    cards: int = 15
    bots: int = 0
    level: str = "normal"
    min_length: int = 2
    placement: Placement = Placement.ANYWHERE
    themes: frozenset[str] = frozenset()
    bans: frozenset[str] = frozenset(DEFAULT_BANS)
    variations: frozenset[str] = frozenset()
    masters_choice: bool = False
    challenge_of_round: bool = False
    hourglass: float = 30.0
    flip_pause: float = 1.5
    tie: float = 0.010
    turn: float = 30.0
    rounds: int = 1
    vote_time: float = 20.0
    max_claims: int = 3
    cooldown: float = 5.0
    cooldown_after: int = 3
    cps_limit: float = 20.0
    reject_fast: bool = False
    drawn: tuple[str, ...] = field(default=())  # challenge cards drawn for this round
    language: str = "en"  # games recorded before the option existed were English

    @property
    def lang(self) -> Language:
        """The game's language (its letters, how answers fold, the lexicon it loads)."""
        return language_named(self.language)

    @property
    def refusal(self) -> str | None:
        """Why this game can't start (themes or English-only bans in another language), or None."""
        return english_only(self.lang, themes=self.themes, bans=self.bans)

    @classmethod
    def from_options(cls, options: Mapping[str, OptionValue]) -> RaceConfig:
        """Read an option dict (missing keys take their defaults; bad values fall back too)."""
        defaults = {spec.name: spec.default for spec in OPTIONS}

        def get(name: str) -> OptionValue:
            value = options.get(name, defaults[name])
            spec = next(s for s in OPTIONS if s.name == name)
            if isinstance(value, str) and spec.kind != "choice" and spec.kind != "text":
                try:
                    value = spec.parse(value)
                except ValueError:
                    value = defaults[name]
            if isinstance(value, list):
                value = tuple(value)
            return value

        def num(name: str) -> int:
            value = get(name)
            return int(value) if isinstance(value, int) else int(str(defaults[name]))

        def tup(name: str) -> frozenset[str]:
            value = get(name)
            return frozenset(value) if isinstance(value, tuple) else frozenset()

        try:
            placement = Placement.parse(str(get("placement")))
        except ValueError:
            placement = Placement.ANYWHERE
        level = str(get("level"))
        code = str(get("language"))
        lang = LANGUAGES.get(code, LANGUAGES["en"])
        # general=on: every ban the game's language has
        bans = (
            without_english_bans(lang, frozenset(BANS))
            if bool(get("general"))
            else tup("rules") & frozenset(BANS)
        )
        return cls(
            cards=num("cards"),
            bots=num("bots"),
            level=level if level in LEVELS else "normal",
            min_length=num("min"),
            placement=placement,
            themes=tup("themes") & frozenset(THEMES),
            bans=bans,
            variations=tup("variation") & frozenset(VARIATIONS),
            masters_choice=bool(get("masters-choice")),
            challenge_of_round=bool(get("challenge-of-round")),
            hourglass=float(num("hourglass")),
            flip_pause=num("flip-pause") / 1000.0,
            tie=num("tie-ms") / 1000.0,
            turn=float(num("turn")),
            rounds=num("rounds"),
            vote_time=float(num("vote-time")),
            max_claims=num("max-claims"),
            cooldown=float(num("cooldown")),
            cooldown_after=num("cooldown-after"),
            cps_limit=float(num("cps-limit")),
            reject_fast=bool(get("reject-fast")),
            language=lang.code,
        )

    @classmethod
    def for_game(cls, options: Mapping[str, OptionValue], rng: random.Random) -> RaceConfig:
        """A game's rules: its options, and its challenge of the round when it draws one (the
        first draw of ``rng``, the game's own random stream)."""
        cfg = cls.from_options(options)
        return cfg.with_random_challenge(rng) if cfg.challenge_of_round else cfg

    def with_random_challenge(self, rng: random.Random) -> RaceConfig:
        """Draw one Word Challenge card (challenge of the round) and apply it."""
        # the theme cards stay in the box in another language (themes are English-only)
        cards = CHALLENGE_CARDS if self.language == "en" else NON_THEME_CHALLENGES
        name, value = rng.choice(cards)
        cfg = self
        if name == "min":
            cfg = _replace(cfg, min_length=max(cfg.min_length, int(value)))
        elif name == "placement":
            cfg = _replace(cfg, placement=Placement(value))
        else:
            cfg = _replace(cfg, themes=cfg.themes | {value})
        return _replace(cfg, drawn=(*cfg.drawn, f"{name}={value}"))

    def rule_lines(self) -> list[str]:
        """The rule set, said once as the game starts: the challenges and, in words, the bans."""
        bans = describe_bans(judged_bans(self.lang, self.bans))
        return [*self.challenge_lines(), *([bans] if bans else [])]

    def challenge_lines(self) -> list[str]:
        """The challenges in force, as short lines for the table (the bans are said once, at
        the start, by :meth:`rule_lines`: they don't change during the game)."""
        lines: list[str] = []
        if self.min_length > 2:
            lines.append(_("Minimum word length: {length}", length=self.min_length))
        if self.placement is not Placement.ANYWHERE:
            lines.append(_("Letter placement: {placement}", placement=self.placement.value))
        if self.themes:
            lines.append(_("Theme: {themes}", themes=", ".join(sorted(self.themes))))
        shown = sorted(self.variations)
        if shown:
            lines.append(_("Variation: {variations}", variations=", ".join(shown)))
        return lines


def _replace(cfg: RaceConfig, **changes: object) -> RaceConfig:
    from dataclasses import replace

    return replace(cfg, **changes)  # type: ignore[arg-type]
