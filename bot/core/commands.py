"""One command grammar shared by every platform.

Discord subcommands, Slack's ``/moji <text>`` and terminal ``/lines`` all
become a command name plus word arguments; this module names the commands,
reads their arguments and explains mistakes in one friendly sentence.

The grammar is the core commands (:data:`COMMANDS`) plus the verbs the registered games
declare (:attr:`games.common.protocol.GameInfo.verbs`: a race's ``skip``, shed's ``skip NAME``):
:func:`grammar` builds it for a registry, and :func:`split`, :func:`command_of` and
:func:`resolve` read with the registry they are given (by default every installed game).
"""

from __future__ import annotations

import functools
import shlex
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.core.registry import Registry, load_default
from games.common.grammar import excerpt
from games.common.languages import LANGUAGES, language
from games.common.options import OptionError, OptionValue, parse_options
from games.common.protocol import GameInfo, GameVerb
from games.common.speech import N_, _


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
    #: The games that declare this verb (:attr:`GameInfo.verbs`), in registry order; () for a
    #: core command.
    games: tuple[str, ...] = ()


#: The core commands, every game's (the games' own verbs come from their declarations).
COMMANDS: tuple[CommandSpec, ...] = (
    CommandSpec(
        "start",
        "start [game] [option=value …]",
        N_("open a game lobby here (race by default)"),
        ("new", "play-game"),
    ),
    CommandSpec("join", "join", N_("join the game in this channel")),
    CommandSpec("leave", "leave", N_("leave the game in this channel")),
    CommandSpec("go", "go", N_("the host starts the game now"), ("begin",)),
    CommandSpec("stop", "stop", N_("end the game (host or admin)"), ("end", "quit", "cancel")),
    CommandSpec("why", "why", N_("why was my last answer refused?")),
    CommandSpec("hand", "hand", N_("show your hand or rack privately"), ("rack",)),
    CommandSpec(
        "board", "board", N_("the game's board as text, privately (for screen readers, or a closer look)")
    ),
    CommandSpec("play", "play MOVE", N_("make a move in a turn-based game"), ("move",)),
    CommandSpec(
        "watch",
        "watch",
        N_("a link to watch this chat's game live in a browser (cards, board, scores; nothing private)"),
        ("spectate",),
    ),
    CommandSpec(
        "define",
        "define WORD [language=fr]",
        N_("what a word means, privately (and whether the game here takes it)"),
        ("meaning", "whatis", "what-is"),
    ),
    CommandSpec("rules", "rules [game]", N_("how to play, and every option"), ("howto",)),
    CommandSpec(
        "leaderboard",
        "leaderboard [game] [day|week|month|season|all|rating] [language=fr] · leaderboard daily",
        N_(
            "who leads in this workspace (every language together unless language= picks one); "
            "`rating` ranks by skill rating instead of points; `leaderboard daily`: today's daily "
            "and the longest streaks"
        ),
        ("lb", "top", "scores"),
    ),
    CommandSpec("stats", "stats [player] [game]", N_("a player's record and ratings"), ("me",)),
    CommandSpec(
        "season",
        "season [N | reset | rebuild]",
        N_(
            "past seasons' winners; `season reset` archives this season and starts the next, "
            "`season rebuild` recomputes every rating from the results (admins)"
        ),
    ),
    CommandSpec(
        "schedule",
        "schedule [weekdays|daily|mon,wed,fri] HH:MM [game] [option=value …] [@group] · schedule list · "
        "schedule remove N",
        N_(
            "a game that starts here on its own at that time each week, mentioning the group; "
            "`daily` instead of a game posts the daily's reminder (`schedule daily 09:00 daily @team`)"
        ),
        ("schedules", "break", "breaks"),
        admin=True,
    ),
    CommandSpec("config", "config [key [value]]", N_("show or change this workspace's settings"), admin=True),
    CommandSpec("words", "words add|ban|remove WORD", N_("the workspace's own word list"), admin=True),
    CommandSpec(
        "daily",
        "daily [share]",
        N_(
            "today's daily: the same 25 cards for everyone, once a day, alone against the hourglass "
            "(in our direct messages); `daily share` posts your result here, without a word"
        ),
    ),
    CommandSpec(
        "tournament",
        "tournament · tournament arena GAME 30m · tournament swiss|roundrobin GAME [rounds=4] [round=24h] "
        "[register=10m] [bots=N] · tournament join|leave|standings|pairings|rules|start|cancel",
        N_(
            "a tournament in this channel: an arena of back-to-back live games for a while, or a Swiss "
            "or a round-robin of turn-based games, each pairing in its own thread; `start` and `cancel` "
            "are its creator's or an admin's"
        ),
        ("tournaments", "tourney"),
    ),
    CommandSpec("privacy", "privacy", N_("what moji keeps about you and this workspace, and for how long")),
    CommandSpec(
        "forget-me",
        "forget-me [confirm]",
        N_("delete your scores and name in this workspace (asks first)"),
        ("forgetme", "forget"),
    ),
    CommandSpec(
        "purge", "purge [confirm]", N_("delete all of this workspace's moji data (asks first)"), admin=True
    ),
    CommandSpec("help", "help", N_("this list"), ("h", "?", "commands")),
)


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


