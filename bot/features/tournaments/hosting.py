"""What the tournament director needs of the game host and of the platform."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine, Mapping
from typing import Any, Protocol

from bot.core.clock import Clock
from bot.core.events import ChatKey, Player
from bot.core.outbox import GameLog, Outbox
from bot.core.platform import Capabilities
from bot.core.registry import Registry
from bot.features.workspace import Workspace
from bot.sessions.session import Session
from games.common.options import OptionValue
from games.common.protocol import GameInfo


class PairingThreads(Protocol):
    """Where a pairing is played: a thread of the tournament's channel (an adapter's)."""

    async def open(self, chat: ChatKey, name: str) -> ChatKey:
        """Open a thread named ``name`` in ``chat``'s channel: the chat its game is played in."""
        ...


class TournamentHost(Protocol):
    """What the director needs of the game host (the manager)."""

    registry: Registry
    clock: Clock
    outbox: Outbox
    game_log: GameLog
    workspace: Workspace
    capabilities: Capabilities
    sessions: dict[ChatKey, Session]
    think_in_thread: bool

    def new_session(
        self,
        chat: ChatKey,
        info: GameInfo,
        host: Player,
        options: Mapping[str, OptionValue],
        game_id: str,
        seed: int,
        words: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
        speech: str | None = None,
    ) -> Session:
        """A session wired to the host, not yet kept."""
        ...

    async def claim(self, chat: ChatKey, game_id: str) -> str | None:
        """Claim ``chat`` for a new game: None when it is ours, else the game that holds it."""
        ...

    def keep_alive(self) -> None:
        """Keep this process's leases on its games renewed."""

    def spawn(
        self, coro: Coroutine[Any, Any, None], name: str, chat: ChatKey | None = None
    ) -> asyncio.Task[None]:
        """Run ``coro`` as a supervised task."""
        ...


__all__ = ["PairingThreads", "TournamentHost"]
