"""The scheduler: every scheduled game of one platform, started on time and once.

:class:`Scheduler` reads every schedule of its platform from a :class:`ScheduleStore`
when it starts (so they survive restarts), sleeps on the injected clock until the next
run (:func:`~bot.features.schedule_spec.next_run` in the workspace's time zone), and claims each
run in the store before starting it, so two processes (or a restart a minute after a
run) never start the same game twice. What a run does is the platform's ``fire``
(:func:`~bot.features.schedule.start_scheduled`, through the adapter).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.core.clock import Clock
from bot.features.schedule_spec import next_run, zone
from storage.base import Schedule

# (the scheduled games' logger, as before they were split into modules)
log = logging.getLogger("bot.features.schedule")

#: A run missed by less than this (e.g. the bot restarted at 15:01) still starts, once.
GRACE = 300.0
#: How often the scheduler re-reads the store (breaks added or removed by other processes).
REFRESH_EVERY = 600.0

#: What a due run does (the platform starts the game): the schedule and the run's time.
Fire = Callable[[Schedule, float], Awaitable[None]]
#: A workspace's time zone (its ``timezone`` setting), by workspace id.
TimezoneOf = Callable[[str], Awaitable[str]]


class ScheduleStore(Protocol):
    """Where schedules are kept (the project's database, or memory)."""

    async def add_schedule(self, schedule: Schedule) -> Schedule:
        """Save a new schedule (its ``id`` is ignored) and return it with its id."""
        ...

    async def list_schedules(self, platform: str, workspace_id: str | None = None) -> list[Schedule]:
        """Every schedule on ``platform`` (optionally of one workspace), oldest first."""
        ...

    async def remove_schedule(self, platform: str, workspace_id: str, schedule_id: int) -> bool:
        """Delete a workspace's schedule; False when it has no such schedule."""
        ...

    async def claim_schedule_run(self, schedule_id: int, run_at: float) -> bool:
        """Atomically claim one run of a schedule: True for exactly one caller per run."""
        ...


class Scheduler:
    """Runs every scheduled game of one platform on time, once, on the injected clock."""

    def __init__(
        self,
        store: ScheduleStore,
        clock: Clock,
        timezone_of: TimezoneOf,
        fire: Fire,
        *,
        platform: str,
        mine: Callable[[Schedule], bool] = lambda schedule: True,
        grace: float = GRACE,
        refresh_every: float = REFRESH_EVERY,
    ) -> None:
        self.store = store
        self.clock = clock
        self.timezone_of = timezone_of
        self.fire = fire
        self.grace = grace
        self.refresh_every = refresh_every
        self.platform = platform
        #: Which schedules this process runs (a Discord process: its shards' servers).
        self.mine = mine
        self.schedules: dict[int, Schedule] = {}
        self.next: dict[int, float] = {}
        self._changed = asyncio.Event()

    async def _next_after(self, schedule: Schedule, after: float) -> float | None:
        return next_run(schedule, zone(await self.timezone_of(schedule.workspace_id)), after)

    async def load(self) -> None:
        """Read every schedule from the store (after a restart, too)."""
        now = self.clock.now()
        self.schedules.clear()
        self.next.clear()
        for schedule in await self.store.list_schedules(self.platform):
            await self._track(schedule, now - self.grace)
        self._changed.set()

    async def _track(self, schedule: Schedule, after: float) -> None:
        if not self.mine(schedule):
            return
        self.schedules[schedule.id] = schedule
        when = await self._next_after(schedule, after)
        if when is None:
            self.next.pop(schedule.id, None)
        else:
            self.next[schedule.id] = when

    async def add(self, schedule: Schedule) -> Schedule:
        """Save a new schedule and plan its first run."""
        saved = await self.store.add_schedule(schedule)
        await self._track(saved, self.clock.now())
        self._changed.set()
        return saved

    async def remove(self, workspace_id: str, schedule_id: int) -> bool:
        """Delete one of a workspace's schedules."""
        removed = await self.store.remove_schedule(self.platform, workspace_id, schedule_id)
        if removed:
            self.schedules.pop(schedule_id, None)
            self.next.pop(schedule_id, None)
            self._changed.set()
        return removed

    def forget_workspace(self, workspace_id: str) -> None:
        """A workspace's data was purged: its schedules are gone from the store, and from here."""
        for sid, schedule in list(self.schedules.items()):
            if schedule.workspace_id == workspace_id:
                self.schedules.pop(sid, None)
                self.next.pop(sid, None)
        self._changed.set()

    async def list(self, workspace_id: str) -> list[Schedule]:
        """A workspace's schedules, oldest first."""
        return await self.store.list_schedules(self.platform, workspace_id)

    def upcoming(self, workspace_id: str) -> tuple[Schedule, float] | None:
        """The workspace's next break and when it runs."""
        runs = [
            (when, self.schedules[sid])
            for sid, when in self.next.items()
            if sid in self.schedules and self.schedules[sid].workspace_id == workspace_id
        ]
        if not runs:
            return None
        when, schedule = min(runs, key=lambda item: (item[0], item[1].id))
        return schedule, when

    async def refresh(self) -> None:
        """Pick up schedules other processes added or removed since we last looked."""
        stored = {s.id: s for s in await self.store.list_schedules(self.platform)}
        for sid in list(self.schedules):
            if sid not in stored:
                self.schedules.pop(sid, None)
                self.next.pop(sid, None)
        now = self.clock.now()
        for sid, schedule in stored.items():
            if sid not in self.schedules:
                await self._track(schedule, now)

    async def run(self) -> None:
        """Load the schedules, then start each break when its time comes, forever."""
        await self.load()
        await self.loop()

    async def loop(self) -> None:
        """Start each break when its time comes; re-read the store every ``refresh_every`` s."""
        refresh_at = self.clock.now() + self.refresh_every
        while True:
            self._changed.clear()
            if self.clock.now() >= refresh_at:
                try:
                    await self.refresh()
                except Exception:
                    log.exception("could not re-read the word breaks")
                refresh_at = self.clock.now() + self.refresh_every
            due = min(self.next.items(), key=lambda item: (item[1], item[0])) if self.next else None
            wake = min(due[1], refresh_at) if due else refresh_at
            sleeper = asyncio.ensure_future(self.clock.sleep_until(wake))
            changed = asyncio.ensure_future(self._changed.wait())
            try:
                await asyncio.wait({sleeper, changed}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (sleeper, changed):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            if due is None:
                continue
            sid, when = due
            if self.clock.now() < when or self.next.get(sid) != when:
                continue  # not yet, or a schedule changed: plan again
            await self._due(self.schedules[sid], when)

    async def _due(self, schedule: Schedule, when: float) -> None:
        planned = await self._next_after(schedule, when - 1)
        await self._track(schedule, max(when, self.clock.now()))
        if planned != when:
            return  # the workspace's time zone changed since this run was planned
        try:
            current = await self.store.list_schedules(self.platform, schedule.workspace_id)
            if all(s.id != schedule.id for s in current):
                self.schedules.pop(schedule.id, None)  # removed by another process
                self.next.pop(schedule.id, None)
                return
            claimed = await self.store.claim_schedule_run(schedule.id, when)
        except Exception:
            log.exception("could not claim word break %s at %s", schedule.id, when)
            return
        if not claimed:
            log.info("word break %s at %s was already started elsewhere", schedule.id, when)
            return
        try:
            await self.fire(schedule, when)
        except Exception:
            log.exception("word break %s failed to start", schedule.id)
