"""Threads for a tournament's pairings on Slack (:class:`bot.features.tournaments.director.PairingThreads`).

A pairing's game is played in a thread of the tournament's channel: moji posts the thread's
first message (``chat.postMessage``, paced like every post) and the game's chat is that
message's thread (``ChatKey.thread_id`` is its ``ts``). Slack runs no slash command in a
thread, so the players type their moves there (and press the table's buttons); the app reads
a message or a button in such a thread as its game's (``adapters.slack.app``).
"""

from __future__ import annotations

import asyncio

from bot.core import views
from bot.core.events import ChatKey, MessageRef, Post
from bot.core.outbox import Outbox


class NoThread(Exception):
    """Slack did not take the thread's first message."""


class SlackPairingThreads:
    """Opens a thread per pairing."""

    def __init__(self, outbox: Outbox) -> None:
        self.outbox = outbox

    async def open(self, chat: ChatKey, name: str) -> ChatKey:
        """A thread under a new message ``name`` in ``chat``'s channel: its chat."""
        posted: asyncio.Future[MessageRef | None] = asyncio.get_running_loop().create_future()

        def receipt(ref: MessageRef | None) -> None:
            if not posted.done():
                posted.set_result(ref)

        channel = ChatKey(chat.platform, chat.workspace_id, chat.channel_id)
        await self.outbox.send(Post(channel, views.message(name, "info"), receipt))
        ref = await posted
        if ref is None:
            raise NoThread(f"could not post in {channel.label()}")
        return ChatKey(chat.platform, chat.workspace_id, chat.channel_id, ref.message_id)
