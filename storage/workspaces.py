"""Workspaces, players' display names, and each workspace's settings and word lists.

:class:`Known` remembers the workspaces and names already written, so a known workspace or
an unchanged name costs no write; every role that writes a workspace's row shares it.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Protocol, runtime_checkable

from storage.database import Database, Tx

_MAX_CACHED = 100_000

UPSERT_PLAYER = (
    "INSERT INTO players (platform, user_id, display_name, updated_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (platform, user_id) DO UPDATE SET display_name = excluded.display_name, "
    "updated_at = excluded.updated_at WHERE players.display_name <> excluded.display_name"
)


def clean_name(name: str) -> str:
    """A display name fit to store: NUL characters dropped (they are invisible anyway)."""
    return name.replace("\x00", "")


@runtime_checkable
class WorkspaceStore(Protocol):
    """Workspaces and players, and a workspace's settings and word lists."""

    async def upsert_workspace(self, platform: str, workspace_id: str) -> None:
        """Make sure the workspace exists."""
        ...

    async def upsert_player(self, platform: str, user_id: str, display_name: str) -> None:
        """Create the player or refresh their display name."""
        ...

    async def get_settings(self, platform: str, workspace_id: str) -> Mapping[str, str]:
        """The workspace's stored settings (defaults are declared by the bot, not here)."""
        ...

    async def set_setting(self, platform: str, workspace_id: str, key: str, value: str, by_user: str) -> None:
        """Set one setting (who changed it is kept)."""
        ...

    async def word_lists(self, platform: str, workspace_id: str) -> tuple[set[str], set[str]]:
        """The workspace's (added, banned) words."""
        ...

    async def add_word(
        self, platform: str, workspace_id: str, word: str, by_user: str, now: datetime
    ) -> None:
        """Allow ``word`` in this workspace (replacing a ban)."""
        ...

    async def ban_word(
        self, platform: str, workspace_id: str, word: str, by_user: str, now: datetime
    ) -> None:
        """Ban ``word`` in this workspace (replacing an addition)."""
        ...

    async def remove_word(
        self, platform: str, workspace_id: str, word: str, by_user: str, now: datetime
    ) -> None:
        """Forget ``word``'s addition or ban: the dictionary decides again."""
        ...


class Known:
    """The workspaces and display names this process has written (a bounded cache)."""

    def __init__(self, db: Database) -> None:
        self._db = db
        self.workspaces: set[tuple[str, str]] = set()
        self.names: dict[tuple[str, str], str] = {}

    async def ensure_workspace(self, tx: Tx, platform: str, workspace_id: str) -> None:
        """Create the workspace's row and its first season inside ``tx``, unless known."""
        if (platform, workspace_id) in self.workspaces:
            return
        now = self._db.clock()
        await tx.execute(
            "INSERT INTO workspaces (platform, workspace_id, created_at, season, season_started_at) "
            "VALUES (?, ?, ?, 1, ?) ON CONFLICT DO NOTHING",
            (platform, workspace_id, now, now),
        )
        await tx.execute(
            "INSERT INTO seasons (platform, workspace_id, season, started_at) "
            "VALUES (?, ?, 1, ?) ON CONFLICT DO NOTHING",
            (platform, workspace_id, now),
        )

    def workspace(self, platform: str, workspace_id: str) -> None:
        """The workspace's row exists now (its transaction committed)."""
        if len(self.workspaces) > _MAX_CACHED:
            self.workspaces.clear()
        self.workspaces.add((platform, workspace_id))

    def name(self, platform: str, user_id: str, name: str) -> None:
        """The player's stored display name is ``name`` now."""
        if len(self.names) > _MAX_CACHED:
            self.names.clear()
        self.names[(platform, user_id)] = name


class SQLWorkspaces:
    """:class:`WorkspaceStore` in SQL."""

    def __init__(self, db: Database, known: Known) -> None:
        self.db = db
        self.known = known

    async def upsert_workspace(self, platform: str, workspace_id: str) -> None:
        """Make sure the workspace exists (cached: a known workspace costs no write)."""
        if (platform, workspace_id) in self.known.workspaces:
            return
        async with self.db.write() as tx:
            await self.known.ensure_workspace(tx, platform, workspace_id)
        self.known.workspace(platform, workspace_id)

    async def upsert_player(self, platform: str, user_id: str, display_name: str) -> None:
        """Create the player or refresh their display name (NUL characters are dropped)."""
        name = clean_name(display_name)
        if self.known.names.get((platform, user_id)) == name:
            return
        async with self.db.write() as tx:
            await tx.execute(UPSERT_PLAYER, (platform, user_id, name, self.db.clock()))
        self.known.name(platform, user_id, name)

    async def get_settings(self, platform: str, workspace_id: str) -> dict[str, str]:
        """The workspace's stored settings."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT key, value FROM workspace_settings WHERE platform = ? AND workspace_id = ?",
                (platform, workspace_id),
            )
        return {row[0]: row[1] for row in rows}

    async def set_setting(self, platform: str, workspace_id: str, key: str, value: str, by_user: str) -> None:
        """Set one setting, keeping who changed it and when."""
        async with self.db.write() as tx:
            await self.known.ensure_workspace(tx, platform, workspace_id)
            await tx.execute(
                "INSERT INTO workspace_settings (platform, workspace_id, key, value, updated_by, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform, workspace_id, key) DO UPDATE SET "
                "value = excluded.value, updated_by = excluded.updated_by, updated_at = excluded.updated_at",
                (platform, workspace_id, key, value, by_user, self.db.clock()),
            )
        self.known.workspace(platform, workspace_id)

    async def word_lists(self, platform: str, workspace_id: str) -> tuple[set[str], set[str]]:
        """The workspace's (added, banned) words."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT word, kind FROM workspace_words WHERE platform = ? AND workspace_id = ?",
                (platform, workspace_id),
            )
        added = {row[0] for row in rows if row[1] == "added"}
        banned = {row[0] for row in rows if row[1] == "banned"}
        return added, banned

    async def _set_word(
        self, platform: str, workspace_id: str, word: str, kind: str, by_user: str, now: datetime
    ) -> None:
        async with self.db.write() as tx:
            await self.known.ensure_workspace(tx, platform, workspace_id)
            await tx.execute(
                "INSERT INTO workspace_words (platform, workspace_id, word, kind, added_by, added_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform, workspace_id, word) DO UPDATE SET "
                "kind = excluded.kind, added_by = excluded.added_by, added_at = excluded.added_at",
                (platform, workspace_id, word, kind, by_user, now.timestamp()),
            )
        self.known.workspace(platform, workspace_id)

    async def add_word(
        self, platform: str, workspace_id: str, word: str, by_user: str, now: datetime
    ) -> None:
        """Allow ``word`` in this workspace (replacing a ban)."""
        await self._set_word(platform, workspace_id, word, "added", by_user, now)

    async def ban_word(
        self, platform: str, workspace_id: str, word: str, by_user: str, now: datetime
    ) -> None:
        """Ban ``word`` in this workspace (replacing an addition)."""
        await self._set_word(platform, workspace_id, word, "banned", by_user, now)

    async def remove_word(
        self, platform: str, workspace_id: str, word: str, by_user: str, now: datetime
    ) -> None:
        """Forget ``word``'s addition or ban."""
        async with self.db.write() as tx:
            await tx.execute(
                "DELETE FROM workspace_words WHERE platform = ? AND workspace_id = ? AND word = ?",
                (platform, workspace_id, word),
            )
