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
from games.common.speech import N_, _

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
    ``help`` is English marked with ``N_()`` where the option is declared; :attr:`text` (and
    :meth:`describe`) say it in the language being spoken.
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

    @property
    def text(self) -> str:
        """:attr:`help` in the language being spoken (the ``language`` option's lists the languages
        by their names in it)."""
        if self.name == "language":
            return language_help()
        return _(self.help)

    def describe(self) -> str:
        """A one-line description for help texts."""
        default = format_value(self.default)
        if self.kind == "int":
            shape = f"{self.low}..{self.high}"
        elif self.kind == "bool":
            shape = "on|off"
        elif self.kind == "set":
            shape = ",".join(self.choices)
            return _(
                "{name}={shape} (any, comma-separated, or none) — {help} (default {default})",
                name=self.name,
                shape=shape,
                help=self.text,
                default=default,
            )
        elif self.kind == "choice":
            shape = "|".join(self.choices)
        else:
            return _(
                "{name}=text — {help} (default {default})", name=self.name, help=self.text, default=default
            )
        return _(
            "{name}={shape} — {help} (default {default})",
            name=self.name,
            shape=shape,
            help=self.text,
            default=default,
        )

    def parse(self, raw: str) -> OptionValue:
        """Parse ``raw`` or raise :class:`OptionError` with a reason."""
        text = raw.strip()
        if self.kind == "int":
            try:
                value = int(text)
            except ValueError:
                raise OptionError(
                    _("{name} must be a whole number, not {value}", name=self.name, value=excerpt(raw))
                ) from None
            if (self.low is not None and value < self.low) or (self.high is not None and value > self.high):
                raise OptionError(
                    _(
                        "{name} must be between {low} and {high}, not {value}",
                        name=self.name,
                        low=str(self.low),
                        high=str(self.high),
                        value=str(value),
                    )
                )
            return value
        if self.kind == "bool":
            low = text.lower()
            if low in _TRUE:
                return True
            if low in _FALSE:
                return False
            raise OptionError(_("{name} must be on or off, not {value}", name=self.name, value=excerpt(raw)))
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
            raise OptionError(_("{name} is too long ({count} characters at most)", name=self.name, count=200))
        return text

    def _choice(self, text: str) -> str:
        key = text.lower().replace("_", "-")
        key = self.choice_aliases.get(key, key)
        if key in self.choices:
            return key
        raise OptionError(
            _(
                "{name} can be {choices}; {value} is not one of them",
                name=self.name,
                choices=", ".join(self.choices),
                value=excerpt(text),
            )
        )


#: Computer players' strengths, weakest first: every game offers the same three.
BOT_LEVELS: tuple[str, ...] = ("easy", "normal", "hard")
#: ``level=auto``: the bot core picks the level closest to the seated people's ratings when the
#: game starts (the game itself only ever sees one of :data:`BOT_LEVELS`).
AUTO_LEVEL = "auto"


#: The ``level`` option's help: how clever (or strong) the computer opponents are.
LEVEL_HELP = N_(
    "how clever the computer opponents are (auto: the level closest to the seated players' ratings)"
)
STRONG_LEVEL_HELP = N_(
    "how strong the computer opponents are (auto: the level closest to the seated players' ratings)"
)
QUICK_LEVEL_HELP = N_(
    "how quick and clever the computer opponents are (auto: the level closest to the seated players' ratings)"
)
#: The older way to call :func:`computer_players`: the first half of the help alone.
_LEVEL_HELPS = {
    "how clever the computer opponents are": LEVEL_HELP,
    "how strong the computer opponents are": STRONG_LEVEL_HELP,
    "how quick and clever the computer opponents are": QUICK_LEVEL_HELP,
}


def computer_players(most: int, level_help: str = LEVEL_HELP) -> tuple[OptionSpec, ...]:
    """The ``bots`` and ``level`` options, declared alike by every game (``most`` bots at most;
    ``level_help``, marked with ``N_()``, is the whole help of ``level``: :data:`LEVEL_HELP` or
    :data:`STRONG_LEVEL_HELP`)."""
    return (
        OptionSpec(
            "bots", "int", 0, N_("computer opponents to add"), low=0, high=most, aliases=("computers",)
        ),
        OptionSpec(
            "level",
            "choice",
            "normal",
            _LEVEL_HELPS.get(level_help, level_help),
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
        LANGUAGE_HELP.format(
            languages=", ".join(f"{code} ({lang.name})" for code, lang in LANGUAGES.items())
        ),
        choices=LANGUAGE_CODES,
        aliases=("lang",),
        choice_aliases={lang.name.lower(): code for code, lang in LANGUAGES.items()},
    )


#: The ``language`` option's help (the languages are listed after it by :func:`language_help`).
LANGUAGE_HELP = N_("the language of the words and letters: {languages}")


def language_help() -> str:
    """The ``language`` option's help in the language being spoken, with every playing language."""
    return _(
        LANGUAGE_HELP, languages=", ".join(f"{code} ({lang.spoken})" for code, lang in LANGUAGES.items())
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
            if not specs:
                raise OptionError(_("unknown option {option}; this game has no options", option=excerpt(key)))
            known = ", ".join(s.name for s in specs)
            raise OptionError(
                _("unknown option {option}; options are: {options}", option=excerpt(key), options=known)
            )
        spec = found
        if not sep:
            if spec.kind != "bool":
                example = f"{spec.name}={format_value(spec.default)}"
                raise OptionError(_("{name} needs a value, like {example}", name=spec.name, example=example))
            raw = "on"
        if spec.name in seen:
            raise OptionError(_("{name} is given twice", name=spec.name))
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
