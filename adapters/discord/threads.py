"""Threads for a tournament's pairings on Discord (:class:`bot.features.tournaments.director.PairingThreads`).

A pairing's game is played in a public thread of the tournament's channel, opened without a
starter message (``POST /channels/{id}/threads``, type 11: docs/resources/Channel.md, "Start
Thread without Message"); its chat keeps the parent channel, so a command typed in it means
the channel's tournament. The client then knows the thread as a game's (its parent, its
auto-archive), as for a turn-based game's own thread.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.core.events import ChatKey


class ThreadOpener(Protocol):
    """What this needs of the client."""

    http: Any

    def game_thread_opened(self, chat: ChatKey, thread_id: int) -> None:
        """A game's thread was opened in ``chat``'s channel."""


class DiscordPairingThreads:
    """Opens a thread per pairing."""

    def __init__(self, client: ThreadOpener, archive_minutes: int) -> None:
        self.client = client
        self.archive_minutes = archive_minutes

    async def open(self, chat: ChatKey, name: str) -> ChatKey:
        """A public thread named ``name`` in ``chat``'s channel: its chat."""
        data = await self.client.http.start_thread_without_message(
            int(chat.channel_id),
            name=name[:100] or "moji",
            auto_archive_duration=self.archive_minutes,
            type=discord.ChannelType.public_thread.value,
        )
        thread_id = int(data["id"])
        self.client.game_thread_opened(chat, thread_id)
        return ChatKey(chat.platform, chat.workspace_id, chat.channel_id, str(thread_id))
