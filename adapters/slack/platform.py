"""Slack as the runtime sees it (:class:`bot.core.platform.Platform`): its capabilities and who is an
admin in a workspace."""

from __future__ import annotations

from adapters.slack.people import Directory
from adapters.slack.transport import InteractionWire
from bot.core.events import ChatKey, Player
from bot.core.platform import Capabilities

#: Ephemeral messages, a game's quiet thread, Block Kit buttons; a message's ``ts`` times it to
#: the microsecond (adapters/slack/stamps.py); an Eagle Eyes list is sent by direct message.
CAPABILITIES = Capabilities(
    ephemeral=True,
    threads=True,
    buttons=True,
    timestamp_precision=0.000_001,
    private_text=True,
    direct_chats=True,
)


class SlackPlatform:
    """The Slack answers the runtime asks for (see :class:`bot.core.platform.Platform`)."""

    name = "slack"
    capabilities = CAPABILITIES

    def __init__(self, people: Directory) -> None:
        self.people = people
        #: A command or button press crosses by its response URL and names its delivery by its
        #: trigger id.
        self.codec = InteractionWire()

    def may_adopt(self, chat: ChatKey) -> bool:
        """Any process may carry on a Slack game whose process died."""
        return True

    async def is_admin(
        self, player: Player, chat: ChatKey, *, interaction: object | None = None, fresh: bool = False
    ) -> bool:
        """A workspace admin or owner, or a member of the workspace's ``admin-role`` user group."""
        return await self.people.is_admin(chat.workspace_id, player.user_id, fresh=fresh)
