"""``/moji`` in the Discord client's language: a discord.py :class:`~discord.app_commands.Translator`.

Discord shows a command's, a subcommand's, an option's and a choice's name and description in the
client's language when the synced command carries ``name_localizations`` and
``description_localizations`` for it (docs/interactions/Application_Commands.md, "Localization").
:class:`MojiTranslator` fills them from moji's catalogues for the Discord locales moji speaks
(:data:`DISCORD_LOCALES`), when :meth:`CommandTree.sync <discord.app_commands.CommandTree.sync>`
builds the payload.

- **Names** (commands, subcommand groups, options) are messages of their own, with the context
  ``command name`` or ``option name`` (:func:`command_names`, :func:`option_names`): Discord
  takes lower-case names of 1 to 32 letters, digits, ``-`` and ``_`` (:func:`valid_name`); a
  translation that is not one is left out (and logged), so a sync never fails for it.
  Discord always sends an interaction with the command's own (English) names, so a localised
  name only changes what the client shows: the options map back by themselves.
- **Descriptions and choices** are the English text's message (``N_`` where it is written), or,
  for text built from the games' declarations, a ``locale_str`` carrying ``say``: a function
  that builds it again in the language being spoken (:func:`said`). Descriptions are cut to
  Discord's 100 characters, choice names to 100.
- ``moji`` itself, the games' names and a translation equal to the English are left out
  (Discord ignores a localisation identical to the default).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where
from discord.app_commands import locale_str

from games.common.speech import _, _p, speaking

log = logging.getLogger(__name__)

#: The Discord locales moji speaks, and the catalogue each one reads (Discord's locale list:
#: docs/reference.md, "Locales"). Another language: add its Discord locale(s) here.
DISCORD_LOCALES: dict[str, str] = {
    "nl": "nl",
    "fr": "fr",
    "de": "de",
    "es-ES": "es",
    "es-419": "es",
}
#: Discord's limits (docs/interactions/Application_Commands.md): names 1-32 characters,
#: descriptions 1-100, choice names 1-100.
MOST_NAME = 32
MOST_DESCRIPTION = 100
MOST_CHOICE = 100
#: Characters besides letters and digits a name may hold (``^[-_\p{L}\p{N}…]{1,32}$``).
NAME_PUNCTUATION = frozenset("-_")

NAMES = (Where.command_name, Where.group_name)
DESCRIPTIONS = (Where.command_description, Where.group_description, Where.parameter_description)


def valid_name(name: str) -> bool:
    """Whether Discord takes ``name`` as a command's or an option's name: 1-32 characters, each a
    letter, a digit, ``-`` or ``_``, with no letter that has a lower-case form left upper-case."""
    return (
        0 < len(name) <= MOST_NAME
        and all(ch.isalnum() or ch in NAME_PUNCTUATION for ch in name)
        and name == name.lower()
    )


def locale_of(interaction: object) -> str | None:
    """The locale of the person behind an interaction (Discord's ``locale``: ``de``, ``es-ES``),
    None where it is not known (an interaction forwarded from another process)."""
    locale = getattr(interaction, "locale", None)
    value = getattr(locale, "value", locale)
    return value if isinstance(value, str) and value else None


def said(english: str, say: Callable[[], str]) -> locale_str:
    """A text built from the games' declarations (an option's help, a game's title): ``english``
    for Discord's default, and ``say`` to build it again in the language being spoken."""
    return locale_str(english, say=say)


def clip(text: str, most: int) -> str:
    """``text`` in at most ``most`` characters (an ellipsis where it is cut)."""
    return text if len(text) <= most else text[: most - 1] + "…"


def command_names() -> dict[str, str]:
    """The names of ``/moji``'s subcommands and subcommand groups, in the language spoken
    (English name → its translation)."""
    # TRANSLATORS: a Discord slash command's name (/moji NAME): lower case, no spaces
    # (use - instead), at most 32 letters; each different from the others.
    return {
        "start": _p("command name", "start"),
        "join": _p("command name", "join"),
        "leave": _p("command name", "leave"),
        "go": _p("command name", "go"),
        "stop": _p("command name", "stop"),
        "why": _p("command name", "why"),
        "hand": _p("command name", "hand"),
        "board": _p("command name", "board"),
        "watch": _p("command name", "watch"),
        "help": _p("command name", "help"),
        "privacy": _p("command name", "privacy"),
        "show": _p("command name", "show"),
        "forget-me": _p("command name", "forget-me"),
        "purge": _p("command name", "purge"),
        "daily": _p("command name", "daily"),
        "tournament": _p("command name", "tournament"),
        "play": _p("command name", "play"),
        "define": _p("command name", "define"),
        "rules": _p("command name", "rules"),
        "leaderboard": _p("command name", "leaderboard"),
        "stats": _p("command name", "stats"),
        "season": _p("command name", "season"),
        "schedule": _p("command name", "schedule"),
        "config": _p("command name", "config"),
        "words": _p("command name", "words"),
        "add": _p("command name", "add"),
        "ban": _p("command name", "ban"),
        "remove": _p("command name", "remove"),
        "game": _p("command name", "game"),
        "skip": _p("command name", "skip"),
        "vote": _p("command name", "vote"),
        "list": _p("command name", "list"),
    }


def option_names() -> dict[str, str]:
    """The names of ``/moji``'s options (the games' start options and verbs' arguments too), in
    the language spoken (English name → its translation)."""
    # TRANSLATORS: a Discord slash command option's name (/moji start NAME:…): lower case, no
    # spaces (use - instead), at most 32 letters; each different from the others.
    return {
        "game": _p("option name", "game"),
        "more": _p("option name", "more"),
        "confirm": _p("option name", "confirm"),
        "share": _p("option name", "share"),
        "move": _p("option name", "move"),
        "word": _p("option name", "word"),
        "language": _p("option name", "language"),
        "period": _p("option name", "period"),
        "member": _p("option name", "member"),
        "which": _p("option name", "which"),
        "when": _p("option name", "when"),
        "what": _p("option name", "what"),
        "key": _p("option name", "key"),
        "value": _p("option name", "value"),
        "verb": _p("option name", "verb"),
        "words": _p("option name", "words"),
        "who": _p("option name", "who"),
        "choice": _p("option name", "choice"),
        "bots": _p("option name", "bots"),
        "level": _p("option name", "level"),
        "turn": _p("option name", "turn"),
        "live": _p("option name", "live"),
        "cards": _p("option name", "cards"),
        "layout": _p("option name", "layout"),
        "min": _p("option name", "min"),
        "size": _p("option name", "size"),
        "hand": _p("option name", "hand"),
        "placement": _p("option name", "placement"),
        "dict": _p("option name", "dict"),
        "scoring": _p("option name", "scoring"),
        "pace": _p("option name", "pace"),
        "themes": _p("option name", "themes"),
        "dictionary": _p("option name", "dictionary"),
        "variation": _p("option name", "variation"),
        "strict": _p("option name", "strict"),
        "knock": _p("option name", "knock"),
        "rounds": _p("option name", "rounds"),
    }


def option_values() -> dict[str, str]:
    """How a choice among the games' option values is shown (the value sent stays English)."""
    # TRANSLATORS: one of the values a game option takes, as a Discord menu shows it (what
    # players type stays English).
    return {
        "easy": _p("option value", "easy"),
        "normal": _p("option value", "normal"),
        "hard": _p("option value", "hard"),
        "auto": _p("option value", "auto"),
        "classic": _p("option value", "classic"),
        "anywhere": _p("option value", "anywhere"),
        "first-or-last": _p("option value", "first-or-last"),
        "first-and-last": _p("option value", "first-and-last"),
        "in-between": _p("option value", "in-between"),
        "tournament": _p("option value", "tournament"),
        "casual": _p("option value", "casual"),
        "word": _p("option value", "word"),
        "letter": _p("option value", "letter"),
        "live": _p("option value", "live"),
        "slow": _p("option value", "slow"),
        "yes": _p("option value", "yes"),
        "no": _p("option value", "no"),
    }


def value_label(value: str) -> str:
    """A game option's value as a menu shows it in the language spoken (itself if unknown)."""
    return option_values().get(value, value)


class MojiTranslator(app_commands.Translator):
    """``/moji``'s names and descriptions in the Discord locales moji speaks (see the module)."""

    async def translate(
        self, string: locale_str, locale: discord.Locale, context: app_commands.TranslationContextTypes
    ) -> str | None:
        """The localisation of ``string`` for ``locale``; None: Discord shows the English."""
        code = DISCORD_LOCALES.get(locale.value)
        if code is None:
            return None
        with speaking(code):
            text = localise(string, context.location)
        if text is None or text == string.message:
            return None
        return text


def localise(string: locale_str, where: Where) -> str | None:
    """``string`` at ``where`` of a command in the language spoken; None: none (or not valid)."""
    if where in NAMES or where is Where.parameter_name:
        table = option_names() if where is Where.parameter_name else command_names()
        name = table.get(string.message)
        if name is None:
            return None
        if not valid_name(name):
            log.warning("discord: %r is no valid command name; %r is shown instead", name, string.message)
            return None
        return name
    say = string.extras.get("say")
    text = say() if callable(say) else _(string.message)
    if where is Where.choice_name:
        return clip(text, MOST_CHOICE)
    if where in DESCRIPTIONS:
        return clip(text, MOST_DESCRIPTION)
    return None


__all__ = [
    "DISCORD_LOCALES",
    "MojiTranslator",
    "clip",
    "command_names",
    "locale_of",
    "localise",
    "option_names",
    "said",
    "valid_name",
    "value_label",
]
