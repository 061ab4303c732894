"""Who may do what: admins, and what the bot itself needs in a channel.

Admins are members with the Manage Server permission or the role named by the
workspace's ``admin-role`` setting (a role name, id or mention). The bot's own
permissions come with each interaction (``app_permissions``), so a missing one
is explained before a game starts, not discovered halfway through it.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

import discord

log = logging.getLogger(__name__)

#: What the bot needs in a game channel, with the names Discord shows in its settings.
NEEDED: dict[str, str] = {
    "view_channel": "View Channel",
    "send_messages": "Send Messages",
    "embed_links": "Embed Links",
    "attach_files": "Attach Files",
    "add_reactions": "Add Reactions",
    "read_message_history": "Read Message History",
}
#: Needed to start a turn-based game (it gets its own thread).
THREADS: dict[str, str] = {
    "create_public_threads": "Create Public Threads",
    "send_messages_in_threads": "Send Messages in Threads",
}

#: The permission integer for the invite URL: everything in NEEDED and THREADS.
INVITE_PERMISSIONS = discord.Permissions(**{name: True for name in (*NEEDED, *THREADS)})


def missing(permissions: discord.Permissions, needed: dict[str, str] = NEEDED) -> list[str]:
    """Names (as Discord shows them) of ``needed`` permissions not in ``permissions``."""
    return [label for name, label in needed.items() if not getattr(permissions, name)]


def missing_message(labels: Iterable[str], channel: str = "this channel") -> str:
    """A friendly explanation for the person who asked."""
    names = ", ".join(labels)
    return (
        f"I can't run a game in {channel} yet: I'm missing the {names} permission(s) there. "
        "Ask a server admin to allow them for moji (Server Settings → Roles, or the channel's "
        "Permissions), then try again."
    )


def role_matches(setting: str, roles: Iterable[discord.Role | discord.Object]) -> bool:
    """True when one of ``roles`` is the configured admin role (name, id or ``<@&id>``)."""
    wanted = setting.strip()
    if not wanted:
        return False
    if wanted.startswith("<@&") and wanted.endswith(">"):
        wanted = wanted[3:-1]
    wanted = wanted.lstrip("@").casefold()
    for role in roles:
        if str(role.id) == wanted:
            return True
        name = getattr(role, "name", None)
        if isinstance(name, str) and name.casefold() == wanted:
            return True
    return False


def is_admin(user: discord.abc.User, permissions: discord.Permissions, admin_role: str) -> bool:
    """Manage Server (or Administrator) in the channel, or the workspace's admin role."""
    if permissions.manage_guild or permissions.administrator:
        return True
    roles = getattr(user, "roles", ())
    return role_matches(admin_role, roles)


def log_forbidden(action: str, where: str, exc: discord.HTTPException) -> None:
    """The one clear log line for a refusal by Discord."""
    log.warning(
        "discord refused to %s in %s: %s (code %s) — check moji's role permissions there",
        action,
        where,
        exc.text or exc.status,
        exc.code,
    )