class Grammar:
    """The commands of a bot with ``registry``'s games: the core ones, then every verb the games
    declare, once per name (two games may give one name each its own meaning: the chat's game
    decides, see :meth:`verb`)."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._by_key: dict[str, CommandSpec] = {}
        for spec in COMMANDS:
            for key in (spec.name, *spec.aliases):
                self._by_key[key] = spec
        declared: dict[str, list[tuple[GameInfo, GameVerb]]] = {}
        owners: dict[str, str] = {}  # a verb's name or alias -> the verb's name
        for info in registry:
            for verb in info.verbs:
                for key in (verb.name, *verb.aliases):
                    if key in self._by_key:
                        raise ValueError(
                            f"{info.name}'s verb {key!r} is the core command {self._by_key[key].name!r}"
                        )
                    if owners.setdefault(key, verb.name) != verb.name:
                        raise ValueError(f"{info.name}'s verb {key!r} is already the verb {owners[key]!r}")
                declared.setdefault(verb.name, []).append((info, verb))
        specs = {name: _verb_spec(found) for name, found in declared.items()}
        for key, name in owners.items():
            self._by_key[key] = specs[name]
        #: The games' verbs, once per name, in the order first declared.
        self.verbs: tuple[CommandSpec, ...] = tuple(specs.values())
        #: Every command: the core ones, then the games' verbs.
        self.commands: tuple[CommandSpec, ...] = (*COMMANDS, *self.verbs)

    def resolve(self, name: str) -> CommandSpec:
        """The command called ``name`` (or an alias); raises :class:`CommandError`."""
        spec = self._by_key.get(name.strip().lower().lstrip("/"))
        if spec is None:
            raise CommandError(
                _("I don't know the command {command}. Try `help` for the list.", command=excerpt(name))
            )
        return spec

    def split(self, text: str) -> tuple[str, tuple[str, ...]]:
        """Split command text into its name and arguments (see :func:`split`)."""
        try:
            words = shlex.split(text.strip())
        except ValueError:
            raise CommandError(_("That command has an unclosed quote.")) from None
        if words and words[0].lstrip("/").lower() == "moji":
            words = words[1:]
        if not words:
            return "help", ()
        spec = self.resolve(words[0])
        return spec.name, tuple(words[1:])

    def command_of(self, name: str, args: tuple[str, ...]) -> tuple[str, tuple[str, ...]]:
        """A command's name and arguments, however the platform gave them (see :func:`command_of`)."""
        if name in {"", "moji"} or " " in name:
            return self.split(" ".join((name, *args)))
        return self.split(name)[0], args

    def is_verb(self, name: str) -> bool:
        """Whether ``name`` (a command's own name) is a game's verb rather than a core command."""
        spec = self._by_key.get(name)
        return spec is not None and bool(spec.games)

    def declared(self, name: str) -> list[tuple[GameInfo, GameVerb]]:
        """The games that declare the verb ``name``, each with its declaration, in registry order."""
        return [(info, verb) for info in self.registry if (verb := info.verb(name)) is not None]


