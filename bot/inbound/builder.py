"""Building a front door's core: the one place a runtime and everything behind it are wired.

:func:`build` makes a chat platform's whole core (Discord, Slack): the delivery layer in front
of the adapter's transport, the game manager, each person's fair share, the once-only record,
the router between the processes sharing the database, ``/metrics``, the process's companions
and what the front door adds (:class:`~bot.inbound.wiring.FrontDoor`). :func:`build_local` makes
the core of a front door that shows its games itself, for one person on one machine (the
terminal, the local web page): no delivery layer, router nor allowances.
"""

from __future__ import annotations

import random
from typing import Protocol

from bot.core import metrics
from bot.core.clock import Clock
from bot.core.fairshare import FairShare
from bot.core.outbox import GameLog, Outbox
from bot.core.platform import Platform
from bot.core.registry import Registry
from bot.delivery.delivery import Delivery
from bot.delivery.marks import RefusalMarksFor
from bot.delivery.transport import Transport
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.inbound.runtime import NO_DOOR, Runtime
from bot.inbound.wiring import FrontDoor, Services


class Companion(Protocol):
    """A front door that shows the games of other platforms' chats (the web companion: pages of
    a Discord or Slack game). :func:`build` attaches each of the process's to every
    runtime it builds."""

    def attach(self, runtime: Runtime) -> None:
        """Follow ``runtime``'s games (and add to what its delivery layer sends)."""
        ...


def build(
    platform: Platform,
    transport: Transport,
    services: Services,
    clock: Clock,
    *,
    settle: float,
    lobby_timeout: float,
    refusal_marks: RefusalMarksFor | None = None,
    door: FrontDoor = NO_DOOR,
) -> Runtime:
    """A platform's whole core, wired once: its delivery layer in front of ``transport``,
    a game manager, each person's fair share, the router between the processes sharing
    the database (adopting only what :meth:`Platform.may_adopt` allows), ``/metrics`` and
    what the front door adds (``door``)."""
    outbox = Delivery(transport, clock, refusal_marks=refusal_marks, capabilities=platform.capabilities)
    manager = GameManager(
        services.registry,
        outbox,
        services.game_log,
        clock,
        workspace=services.workspace,
        settle=settle,
        lobby_timeout=lobby_timeout,
        keep_alive=services.keep_alive,
    )
    # the daily's key (a test's own services may have none: every deal then uses the empty key)
    manager.dailies.secret = getattr(services, "daily_secret", b"")
    manager.dailies.direct = door.direct(outbox) if door.direct is not None else None
    manager.tournaments.threads = door.threads(outbox) if door.threads is not None else None
    manager.preparing.defer(getattr(services, "later", ()))  # (PREPARE_AT_START)
    manager.closed_listeners.append(outbox.closed)
    outbox.table_listeners.append(manager.recovery.table_posted)
    router = services.router(manager, platform.name, codec=platform.codec, mine=platform.may_adopt)
    fair = FairShare(clock, outbox)  # each person's fair share (bot/core/fairshare.py)
    runtime = Runtime(platform, manager, services=services, router=router, fair=fair, door=door)
    metrics.watch(manager)
    # the process's companions (bot.process.app.Services.companions; a test's own services may have none)
    for companion in getattr(services, "companions", ()):
        companion.attach(runtime)
    return runtime


def build_local(
    platform: Platform,
    outbox: Outbox,
    registry: Registry,
    game_log: GameLog,
    clock: Clock,
    *,
    workspace: Workspace | None = None,
    settle: float = 0.15,
    lobby_timeout: float = 600.0,
    rng: random.Random | None = None,
    door: FrontDoor = NO_DOOR,
) -> Runtime:
    """The core of a front door that shows its games itself (``outbox``) to one person."""
    manager = GameManager(
        registry,
        outbox,
        game_log,
        clock,
        workspace=workspace,
        settle=settle,
        lobby_timeout=lobby_timeout,
        rng=rng,
        capabilities=platform.capabilities,
    )
    return Runtime(platform, manager, door=door)
