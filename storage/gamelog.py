"""The game log: every game as it began (options, seed, seats), its ordered actions, and its end.

A game is its record plus its action log, so restart recovery replays it exactly. Every
write of a game may carry its :class:`~storage.records.Lease` and is then fenced
(:meth:`storage.leases.SQLLeases.fence`) in the same transaction. A game's end records its
results and adds its scores up (:func:`storage.scores.add_up`), exactly once.
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Protocol, runtime_checkable

from storage.database import Database, Row, Tx, like
from storage.records import GameRecord, Lease, SeatRecord, SeatScore, StoredGame
from storage.scores import add_up, check_language
from storage.workspaces import Known

Fence = Callable[[Tx, Lease | None], Awaitable[None]]

_RUNNING_GAMES = (
    "SELECT g.game_id, g.game, g.platform, g.workspace_id, g.channel_id, g.thread_id, g.options, "
    "g.seed, g.seats, g.host, g.names, g.added_words, g.banned_words, g.started_at, g.alive_at, g.language "
    "FROM games g "
    "WHERE g.status = 'running' ORDER BY g.started_at, g.game_id"
)
_RUNNING_ACTIONS = (
    "SELECT a.game_id, a.action FROM game_actions a JOIN games g ON g.game_id = a.game_id "
    "WHERE g.status = 'running' ORDER BY a.game_id, a.seq"
)
_UNANNOUNCED_GAMES = (
    "SELECT g.game_id, g.game, g.platform, g.workspace_id, g.channel_id, g.thread_id, g.options, "
    "g.seed, g.seats, g.host, g.names, g.added_words, g.banned_words, g.started_at, g.alive_at, g.language "
    "FROM games g "
    "WHERE g.status = 'finished' AND g.announced_at IS NULL ORDER BY g.started_at, g.game_id"
)
_UNANNOUNCED_ACTIONS = (
    "SELECT a.game_id, a.action FROM game_actions a JOIN games g ON g.game_id = a.game_id "
    "WHERE g.status = 'finished' AND g.announced_at IS NULL ORDER BY a.game_id, a.seq"
)
_ENDED_GAMES = (
    "SELECT g.game_id, g.game, g.platform, g.workspace_id, g.channel_id, g.thread_id, g.options, "
    "g.seed, g.seats, g.host, g.names, g.added_words, g.banned_words, g.started_at, g.alive_at, g.language "
    "FROM games g "
    "WHERE g.status <> 'running' AND g.ended_at >= ? ORDER BY g.started_at, g.game_id"
)
_ENDED_ACTIONS = (
    "SELECT a.game_id, a.action FROM game_actions a JOIN games g ON g.game_id = a.game_id "
    "WHERE g.status <> 'running' AND g.ended_at >= ? ORDER BY a.game_id, a.seq"
)


def seat_pattern(seat_id: str) -> str:
    """A LIKE pattern finding a seat in a game's ``seats`` JSON."""
    return "%" + like(json.dumps({"id": seat_id})[1:-1]) + "%"


@runtime_checkable
class GameStore(Protocol):
    """Games: their records, action logs and ends."""

    async def start_game(self, record: GameRecord, lease: Lease | None = None) -> None:
        """Record a game that has begun and forget its open lobby, in one transaction
        (idempotent by game id)."""
        ...

    async def append_action(
        self, game_id: str, seq: int, action: Mapping[str, Any], lease: Lease | None = None
    ) -> None:
        """Append action ``seq`` to a started game's log (idempotent by ``(game_id, seq)``).

        Every write of a game may carry its ``lease``: the write is refused
        (:class:`~storage.errors.Fenced`) when another process has taken the game.
        """
        ...

    async def finish_game(
        self,
        record: GameRecord,
        scores: Sequence[SeatScore],
        ended_at: float,
        summary: str = "",
        lease: Lease | None = None,
    ) -> bool:
        """Record a game's end and add its scores up, exactly once; False if it had already ended."""
        ...

    async def void_game(
        self, game_id: str, reason: str, at: float | None = None, lease: Lease | None = None
    ) -> bool:
        """Mark an unfinished game void (its scores never count); False if it had already ended."""
        ...

    async def unfinished_games(self, game_ids: Sequence[str] | None = None) -> list[StoredGame]:
        """Every game that began and has neither finished nor been voided (or those of them
        named ``game_ids``), oldest first."""
        ...

    async def unannounced_games(self) -> list[StoredGame]:
        """Every game that finished but whose result was never posted (a crash in between)."""
        ...

    async def ended_games(self, since: float) -> list[StoredGame]:
        """Every game that finished or was voided at ``since`` or later, with its action log."""
        ...

    async def keep_alive(self, game_ids: Sequence[str], at: float) -> None:
        """Record that the running games ``game_ids`` were alive at ``at``."""
        ...

    async def mark_announced(self, game_id: str, at: float) -> None:
        """Record that a finished game's result was posted in its channel."""
        ...


