"""Neutral event types that cross the adapter boundary.

Adapters translate platform payloads (Discord gateway events, Slack Events API
requests, terminal lines) into the inbound types here and render the outbound
types back. Nothing here knows a platform or a game rule.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from bot.core.views import View


@dataclass(frozen=True, slots=True)
class ChatKey:
    """Where a game lives: a channel (or thread) in a workspace.

    ``workspace_id`` is the Discord guild or the Slack team.
    """

    platform: str
    workspace_id: str
    channel_id: str
    thread_id: str | None = None

    def label(self) -> str:
        """A short human label for logs."""
        where = f"{self.channel_id}/{self.thread_id}" if self.thread_id else self.channel_id
        return f"{self.platform}:{self.workspace_id}:{where}"


@dataclass(frozen=True, slots=True)
class Player:
    """A person on a platform."""

    platform: str
    user_id: str
    display_name: str
    is_admin: bool = field(default=False, compare=False)
    #: The person's own locale where the platform tells it (Discord's interaction ``locale``,
    #: Slack's ``users.info``), for what they alone read (docs/LANGUAGES.md); None: unknown.
    locale: str | None = field(default=None, compare=False)

    @property
    def seat_id(self) -> str:
        """The stable id games use for this person."""
        return f"{self.platform}:{self.user_id}"


@dataclass(frozen=True, slots=True)
class MessageRef:
    """A platform message the bot may react to or edit."""

    chat: ChatKey
    message_id: str


# ---------------------------------------------------------------- inbound


@dataclass(frozen=True, slots=True)
class Command:
    """A command: a slash command, its text form, or a button's equivalent.

    ``args`` are the words after the command name (``start race cards=5`` →
    name ``start``, args ``("race", "cards=5")``). ``interaction`` is an
    opaque adapter token for answering privately (ephemeral replies).
    """

    name: str
    args: tuple[str, ...]
    chat: ChatKey
    player: Player
    interaction: object | None = None


@dataclass(frozen=True, slots=True)
class Text:
    """A message typed in a channel. ``sent_at`` is the platform's own time."""

    chat: ChatKey
    player: Player
    text: str
    sent_at: float
    message_ref: MessageRef | None = None
    edited: bool = False
    #: ``text`` is the answer or move the chat's game read in the message: the inbound
    #: pipeline (or, for another process's game, its router) read it, so nothing reads it again.
    read: bool = False


@dataclass(frozen=True, slots=True)
class Reaction:
    """A reaction added to a message."""

    chat: ChatKey
    player: Player
    emoji: str
    message_ref: MessageRef


@dataclass(frozen=True, slots=True)
class Button:
    """A button press. ``action`` is the stable custom id (``moji:join``)."""

    chat: ChatKey
    player: Player
    action: str
    interaction: object | None = None


@dataclass(frozen=True, slots=True)
class PrivateText:
    """Text sent privately (DM, modal) by a player about a game in ``chat``."""

    chat: ChatKey
    player: Player
    text: str
    sent_at: float


Inbound = Command | Text | Reaction | Button | PrivateText

# ---------------------------------------------------------------- outbound

#: ``late``: a valid word that lost to an earlier one by milliseconds (not a wrong word).
Mark = Literal["accepted", "rejected", "late"]


@dataclass(frozen=True, slots=True)
class Post:
    """Post a view in a chat, for everyone there.

    ``receipt``, when given, is called once the message is out (with its reference, or
    None if it could not be posted): the delivery layer may send it later.

    ``table_follows``: an announcement whose game action also changed the table, which the
    session sends next: the delivery layer shows them together, never the announcement on the
    table it changed (the cards an answer took, shown with "Ann takes them").
    """

    chat: ChatKey
    view: View
    receipt: Callable[[MessageRef | None], None] | None = field(default=None, compare=False)
    table_follows: bool = False


@dataclass(frozen=True, slots=True)
class Edit:
    """Replace the view of a message the bot posted."""

    ref: MessageRef
    view: View


@dataclass(frozen=True, slots=True)
class React:
    """Mark a player's message (✅ accepted / ❌ rejected / ⏱ late).

    ``reason`` explains a rejection; adapters that can show it quietly (the
    terminal) do, the others keep it for ``why``. ``seat``, ``who`` and ``word``
    say whose answer it was and what it said, so the delivery layer can list a
    refusal in the game's table instead of marking every one.
    """

    ref: MessageRef
    mark: Mark
    reason: str = ""
    seat: str = ""
    who: str = ""
    word: str = ""


@dataclass(frozen=True, slots=True)
class Private:
    """Show a view to one player only (ephemeral reply or DM).

    Hidden information (hands, racks, private lists) goes ONLY this way.
    ``interaction`` lets an adapter answer an interaction ephemerally.
    """

    chat: ChatKey
    player: Player
    view: View
    interaction: object | None = None


Outbound = Post | Edit | React | Private
