"""Who runs what: chat claims, game leases and fencing, and the processes sharing the database.

A chat's active game or lobby (``active_games``) is held by one process under a
:class:`~storage.records.Lease`; every write of the game carries it and is refused
(:class:`~storage.errors.Fenced`) once another process has taken the game. Leases run on
the database's clock, never a process's own. docs/STORAGE.md, "Leases and fencing".
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

from storage.database import Database, Row, Tx
from storage.errors import Fenced
from storage.gamelog import seat_pattern
from storage.records import ChatOwner, Lease

#: Seconds a lease lasts unless its owner renews it (owners renew every third of that).
LEASE_TTL = 15.0
#: Seconds a fresh claim on a chat holds before its lobby is recorded (see lease_chat).
CLAIM_FRESH = 30.0
#: Channel on which a starting process makes itself known to the others at once.
INSTANCES_CHANNEL = "moji_instances"

_CLAIM_CHAT = (
    "INSERT INTO active_games (platform, workspace_id, channel_id, thread_key, game_id, claimed_at, "
    "owner, epoch, lease_until) VALUES (?, ?, ?, ?, ?, ?, ?, 1, {now} + ?) "
    "ON CONFLICT (platform, workspace_id, channel_id, thread_key) DO UPDATE "
    "SET game_id = excluded.game_id, claimed_at = excluded.claimed_at, owner = excluded.owner, "
    "epoch = active_games.epoch + 1, lease_until = excluded.lease_until, table_ref = NULL "
    "WHERE active_games.game_id = excluded.game_id OR ("
    "NOT EXISTS (SELECT 1 FROM games g WHERE g.game_id = active_games.game_id AND g.status = 'running') "
    "AND NOT EXISTS (SELECT 1 FROM open_lobbies l WHERE l.game_id = active_games.game_id) "
    "AND (EXISTS (SELECT 1 FROM games e WHERE e.game_id = active_games.game_id AND e.status <> 'running') "
    "OR active_games.claimed_at < ?))"
)
#: Active games and open lobbies with their owners (callers add conditions after the WHERE).
_OWNERS = (
    "SELECT a.platform, a.workspace_id, a.channel_id, a.thread_key, a.game_id, a.owner, a.epoch, "
    "CASE WHEN a.lease_until >= {now} THEN 1 ELSE 0 END, a.table_ref, g.game, g.options, g.seed "
    "FROM active_games a LEFT JOIN games g ON g.game_id = a.game_id AND g.status = 'running' "
    "WHERE (EXISTS (SELECT 1 FROM games g WHERE g.game_id = a.game_id AND g.status = 'running') "
    "OR EXISTS (SELECT 1 FROM open_lobbies l WHERE l.game_id = a.game_id))"
)
_WORKSPACE_OWNER = (
    _OWNERS + " AND a.platform = ? AND a.workspace_id = ? AND a.lease_until >= {now} "
    "ORDER BY a.claimed_at DESC LIMIT 1"
)
_CHAT_OWNER = _OWNERS + " AND a.platform = ? AND a.workspace_id = ? AND a.channel_id = ? AND a.thread_key = ?"
_ORPHANS = _OWNERS + " AND a.platform = ? AND a.lease_until < {now} ORDER BY a.claimed_at"
_FENCE = "UPDATE active_games SET lease_until = {now} + ? WHERE game_id = ? AND owner = ? AND epoch = ?"
_ADOPT = (
    "UPDATE active_games SET owner = ?, epoch = epoch + 1, lease_until = {now} + ? "
    "WHERE game_id = ? AND (owner = ? OR lease_until < {now}) RETURNING epoch"
)
_RENEW = (
    "UPDATE active_games SET lease_until = {now} + ? WHERE owner = ? AND game_id IN ({marks}) "
    "RETURNING game_id, epoch"
)
_ALIVE = "UPDATE games SET alive_at = ? WHERE status = 'running' AND game_id IN ({marks})"
_JOIN_INSTANCES = (
    "INSERT INTO instances (instance_id, started_at, seen_until) VALUES (?, {now}, {now} + ?) "
    "ON CONFLICT (instance_id) DO UPDATE SET seen_until = excluded.seen_until"
)
_LIVE_INSTANCES = "SELECT instance_id FROM instances WHERE seen_until >= {now} ORDER BY instance_id"
# (a row made here is not yet alive, seen_until 0: the process's router says so when it starts)
_SET_INSTANCE_WEB = (
    "INSERT INTO instances (instance_id, started_at, seen_until, web_url, web_key) "
    "VALUES (?, {now}, 0, ?, ?) "
    "ON CONFLICT (instance_id) DO UPDATE SET web_url = excluded.web_url, web_key = excluded.web_key"
)
_INSTANCE_WEB = (
    "SELECT web_url, web_key FROM instances WHERE instance_id = ? AND seen_until >= {now} AND web_url <> ''"
)


def _owner(row: Row) -> ChatOwner:
    return ChatOwner(
        platform=row[0],
        workspace_id=row[1],
        channel_id=row[2],
        thread_id=row[3] or None,
        game_id=row[4],
        owner=row[5],
        epoch=int(row[6]),
        live=bool(row[7]),
        table_ref=row[8],
        game=row[9] or "",
        options=json.loads(row[10]) if row[10] else {},
        seed=int(row[11]) if row[11] else 0,
    )


def _chunks(items: Sequence[str], size: int = 400) -> list[Sequence[str]]:
    return [items[i : i + size] for i in range(0, len(items), size)]


@runtime_checkable
class LeaseStore(Protocol):
    """Claims on chats, leases on games, and the live processes."""

    async def claim_chat(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        thread_id: str | None,
        game_id: str,
        at: float,
        owner: str = "",
    ) -> str | None:
        """Claim a chat for a new game: None when claimed, else the id of the active game holding it."""
        ...

    async def lease_chat(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        thread_id: str | None,
        game_id: str,
        at: float,
        owner: str,
    ) -> Lease | str:
        """Claim a chat for a new game run by ``owner``: its lease, else the id of the game holding it."""
        ...

    async def adopt_game(self, game_id: str, owner: str) -> Lease | None:
        """Take over an active game or lobby whose lease lapsed (or is ``owner``'s): its new lease,
        or None while another process's lease is alive."""
        ...

    async def renew_leases(self, leases: Sequence[Lease], at: float) -> list[str]:
        """Renew one owner's leases (and record its running games alive at ``at``); the games
        another process has taken."""
        ...

    async def release_leases(self, leases: Sequence[Lease]) -> None:
        """Let another process adopt these games at once (a graceful stop)."""
        ...

    async def chat_owner(
        self, platform: str, workspace_id: str, channel_id: str, thread_id: str | None
    ) -> ChatOwner | None:
        """Who runs the chat's active game or open lobby (None: the chat is free)."""
        ...

    async def orphaned_games(self, platform: str) -> list[ChatOwner]:
        """Active games and lobbies on ``platform`` whose owner's lease has lapsed."""
        ...

    async def player_games(
        self, platform: str, workspace_id: str, seat_id: str
    ) -> list[tuple[str, str | None]]:
        """The chats (channel, thread) of the running games in a workspace where ``seat_id`` plays."""
        ...

    async def workspace_owner(self, platform: str, workspace_id: str) -> str | None:
        """A live process running a game or lobby in the workspace, if any."""
        ...

    async def record_table(self, game_id: str, message_id: str) -> None:
        """The game's live table is now message ``message_id``."""
        ...

    async def join_instances(self, instance_id: str, announce: bool = False) -> None:
        """Process ``instance_id`` is alive (said every few seconds; ``announce``: it is starting,
        tell the others at once)."""
        ...

    async def leave_instances(self, instance_id: str) -> None:
        """Process ``instance_id`` stops."""
        ...

    async def live_instances(self) -> list[str]:
        """Every process whose last word is fresh."""
        ...

    async def set_instance_web(self, instance_id: str, url: str, key: str) -> None:
        """Process ``instance_id`` serves pages at ``url`` (its internal address) and signs what
        others proxy to it with ``key``."""
        ...

    async def instance_web(self, instance_id: str) -> tuple[str, str] | None:
        """A live process's internal address for pages and its key (None: dead, or no pages)."""
        ...


class SQLLeases:
    """:class:`LeaseStore` in SQL; :meth:`fence` guards every write of a game."""

    def __init__(self, db: Database) -> None:
        self.db = db
        #: Seconds a game's lease lasts unless renewed (see :class:`~storage.records.Lease`).
        self.ttl = LEASE_TTL

    async def fence(self, tx: Tx, lease: Lease | None) -> None:
        """Refuse the write unless ``lease`` still holds its game (and renew it).

        None, or epoch 0 (a game no chat claim names: nobody else can hold it), is not checked.
        """
        if lease is None or lease.epoch == 0:
            return
        changed = await tx.execute(
            self.db.sql(_FENCE),
            (self.ttl, lease.game_id, lease.owner, int(lease.epoch)),
        )
        if not changed:
            raise Fenced(f"game {lease.game_id} is now run by another process")

    async def claim_chat(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        thread_id: str | None,
        game_id: str,
        at: float,
        owner: str = "",
    ) -> str | None:
        """Claim a chat for a new game; None when claimed, else the id of the game that holds it."""
        claimed = await self.lease_chat(platform, workspace_id, channel_id, thread_id, game_id, at, owner)
        return claimed if isinstance(claimed, str) else None

    async def lease_chat(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        thread_id: str | None,
        game_id: str,
        at: float,
        owner: str,
    ) -> Lease | str:
        """Claim a chat for a new game run by ``owner``: its :class:`Lease`, else the id of the
        game that holds the chat.

        A claim holds while its game runs or its lobby is open, and for ``CLAIM_FRESH`` seconds
        after it was made (its lobby is recorded just after). One transaction, so two
        processes starting a game in one chat at once end with one.
        """
        key = (platform, workspace_id, channel_id, thread_id or "")
        sql = self.db.sql(_CLAIM_CHAT)
        async with self.db.write() as tx:
            await tx.execute(sql, (*key, game_id, float(at), owner, self.ttl, float(at) - CLAIM_FRESH))
            rows = await tx.fetch(
                "SELECT game_id, owner, epoch FROM active_games "
                "WHERE platform = ? AND workspace_id = ? AND channel_id = ? AND thread_key = ?",
                key,
            )
        if not rows or str(rows[0][0]) != game_id:
            return str(rows[0][0]) if rows else game_id
        return Lease(game_id, str(rows[0][1]), int(rows[0][2]))

    async def adopt_game(self, game_id: str, owner: str) -> Lease | None:
        """Take over an active game or lobby whose lease has lapsed (or is already ``owner``'s).

        One conditional UPDATE: of several processes adopting at once, exactly one gets the
        new epoch. None when another process's lease is alive. A game no chat claim names
        (its chat has had a newer game since) gets a lease of epoch 0, which nothing fences.
        """
        async with self.db.write() as tx:
            rows = await tx.fetch(self.db.sql(_ADOPT), (owner, self.ttl, game_id, owner))
            if not rows:
                held = await tx.fetch("SELECT 1 FROM active_games WHERE game_id = ?", (game_id,))
                return None if held else Lease(game_id, owner, 0)
        return Lease(game_id, owner, int(rows[0][0]))

    async def renew_leases(self, leases: Sequence[Lease], at: float) -> list[str]:
        """Renew ``leases`` (one owner's) and record their running games alive at ``at``.

        Returns the games whose lease is no longer this owner's (another process took them):
        their owner must drop them at once.
        """
        if not leases:
            return []
        owner = leases[0].owner
        held: set[tuple[str, int]] = set()
        async with self.db.write() as tx:
            for chunk in _chunks([lease.game_id for lease in leases]):
                marks = ", ".join("?" for _ in chunk)
                rows = await tx.fetch(self.db.sql(_RENEW, marks=marks), (self.ttl, owner, *chunk))
                held |= {(str(r[0]), int(r[1])) for r in rows}
                await tx.execute(self.db.sql(_ALIVE, marks=marks), (float(at), *chunk))
        return [lease.game_id for lease in leases if (lease.game_id, lease.epoch) not in held]

    async def release_leases(self, leases: Sequence[Lease]) -> None:
        """Let another process adopt these games at once (a graceful stop)."""
        if not leases:
            return
        async with self.db.write() as tx:
            await tx.executemany(
                "UPDATE active_games SET lease_until = 0 WHERE game_id = ? AND owner = ? AND epoch = ?",
                [(lease.game_id, lease.owner, int(lease.epoch)) for lease in leases],
            )

    async def chat_owner(
        self, platform: str, workspace_id: str, channel_id: str, thread_id: str | None
    ) -> ChatOwner | None:
        """Who runs the chat's active game or open lobby (None: nobody, the chat is free)."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                self.db.sql(_CHAT_OWNER), (platform, workspace_id, channel_id, thread_id or "")
            )
        return _owner(rows[0]) if rows else None

    async def orphaned_games(self, platform: str) -> list[ChatOwner]:
        """The active games and lobbies on ``platform`` whose owner's lease has lapsed."""
        async with self.db.read() as tx:
            rows = await tx.fetch(self.db.sql(_ORPHANS), (platform,))
        return [_owner(row) for row in rows]

    async def player_games(
        self, platform: str, workspace_id: str, seat_id: str
    ) -> list[tuple[str, str | None]]:
        """The chats (channel, thread) of the running games in a workspace where ``seat_id`` has a
        seat, newest first."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT channel_id, thread_id FROM games WHERE status = 'running' AND platform = ? "
                "AND workspace_id = ? AND seats LIKE ? ESCAPE '\\' ORDER BY started_at DESC",
                (platform, workspace_id, seat_pattern(seat_id)),
            )
        return [(str(row[0]), row[1]) for row in rows]

    async def workspace_owner(self, platform: str, workspace_id: str) -> str | None:
        """A live process that runs a game or lobby in the workspace (the latest claimed), if any."""
        async with self.db.read() as tx:
            rows = await tx.fetch(self.db.sql(_WORKSPACE_OWNER), (platform, workspace_id))
        return _owner(rows[0]).owner if rows else None

    async def record_table(self, game_id: str, message_id: str) -> None:
        """The game's live table is now message ``message_id``."""
        async with self.db.write() as tx:
            await tx.execute("UPDATE active_games SET table_ref = ? WHERE game_id = ?", (message_id, game_id))

    async def join_instances(self, instance_id: str, announce: bool = False) -> None:
        """Say that process ``instance_id`` is alive (again now: every few seconds); ``announce``
        (a process starting) also wakes the others listening on :data:`INSTANCES_CHANNEL`."""
        async with self.db.write() as tx:
            await tx.execute(self.db.sql(_JOIN_INSTANCES), (instance_id, self.ttl))
            if announce:
                await self.db.notify(tx, INSTANCES_CHANNEL, instance_id)

    async def leave_instances(self, instance_id: str) -> None:
        """Process ``instance_id`` stops."""
        async with self.db.write() as tx:
            await tx.execute("DELETE FROM instances WHERE instance_id = ?", (instance_id,))

    async def live_instances(self) -> list[str]:
        """Every process whose last word is fresh (itself included)."""
        async with self.db.read() as tx:
            rows = await tx.fetch(self.db.sql(_LIVE_INSTANCES))
        return [str(row[0]) for row in rows]

    async def set_instance_web(self, instance_id: str, url: str, key: str) -> None:
        """Process ``instance_id`` serves pages at ``url`` (its internal address for the other
        processes) and signs what they proxy to it with ``key`` (kept until it stops)."""
        async with self.db.write() as tx:
            await tx.execute(self.db.sql(_SET_INSTANCE_WEB), (instance_id, url, key))

    async def instance_web(self, instance_id: str) -> tuple[str, str] | None:
        """Live process ``instance_id``'s internal address for pages and its key (None: it is
        not alive, or serves no pages)."""
        async with self.db.read() as tx:
            rows = await tx.fetch(self.db.sql(_INSTANCE_WEB), (instance_id,))
        return (str(rows[0][0]), str(rows[0][1])) if rows else None
