"""Clocks: the only source of time for sessions and timers.

Times are epoch seconds (floats) so they compare directly with platform
timestamps (Discord snowflake time, Slack ``ts``). Tests use :class:`FakeClock`
and never sleep.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from typing import Protocol


class Clock(Protocol):
    """What sessions need from time."""

    def now(self) -> float:
        """Current time in epoch seconds."""
        ...

    async def sleep_until(self, when: float) -> None:
        """Return once :meth:`now` has reached ``when``."""
        ...


class SystemClock:
    """The real wall clock, optionally running faster (for demos and tests).

    ``speed`` > 1 makes game time pass faster than real time, counted from
    the moment the clock was created.
    """

    def __init__(self, speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("clock speed must be positive")
        self._speed = speed
        self._origin_wall = time.time()
        self._origin_mono = time.monotonic()

    def now(self) -> float:
        elapsed = time.monotonic() - self._origin_mono
        return self._origin_wall + elapsed * self._speed

    async def sleep_until(self, when: float) -> None:
        while True:
            delay = (when - self.now()) / self._speed
            if delay <= 0:
                return
            await asyncio.sleep(delay)


class FakeClock:
    """A clock that only moves when a test says so.

    ``await clock.advance(1.5)`` moves time forward, waking every sleeper
    whose time has come, in time order, and lets the event loop settle after
    each wake so the woken code runs before the next one.
    """

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self._now = start
        self._sleepers: list[tuple[float, int, asyncio.Future[None]]] = []
        self._counter = itertools.count()
        # (earliest wake time, future) of each :meth:`sleeper` call still waiting
        self._watchers: list[tuple[float, asyncio.Future[None]]] = []

    def now(self) -> float:
        return self._now

    async def sleep_until(self, when: float) -> None:
        if when <= self._now:
            await asyncio.sleep(0)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        heapq.heappush(self._sleepers, (when, next(self._counter), future))
        self._tell_watchers()
        await future

    async def sleeper(self, at_least: float) -> None:
        """Return once some task sleeps on this clock until ``at_least`` or later.

        A test waits with it for a background job to finish its work and go back to
        sleep (work that may wait on real threads, such as database calls, which
        :meth:`settle` cannot see), instead of polling for the job's effects.
        """
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._watchers.append((at_least, future))
        self._tell_watchers()
        try:
            await future
        finally:
            self._watchers = [(t, f) for t, f in self._watchers if f is not future]

    def _tell_watchers(self) -> None:
        if not self._watchers:
            return
        self._drop_cancelled()
        latest = max((when for when, _, future in self._sleepers if not future.done()), default=None)
        if latest is None:
            return
        for at_least, future in self._watchers:
            if latest >= at_least and not future.done():
                future.set_result(None)

    @property
    def next_wake(self) -> float | None:
        """The earliest pending sleeper's wake time."""
        self._drop_cancelled()
        return self._sleepers[0][0] if self._sleepers else None

    async def settle(self) -> None:
        """Let ready tasks run until nothing more is runnable right now."""
        for _ in range(50):
            await asyncio.sleep(0)

    async def advance(self, seconds: float) -> None:
        """Move time forward by ``seconds``, waking sleepers in order."""
        await self.advance_to(self._now + seconds)

    async def advance_to(self, when: float) -> None:
        """Move time forward to ``when``, waking sleepers in order."""
        await self.settle()
        while True:
            self._drop_cancelled()
            if not self._sleepers or self._sleepers[0][0] > when:
                break
            wake, _, future = heapq.heappop(self._sleepers)
            self._now = max(self._now, wake)
            if not future.done():
                future.set_result(None)
            await self.settle()
        self._now = max(self._now, when)
        await self.settle()

    def _drop_cancelled(self) -> None:
        while self._sleepers and self._sleepers[0][2].done():
            heapq.heappop(self._sleepers)
