"""Who may do what: admins, and what the bot itself needs in a channel.

Admins are members with the Manage Server permission or the role the workspace's
``admin-role`` setting holds: a role's id, never its name (anyone allowed to create roles
could make another role of that name). ``config admin-role`` takes a mention, an id or a
name, and keeps the id (a name shared by several roles is refused); a name kept by an older
moji is changed to its role's id the first time it is used, when exactly one role has it
(see :class:`~adapters.discord.client.MojiBot`). The bot's own
permissions come with each interaction (``app_permissions``), so a missing one
is explained before a game starts, not discovered halfway through it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Sequence

import discord

from bot.core.commands import CommandError
from bot.core.events import ChatKey
from games.common.speech import N_, _, _n, listing

log = logging.getLogger(__name__)

#: What the bot needs in a game channel, with the names Discord shows in its settings (each a
#: message: ``_(label)`` is the name Discord's client shows in the language spoken).
NEEDED: dict[str, str] = {
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
    "add_reactions": N_("Add Reactions"),
    "read_message_history": N_("Read Message History"),
}
#: Needed to start a turn-based game (it gets its own thread).
THREADS: dict[str, str] = {
    "create_public_threads": N_("Create Public Threads"),
    "send_messages_in_threads": N_("Send Messages in Threads"),
}

#: The permission integer for the invite URL: everything in NEEDED and THREADS.
INVITE_PERMISSIONS = discord.Permissions(**{name: True for name in (*NEEDED, *THREADS)})


def missing(permissions: discord.Permissions, needed: dict[str, str] = NEEDED) -> list[str]:
    """Names (as Discord shows them, in English: ``_(name)`` in the language spoken) of
    ``needed`` permissions not in ``permissions``."""
    return [label for name, label in needed.items() if not getattr(permissions, name)]


def missing_message(labels: Iterable[str]) -> str:
    """A friendly explanation for the person who asked, in the language spoken."""
    names = [_(label) for label in labels]
    return _n(
        "I can't run a game in this channel yet: I'm missing the {names} permission there. "
        "Ask a server admin to allow it for moji (Server Settings → Roles, or the channel's "
        "Permissions), then try again.",
        "I can't run a game in this channel yet: I'm missing the {names} permissions there. "
        "Ask a server admin to allow them for moji (Server Settings → Roles, or the channel's "
        "Permissions), then try again.",
        len(names),
        names=listing(names),
    )


_ROLE_MENTION = re.compile(r"^<@&(\d{15,25})>$")
_SNOWFLAKE = re.compile(r"^\d{15,25}$")


class RoleError(ValueError):
    """Why a setting names no single role (the message says what to do instead)."""


def role_id(setting: str) -> int | None:
    """The role id an ``admin-role`` setting holds (an id or a mention), None for anything else
    (nothing set, or a name kept by an older moji)."""
    text = setting.strip()
    match = _ROLE_MENTION.match(text)
    if match:
        return int(match.group(1))
    return int(text) if _SNOWFLAKE.match(text) else None


def resolve_role(value: str, roles: Sequence[discord.Role], guild_id: int) -> discord.Role:
    """The one role of ``roles`` that ``value`` (a mention, an id or a name, with or without
    its ``@``) names; :class:`RoleError` when none does, several do, or it is @everyone."""
    text = value.strip()
    wanted = role_id(text)
    if wanted is not None:
        found = [role for role in roles if role.id == wanted]
    else:
        name = text.removeprefix("@").strip().casefold()
        found = [role for role in roles if role.name.removeprefix("@").casefold() == name]
    shown = text if wanted is not None else "@" + text.removeprefix("@").strip()
    if not found:
        raise RoleError(
            _(
                "This server has no role {role}. Mention the role (type @ and pick it), "
                "like `config admin-role @Game Masters`.",
                role=shown,
            )
        )
    if len(found) > 1:
        raise RoleError(
            _n(
                "{count} role here is called {role}, so a name can't tell them apart. "
                "Mention the one you mean (type @ and pick it from the list), or rename the others.",
                "{count} roles here are called {role}, so a name can't tell them apart. "
                "Mention the one you mean (type @ and pick it from the list), or rename the others.",
                len(found),
                role=shown,
            )
        )
    if found[0].id == guild_id:
        raise RoleError(_("@everyone can't be the admin role: everyone could then change moji's settings."))
    return found[0]


def role_choices(roles: Sequence[discord.Role], typed: str, guild_id: int) -> list[tuple[str, str]]:
    """``config admin-role``'s value box: (label, value) for the roles whose name holds ``typed``,
    each value a mention (its id), a name several roles share labelled with the id too."""
    wanted = typed.strip().removeprefix("@").casefold()
    names = [role.name.casefold() for role in roles]
    found = [r for r in roles if r.id != guild_id and not r.managed and wanted in r.name.casefold()]
    return [
        (
            (f"@{r.name}" + (f" (id {r.id})" if names.count(r.name.casefold()) > 1 else ""))[:100],
            f"<@&{r.id}>",
        )
        for r in found[:25]
    ]


def holds_role(user: discord.abc.User, role: int | None) -> bool:
    """True when ``user`` (a member) has the role with id ``role``."""
    if role is None:
        return False
    return any(held.id == role for held in getattr(user, "roles", ()))


def holds_role_named(user: discord.abc.User, name: str) -> bool:
    """True when ``user`` has a role called ``name`` (any case): whom a name kept by an older moji
    would have made an admin."""
    wanted = name.strip().removeprefix("@").strip().casefold()
    return bool(wanted) and any(held.name.casefold() == wanted for held in getattr(user, "roles", ()))


def is_admin(user: discord.abc.User, permissions: discord.Permissions, role: int | None) -> bool:
    """Manage Server (or Administrator) in the channel, or the workspace's admin role (by id)."""
    if permissions.manage_guild or permissions.administrator:
        return True
    return holds_role(user, role)


