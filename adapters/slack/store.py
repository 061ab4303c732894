"""What the Slack adapter keeps: scheduled word breaks, OAuth installations, used OAuth states and
the card pictures it uploaded (:mod:`adapters.slack.cardfiles`).

:class:`SlackStore` is the small protocol the adapter codes against. Word breaks and used
states are roles of the project's store (``storage``); the installations are the adapter's
own: :class:`SQLInstallations` keeps them in the ``slack_installations`` table (created by
storage's migrations) on the store's :class:`~storage.database.Database` primitive, both
backends, and is the store's :class:`~storage.privacy.Eraser` for that table, so ``forget-me``
and ``purge`` reach it. :func:`slack_store` puts the two together over the project's store,
and otherwise falls back to :class:`MemorySlackStore` (kept in memory only: schedules and
installations are then lost on restart, which is logged loudly).
"""

from __future__ import annotations

import asyncio
import itertools
import json
import logging
import secrets
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable

from adapters.slack.cardfiles import CardFileStore, MemoryCardFiles, SQLCardFiles
from storage.base import Schedule, ScheduleStore
from storage.database import Database, Tx
from storage.once import OnceStore
from storage.sqlstore import SQLStore

log = logging.getLogger(__name__)

PLATFORM = "slack"

__all__ = [
    "PLATFORM",
    "DatabaseSlackStore",
    "InstallKey",
    "InstallationStore",
    "MemorySlackStore",
    "SQLInstallations",
    "Schedule",
    "SlackStore",
    "attach",
    "slack_store",
]


@runtime_checkable
class SlackStore(Protocol):
    """Durable schedules and installations (one workspace or many), and the card pictures uploaded."""

    @property
    def card_files(self) -> CardFileStore:
        """Each workspace's uploaded card pictures (:mod:`adapters.slack.faces`)."""
        ...

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
    card_files: MemoryCardFiles = field(default_factory=MemoryCardFiles)
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


#: What an installation's data holds about the person who installed the app, besides their id.
INSTALLER_KEYS = (
    "user_token",
    "user_refresh_token",
    "user_token_expires_at",
    "user_token_expires_in",
    "user_scopes",
)


def _key(value: str | None) -> str:
    return value or ""


class InstallationStore(Protocol):
    """OAuth installations as JSON-ready dicts, per installing user and as the workspace's latest."""

    async def save_installation(self, key: InstallKey, data: Mapping[str, Any]) -> None:
        """Save (or replace) an OAuth installation for its user and as the workspace's latest."""
        ...

    async def find_installation(self, key: InstallKey) -> dict[str, Any] | None:
        """The installation for ``key`` (user_id None: the workspace's latest), or None."""
        ...

    async def delete_installation(self, key: InstallKey) -> None:
        """Forget installations matching ``key`` (user_id None: all of the workspace's)."""
        ...


