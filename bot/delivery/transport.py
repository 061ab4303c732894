"""The adapter's side of delivery: the platform calls :class:`~bot.delivery.delivery.Delivery` makes.

An adapter implements :class:`Transport` (one method per kind of call) and declares its
platform's limits on it; :class:`~bot.delivery.delivery.Delivery` decides which calls to make and
paces them. :class:`EditResult` is what an edit reports back, so the table logic
(:mod:`bot.delivery.tables`) knows whether to post the table anew.
"""

from __future__ import annotations

import enum
from typing import Protocol

from bot.core import views
from bot.core.events import ChatKey, Mark, MessageRef, Private
from bot.delivery.pacing import PlatformLimits


class EditResult(enum.Enum):
    """How an edit went."""

    OK = "ok"
    GONE = "gone"  # the message was deleted
    STALE = "stale"  # the platform no longer lets the bot edit it (too old)
    FAILED = "failed"  # refused or failed for another reason (logged by the adapter)


class PictureRefused(Exception):
    """The platform refused a message for one of its pictures (Slack cannot download a served
    picture, or will not show an uploaded file): nothing was sent. The transport has taken note,
    and the next message it sends for the chat goes without pictures; the picture is its own
    business from then on (paused, named again, uploaded again). The delivery layer sends the
    message again at once, by whichever call is sooner, inside the platform's limits: a picture
    never holds a table back."""


class Transport(Protocol):
    """An adapter's sending side: one method per platform call the delivery layer makes.

    Methods never raise, except :class:`~bot.delivery.pacing.RateLimited` when the platform
    refused a call for its rate limit after the client library's own retries, and
    :class:`PictureRefused` when it refused a message for one of its pictures.
    """

    limits: PlatformLimits

    async def post(self, chat: ChatKey, view: views.View, *, picture: bool) -> MessageRef | None:
        """Post a message (with its picture when ``picture``); its reference, or None if it failed."""
        ...

    async def edit(self, ref: MessageRef, view: views.View, *, picture: bool) -> EditResult:
        """Replace a message's content; ``picture`` False keeps the picture it has."""
        ...

    async def react(self, ref: MessageRef, mark: Mark) -> None:
        """Add a mark to a player's message."""
        ...

    async def private(self, message: Private) -> None:
        """Show a view to one player only."""
        ...

    def forget(self, chat: ChatKey) -> None:
        """The chat's game ended and everything for it was delivered."""
        ...