class GuildRoles:
    """The ``admin-role`` setting on Discord
    (:class:`~bot.features.workspace_settings.AdminRoles`): kept as the
    role's id, shown as its mention."""

    def __init__(self, guild: Callable[[int], discord.Guild | None]) -> None:
        self.guild = guild

    async def resolve(self, chat: ChatKey, value: str) -> str:
        """The id of the one role ``value`` names in the chat's server, or why not."""
        guild = self.guild(int(chat.workspace_id)) if chat.workspace_id.isdigit() else None
        if guild is None:
            raise CommandError(_("I can't see this server's roles right now. Try again in a minute."))
        try:
            return str(resolve_role(value, guild.roles, guild.id).id)
        except RoleError as exc:
            raise CommandError(str(exc)) from None

    def show(self, stored: str) -> str:
        """A kept id as the role's mention (a name kept by an older moji, as it is)."""
        role = role_id(stored)
        if role is not None:
            return f"<@&{role}>"
        return _("{role} (a role name: set it again with a mention)", role=stored)


def legacy_note(name: str, roles: int) -> str:
    """What a member whose role has the name an older moji kept is told when it no longer counts:
    ``roles`` is how many of the server's roles have that name (-1: the roles could not be read)."""
    if roles < 0:
        return _(
            "ℹ️ moji's admin role is kept as the name “{role}”, and I can't see this server's roles "
            "right now, so it doesn't make anyone an admin. A member with Manage Server can set it "
            "again with `/moji config admin-role` and a mention of the role (type @ and pick it).",
            role=name,
        )
    if roles == 0:
        return _(
            "ℹ️ moji's admin role is kept as the name “{role}”, and no role here has that name, so "
            "it doesn't make anyone an admin. A member with Manage Server can set it again with "
            "`/moji config admin-role` and a mention of the role (type @ and pick it).",
            role=name,
        )
    return _n(
        "ℹ️ moji's admin role is kept as the name “{role}”, and {count} role here has that name, so "
        "it doesn't make anyone an admin. A member with Manage Server can set it again with "
        "`/moji config admin-role` and a mention of the role (type @ and pick it).",
        "ℹ️ moji's admin role is kept as the name “{role}”, and {count} roles here have that name, so "
        "it doesn't make anyone an admin. A member with Manage Server can set it again with "
        "`/moji config admin-role` and a mention of the role (type @ and pick it).",
        roles,
        role=name,
    )


def log_forbidden(action: str, where: str, exc: discord.HTTPException) -> None:
    """The one clear log line for a refusal by Discord."""
    log.warning(
        "discord refused to %s in %s: %s (code %s) — check moji's role permissions there",
        action,
        where,
        exc.text or exc.status,
        exc.code,
    )
