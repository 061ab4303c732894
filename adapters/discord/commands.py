"""The ``/moji`` slash command group: every subcommand maps to the shared grammar.

Each subcommand turns its options into the words of :mod:`bot.core.commands`
(``/moji start game:race bots:1 cards:5`` → ``start race bots=1 cards=5``) and
hands a neutral :class:`~bot.core.events.Command` to the game manager; the rules
of what a command means live in the bot core, not here. Options with a fixed
set of values get choices or autocomplete from the games' own declarations, and
every game's own verbs (``skip``, ``vote``, ``list``…) are subcommands built from
theirs (:func:`verb_commands`), within Discord's 25 subcommands.
"""

from __future__ import annotations

import inspect
import keyword
from collections.abc import Awaitable, Callable, Mapping
from functools import partial
from typing import Any, Optional, Protocol

import discord
from discord import app_commands
from discord.app_commands import locale_str

from adapters.discord.permissions import role_choices
from adapters.discord.translator import clip, command_names, locale_of, said, value_label
from bot.core.commands import grammar
from bot.core.registry import Registry, StartField, start_fields
from bot.features.workspace_settings import WORKSPACE_SETTINGS
from games.common.languages import LANGUAGES
from games.common.options import OptionSpec, format_value
from games.common.protocol import GameInfo, GameVerb
from games.common.speech import N_, NATIVE_NAMES, _, speaking

Run = Callable[[discord.Interaction[Any], str, tuple[str, ...]], Awaitable[None]]


class CommandBot(Protocol):
    """What the group reads of the bot (:class:`~adapters.discord.client.MojiBot`; a protocol,
    so that this module does not import the client back)."""

    registry: Registry

    async def run_command(
        self, interaction: discord.Interaction[Any], name: str, args: tuple[str, ...]
    ) -> None: ...

    async def open_list_modal(self, interaction: discord.Interaction[Any]) -> None:
        """Open the private form for words handed in privately (a game's ``private`` verb)."""
        ...


#: ``/moji leaderboard``'s periods (each label a message: the menu speaks the client's language).
PERIODS = [
    app_commands.Choice(name=label, value=value)
    for label, value in (
        (N_("today"), "day"),
        (N_("this week"), "week"),
        (N_("this month"), "month"),
        (N_("this season"), "season"),
        (N_("all time"), "all"),
        (N_("by rating (skill)"), "rating"),
        (N_("the daily (today's, and streaks)"), "daily"),
    )
]


def _language_label(code: str) -> Callable[[], str]:
    """A playing language as another locale's menu lists it: in its own name (``Deutsch (de)``)."""
    return lambda: f"{NATIVE_NAMES.get(code, LANGUAGES[code].name)} ({code})"


#: The playing languages, as a slash option's choices ("French (fr)" → ``fr``; a German client
#: lists each by its own name: "Français (fr)").
LANGUAGE_CHOICES = [
    app_commands.Choice(name=said(f"{lang.name} ({code})", _language_label(code)), value=code)
    for code, lang in LANGUAGES.items()
]


def _game_choice(game: GameInfo) -> app_commands.Choice[str]:
    """A game as a menu lists it: its title (a message, where its game translates it) and name."""
    return app_commands.Choice(
        name=said(f"{game.title} ({game.name})"[:100], lambda: f"{_(game.title)} ({game.name})"[:100]),
        value=game.name,
    )


def _value_choice(value: str) -> app_commands.Choice[str]:
    """A game option's value as a menu lists it (the value sent is the typed word, English)."""
    return app_commands.Choice(name=said(value, lambda: value_label(value)), value=value)


def _spec(registry: Registry, game: str | None, name: str) -> OptionSpec | None:
    info = registry.find(game) if game else registry.default
    info = info or registry.default
    return next((s for s in info.options if name in (s.name, *s.aliases)), None)


