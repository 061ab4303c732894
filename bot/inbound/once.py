"""Each slash command and button press is handled once, on every platform.

A platform names each delivery: Slack a slash command or button press by its ``trigger_id``
(a replay of a captured signed request carries the same one; Slack accepts its signature for
five minutes), Discord an interaction by its id. The adapter's
:class:`~bot.core.wire.InteractionCodec` reads that name from the interaction it attached;
:class:`Once` remembers it — in this process, and in the database's ``deliveries`` table, so a
replay that reaches another process sharing the database, or this one after a restart, is
dropped as well — and :meth:`~bot.hosting.manager.GameManager.handle` drops a repeat before anything
else. Messages and reactions have their own once-only rules (a message's platform id in
:mod:`bot.inbound.routing`'s inbox and in each game's log of handled answers), so they are not
recorded here: no database write per answer.
"""

from __future__ import annotations

import logging
from typing import Protocol

from bot.core.clock import Clock
from bot.core.events import Button, Command, Inbound
from bot.core.ordering import Recent
from bot.core.wire import InteractionCodec

log = logging.getLogger(__name__)

#: Seconds a delivery is remembered: longer than any platform delivers one again (Slack's
#: signatures are accepted for 5 minutes, Discord's interaction tokens work for 15).
KEEP = 3600.0
#: Seconds between clean-ups of the deliveries recorded longer ago than :data:`KEEP`.
PRUNE_EVERY = 60.0


class DeliveryStore(Protocol):
    """The slice of :class:`~storage.base.Store` that remembers deliveries."""

    async def first_delivery(self, event_key: str, at: float, prune_before: float | None = None) -> bool:
        """True for exactly one caller per ``event_key``."""
        ...


def delivery_key(event: Inbound, codec: InteractionCodec | None) -> str | None:
    """The platform's name for this delivery of a command or button press (None: it has none,
    or ``event`` is not one)."""
    if not isinstance(event, Command | Button) or event.interaction is None or codec is None:
        return None
    key = codec.key(event.interaction)
    if not key:
        return None
    # (unique on its platform: the record names no workspace, channel or person)
    return f"{event.chat.platform}:{key}"


class Once:
    """Remembers the deliveries handled (see the module's docs)."""

    def __init__(
        self,
        store: DeliveryStore | None,
        clock: Clock,
        codec: InteractionCodec | None = None,
        *,
        keep: float = KEEP,
        size: int = 10_000,
    ) -> None:
        self.store = store
        self.clock = clock
        #: How the adapter's interactions name their delivery (set by the adapter).
        self.codec = codec
        self.keep = keep
        self._recent = Recent(size)
        self._pruned = float("-inf")
        #: Repeats dropped (for tests and metrics).
        self.dropped = 0

    async def first(self, event: Inbound) -> bool:
        """False when ``event`` is a delivery handled before (drop it); True otherwise."""
        key = delivery_key(event, self.codec)
        if key is None:
            return True
        fresh = self._recent.first_time(key)
        if fresh and self.store is not None:
            now = self.clock.now()
            prune = now - self.keep if now - self._pruned >= PRUNE_EVERY else None
            try:
                fresh = await self.store.first_delivery(key, now, prune)
                if prune is not None:
                    self._pruned = now
            except Exception as exc:  # the database is away: this process's memory still holds
                log.warning("could not record delivery %s (handled anyway): %s", key, exc)
        if not fresh:
            self.dropped += 1
            log.info("dropped a repeated delivery of %s in %s", type(event).__name__, event.chat.label())
        return fresh
