"""Direct-message conversations on Slack, where a player's daily runs
(:class:`bot.features.daily.DirectChats`).

A person's IM with moji is ``conversations.open`` with their user id (scope ``im:write``): the
same conversation each time. It belongs to the workspace, so its chat is an ordinary
``ChatKey(slack, team, D…)``; what the player types there reaches the game as any channel's
message (``adapters.slack.app``, ``_on_direct_message``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from bot.core import views
from bot.core.events import ChatKey, Player, Post
from bot.core.outbox import Outbox
from bot.features.daily import NoDirectChat
from bot.process.retry import NETWORK_ERRORS

log = logging.getLogger(__name__)

#: What opening an IM may meet besides success.
FAILURES: tuple[type[BaseException], ...] = (SlackApiError, *NETWORK_ERRORS)


class SlackDirect:
    """:class:`bot.features.daily.DirectChats` on Slack."""

    def __init__(self, client_for: Callable[[str], Awaitable[AsyncWebClient]], outbox: Outbox) -> None:
        self.client_for = client_for
        self.outbox = outbox

    async def open(self, chat: ChatKey, player: Player, greeting: views.View) -> ChatKey:
        """Open ``player``'s IM with moji and greet them there
        (see :class:`bot.features.daily.DirectChats`)."""
        try:
            client = await self.client_for(chat.workspace_id)
            answer = await client.conversations_open(users=player.user_id)
        except FAILURES as exc:
            log.warning("slack: could not open an IM with %s: %s", player.user_id, exc)
            raise NoDirectChat(str(exc)) from None
        direct = ChatKey(chat.platform, chat.workspace_id, str((answer.get("channel") or {}).get("id")))
        await self.outbox.send(Post(direct, greeting))
        return direct
