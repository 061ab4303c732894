"""Open lobbies: games announced but not started yet, so a restart reopens them on their message."""

from __future__ import annotations

import json
from typing import Protocol, runtime_checkable

from storage.database import Database, check_text
from storage.gamelog import Fence
from storage.records import Lease, LobbyRecord


@runtime_checkable
class LobbyStore(Protocol):
    """Lobbies not started yet."""

    async def save_lobby(self, lobby: LobbyRecord, lease: Lease | None = None) -> None:
        """Record (or update) an open lobby."""
        ...

    async def delete_lobby(self, game_id: str, lease: Lease | None = None) -> None:
        """Forget a lobby that started or closed (no error if unknown)."""
        ...

    async def open_lobbies(self) -> list[LobbyRecord]:
        """Every open lobby, oldest first."""
        ...


class SQLLobbies:
    """:class:`LobbyStore` in SQL (a lobby's writes are fenced like its game's)."""

    def __init__(self, db: Database, fence: Fence) -> None:
        self.db = db
        self.fence = fence

    async def save_lobby(self, lobby: LobbyRecord, lease: Lease | None = None) -> None:
        """Record (or update) an open lobby."""
        text = json.dumps(dict(lobby.data), sort_keys=True)
        check_text((lobby.game_id, lobby.platform, lobby.workspace_id, lobby.channel_id))
        async with self.db.write() as tx:
            await self.fence(tx, lease)
            await tx.execute(
                "INSERT INTO open_lobbies (game_id, platform, workspace_id, channel_id, thread_id, data, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (game_id) DO UPDATE SET "
                "data = excluded.data, updated_at = excluded.updated_at",
                (
                    lobby.game_id,
                    lobby.platform,
                    lobby.workspace_id,
                    lobby.channel_id,
                    lobby.thread_id,
                    text,
                    self.db.clock(),
                ),
            )

    async def delete_lobby(self, game_id: str, lease: Lease | None = None) -> None:
        """Forget a lobby that closed without starting, and its claim on its chat (no error if unknown)."""
        async with self.db.write() as tx:
            await self.fence(tx, lease)
            await tx.execute("DELETE FROM open_lobbies WHERE game_id = ?", (game_id,))
            await tx.execute("DELETE FROM active_games WHERE game_id = ?", (game_id,))

    async def open_lobbies(self) -> list[LobbyRecord]:
        """Every open lobby, oldest first."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT game_id, platform, workspace_id, channel_id, thread_id, data FROM open_lobbies "
                "ORDER BY updated_at, game_id",
                (),
            )
        return [LobbyRecord(r[0], r[1], r[2], r[3], r[4], json.loads(r[5])) for r in rows]
