"""What a runtime is built from: the process's services, and what a front door adds to its core.

:func:`bot.inbound.builder.build` takes both and wires everything once.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.core.events import ChatKey
from bot.core.outbox import GameLog
from bot.core.registry import Registry
from bot.core.wire import InteractionCodec
from bot.delivery.delivery import Delivery
from bot.features.daily import DirectChats
from bot.features.privacy import ForgetHook, PurgeHook
from bot.features.schedule import Schedules
from bot.features.scheduler import Scheduler
from bot.features.tournaments.hosting import PairingThreads
from bot.features.workspace import Workspace
from bot.hosting.host import Recovery
from bot.hosting.manager import GameManager
from bot.inbound.routing import Router


class Services(Protocol):
    """What a runtime runs on (:class:`bot.process.app.Services` in a process; a test's own)."""

    @property
    def registry(self) -> Registry:
        """The installed games."""
        ...

    @property
    def workspace(self) -> Workspace:
        """Workspace settings, leaderboards and word lists."""
        ...

    @property
    def game_log(self) -> GameLog:
        """Where games are recorded."""
        ...

    @property
    def store(self) -> Any:
        """The database."""
        ...

    @property
    def keep_alive(self) -> float:
        """Seconds between renewals of this process's leases on its games."""
        ...

    def router(
        self,
        manager: GameManager,
        platform: str,
        *,
        codec: InteractionCodec | None = None,
        mine: Callable[[ChatKey], bool] = ...,
    ) -> Router | None:
        """A router between the processes sharing the database (None: this process is alone)."""
        ...

    async def recover(
        self, manager: GameManager, platform: str, mine: Callable[[ChatKey], bool] = ...
    ) -> Recovery:
        """Rebuild the platform's unfinished games (then start routing)."""
        ...


@dataclass(frozen=True)
class FrontDoor:
    """What a front door adds to its core, given to :func:`~bot.inbound.builder.build` (where the
    wiring ends).

    ``direct``: the platform's direct-message chats for the daily, made from the delivery layer;
    ``threads``: where a tournament's pairings play; ``on_closed``: told of every chat whose game
    ended; ``on_tournament_game``: told of every chat where a tournament's game began;
    ``on_forget``/``on_purge``: the adapter's caches of people and workspaces, emptied
    with the core's; ``scheduler`` and ``schedules``: scheduled games (the ``schedule`` command's
    book and the loop :meth:`Runtime.recover` starts).
    """

    direct: Callable[[Delivery], DirectChats] | None = None
    threads: Callable[[Delivery], PairingThreads] | None = None
    on_closed: Sequence[Callable[[ChatKey], None]] = ()
    on_tournament_game: Sequence[Callable[[ChatKey], None]] = ()
    on_forget: Sequence[ForgetHook] = ()
    on_purge: Sequence[PurgeHook] = ()
    scheduler: Scheduler | None = None
    schedules: Schedules | None = None


def connect(manager: GameManager, router: Router) -> None:
    """Put ``router`` in front of ``manager``: the manager routes each event through it, and its
    delivery layer asks it before each call whether the chat's game is still this process's."""
    manager.router = router
    if isinstance(manager.outbox, Delivery):
        manager.outbox.gate = router.still_ours
