"""Game options declared once, parsed from ``key=value`` text everywhere.

Each game declares its options as :class:`OptionSpec` values; the command
grammar, the in-chat help, the Discord slash-command options and the Slack
``start race cards=5`` text all come from the same declarations.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Literal

from games.common.grammar import excerpt
from games.common.languages import LANGUAGE_CODES, LANGUAGES

OptionValue = int | str | bool | tuple[str, ...]
OptionKind = Literal["int", "choice", "bool", "set", "text"]

_TRUE = {"1", "yes", "on", "true", "y"}
_FALSE = {"0", "no", "off", "false", "n"}


class OptionError(ValueError):
    """A friendly reason why an option could not be read."""


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game.

    ``choice`` takes one of ``choices``; ``set`` takes a comma-separated subset
    of ``choices`` (``none`` for the empty set); ``int`` takes ``low..high``.
    """

    name: str
    kind: OptionKind
    default: OptionValue
    help: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    aliases: tuple[str, ...] = ()
    choice_aliases: Mapping[str, str] = field(default_factory=dict)

    def describe(self) -> str:
        """A one-line description for help texts."""
        if self.kind == "int":
            shape = f"{self.low}..{self.high}"
        elif self.kind == "bool":
            shape = "on|off"
        elif self.kind == "set":
            shape = ",".join(self.choices) + " (any, comma-separated, or none)"
        elif self.kind == "choice":
            shape = "|".join(self.choices)
        else:
            shape = "text"
        return f"{self.name}={shape} — {self.help} (default {format_value(self.default)})"

    def parse(self, raw: str) -> OptionValue:
        """Parse ``raw`` or raise :class:`OptionError` with a reason."""
        text = raw.strip()
        if self.kind == "int":
            try:
                value = int(text)
            except ValueError:
                raise OptionError(f"{self.name} must be a whole number, not {excerpt(raw)}") from None
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                raise OptionError(f"{self.name} must be between {self.low} and {self.high}, not {value}")
            return value
        if self.kind == "bool":
            low = text.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise OptionError(f"{self.name} must be on or off, not {excerpt(raw)}")
        if self.kind == "choice":
            return self._choice(text)
        if self.kind == "set":
            if text.lower() in {"none", "", "-"}:
                return ()
            picked: list[str] = []
            for part in text.replace("+", ",").split(","):
                if part.strip():
                    choice = self._choice(part.strip())
                    if choice not in picked:
                        picked.append(choice)
            return tuple(picked)
        if len(text) > 200:
            raise OptionError(f"{self.name} is too long (200 characters at most)")
        return text

    def _choice(self, text: str) -> str:
        key = text.lower().replace("_", "-")
        key = self.choice_aliases.get(key, key)
        if key in self.choices:
            return key
        raise OptionError(f"{self.name} can be {', '.join(self.choices)}; {excerpt(text)} is not one of them")


#: Computer players' strengths, weakest first: every game offers the same three.
BOT_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: ``level=auto``: the bot core picks the level closest to the seated people's ratings when the
#: game starts (the game itself only ever sees one of :data:`BOT_LEVELS`).
AUTO_LEVEL = "auto"


def computer_players(
    most: int, level_help: str = "how clever the computer opponents are"
) -> tuple[OptionSpec, ...]:
    """The ``bots`` and ``level`` options, declared alike by every game (``most`` bots at most)."""
    return (
        OptionSpec("bots", "int", 0, "computer opponents to add", low=0, high=most, aliases=("computers",)),
        OptionSpec(
            "level",
            "choice",
            "normal",
            level_help + " (auto: the level closest to the seated players' ratings)",
            choices=(*BOT_LEVELS, AUTO_LEVEL),
            aliases=("difficulty",),
            choice_aliases={"medium": "normal"},
        ),
    )


def language_option() -> OptionSpec:
    """The ``language`` option every game declares alike: the language words are judged in
    and the letters of its cards, dice and tiles (``games.common.languages``)."""
    return OptionSpec(
        "language",
        "choice",
        "en",
        "the language of the words and letters: "
        + ", ".join(f"{code} ({lang.name})" for code, lang in LANGUAGES.items()),
        choices=LANGUAGE_CODES,
        aliases=("lang",),
        choice_aliases={lang.name.lower(): code for code, lang in LANGUAGES.items()},
    )


def format_value(value: OptionValue) -> str:
    """Render an option value the way a user would type it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, tuple):
        return ",".join(value) if value else "none"
    return str(value)


def parse_options(specs: Sequence[OptionSpec], tokens: Iterable[str]) -> dict[str, OptionValue]:
    """Read ``key=value`` tokens into a full option dict (defaults filled in).

    A bare token that names a ``bool`` option turns it on (``monochrome``).
    Raises :class:`OptionError` for unknown names, bad values or repeats.
    """
    by_name: dict[str, OptionSpec] = {}
    for spec in specs:
        by_name[spec.name] = spec
        for alias in spec.aliases:
            by_name[alias] = spec
    values: dict[str, OptionValue] = {spec.name: spec.default for spec in specs}
    seen: set[str] = set()
    for token in tokens:
        key, sep, raw = token.partition("=")
        key = key.strip().lower().replace("_", "-")
        found = by_name.get(key)
        if found is None:
            known = ", ".join(s.name for s in specs) or "none"
            raise OptionError(f"unknown option {excerpt(key)}; options are: {known}")
        spec = found
        if not sep:
            if spec.kind != "bool":
                raise OptionError(f"{spec.name} needs a value, like {spec.name}={format_value(spec.default)}")
            raw = "on"
        if spec.name in seen:
            raise OptionError(f"{spec.name} is given twice")
        seen.add(spec.name)
        values[spec.name] = spec.parse(raw)
    return values


def recorded_before(options: Mapping[str, object], name: str, then: Iterable[str]) -> bool:
    """True when ``options`` is a game's recorded option set from before option ``name`` existed.

    A game records every option it started with (defaults filled in), so a record
    naming each of ``then`` (the options of that time) but not ``name`` was kept before
    ``name`` was added: replaying it must keep the rules it was played by. A partial
    mapping (a test, a library caller) takes the new option's default as usual.
    """
    return name not in options and all(key in options for key in then)
