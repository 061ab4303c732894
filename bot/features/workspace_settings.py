"""Workspace settings: declared once, with their defaults, read and checked here.

:data:`WORKSPACE_SETTINGS` declares every setting a workspace has (``config``); a game
option's workspace default is set as ``<game>.<option>`` (``config race.cards 5``).
:func:`setting_values` reads what is stored (defaults filled in) and
:func:`validate_setting` checks what an admin typed and says what to store.
:class:`AdminRoles` is how a platform names the ``admin-role`` setting's role or group.
:class:`~bot.features.workspace.Workspace` runs the commands over them.
"""

from __future__ import annotations

import contextlib
import zoneinfo
from collections.abc import Mapping
from dataclasses import replace
from typing import Protocol

from bot.core.commands import CommandError, option_names
from bot.core.events import ChatKey
from bot.core.registry import Registry
from bot.features.privacy import GRACE_DAYS, RETENTION_DAYS, parse_retention
from games.common.grammar import excerpt
from games.common.languages import LANGUAGES, language
from games.common.options import (
    OptionError,
    OptionSpec,
    OptionValue,
    format_value,
    language_option,
    parse_options,
)
from games.common.speech import CLOSE, N_, OPEN, PSEUDO, _, babel_locale, current

#: Workspace settings and their defaults: declared once.
WORKSPACE_SETTINGS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "admin-role",
        "text",
        "",
        N_(
            "a role (Discord: mention it) or user group (Slack) whose members may configure "
            "moji; none clears it"
        ),
    ),
    OptionSpec(
        "quiet", "bool", False, N_("announce race results in a thread so the channel stays calm (Slack)")
    ),
    OptionSpec(
        "reasons",
        "bool",
        False,
        N_(
            "mark refused answers ❌ and show why in the game's table "
            "(otherwise: listed there; `why` explains)"
        ),
    ),
    OptionSpec("timezone", "text", "UTC", N_("time zone for word breaks and the daily/weekly leaderboards")),
    replace(
        language_option(),
        help=N_(
            "the language moji speaks in this workspace, and the language of its games' words unless "
            "`start … language=` says otherwise: {languages}"
        ),
    ),
    OptionSpec(
        "retention",
        "text",
        str(RETENTION_DAYS),
        N_(
            "days to keep the logs of finished games (every answer and move), or forever; "
            "results and scores stay until purged"
        ),
    ),
    OptionSpec(
        "web",
        "bool",
        False,
        N_(
            "leaderboards, player pages and replays of finished games on the web, at a private address "
            "(off turns them off; on again makes a new address)"
        ),
    ),
    OptionSpec(
        "deletion-grace",
        "int",
        GRACE_DAYS,
        N_("days moji keeps this workspace's data after being removed from it (added back in time: kept)"),
        low=1,
        high=365,
    ),
)


def describe_setting(spec: OptionSpec) -> str:
    """A setting's description as ``config`` shows it, in the language being spoken."""
    if spec.name == "language":
        languages = ", ".join(
            _("{code} ({language})", code=code, language=language_name(code)) for code in LANGUAGES
        )
        return _(spec.help, languages=languages)
    return _(spec.help)


def language_name(code: str) -> str:
    """The name of the language ``code`` as the language being spoken names it (``Dutch``,
    ``néerlandais``, ``Niederländisch``), from CLDR."""
    name = babel_locale().languages.get(code) or language(code).name
    return f"{OPEN}{name}{CLOSE}" if current() == PSEUDO else name


#: What clears the ``admin-role`` setting.
NO_ROLE = frozenset({"none", "off", "-"})


class AdminRoles(Protocol):
    """How a platform names the ``admin-role`` setting's role or group (Discord: a role, kept
    by its id). Without one for a platform the setting keeps the text it was given."""

    async def resolve(self, chat: ChatKey, value: str) -> str:
        """What to keep for ``value`` as typed (a mention, an id, a name): the role's id;
        :class:`~bot.core.commands.CommandError` with what to do when it names no single role."""
        ...

    def show(self, stored: str) -> str:
        """How ``config`` shows a kept value (a mention)."""
        ...


def setting_values(raw: Mapping[str, str]) -> dict[str, OptionValue]:
    """Every setting's value: the stored one, or its default."""
    values: dict[str, OptionValue] = {spec.name: spec.default for spec in WORKSPACE_SETTINGS}
    for spec in WORKSPACE_SETTINGS:
        if spec.name in raw:
            # a value written by an older version is ignored: the default stands
            with contextlib.suppress(OptionError):
                values[spec.name] = spec.parse(raw[spec.name])
    return values


def validate_setting(registry: Registry | None, key: str, value: str) -> tuple[str, str]:
    """The setting's own name (``lang`` is ``language``; ``r.cards`` is ``race.cards``) and
    the value to store, or :class:`CommandError` with the reason."""
    game, dot, option = key.partition(".")
    if dot:
        info = registry.find(game) if registry else None
        if info is None:
            raise CommandError(_("There is no game called {game}.", game=excerpt(game)))
        if option_names(info, [option]) == {"language"}:
            value = language_code(value)  # (`race.language French` reads fr)
        try:
            parsed = parse_options(info.options, [f"{option}={value}"])
        except OptionError as exc:
            raise CommandError(_("{game}: {problem}.", game=_(info.title), problem=str(exc))) from None
        (name,) = option_names(info, [option])
        return f"{info.name}.{name}", format_value(parsed[name])
    spec_by_name = {spec.name: spec for spec in WORKSPACE_SETTINGS}
    for spec in WORKSPACE_SETTINGS:
        for alias in spec.aliases:
            spec_by_name.setdefault(alias, spec)
    setting = spec_by_name.get(key)
    if setting is None:
        known = ", ".join(spec.name for spec in WORKSPACE_SETTINGS)
        raise CommandError(
            _(
                "There is no setting {setting}. Settings: {known}, or <game>.<option>.",
                setting=excerpt(key),
                known=known,
            )
        )
    key = setting.name
    if key == "language":
        return key, language_code(value)
    try:
        parsed_value = setting.parse(value)
    except OptionError as exc:
        raise CommandError(_("{problem}.", problem=str(exc))) from None
    if key == "retention":
        return key, parse_retention(str(parsed_value))
    if key == "timezone":
        try:
            zoneinfo.ZoneInfo(str(parsed_value))
        except (zoneinfo.ZoneInfoNotFoundError, ValueError):
            raise CommandError(
                _("{zone} is not a time zone I know (try Europe/Paris or UTC).", zone=excerpt(value))
            ) from None
    return key, format_value(parsed_value)


def language_code(value: str) -> str:
    """The code of the language ``value`` names (``fr``, ``French``), or why not."""
    try:
        return language(value).code
    except ValueError as exc:
        raise CommandError(str(exc)) from None
