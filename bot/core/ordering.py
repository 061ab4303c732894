"""Inbound order, for every platform: each chat's events handled in arrival order, redeliveries dropped.

Platform clients run every event's handler concurrently (discord.py a task per
gateway event, Bolt a task per request), so without care a quick ``join`` could
overtake the ``start`` before it: both acknowledge first, then wait on lookups.
:class:`Turns` gives each chat a first-in, first-out line: a handler takes its
ticket the moment the event arrives (before it acknowledges or awaits anything),
and does its work once every earlier ticket of that chat is done. Different chats
never wait for each other. :class:`Recent` remembers recently seen event keys, so
a platform's redelivery of an event is recognised and dropped.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from bot.core.events import ChatKey


class Recent:
    """A bounded set of recently seen keys (e.g. Slack's Events API redeliveries)."""

    def __init__(self, size: int = 10_000) -> None:
        self.size = size
        self._keys: OrderedDict[str, None] = OrderedDict()

    def first_time(self, *keys: str) -> bool:
        """True when none of ``keys`` was seen before; remembers them all."""
        fresh = not any(key in self._keys for key in keys if key)
        for key in keys:
            if key:
                self._keys[key] = None
                self._keys.move_to_end(key)
        while len(self._keys) > self.size:
            self._keys.popitem(last=False)
        return fresh


class Turn:
    """One listener's place in its chat's line."""

    def __init__(self, turns: Turns, chat: ChatKey, before: asyncio.Future[None] | None) -> None:
        self._turns = turns
        self._chat = chat
        self._before = before
        self.mine: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def waiting(self) -> bool:
        """Whether an earlier ticket of this chat is not done yet (then :meth:`wait` waits)."""
        return self._before is not None and not self._before.done()

    async def wait(self) -> None:
        """Return once every earlier ticket of this chat is done."""
        if self._before is not None and not self._before.done():
            await asyncio.shield(self._before)

    def done(self) -> None:
        """Let the next ticket go (call it in a ``finally``)."""
        if not self.mine.done():
            self.mine.set_result(None)
        if self._turns.last.get(self._chat) is self.mine:
            del self._turns.last[self._chat]


class Turns:
    """Per-chat first-in, first-out lines."""

    def __init__(self) -> None:
        self.last: dict[ChatKey, asyncio.Future[None]] = {}

    def busy(self, chat: ChatKey) -> bool:
        """True while events of ``chat`` wait or are being handled (one may open a game there)."""
        return chat in self.last

    def take(self, chat: ChatKey) -> Turn:
        """A ticket behind everything already in ``chat``'s line (takes no time)."""
        turn = Turn(self, chat, self.last.get(chat))
        self.last[chat] = turn.mine
        return turn
