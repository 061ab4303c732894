"""Direct-message chats on Discord, where a player's daily runs (:class:`bot.features.daily.DirectChats`).

Opening one is Discord's Create DM (``POST /users/@me/channels``), which works whatever the
member's settings; what their settings refuse is the first message (403, 50007 "Cannot send
messages to this user"): :class:`~bot.delivery.reach.PrivateRefused`, which ``daily`` explains. A DM
channel belongs to no server, so its chat keeps the workspace the daily was asked in (the
daily counts there); what the player types in it comes back through
:meth:`bot.features.daily.Dailies.chat_of_direct`.
"""

from __future__ import annotations

import logging
from typing import Protocol

import discord

from adapters.discord.render import render
from bot.core import views
from bot.core.events import ChatKey, Player
from bot.delivery.reach import PrivateRefused
from bot.features.daily import NoDirectChat
from bot.process.retry import NETWORK_ERRORS

log = logging.getLogger(__name__)

#: Discord's code for a direct message refused by the member's own settings.
CANNOT_DM = 50007
#: What opening a DM may meet besides success and the member's refusal.
FAILURES: tuple[type[BaseException], ...] = (discord.HTTPException, *NETWORK_ERRORS)


class DMOpener(Protocol):
    """What this needs of the client: Create DM."""

    async def create_dm(self, user: discord.abc.Snowflake) -> discord.DMChannel:
        """The DM channel with ``user`` (created if need be)."""
        ...


class DiscordDirect:
    """:class:`bot.features.daily.DirectChats` on Discord."""

    def __init__(self, client: DMOpener) -> None:
        self.client = client

    async def open(self, chat: ChatKey, player: Player, greeting: views.View) -> ChatKey:
        """Open ``player``'s DM channel and greet them there (see :class:`bot.features.daily.DirectChats`)."""
        rendered = render(greeting, with_picture=False)
        try:
            channel = await self.client.create_dm(discord.Object(int(player.user_id)))
            await channel.send(content=rendered.content or None, embeds=rendered.embeds)
        except discord.Forbidden as exc:
            if exc.code == CANNOT_DM:
                raise PrivateRefused(player) from None
            log.warning("discord: could not open a DM with %s: %s", player.user_id, exc)
            raise NoDirectChat(str(exc)) from None
        except FAILURES as exc:
            log.warning("discord: could not open a DM with %s: %s", player.user_id, exc)
            raise NoDirectChat(str(exc)) from None
        return ChatKey(chat.platform, chat.workspace_id, str(channel.id))
