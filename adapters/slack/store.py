"""What the Slack adapter keeps: scheduled word breaks, OAuth installations and used OAuth states.

:class:`SlackStore` is the small protocol the adapter codes against.
:func:`slack_store` adapts the project's database (``storage``) when it offers
these methods and otherwise falls back to :class:`MemorySlackStore` (kept in
memory only: schedules and installations are then lost on restart, which is
logged loudly).
"""

from __future__ import annotations

import asyncio
import itertools
import logging
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from storage.base import Schedule

log = logging.getLogger(__name__)

PLATFORM = "slack"

__all__ = ["PLATFORM", "InstallKey", "MemorySlackStore", "Schedule", "SlackStore", "slack_store"]


@runtime_checkable
class SlackStore(Protocol):
    """Durable schedules and installations (one workspace or many)."""

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

    async def claim_once(self, kind: str, key: str, expires_at: float, now: float) -> bool:
        """Atomically claim ``key`` of ``kind`` until ``expires_at``: True for one caller only
        (an OAuth ``state`` is used once)."""
        ...

    async def save_installation(self, key: InstallKey, data: Mapping[str, Any]) -> None:
        """Save (or replace) an OAuth installation as a JSON-ready dict."""
        ...

    async def find_installation(self, key: InstallKey) -> dict[str, Any] | None:
        """The installation for ``key`` (user_id None: the workspace's latest), or None."""
        ...

    async def delete_installation(self, key: InstallKey) -> None:
        """Forget installations matching ``key`` (user_id None: all of the workspace's)."""
        ...


@dataclass(frozen=True, slots=True)
class InstallKey:
    """Who an installation belongs to (Enterprise Grid org, workspace, installing user)."""

    enterprise_id: str | None
    team_id: str | None
    user_id: str | None = None


@dataclass
class MemorySlackStore:
    """An in-memory :class:`SlackStore` (tests, and runs without database support)."""

    schedules: dict[int, Schedule] = field(default_factory=dict)
    claimed: set[tuple[int, float]] = field(default_factory=set)
    installations: dict[InstallKey, dict[str, Any]] = field(default_factory=dict)
    #: (kind, key) → when the claim expires.
    once: dict[tuple[str, str], float] = field(default_factory=dict)
    _ids: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def add_schedule(self, schedule: Schedule) -> Schedule:
        saved = replace(schedule, id=next(self._ids))
        self.schedules[saved.id] = saved
        return saved

    async def list_schedules(self, platform: str, workspace_id: str | None = None) -> list[Schedule]:
        return [
            s
            for s in sorted(self.schedules.values(), key=lambda s: s.id)
            if s.platform == platform and (workspace_id is None or s.workspace_id == workspace_id)
        ]

    async def remove_schedule(self, platform: str, workspace_id: str, schedule_id: int) -> bool:
        found = self.schedules.get(schedule_id)
        if found is None or found.platform != platform or found.workspace_id != workspace_id:
            return False
        del self.schedules[schedule_id]
        return True

    async def claim_schedule_run(self, schedule_id: int, run_at: float) -> bool:
        async with self._lock:
            if (schedule_id, run_at) in self.claimed:
                return False
            self.claimed.add((schedule_id, run_at))
            return True

    async def claim_once(self, kind: str, key: str, expires_at: float, now: float) -> bool:
        self.once = {claim: until for claim, until in self.once.items() if until >= now}
        if (kind, key) in self.once:
            return False
        self.once[kind, key] = expires_at
        return True

    async def save_installation(self, key: InstallKey, data: Mapping[str, Any]) -> None:
        self.installations[key] = dict(data)
        if key.user_id is not None:
            self.installations[replace(key, user_id=None)] = dict(data)

    async def find_installation(self, key: InstallKey) -> dict[str, Any] | None:
        found = self.installations.get(key)
        return dict(found) if found is not None else None

    async def delete_installation(self, key: InstallKey) -> None:
        for stored in list(self.installations):
            same_team = (stored.enterprise_id, stored.team_id) == (key.enterprise_id, key.team_id)
            if same_team and (key.user_id is None or stored.user_id == key.user_id):
                del self.installations[stored]


_METHODS: Sequence[str] = (
    "add_schedule",
    "list_schedules",
    "remove_schedule",
    "claim_schedule_run",
    "claim_once",
    "save_installation",
    "find_installation",
    "delete_installation",
)


def slack_store(store: object) -> SlackStore:
    """The project's store when it supports schedules and installations, else memory."""
    if store is not None and all(callable(getattr(store, name, None)) for name in _METHODS):
        return store  # type: ignore[return-value]
    log.warning(
        "the database has no Slack schedule/installation tables yet: word breaks and OAuth "
        "installations are kept in memory and lost on restart"
    )
    return MemorySlackStore()
