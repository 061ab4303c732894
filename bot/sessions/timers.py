"""A session's one timer task: it sleeps until the next thing the session does by itself.

The session says when that is (:meth:`Timers.arm`: the lobby's expiry, the settle window's
close, a computer player's answer or move, or the engine's own deadline, whichever comes first)
and what to do then (``fire``, given when the timer is made); the timer only sleeps on the
injected clock, one task at a time.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.core.clock import Clock
from bot.sessions.parts import Spawn


class Timers:
    """A session's timer: at most one sleeping task, which calls ``fire`` when it wakes."""

    def __init__(self, clock: Clock, spawn: Spawn, name: str, fire: Callable[[], Awaitable[None]]) -> None:
        self._clock = clock
        self._spawn = spawn
        self._name = name
        self._fire = fire
        self._task: asyncio.Task[None] | None = None
        self._at: float | None = None

    @property
    def idle(self) -> bool:
        """True when no task sleeps (none armed, or the one that woke has said so: :meth:`fired`)."""
        return self._task is None

    def arm(self, wake: float | None) -> None:
        """Sleep until ``wake`` (None: not at all); a task already sleeping until then is kept."""
        if wake == self._at and self._task is not None and not self._task.done():
            return
        self.cancel()
        if wake is not None:
            self._at = wake
            self._task = self._spawn(self._sleep_then_fire(wake), self._name)

    def cancel(self) -> None:
        """Stop sleeping (a task that has woken and is firing runs on)."""
        task, self._task, self._at = self._task, None, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    def fired(self) -> None:
        """Called by ``fire``: the task that woke is no longer the one sleeping."""
        if self._task is asyncio.current_task():
            self._task, self._at = None, None

    async def _sleep_then_fire(self, when: float) -> None:
        await self._clock.sleep_until(when)
        await self._fire()