def option_choices(
    registry: Registry, game: str | None, name: str, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete for a ``choice`` or ``set`` option of the chosen game.

    For a set (``themes``, ``variation``) the words already typed before the
    last comma are kept, so ``nouns,an`` offers ``nouns,animals``.
    """
    spec = _spec(registry, game, name)
    if spec is None or not spec.choices:
        return []
    head, __, last = current.rpartition(",") if spec.kind == "set" else ("", "", current)
    prefix = head + "," if head else ""
    taken = set(head.split(",")) if head else set()
    values = [c for c in spec.choices if c.startswith(last.strip().lower()) and c not in taken]
    return [app_commands.Choice(name=(prefix + c)[:100], value=(prefix + c)[:100]) for c in values[:25]]


def setting_values(registry: Registry, key: str, current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete for ``/moji config``'s value: the choices of the setting or game option
    ``key`` names (``language`` offers the languages; ``race.placement`` its placements)."""
    game, dot, option = key.strip().lower().partition(".")
    if dot:
        info = registry.find(game)
        specs: tuple[OptionSpec, ...] = info.options if info is not None else ()
    else:
        specs, option = WORKSPACE_SETTINGS, game
    spec = next((s for s in specs if option in (s.name, *s.aliases)), None)
    if spec is None or spec.kind != "choice":
        return []
    typed = current.strip().lower()
    found = [c for c in spec.choices if c.startswith(typed)]
    if spec.name == "language":
        return [c for c in LANGUAGE_CHOICES if c.value in found or c.name.lower().startswith(typed)][:25]
    return [app_commands.Choice(name=c, value=c) for c in found[:25]]


def start_args(game: str | None, given: Mapping[str, object], more: str | None) -> tuple[str, ...]:
    """The words of ``start`` from slash options."""
    words: list[str] = [game] if game else []
    for key, value in given.items():
        if value is not None:
            words.append(f"{key}={value}")
    if more:
        words.extend(more.split())
    return tuple(words)


#: Options a command may have on Discord; ``/moji start`` keeps two for ``game`` and ``more``.
MOST_OPTIONS = 25
#: Choices an option may list on Discord; a longer list is offered by autocomplete instead.
MOST_CHOICES = 25
#: Characters of a command's or an option's description on Discord.
MOST_DESCRIBED = 100


def start_command(registry: Registry, run: Run) -> app_commands.Command[Any, ..., None]:
    """``/moji start``: the game, the options the games put in their start forms
    (:func:`bot.core.registry.start_fields`, as many as Discord allows) and ``more`` for the rest,
    each option typed, ranged, with choices or autocomplete as its games declare it."""
    fields = start_fields(registry, MOST_OPTIONS - 2)
    by_param = {_param(field.name, i): field for i, field in enumerate(fields)}
    params = [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    params.append(_optional("game", str))
    params += [_optional(param, _annotation(field)) for param, field in by_param.items()]
    params.append(_optional("more", str))

    async def start(interaction: discord.Interaction[Any], **given: Any) -> None:
        game, more = given.pop("game", None), given.pop("more", None)
        options = {by_param[param].name: value for param, value in given.items()}
        await run(interaction, "start", start_args(game, options, more))

    start.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    default = registry.default
    spare = [spec for spec in default.options if spec.name not in {field.name for field in fields}]
    example = next((f"{o.name}={format_value(o.default)}" for o in spare if o.kind == "int"), "bots=1")

    def which_game() -> str:
        return _("Which game (default: {title} ({name}))", title=_(default.title), name=default.name)

    def more_options() -> str:
        return _("Any other options as key=value words, e.g. {example}", example=example)

    describe: dict[str, str | locale_str] = {
        "game": said(which_game(), which_game),
        "more": said(more_options(), more_options),
    }
    choices: dict[str, list[app_commands.Choice[str]]] = {}
    completed: dict[str, Any] = {}
    games = [_game_choice(g) for g in registry]
    if len(games) <= MOST_CHOICES:
        choices["game"] = games
    else:
        completed["game"] = _complete_game(registry)
    for param, field in by_param.items():
        describe[param] = said(_description(registry, field), partial(_description, registry, field))
        if field.name == "language" and set(field.choices) <= set(LANGUAGES):
            choices[param] = [c for c in LANGUAGE_CHOICES if c.value in field.choices]
        elif field.kind == "choice" and field.choices and len(field.choices) <= MOST_CHOICES:
            choices[param] = [_value_choice(c) for c in field.choices]
        elif field.kind in ("choice", "set") or (field.kind == "text" and len(field.games) > 1):
            completed[param] = _complete_option(registry, field.name)
    callback = app_commands.describe(**describe)(start)
    callback = app_commands.choices(**choices)(callback)
    callback = app_commands.autocomplete(**completed)(callback)
    renames = {param: field.name for param, field in by_param.items() if param != field.name}
    if renames:
        callback = app_commands.rename(**renames)(callback)
    return app_commands.Command(
        name="start", description=N_("Open a game lobby in this channel (you host it)"), callback=callback
    )


def _param(name: str, index: int) -> str:
    """The Python name of an option's parameter (Discord is shown its own name)."""
    param = name.replace("-", "_")
    if param.isidentifier() and not keyword.iskeyword(param) and param not in ("interaction", "game", "more"):
        return param
    return f"option_{index}"


def _optional(name: str, annotation: Any) -> inspect.Parameter:
    return inspect.Parameter(
        name,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        default=None,
        annotation=Optional[annotation],  # noqa: UP045
    )


def _annotation(field: StartField) -> Any:
    """The Python type discord.py turns into the option's Discord type (and range)."""
    if field.kind == "bool":
        return bool
    if field.kind == "int":
        return app_commands.Range[int, field.low, field.high] if field.low is not None else int
    return str


def _description(registry: Registry, field: StartField) -> str:
    """A start option's description in the language spoken: its games' help (each game's own
    where they differ), and for a server setting, where its default comes from."""
    specs = [
        spec
        for info in registry
        if info.name in field.games
        for spec in info.options
        if spec.name == field.name
    ]
    helps = dict.fromkeys(spec.help for spec in specs)
    if len(helps) == 1:
        about = _(next(iter(helps)))
    elif specs:  # (``turn`` is hours in one game, seconds in another: each game's rules say which)
        about = _(
            "{option} ({game}; other games: see their rules)",
            option=_help_head(_(specs[0].help)),
            game=field.games[0],
        )
    else:
        about = field.help
    text = about[:1].upper() + about[1:]
    if any(spec.name == field.name for spec in WORKSPACE_SETTINGS):
        text = _("{option} (default: this server's, see /moji config)", option=text.split(":", 1)[0])
    return clip(text, MOST_DESCRIBED)


def _help_head(text: str) -> str:
    """The head of an option's help, before its details in parentheses or after a colon."""
    for mark in (" (", ": ", "; "):
        text = text.split(mark, 1)[0]
    return text


def _complete_option(registry: Registry, name: str) -> Any:
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        return option_choices(registry, getattr(interaction.namespace, "game", None), name, current)

    return complete


def _complete_game(registry: Registry) -> Any:
    async def complete(interaction: discord.Interaction[Any], current: str) -> list[app_commands.Choice[str]]:
        typed = current.strip().lower()
        found = [g for g in registry if typed in g.name or typed in g.title.lower()]
        with speaking(locale_of(interaction)):  # (an answer to one person: their language)
            return [
                app_commands.Choice(name=f"{_(g.title)} ({g.name})"[:100], value=g.name) for g in found[:25]
            ]

    return complete


def build_group(bot: CommandBot) -> app_commands.Group:
    """The ``/moji`` group, with choices from ``bot``'s game registry."""
    registry = bot.registry
    run: Run = bot.run_command
    games = [_game_choice(g) for g in registry][:25]
    moji = app_commands.Group(
        name="moji", description=N_("Fast word games: start, join and play moji"), guild_only=True
    )

    moji.add_command(start_command(registry, run))

    def simple(name: str, description: str) -> None:
        async def callback(interaction: discord.Interaction[Any]) -> None:
            await run(interaction, name, ())

        moji.add_command(app_commands.Command(name=name, description=description, callback=callback))

    simple("join", N_("Join the game in this channel"))
    simple("leave", N_("Leave the game in this channel"))
    simple("go", N_("Start the game now (host or admin)"))
    simple("stop", N_("End the game; it won't count (host or admin)"))
    simple("why", N_("Why was my last answer refused? (only you see it)"))
    simple("hand", N_("Show your hand, rack or list (only you see it)"))
    simple("board", N_("The game's board as text (only you see it)"))
    simple("watch", N_("A link to watch this channel's game live in a browser (only you see it)"))
    simple("help", N_("Every moji command"))

    # `privacy`, `forget-me` and `purge` are one subcommand group (/moji privacy show|forget-me|
    # purge): Discord allows 25 subcommands, and the daily and the games' verbs need the room.
    # The typed grammar is unchanged (`forget-me`, `purge confirm`).
    privacy = app_commands.Group(
        name="privacy", description=N_("What moji keeps, and deleting it"), parent=moji
    )

    @privacy.command(
        name="show",
        description=N_("What moji keeps about you and this server, and for how long (only you see it)"),
    )
    async def privacy_show(interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "privacy", ())

    @privacy.command(
        name="forget-me", description=N_("Delete your scores and name in this server (asks first)")
    )
    @app_commands.describe(confirm=N_("Yes: forget me now, without asking again"))
    async def forget_me(interaction: discord.Interaction[Any], confirm: bool = False) -> None:
        await run(interaction, "forget-me", ("confirm",) if confirm else ())

    @privacy.command(
        name="purge", description=N_("Delete all of this server's moji data (admins; asks first)")
    )
    @app_commands.describe(confirm=N_("Yes: delete everything now, without asking again"))
    async def purge(interaction: discord.Interaction[Any], confirm: bool = False) -> None:
        await run(interaction, "purge", ("confirm",) if confirm else ())

    @moji.command(
        name="daily", description=N_("Today's daily: the same 25 cards for everyone, once a day, in our DMs")
    )
    @app_commands.describe(
        share=N_("Post your result of today's daily here instead (numbers only, no words)")
    )
    async def daily(interaction: discord.Interaction[Any], share: bool = False) -> None:
        await run(interaction, "daily", ("share",) if share else ())

    @moji.command(name="play", description=N_("Make a move in a turn-based game"))
    @app_commands.describe(move=N_("Your move, e.g. H8 across WORD"))
    async def play(interaction: discord.Interaction[Any], move: str) -> None:
        await run(interaction, "play", tuple(move.split()))

    @moji.command(
        name="define",
        description=N_("What a word means, and whether the game here takes it (only you see it)"),
    )
    @app_commands.describe(
        word=N_("The word to look up"),
        language=N_("The word's language (default: the game's here, else this server's)"),
    )
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def define(interaction: discord.Interaction[Any], word: str, language: str | None = None) -> None:
        await run(interaction, "define", (*word.split(), *((f"language={language}",) if language else ())))

    @moji.command(name="rules", description=N_("How to play, and every option"))
    @app_commands.describe(game=N_("Which game (default: the one played here)"))
    @app_commands.choices(game=games)
    async def rules(interaction: discord.Interaction[Any], game: str | None = None) -> None:
        await run(interaction, "rules", (game,) if game else ())

    @moji.command(name="leaderboard", description=N_("Who leads in this server"))
    @app_commands.describe(
        game=N_("Only this game (default: every game)"),
        period=N_("Which time span (default: this season)"),
        language=N_("Only games played in this language (default: every language)"),
    )
    @app_commands.choices(game=games, period=PERIODS, language=LANGUAGE_CHOICES)
    async def leaderboard(
        interaction: discord.Interaction[Any],
        game: str | None = None,
        period: str | None = None,
        language: str | None = None,
    ) -> None:
        words = (game, period, f"language={language}" if language else None)
        await run(interaction, "leaderboard", tuple(a for a in words if a))

    @moji.command(name="stats", description=N_("A player's record and ratings (yours by default)"))
    @app_commands.describe(
        member=N_("Whose record (default: yours)"), game=N_("One game's ratings in more detail")
    )
    @app_commands.choices(game=games)
    async def stats(
        interaction: discord.Interaction[Any], member: discord.User | None = None, game: str | None = None
    ) -> None:
        words = (f"<@{member.id}>" if member else None, game)
        await run(interaction, "stats", tuple(a for a in words if a))

    @moji.command(
        name="season", description=N_("Past seasons' winners; `reset` starts the next season (admins)")
    )
    @app_commands.describe(which=N_("A past season's number, or reset (admins) to archive this one"))
    async def season(interaction: discord.Interaction[Any], which: str | None = None) -> None:
        await run(interaction, "season", tuple(which.split()) if which else ())

    @moji.command(
        name="schedule", description=N_("A game that starts here on its own each week (admins change)")
    )
    @app_commands.describe(
        when=N_(
            "e.g. `fri 20:00 race bots=1 @Game Night` (days, time, game and options, a role to mention), "
            "`list` or `remove 2`"
        )
    )
    async def schedule(interaction: discord.Interaction[Any], when: str | None = None) -> None:
        await run(interaction, "schedule", tuple(when.split()) if when else ())

    @moji.command(
        name="tournament",
        description=N_("A tournament here: an arena of live games, or a Swiss or round-robin"),
    )
    @app_commands.describe(
        what=N_("e.g. `arena race 30m`, `swiss board rounds=4`, `join`, `standings`, `pairings`, `cancel`")
    )
    async def tournament(interaction: discord.Interaction[Any], what: str | None = None) -> None:
        await run(interaction, "tournament", tuple(what.split()) if what else ())

    async def autocomplete_key(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        keys = [s.name for s in WORKSPACE_SETTINGS]
        keys += [f"{g.name}.{o.name}" for g in registry for o in g.options]
        found = [k for k in keys if current.lower() in k]
        return [app_commands.Choice(name=k, value=k) for k in found[:25]]

    async def autocomplete_value(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        key = str(getattr(interaction.namespace, "key", "") or "")
        if key.strip().lower() == "admin-role" and interaction.guild is not None:
            # the server's roles by name, each chosen as its mention: moji keeps the role's id
            found = role_choices(interaction.guild.roles, current, interaction.guild.id)
            return [app_commands.Choice(name=label, value=value) for label, value in found]
        return setting_values(registry, key, current)

    @moji.command(name="config", description=N_("Show or change this server's moji settings (admins change)"))
    @app_commands.describe(
        key=N_("A setting (e.g. language), or <game>.<option> for a game default"),
        value=N_("The new value"),
    )
    @app_commands.autocomplete(key=autocomplete_key, value=autocomplete_value)
    async def config(
        interaction: discord.Interaction[Any], key: str | None = None, value: str | None = None
    ) -> None:
        await run(interaction, "config", tuple(a for a in (key, value) if a))

    words = app_commands.Group(name="words", description=N_("This server's own word list"), parent=moji)

    def word_verb(verb: str, description: str) -> None:
        async def callback(interaction: discord.Interaction[Any], word: str) -> None:
            await run(interaction, "words", (verb, word))

        described = app_commands.describe(word=N_("The word"))(callback)
        words.add_command(app_commands.Command(name=verb, description=description, callback=described))

    word_verb("add", N_("Allow a word in this server (admins)"))
    word_verb("ban", N_("Ban a word in this server (admins)"))
    word_verb("remove", N_("Back to the dictionary's verdict for a word (admins)"))

    @words.command(name="show", description=N_("The words this server added or banned"))
    async def show(interaction: discord.Interaction[Any]) -> None:
        await run(interaction, "words", ())

    for command in verb_commands(bot, MOST_SUBCOMMANDS - len(moji.commands)):
        moji.add_command(command)
    return moji


#: Subcommands (and subcommand groups) a command group may have on Discord.
MOST_SUBCOMMANDS = 25
#: The subcommand that takes the games' verbs that do not fit as subcommands of their own.
MORE_VERBS = "game"


def verb_commands(bot: CommandBot, room: int) -> list[app_commands.Command[Any, ..., None]]:
    """A subcommand for every verb the games declare (:attr:`GameInfo.verbs`, once per name), in
    ``room`` subcommands at most: when they don't all fit, the last place goes to ``/moji game``,
    which takes the rest by name (``/moji game verb:hint words:…``)."""
    verbs = grammar(bot.registry).verbs
    if len(verbs) <= room:
        return [_verb_command(bot, spec.name) for spec in verbs]
    if room < 1:
        raise ValueError(
            f"no room in /moji for the games' {len(verbs)} verbs (Discord allows 25 subcommands)"
        )
    own = [_verb_command(bot, spec.name) for spec in verbs[: room - 1]]
    return [*own, _more_verbs(bot, [spec.name for spec in verbs[room - 1 :]])]


def _verb_command(bot: CommandBot, name: str) -> app_commands.Command[Any, ..., None]:
    """``/moji NAME``: the verb as its games declare it. Where every game that has it hands words in
    privately, it opens the private form; where one takes words, it has a text option (with the
    declared choices, where the games agree on them), required if every game needs it."""
    declared = grammar(bot.registry).declared(name)
    run: Run = bot.run_command
    described = said(_short(_verb_help(declared)), lambda: _short(_verb_help(declared)))
    if all(verb.kind == "private" for __, verb in declared):

        async def private(interaction: discord.Interaction[Any]) -> None:
            await bot.open_list_modal(interaction)

        return app_commands.Command(name=name, description=described, callback=private)
    arguments = [verb.argument for __, verb in declared if verb.argument is not None]
    if not arguments:

        async def bare(interaction: discord.Interaction[Any]) -> None:
            await run(interaction, name, ())

        return app_commands.Command(name=name, description=described, callback=bare)
    first = arguments[0]
    required = len(arguments) == len(declared) and all(argument.required for argument in arguments)
    param = first.name.replace("-", "_")
    parameter = inspect.Parameter(
        param,
        inspect.Parameter.POSITIONAL_OR_KEYWORD,
        annotation=str if required else Optional[str],  # noqa: UP045
        **({} if required else {"default": None}),
    )

    async def taking(interaction: discord.Interaction[Any], **given: Any) -> None:
        words = str(given.get(param) or "")
        await run(interaction, name, tuple(words.split()))

    taking.__signature__ = inspect.Signature(  # type: ignore[attr-defined]
        [inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD), parameter]
    )
    helps = list(dict.fromkeys(argument.help for argument in arguments))

    def argument_help() -> str:
        return _short(" · ".join(_(help_text) for help_text in helps))

    callback = app_commands.describe(**{param: said(argument_help(), argument_help)})(taking)
    if all(argument.choices == first.choices for argument in arguments) and 0 < len(first.choices) <= 25:
        picks = [_value_choice(choice) for choice in first.choices]
        callback = app_commands.choices(**{param: picks})(callback)
    if param != first.name:
        callback = app_commands.rename(**{param: first.name})(callback)
    return app_commands.Command(name=name, description=described, callback=callback)


def _more_verbs(bot: CommandBot, names: list[str]) -> app_commands.Command[Any, ..., None]:
    """``/moji game``: the verbs without a subcommand of their own, chosen by name."""
    run: Run = bot.run_command

    async def more(interaction: discord.Interaction[Any], verb: str, words: str | None = None) -> None:
        await run(interaction, verb, tuple((words or "").split()))

    callback = app_commands.describe(verb=N_("The game's command"), words=N_("What it takes, if anything"))(
        more
    )
    if len(names) <= MOST_CHOICES:
        picks = [_verb_choice(name) for name in names]
        callback = app_commands.choices(verb=picks)(callback)
    return app_commands.Command(name=MORE_VERBS, description=N_("A game's own command"), callback=callback)


def _verb_choice(name: str) -> app_commands.Choice[str]:
    """A game's verb as ``/moji game``'s menu lists it (by its command name, the client's language)."""
    return app_commands.Choice(name=said(name, lambda: command_names().get(name, name)), value=name)


def _verb_help(declared: list[tuple[GameInfo, GameVerb]]) -> str:
    """What a verb does, in the games that declare it (each game's words where they differ), in
    the language spoken."""
    helps = dict.fromkeys(_(verb.help) for __, verb in declared)
    if len(helps) == 1:
        return next(iter(helps))
    whole = "; ".join(f"{_(verb.help)} ({_(info.title)})" for info, verb in declared)
    if len(whole) <= MOST_DESCRIBED:
        return whole
    # too long for Discord's 100 characters: each game's help up to its first clause
    return "; ".join(f"{_gist(_(verb.help))} ({_(info.title)})" for info, verb in declared)


def _gist(help_text: str) -> str:
    """A help text's first clause: "play a Skip card: NAME misses…" → "play a Skip card"."""
    for cut in (":", " when ", " — ", ", "):
        help_text = help_text.split(cut, 1)[0]
    return help_text.strip()


def _short(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if len(text) <= MOST_DESCRIBED else text[: MOST_DESCRIBED - 1] + "…"
