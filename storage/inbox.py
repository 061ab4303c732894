"""Events forwarded between processes: an event reaching a process that does not run its chat's
game is queued here for the one that does (woken by a notification where the database has them)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Protocol, runtime_checkable

from storage.database import Database
from storage.records import InboxItem

#: Handled inbox rows are kept this long (s), to recognise a platform's late redelivery.
INBOX_KEEP = 900.0
#: Channel on which a forwarded event wakes the processes (PostgreSQL LISTEN/NOTIFY).
INBOX_CHANNEL = "moji_inbox"

#: An event belongs to the process running its chat's active game, else to its target.
_INBOX = (
    "SELECT i.id, i.platform, i.workspace_id, i.channel_id, i.thread_key, i.payload FROM inbox i "
    "WHERE i.handled_at IS NULL AND COALESCE(("
    "SELECT a.owner FROM active_games a WHERE a.platform = i.platform "
    "AND a.workspace_id = i.workspace_id AND a.channel_id = i.channel_id AND a.thread_key = i.thread_key "
    "AND (EXISTS (SELECT 1 FROM games g WHERE g.game_id = a.game_id AND g.status = 'running') "
    "OR EXISTS (SELECT 1 FROM open_lobbies l WHERE l.game_id = a.game_id))"
    "), i.target) = ? ORDER BY i.id LIMIT ?"
)


@runtime_checkable
class InboxStore(Protocol):
    """Events forwarded to the process that runs their chat."""

    async def forward_event(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        thread_id: str | None,
        event_key: str,
        payload: Mapping[str, Any],
        at: float,
        target: str = "",
    ) -> bool:
        """Queue an event for process ``target`` (once it is gone: whichever runs the chat); False
        for a repeat of ``event_key``."""
        ...

    async def inbox(self, owner: str, limit: int = 500) -> list[InboxItem]:
        """Unhandled events forwarded to ``owner`` (or to a process that is gone, for a chat
        ``owner`` runs now), oldest first."""
        ...

    async def take_inbox(self, item_id: int, at: float) -> bool:
        """Mark a forwarded event handled: True for exactly one caller."""
        ...

    async def listen(self, channel: str, callback: Callable[[str], None]) -> bool:
        """Call ``callback`` on each notification of ``channel``; False where unsupported (poll)."""
        ...


class SQLInbox:
    """:class:`InboxStore` in SQL (:meth:`listen` is the database's own)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.listen = db.listen

    async def forward_event(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        thread_id: str | None,
        event_key: str,
        payload: Mapping[str, Any],
        at: float,
        target: str = "",
    ) -> bool:
        """Queue an event for process ``target`` (or, once it is gone, whichever runs the chat);
        False for a repeat of ``event_key``."""
        text = json.dumps(dict(payload), separators=(",", ":"))
        async with self.db.write() as tx:
            changed = await tx.execute(
                "INSERT INTO inbox (target, platform, workspace_id, channel_id, thread_key, event_key, "
                "payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (target, platform, workspace_id, channel_id, thread_id or "", event_key, text, float(at)),
            )
            if changed:
                await self.db.notify(tx, INBOX_CHANNEL, platform)
        return changed > 0

    async def inbox(self, owner: str, limit: int = 500) -> list[InboxItem]:
        """Unhandled events for ``owner``: those of the chats whose game or lobby it runs (even
        when sent to another process: the game changed hands since), and those sent to it for a
        chat without one (a ``start``); oldest first."""
        async with self.db.read() as tx:
            rows = await tx.fetch(self.db.sql(_INBOX), (owner, int(limit)))
        return [InboxItem(int(r[0]), r[1], r[2], r[3], r[4] or None, json.loads(r[5])) for r in rows]

    async def take_inbox(self, item_id: int, at: float) -> bool:
        """Mark a forwarded event handled: True for exactly one caller."""
        async with self.db.write() as tx:
            changed = await tx.execute(
                "UPDATE inbox SET handled_at = ? WHERE id = ? AND handled_at IS NULL",
                (float(at), int(item_id)),
            )
            # (an event nobody took in that long belonged to a game that ended without its owner)
            await tx.execute("DELETE FROM inbox WHERE created_at < ?", (float(at) - INBOX_KEEP,))
        return changed > 0
