"""What a session's parts are asked for, and what a session is made with.

A session (:class:`bot.sessions.session.Session`) holds four parts — its lobby, its settle window,
its timer and its announcer — each made with the session. The protocols here are what the session
and the other parts may ask of each; nothing else of a part is reached from outside it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any, NotRequired, Protocol, TypedDict

from bot.core import views
from bot.core.clock import Clock
from bot.core.events import ChatKey, Player
from bot.core.outbox import GameLog, Outbox
from games.common.options import OptionValue
from games.common.protocol import Claim, GameInfo, Notice

Spawn = Callable[[Coroutine[Any, Any, None], str], "asyncio.Task[None]"]


class SessionArgs(TypedDict):
    """What a session is made with (:class:`bot.hosting.manager.GameManager.new_session`)."""

    chat: ChatKey
    info: GameInfo
    host: Player
    options: Mapping[str, OptionValue]
    game_id: str
    seed: int
    clock: Clock
    outbox: Outbox
    game_log: GameLog
    spawn: Spawn
    #: Called with the session once it has closed.
    on_closed: Callable[[Any], None]
    settle: NotRequired[float]
    lobby_timeout: NotRequired[float]
    words: NotRequired[tuple[frozenset[str], frozenset[str]]]
    #: Puts answers voted in on the workspace's list.
    keep_words: NotRequired[Callable[[list[str]], Awaitable[list[str]]] | None]
    think_in_thread: NotRequired[bool]
    timestamp_precision: NotRequired[float]
    speech: NotRequired[str | None]


class LobbyPart(Protocol):
    """What the core asks of a session's lobby (:class:`bot.sessions.lobby.Lobby`)."""

    def view(self, open_: bool = True) -> views.View:
        """The lobby's message (closed: without its buttons)."""
        ...


class SettlePart(Protocol):
    """What the core and the other parts ask of the settle window
    (:class:`bot.sessions.settle.SettleWindow`)."""

    def add(self, claims: list[Claim]) -> None:
        """Answers into the window (the first opens it)."""
        ...

    async def judge(self, now: float) -> None:
        """Close the window: its answers go to the engine as one batch."""
        ...

    def closes_at(self) -> float | None:
        """When the window closes (None: it is not open)."""
        ...

    def hold_ends(self) -> float:
        """When the holds stop holding anything (0: no hold)."""
        ...


class TimerPart(Protocol):
    """What the core and the other parts ask of the session's timer
    (:class:`bot.sessions.timers.Timers`)."""

    def reschedule(self) -> None:
        """Sleep until the session's next own deed (:meth:`next_wake`)."""
        ...

    def cancel(self) -> None:
        """Stop sleeping."""
        ...


class AnnouncerPart(Protocol):
    """What the core asks of the session's announcer (:class:`bot.sessions.announce.Announcer`)."""

    async def deliver(self, notices: list[Notice]) -> None:
        """The engine's notices as messages."""
        ...

    async def finish(self) -> None:
        """The game is over: record it, post the result, close."""
        ...

    def table_view(self) -> views.View:
        """The public table now."""
        ...