class SQLGames:
    """:class:`GameStore` in SQL; ``fence`` checks a write's lease inside its transaction."""

    def __init__(self, db: Database, known: Known, fence: Fence) -> None:
        self.db = db
        self.known = known
        self.fence = fence

    async def _insert_game(self, tx: Tx, record: GameRecord) -> None:
        check_language(record.language)
        seats = [{"id": s.id, "name": s.name, "bot": s.bot} for s in record.seats]
        await tx.execute(
            "INSERT INTO games (game_id, game, platform, workspace_id, channel_id, thread_id, options, seed, "
            "seats, host, names, added_words, banned_words, status, started_at, language) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'running', ?, ?) ON CONFLICT DO NOTHING",
            (
                record.game_id,
                record.game,
                record.platform,
                record.workspace_id,
                record.channel_id,
                record.thread_id,
                json.dumps(dict(record.options), sort_keys=True),
                str(record.seed),
                json.dumps(seats),
                record.host,
                json.dumps(dict(record.names), sort_keys=True),
                json.dumps(sorted(record.added_words)),
                json.dumps(sorted(record.banned_words)),
                float(record.started_at),
                record.language,
            ),
        )

    async def start_game(self, record: GameRecord, lease: Lease | None = None) -> None:
        """Record a game that has begun, and forget its open lobby (idempotent by game id)."""

        async def body(tx: Tx) -> None:
            await self.fence(tx, lease)
            await self.known.ensure_workspace(tx, record.platform, record.workspace_id)
            await self._insert_game(tx, record)
            # its lobby, if it had one, is gone in the same transaction
            await tx.execute("DELETE FROM open_lobbies WHERE game_id = ?", (record.game_id,))

        await self.db.transaction(body)
        self.known.workspace(record.platform, record.workspace_id)

    async def append_action(
        self, game_id: str, seq: int, action: Mapping[str, Any], lease: Lease | None = None
    ) -> None:
        """Append action ``seq`` to a started game's log (idempotent by ``(game_id, seq)``)."""
        text = json.dumps(dict(action), separators=(",", ":"))

        async def body(tx: Tx) -> None:
            await self.fence(tx, lease)
            await tx.execute(
                "INSERT INTO game_actions (game_id, seq, action) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, seq, text),
            )

        await self.db.transaction(body)

    async def finish_game(
        self,
        record: GameRecord,
        scores: Sequence[SeatScore],
        ended_at: float,
        summary: str = "",
        lease: Lease | None = None,
    ) -> bool:
        """Record a game's end and add its scores up: one transaction, exactly once by game id.

        See :func:`storage.scores.add_up` for what counts where. Returns False, changing
        nothing, when the game had already finished or been voided.
        """
        platform, workspace_id = record.platform, record.workspace_id
        players: list[tuple[str, str, str, float]] = []

        async def body(tx: Tx) -> bool:
            await self.fence(tx, lease)
            await self.known.ensure_workspace(tx, platform, workspace_id)
            await self._insert_game(tx, record)
            changed = await tx.execute(
                "UPDATE games SET status = 'finished', ended_at = ?, summary = ? "
                "WHERE game_id = ? AND status = 'running'",
                (float(ended_at), summary, record.game_id),
            )
            if not changed:
                return False
            players[:] = await add_up(tx, record, scores, ended_at, self.db.clock())
            return True

        if not await self.db.transaction(body):
            return False
        self.known.workspace(platform, workspace_id)
        for seat_platform, user, name, _ in players:
            self.known.name(seat_platform, user, name)
        return True

    async def void_game(
        self, game_id: str, reason: str, at: float | None = None, lease: Lease | None = None
    ) -> bool:
        """Mark an unfinished game void (its scores never count); False if it had already ended."""
        async with self.db.write() as tx:
            await self.fence(tx, lease)
            changed = await tx.execute(
                "UPDATE games SET status = 'void', void_reason = ?, ended_at = ? "
                "WHERE game_id = ? AND status = 'running'",
                (reason, float(self.db.clock() if at is None else at), game_id),
            )
        return changed > 0

    async def game_status(self, game_id: str) -> str | None:
        """``running``, ``finished`` or ``void``; None for an unknown game."""
        async with self.db.read() as tx:
            rows = await tx.fetch("SELECT status FROM games WHERE game_id = ?", (game_id,))
        return str(rows[0][0]) if rows else None

    async def unfinished_games(self, game_ids: Sequence[str] | None = None) -> list[StoredGame]:
        """Every game that began and has neither finished nor been voided (or those of them named
        ``game_ids``), oldest first."""
        if game_ids is None:
            return await self._games(_RUNNING_GAMES, _RUNNING_ACTIONS)
        if not game_ids:
            return []
        marks = ", ".join("?" for _ in game_ids)
        games, actions = (
            sql.replace(" ORDER BY", f" AND g.game_id IN ({marks}) ORDER BY")
            for sql in (_RUNNING_GAMES, _RUNNING_ACTIONS)
        )
        return await self._games(games, actions, tuple(game_ids))

    async def unannounced_games(self) -> list[StoredGame]:
        """Every game that finished but whose result was never posted (a crash in between)."""
        return await self._games(_UNANNOUNCED_GAMES, _UNANNOUNCED_ACTIONS)

    async def keep_alive(self, game_ids: Sequence[str], at: float) -> None:
        """Record that the running games ``game_ids`` were alive at ``at`` (one transaction)."""
        if not game_ids:
            return
        async with self.db.write() as tx:
            await tx.executemany(
                "UPDATE games SET alive_at = ? WHERE game_id = ? AND status = 'running'",
                [(float(at), game_id) for game_id in game_ids],
            )

    async def ended_games(self, since: float) -> list[StoredGame]:
        """Every game that finished or was voided at ``since`` or later, with its action log."""
        return await self._games(_ENDED_GAMES, _ENDED_ACTIONS, (float(since),))

    async def mark_announced(self, game_id: str, at: float) -> None:
        """Record that a finished game's result was posted in its channel."""
        async with self.db.write() as tx:
            await tx.execute(
                "UPDATE games SET announced_at = ? WHERE game_id = ? AND announced_at IS NULL",
                (float(at), game_id),
            )

    async def _games(self, games_sql: str, actions_sql: str, args: tuple[Any, ...] = ()) -> list[StoredGame]:
        """The games one of the fixed queries above selects, with their action logs, oldest first."""
        async with self.db.read() as tx:
            games = await tx.fetch(games_sql, args)
            actions = await tx.fetch(actions_sql, args)
        return stored_games(games, actions)