def _verb_spec(found: list[tuple[GameInfo, GameVerb]]) -> CommandSpec:
    """One command for the verb several games may declare: the first one's usage and help."""
    verb = found[0][1]
    aliases = tuple(dict.fromkeys(alias for _info, v in found for alias in v.aliases))
    games = tuple(i.name for i, _verb in found)
    return CommandSpec(verb.name, verb.usage, verb.help, aliases, games=games)


_GRAMMARS: weakref.WeakKeyDictionary[Registry, tuple[int, Grammar]] = weakref.WeakKeyDictionary()


@functools.cache
def _installed() -> Registry:
    return load_default()


def grammar(registry: Registry | None = None) -> Grammar:
    """The grammar of a bot with ``registry``'s games (None: every installed game), built once per
    registry (again if games were added since)."""
    registry = _installed() if registry is None else registry
    known = _GRAMMARS.get(registry)
    if known is None or known[0] != len(registry):
        known = (len(registry), Grammar(registry))
        _GRAMMARS[registry] = known
    return known[1]


def resolve(name: str, registry: Registry | None = None) -> CommandSpec:
    """The command called ``name`` (or an alias) with ``registry``'s games (None: every installed
    game); raises :class:`CommandError`."""
    return grammar(registry).resolve(name)


def command_of(
    name: str, args: tuple[str, ...], registry: Registry | None = None
) -> tuple[str, tuple[str, ...]]:
    """A command's name and arguments, however the platform gave them: ``("moji", ("start",
    "race"))``, ``("start race", ())`` and ``("start", ("race",))`` all read ``("start",
    ("race",))``. :class:`CommandError` for text :func:`split` refuses."""
    return grammar(registry).command_of(name, args)


def split(text: str, registry: Registry | None = None) -> tuple[str, tuple[str, ...]]:
    """Split command text into its name and arguments, with ``registry``'s games' verbs (None:
    every installed game's).

    A leading ``/``, ``/moji`` or ``moji`` is ignored, so ``/moji start race``
    and ``start race`` read the same. Empty text means ``help``.
    """
    return grammar(registry).split(text)


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
                _(
                    "{word} is neither a game nor an option. Games: {games}.",
                    word=excerpt(rest[0]),
                    games=", ".join(registry.names()),
                )
            )
    try:
        options = parse_options(info.options, rest)
    except OptionError as exc:
        raise CommandError(_("{game}: {problem}.", game=_(info.title), problem=str(exc))) from None
    reason = info.refusal(options) if info.refusal is not None else None
    if reason:
        raise CommandError(_("{game}: {reason}", game=_(info.title), reason=reason))
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
            raise CommandError(
                _("{word}: a leaderboard takes only language=, like `language=fr`.", word=excerpt(arg))
            )
        elif key in PERIODS:
            period = PERIODS[key]
        elif (found := registry.find(key)) is not None:
            game = found.name
        else:
            raise CommandError(
                _("{word} is neither a game nor a period (day, week, month, season, all).", word=excerpt(arg))
            )
    return game, period, lang


def help_lines(registry: Registry) -> list[str]:
    """The help: every core command with its usage, then each game's own verbs."""
    lines = [_help_line(spec.usage, spec.help, spec.admin) for spec in COMMANDS]
    for info in registry:
        if info.verbs:
            lines.append("")
            lines.append(_("In {game} ({name}):", game=_(info.title), name=info.name))
            lines += [_help_line(verb.usage, verb.help) for verb in info.verbs]
    lines.append("")
    games = ", ".join(_("{name} ({game})", name=g.name, game=_(g.title)) for g in registry)
    lines.append(_("Games: {games}", games=games))
    languages = ", ".join(
        _("{code} ({language})", code=code, language=lang.spoken) for code, lang in LANGUAGES.items()
    )
    lines.append(
        _(
            "Languages: {languages} — `config language fr` sets this workspace's, "
            "`start race language=nl` one game's.",
            languages=languages,
        )
    )
    lines.append(_("In a race, just type a word in the channel to claim cards."))
    return lines


def _help_line(usage: str, about: str, admin: bool = False) -> str:
    if admin:
        return _("`{usage}` — {about} (admins)", usage=usage, about=_(about))
    return _("`{usage}` — {about}", usage=usage, about=_(about))