@dataclass(frozen=True)
class SQLInstallations:
    """:class:`InstallationStore` in the ``slack_installations`` table (``user_id`` '' is the
    team's latest row), and the :class:`~storage.privacy.Eraser` of that table (two on one
    database are equal: the store keeps one)."""

    db: Database

    async def save_installation(self, key: InstallKey, data: Mapping[str, Any]) -> None:
        """Save an OAuth installation for its user and as the team's latest."""
        text = json.dumps(dict(data), sort_keys=True)
        now = self.db.clock()
        users = {_key(key.user_id), ""}
        async with self.db.write() as tx:
            await tx.executemany(
                "INSERT INTO slack_installations (enterprise_id, team_id, user_id, data, installed_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (enterprise_id, team_id, user_id) DO UPDATE SET "
                "data = excluded.data, installed_at = excluded.installed_at",
                [(_key(key.enterprise_id), _key(key.team_id), user, text, now) for user in sorted(users)],
            )

    async def find_installation(self, key: InstallKey) -> dict[str, Any] | None:
        """The installation for ``key`` (user_id None: the team's latest), or None."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT data FROM slack_installations "
                "WHERE enterprise_id = ? AND team_id = ? AND user_id = ?",
                (_key(key.enterprise_id), _key(key.team_id), _key(key.user_id)),
            )
        if not rows:
            return None
        found: dict[str, Any] = json.loads(rows[0][0])
        return found

    async def delete_installation(self, key: InstallKey) -> None:
        """Forget installations matching ``key`` (user_id None: all of the team's)."""
        sql = "DELETE FROM slack_installations WHERE enterprise_id = ? AND team_id = ?"
        args: tuple[Any, ...] = (_key(key.enterprise_id), _key(key.team_id))
        if key.user_id is not None:
            sql += " AND user_id = ?"
            args += (key.user_id,)
        async with self.db.write() as tx:
            await tx.execute(sql, args)

    # ------------------------------------------------------------ forget-me and purge

    async def forget(self, tx: Tx, platform: str, workspace_id: str, user_id: str) -> None:
        """A Slack user is forgotten: their installation row goes, and the workspace's rows keep
        its bot token, not who installed it (their id becomes an anonymous one, their user token
        and its scopes go)."""
        if platform != PLATFORM:
            return
        await tx.execute(
            "DELETE FROM slack_installations WHERE team_id = ? AND user_id = ?", (workspace_id, user_id)
        )
        rows = await tx.fetch(
            "SELECT enterprise_id, user_id, data FROM slack_installations WHERE team_id = ?", (workspace_id,)
        )
        for enterprise, row_user, text in rows:
            data = json.loads(text)
            if data.get("user_id") != user_id:
                continue
            data["user_id"] = f"former:{secrets.token_hex(6)}"
            for key in INSTALLER_KEYS:
                data.pop(key, None)
            await tx.execute(
                "UPDATE slack_installations SET data = ? "
                "WHERE enterprise_id = ? AND team_id = ? AND user_id = ?",
                (json.dumps(data, sort_keys=True), enterprise, workspace_id, row_user),
            )

    async def purge(self, tx: Tx, platform: str, workspace_id: str) -> int:
        """A Slack workspace is purged: every installation of the team goes."""
        if platform != PLATFORM:
            return 0
        return await tx.execute("DELETE FROM slack_installations WHERE team_id = ?", (workspace_id,))


class DatabaseSlackStore:
    """:class:`SlackStore` on the project's database: its schedules and one-time claims, and the
    adapter's own :class:`SQLInstallations` and card files."""

    def __init__(
        self,
        store: ScheduleStore,
        once: OnceStore,
        installations: InstallationStore,
        card_files: CardFileStore | None = None,
    ) -> None:
        self.add_schedule = store.add_schedule
        self.list_schedules = store.list_schedules
        self.remove_schedule = store.remove_schedule
        self.claim_schedule_run = store.claim_schedule_run
        self.claim_once = once.claim_once
        self.installations = installations
        self.save_installation = installations.save_installation
        self.find_installation = installations.find_installation
        self.delete_installation = installations.delete_installation
        self.card_files: CardFileStore = card_files if card_files is not None else MemoryCardFiles()


def attach(store: SQLStore) -> DatabaseSlackStore:
    """The Slack adapter's store on ``store``; from now on its ``forget_player`` and
    ``purge_workspace`` reach the Slack installations and card files too (``python -m bot purge``
    calls this)."""
    installations = SQLInstallations(store)
    card_files = SQLCardFiles(store)
    store.add_eraser(installations)
    store.add_eraser(card_files)
    return DatabaseSlackStore(store, store, installations, card_files)


def slack_store(store: object) -> SlackStore:
    """The adapter's store on the project's database, else memory."""
    if isinstance(store, SQLStore):
        return attach(store)
    log.warning(
        "the database has no Slack schedule/installation tables yet: word breaks and OAuth "
        "installations are kept in memory and lost on restart"
    )
    return MemorySlackStore()
