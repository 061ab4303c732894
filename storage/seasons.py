"""A workspace's seasons: the current one, and the archived ones whose leaderboards stay readable."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol, runtime_checkable

from storage.database import Database
from storage.records import Season
from storage.workspaces import Known


@runtime_checkable
class SeasonStore(Protocol):
    """Seasons of a workspace."""

    async def reset_season(self, platform: str, workspace_id: str, now: datetime) -> Season:
        """Archive the current season and start the next one; returns the new season."""
        ...

    async def seasons(self, platform: str, workspace_id: str) -> list[Season]:
        """Every season of the workspace, oldest first (the last one is current)."""
        ...


class SQLSeasons:
    """:class:`SeasonStore` in SQL."""

    def __init__(self, db: Database, known: Known) -> None:
        self.db = db
        self.known = known

    async def reset_season(self, platform: str, workspace_id: str, now: datetime) -> Season:
        """Archive the current season (its scores stay queryable) and start the next one."""
        at = now.timestamp()
        async with self.db.write() as tx:
            await self.known.ensure_workspace(tx, platform, workspace_id)
            rows = await tx.fetch(
                "SELECT season FROM workspaces WHERE platform = ? AND workspace_id = ?",
                (platform, workspace_id),
            )
            current = int(rows[0][0])
            await tx.execute(
                "UPDATE seasons SET ended_at = ? WHERE platform = ? AND workspace_id = ? AND season = ?",
                (at, platform, workspace_id, current),
            )
            await tx.execute(
                "UPDATE workspaces SET season = ?, season_started_at = ? "
                "WHERE platform = ? AND workspace_id = ? AND season = ?",
                (current + 1, at, platform, workspace_id, current),
            )
            await tx.execute(
                "INSERT INTO seasons (platform, workspace_id, season, started_at) VALUES (?, ?, ?, ?)",
                (platform, workspace_id, current + 1, at),
            )
        self.known.workspace(platform, workspace_id)
        return Season(current + 1, at)

    async def seasons(self, platform: str, workspace_id: str) -> list[Season]:
        """Every season of the workspace, oldest first (the last one is current)."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT season, started_at, ended_at FROM seasons "
                "WHERE platform = ? AND workspace_id = ? ORDER BY season",
                (platform, workspace_id),
            )
        return [Season(int(r[0]), float(r[1]), None if r[2] is None else float(r[2])) for r in rows]
