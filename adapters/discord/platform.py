"""Discord as the runtime sees it (:class:`bot.core.platform.Platform`): its capabilities, which
servers this process may carry games on for, and who is an admin in a server."""

from __future__ import annotations

import logging
from typing import Any, Protocol

import discord

from adapters.discord.permissions import (
    RoleError,
    holds_role_named,
    is_admin,
    legacy_note,
    resolve_role,
    role_id,
)
from adapters.discord.translator import locale_of
from adapters.discord.transport import Reply
from adapters.discord.wire import ReplyWire
from bot.core.events import ChatKey, Player
from bot.core.platform import Capabilities
from bot.features.workspace import Workspace
from games.common.speech import speaking, spoken_from

log = logging.getLogger(__name__)

#: Ephemeral follow-ups, threads for turn-based games, buttons; snowflakes time a message to
#: the millisecond; the Eagle Eyes list is typed into a modal.
CAPABILITIES = Capabilities(
    ephemeral=True,
    threads=True,
    buttons=True,
    timestamp_precision=0.001,
    private_text=True,
    direct_chats=True,
)


class DiscordClient(Protocol):
    """What the platform reads of the client (:class:`~adapters.discord.client.MojiBot`; a
    protocol, so that this module does not import the client back)."""

    @property
    def workspace(self) -> Workspace: ...

    def mine(self, chat: ChatKey) -> bool: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...


class DiscordPlatform:
    """The Discord answers the runtime asks for (see :class:`bot.core.platform.Platform`)."""

    name = "discord"
    capabilities = CAPABILITIES

    def __init__(self, client: DiscordClient, wire: ReplyWire, *, takeover: bool = False) -> None:
        self.client = client
        self.takeover = takeover
        #: An interaction crosses to another process by its id and token, and names its delivery.
        self.codec = wire

    def may_adopt(self, chat: ChatKey) -> bool:
        """A dead process's game is carried on here only in this process's shards' servers
        (any server with ``SHARD_TAKEOVER``)."""
        return self.takeover or self.client.mine(chat)

    async def is_admin(
        self, player: Player, chat: ChatKey, *, interaction: object | None = None, fresh: bool = False
    ) -> bool:
        """Manage Server (or Administrator), or the server's admin role by its id. An admin role
        kept as a name by an older moji is resolved to its id once; a member holding a role of
        that name that no longer counts is told why (the reply's ``note``)."""
        if not isinstance(interaction, Reply):
            return False  # (an interaction from another process was authorised where it arrived)
        member: Any = interaction.interaction.user
        permissions = interaction.interaction.permissions
        if permissions.manage_guild or permissions.administrator:
            return True
        if not getattr(member, "roles", None):
            return False
        settings = await self.client.workspace.settings(chat)
        setting = str(settings.get("admin-role", "")).strip()
        role = role_id(setting)
        if role is None and setting:
            role, count = await self._admin_role_by_name(chat, setting)
            if role is None:
                if holds_role_named(member, setting):
                    # a note for this member alone: in their client's language, else the server's
                    with speaking(
                        spoken_from(locale_of(interaction.interaction), str(settings.get("language") or ""))
                    ):
                        interaction.note = legacy_note(setting, count)
                return False
        return is_admin(member, permissions, role)

    async def _admin_role_by_name(self, chat: ChatKey, name: str) -> tuple[int | None, int]:
        """An ``admin-role`` kept as a name (by an older moji): the id of the one role of that name
        in the server, kept from now on; or None and how many roles have that name (-1: the
        server's roles could not be read). It is never matched by name."""
        guild = self.client.get_guild(int(chat.workspace_id)) if chat.workspace_id.isdigit() else None
        if guild is None:
            return None, -1
        try:
            role = resolve_role(name, guild.roles, guild.id)
        except RoleError:
            wanted = name.removeprefix("@").strip().casefold()
            count = sum(r.name.casefold() == wanted for r in guild.roles)
            log.warning(
                "discord: server %s's admin-role is the name %r, and %d roles have that name: "
                "it counts for no one",
                guild.id,
                name,
                count,
            )
            return None, count
        store = self.client.workspace.store
        if store is not None:
            await store.set_setting("discord", chat.workspace_id, "admin-role", str(role.id), "moji")
            log.info(
                "discord: server %s's admin-role %r is kept as role id %s from now on",
                guild.id,
                name,
                role.id,
            )
        return role.id, 1
