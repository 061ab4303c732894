"""One command grammar shared by every platform.

Discord subcommands, Slack's ``/moji <text>`` and terminal ``/lines`` all
become a command name plus word arguments; this module names the commands,
reads their arguments and explains mistakes in one friendly sentence.
"""

from __future__ import annotations

import shlex
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.registry import Registry
from games.common.grammar import excerpt
from games.common.languages import LANGUAGES, language
from games.common.options import OptionError, OptionValue, parse_options
from games.common.protocol import GameInfo


class CommandError(ValueError):
    """A friendly reason a command could not be understood."""


@dataclass(frozen=True, slots=True)
class CommandSpec:
    """A command as the help lists it."""

    name: str
    usage: str
    help: str
    aliases: tuple[str, ...] = ()
    admin: bool = False


COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "start",
        "start [game] [option=value …]",
        "open a game lobby here (race by default)",
        ("new", "play-game"),
    ),
    CommandSpec("join", "join", "join the game in this channel"),
    CommandSpec("leave", "leave", "leave the game in this channel"),
    CommandSpec("go", "go", "the host starts the game now", ("begin",)),
    CommandSpec("stop", "stop", "end the game (host or admin)", ("end", "quit", "cancel")),
    CommandSpec("skip", "skip", "vote to discard the face-up cards when everyone is stuck", ("stuck",)),
    CommandSpec("vote", "vote yes|no", "vote on an answer the dictionary can't judge"),
    CommandSpec("why", "why", "why was my last answer refused?"),
    CommandSpec("hand", "hand", "show your hand or rack privately", ("rack",)),
    CommandSpec(
        "board", "board", "the game's board as text, privately (for screen readers, or a closer look)"
    ),
    CommandSpec("play", "play MOVE", "make a move in a turn-based game", ("move",)),
    CommandSpec("list", "list WORD …", "Eagle Eyes: hand in words privately", ("words-list", "secret")),
    CommandSpec(
        "define",
        "define WORD [language=fr]",
        "what a word means, privately (and whether the game here takes it)",
        ("meaning", "whatis", "what-is"),
    ),
    CommandSpec("rules", "rules [game]", "how to play, and every option", ("howto",)),
    CommandSpec(
        "leaderboard",
        "leaderboard [game] [day|week|month|season|all|rating] [language=fr]",
        "who leads in this workspace (every language together unless language= picks one); "
        "`rating` ranks by skill rating instead of points",
        ("lb", "top", "scores"),
    ),
    CommandSpec("stats", "stats [player] [game]", "a player's record and ratings", ("me",)),
    CommandSpec(
        "season",
        "season [N | reset | rebuild]",
        "past seasons' winners; `season reset` archives this season and starts the next, "
        "`season rebuild` recomputes every rating from the results (admins)",
    ),
    CommandSpec(
        "schedule",
        "schedule [weekdays|daily|mon,wed,fri] HH:MM [game] [option=value …] [@group] · schedule list · "
        "schedule remove N",
        "a game that starts here on its own at that time each week, mentioning the group",
        ("schedules", "break", "breaks"),
        admin=True,
    ),
    CommandSpec("config", "config [key [value]]", "show or change this workspace's settings", admin=True),
    CommandSpec("words", "words add|ban|remove WORD", "the workspace's own word list", admin=True),
    CommandSpec("privacy", "privacy", "what moji keeps about you and this workspace, and for how long"),
    CommandSpec(
        "forget-me",
        "forget-me [confirm]",
        "delete your scores and name in this workspace (asks first)",
        ("forgetme", "forget"),
    ),
    CommandSpec(
        "purge", "purge [confirm]", "delete all of this workspace's moji data (asks first)", admin=True
    ),
    CommandSpec("help", "help", "this list", ("h", "?", "commands")),
)

_BY_NAME: dict[str, CommandSpec] = {}
for _spec in COMMANDS:
    for _key in (_spec.name, *_spec.aliases):
        _BY_NAME[_key] = _spec

PERIODS: dict[str, str] = {
    "day": "day",
    "today": "day",
    "daily": "day",
    "week": "week",
    "weekly": "week",
    "month": "month",
    "monthly": "month",
    "season": "season",
    "all": "all",
    "alltime": "all",
    "all-time": "all",
    "ever": "all",
    "forever": "all",
}


