"""What a chat platform is to the core: a name, what it can do, and the questions only it answers.

An adapter (Discord, Slack, the terminal) parses its platform's payloads into the neutral
events of :mod:`bot.core.events`, renders views and makes the platform's calls. Everything in
between — the order of a chat's events, once-only handling, who may do what, what is an
answer and what is chatter — is :class:`bot.inbound.runtime.Runtime`'s, the same for every platform.
The adapter hands the runtime a :class:`Platform`: the few facts and answers the runtime cannot
know by itself.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol

from bot.core.events import ChatKey, Player
from bot.core.views import View
from bot.core.wire import InteractionCodec
from games.common.protocol import GameInfo


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a platform can show and how exactly it times what people type.

    ``ephemeral``: a private reply can be shown in the channel to one person (Discord's
    ephemeral follow-ups, Slack's ephemeral messages); otherwise private notes go elsewhere (a
    direct message) or, in the terminal, are printed for its one player. ``threads``: a game
    may run in a thread of its own. ``buttons``: views may carry buttons (lobby, turns).
    ``timestamp_precision``: seconds, the finest difference between two messages' send times
    the platform reports (a race's tie window is never finer than that). ``private_text``:
    players can send the bot words privately (a Discord modal, a Slack direct message).
    ``direct_chats``: moji can open a direct-message chat with a player and run a game there
    (the daily: :mod:`bot.features.daily`). ``own_chat``: every chat is seen by its one person only (the
    terminal), so a game for their eyes only runs where they are.
    """

    ephemeral: bool
    threads: bool
    buttons: bool
    timestamp_precision: float
    private_text: bool = False
    direct_chats: bool = False
    own_chat: bool = False

    def plays_in_thread(self, info: GameInfo) -> bool:
        """Whether a game of ``info`` gets a thread of its own when started in a channel (a
        turn-based game, where the platform has threads: the channel stays calm between turns)."""
        return self.threads and not info.realtime

    def fit(self, view: View) -> View:
        """``view`` as the platform can show it: without buttons where it has none (its text
        says what to type), and not asking for a thread of its own where it has no threads."""
        if (self.buttons or not view.buttons) and (self.threads or not view.threaded):
            return view
        return replace(
            view, buttons=view.buttons if self.buttons else (), threaded=view.threaded and self.threads
        )


#: A core built without a platform (tests, tools): it may show everything.
EVERY_CAPABILITY = Capabilities(
    ephemeral=True, threads=True, buttons=True, timestamp_precision=0.000_001, private_text=True
)


class Platform(Protocol):
    """One front door, as the runtime sees it."""

    @property
    def name(self) -> str:
        """The platform's name in :class:`~bot.core.events.ChatKey` and :class:`~bot.core.events.Player`."""
        ...

    @property
    def capabilities(self) -> Capabilities:
        """What the platform can do (see :class:`Capabilities`)."""
        ...

    @property
    def codec(self) -> InteractionCodec | None:
        """How the platform's interactions cross between processes and name their delivery
        (None: they do not cross, and commands carry no delivery id)."""
        ...

    def may_adopt(self, chat: ChatKey) -> bool:
        """Whether this process may carry on ``chat``'s game when the process running it dies
        (a Discord process: its own shards' servers, unless ``SHARD_TAKEOVER`` is set)."""
        ...

    async def is_admin(
        self, player: Player, chat: ChatKey, *, interaction: object | None = None, fresh: bool = False
    ) -> bool:
        """Whether ``player`` may do an admin's things in ``chat`` (the platform's own rule:
        Discord's Manage Server or the admin role, Slack's workspace admins or admin group).
        ``interaction`` is the command's or button's own (Discord reads the member's
        permissions from it); ``fresh``: ask the platform again rather than trust a cache."""
        ...
