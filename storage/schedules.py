"""Word breaks: recurring games scheduled in a channel, each run claimed by exactly one process."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any, Protocol, cast, runtime_checkable

from storage.database import Database
from storage.records import Schedule, ScheduleT
from storage.workspaces import Known


@runtime_checkable
class ScheduleStore(Protocol):
    """Word-break schedules."""

    async def add_schedule(self, schedule: ScheduleT) -> ScheduleT:
        """Save a new schedule (its ``id`` is ignored); returns a copy with its id."""
        ...

    async def list_schedules(self, platform: str, workspace_id: str | None = None) -> list[Schedule]:
        """Every schedule on ``platform`` (optionally of one workspace), oldest first."""
        ...

    async def remove_schedule(self, platform: str, workspace_id: str, schedule_id: int) -> bool:
        """Delete a workspace's schedule; False when it has no such schedule."""
        ...

    async def claim_schedule_run(self, schedule_id: int, run_at: float) -> bool:
        """Atomically claim the run of a schedule at ``run_at``: True for exactly one caller."""
        ...


class SQLSchedules:
    """:class:`ScheduleStore` in SQL."""

    def __init__(self, db: Database, known: Known) -> None:
        self.db = db
        self.known = known

    async def add_schedule(self, schedule: ScheduleT) -> ScheduleT:
        """Save a new schedule (its ``id`` is ignored); returns a copy with its new id."""
        async with self.db.write() as tx:
            await self.known.ensure_workspace(tx, schedule.platform, schedule.workspace_id)
            rows = await tx.fetch(
                "INSERT INTO schedules (platform, workspace_id, channel_id, days, at, args, mention, "
                "created_by, created_by_name, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (
                    schedule.platform,
                    schedule.workspace_id,
                    schedule.channel_id,
                    ",".join(str(int(day)) for day in schedule.days),
                    schedule.at,
                    json.dumps(list(schedule.args)),
                    schedule.mention,
                    schedule.created_by,
                    schedule.created_by_name,
                    self.db.clock(),
                ),
            )
        self.known.workspace(schedule.platform, schedule.workspace_id)
        return cast(ScheduleT, replace(cast(Any, schedule), id=int(rows[0][0])))

    async def list_schedules(self, platform: str, workspace_id: str | None = None) -> list[Schedule]:
        """Every schedule on ``platform`` (optionally of one workspace), oldest first."""
        sql = (
            "SELECT id, workspace_id, channel_id, days, at, args, mention, created_by, created_by_name, "
            "platform, last_run_at FROM schedules WHERE platform = ?"
        )
        args: tuple[Any, ...] = (platform,)
        if workspace_id is not None:
            sql += " AND workspace_id = ?"
            args += (workspace_id,)
        async with self.db.read() as tx:
            rows = await tx.fetch(sql + " ORDER BY id", args)
        return [
            Schedule(
                id=int(r[0]),
                workspace_id=r[1],
                channel_id=r[2],
                days=tuple(int(d) for d in r[3].split(",") if d),
                at=r[4],
                args=tuple(json.loads(r[5])),
                mention=r[6],
                created_by=r[7],
                created_by_name=r[8],
                platform=r[9],
                last_run_at=None if r[10] is None else float(r[10]),
            )
            for r in rows
        ]

    async def remove_schedule(self, platform: str, workspace_id: str, schedule_id: int) -> bool:
        """Delete a workspace's schedule; False when it has no such schedule."""
        async with self.db.write() as tx:
            changed = await tx.execute(
                "DELETE FROM schedules WHERE id = ? AND platform = ? AND workspace_id = ?",
                (int(schedule_id), platform, workspace_id),
            )
        return changed > 0

    async def claim_schedule_run(self, schedule_id: int, run_at: float) -> bool:
        """Claim the run at ``run_at``: one conditional UPDATE, so exactly one caller (of any process) wins.

        A run is claimed once; a run earlier than the last one claimed is refused too.
        """
        async with self.db.write() as tx:
            changed = await tx.execute(
                "UPDATE schedules SET last_run_at = ? "
                "WHERE id = ? AND (last_run_at IS NULL OR last_run_at < ?)",
                (float(run_at), int(schedule_id), float(run_at)),
            )
        return changed == 1