def resolve(name: str) -> CommandSpec:
    """The command called ``name`` (or an alias); raises :class:`CommandError`."""
    spec = _BY_NAME.get(name.strip().lower().lstrip("/"))
    if spec is None:
        raise CommandError(f"I don't know the command {excerpt(name)}. Try `help` for the list.")
    return spec


def command_of(name: str, args: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
    """A command's name and arguments, however the platform gave them: ``("moji", ("start",
    "race"))``, ``("start race", ())`` and ``("start", ("race",))`` all read ``("start",
    ("race",))``. :class:`CommandError` for text :func:`split` refuses."""
    if name in {"", "moji"} or " " in name:
        return split(" ".join((name, *args)))
    return split(name)[0], args


def split(text: str) -> tuple[str, tuple[str, ...]]:
    """Split command text into its name and arguments.

    A leading ``/``, ``/moji`` or ``moji`` is ignored, so ``/moji start race``
    and ``start race`` read the same. Empty text means ``help``.
    """
    try:
        words = shlex.split(text.strip())
    except ValueError:
        raise CommandError("That command has an unclosed quote.") from None
    if words and words[0].lstrip("/").lower() == "moji":
        words = words[1:]
    if not words:
        return "help", ()
    spec = resolve(words[0])
    return spec.name, tuple(words[1:])


def parse_start(args: Sequence[str], registry: Registry) -> tuple[GameInfo, dict[str, OptionValue]]:
    """Read ``[game] [option=value …]``: the game and its full options."""
    rest = list(args)
    info = registry.default
    if rest and "=" not in rest[0]:
        found = registry.find(rest[0])
        if found is not None:
            info = found
            rest.pop(0)
        elif not any(spec.name == rest[0].lower() and spec.kind == "bool" for spec in info.options):
            raise CommandError(
                f"{excerpt(rest[0])} is neither a game nor an option. Games: {', '.join(registry.names())}."
            )
    try:
        options = parse_options(info.options, rest)
    except OptionError as exc:
        raise CommandError(f"{info.title}: {exc}.") from None
    reason = info.refusal(options) if info.refusal is not None else None
    if reason:
        raise CommandError(f"{info.title}: {reason}")
    return info, options


def option_names(info: GameInfo, tokens: Iterable[str]) -> set[str]:
    """The own names of the options ``tokens`` set (``computers=2`` sets ``bots``; a bare
    ``monochrome`` sets ``monochrome``); tokens naming no option of ``info`` are left out."""
    own: dict[str, str] = {}
    for spec in info.options:
        for key in (spec.name, *spec.aliases):
            own[key] = spec.name
    keys = (token.partition("=")[0].strip().lower().replace("_", "-") for token in tokens)
    return {own[key] for key in keys if key in own}


def parse_leaderboard(args: Sequence[str], registry: Registry) -> tuple[str | None, str, str | None]:
    """Read ``[game] [period] [language=CODE]`` in any order: the game (None: every game), the
    period (default ``all``) and the language code (None: every language together)."""
    game: str | None = None
    period = "all"
    lang: str | None = None
    for arg in args:
        key, sep, value = arg.lower().partition("=")
        if sep and key.strip() in {"language", "lang"}:
            try:
                lang = language(value).code
            except ValueError as exc:
                raise CommandError(str(exc)) from None
        elif sep:
            raise CommandError(f"{excerpt(arg)}: a leaderboard takes only language=, like `language=fr`.")
        elif key in PERIODS:
            period = PERIODS[key]
        elif (found := registry.find(key)) is not None:
            game = found.name
        else:
            raise CommandError(
                f"{excerpt(arg)} is neither a game nor a period (day, week, month, season, all)."
            )
    return game, period, lang


def help_lines(registry: Registry) -> list[str]:
    """The help: every command with its usage."""
    lines = [f"`{spec.usage}` — {spec.help}" + (" (admins)" if spec.admin else "") for spec in COMMANDS]
    lines.append("")
    lines.append("Games: " + ", ".join(f"{g.name} ({g.title})" for g in registry))
    lines.append(
        "Languages: "
        + ", ".join(f"{code} ({lang.name})" for code, lang in LANGUAGES.items())
        + " — `config language fr` sets this workspace's, `start race language=nl` one game's."
    )
    lines.append("In a race, just type a word in the channel to claim cards.")
    return lines