#: The columns of ``games`` that :func:`stored_games` reads, in its order (``g`` is ``games``).
GAME_COLUMNS = (
    "g.game_id, g.game, g.platform, g.workspace_id, g.channel_id, g.thread_id, g.options, "
    "g.seed, g.seats, g.host, g.names, g.added_words, g.banned_words, g.started_at, g.alive_at, g.language"
)


def stored_games(games: Sequence[Row], actions: Sequence[Row]) -> list[StoredGame]:
    """Games read as :data:`GAME_COLUMNS` with their logs' (game id, action JSON) rows, in order."""
    logs: dict[str, list[Mapping[str, Any]]] = {}
    for game_id, text in actions:
        logs.setdefault(game_id, []).append(json.loads(text))
    out: list[StoredGame] = []
    for row in games:
        seats = tuple(SeatRecord(s["id"], s["name"], s.get("bot")) for s in json.loads(row[8]))
        record = GameRecord(
            game_id=row[0],
            game=row[1],
            platform=row[2],
            workspace_id=row[3],
            channel_id=row[4],
            thread_id=row[5],
            options=json.loads(row[6]),
            seed=int(row[7]),
            seats=seats,
            started_at=float(row[13]),
            host=row[9],
            names=json.loads(row[10]),
            added_words=frozenset(json.loads(row[11])),
            banned_words=frozenset(json.loads(row[12])),
            language=row[15],
        )
        alive_at = None if row[14] is None else float(row[14])
        out.append(StoredGame(record, tuple(logs.get(record.game_id, ())), alive_at))
    return out
