"""The :class:`~storage.base.Store` implemented once, in portable SQL.

Backends (:mod:`storage.sqlite`, :mod:`storage.postgres`) only supply
connections and transactions (:class:`Tx`); every query lives here, written
with ``?`` placeholders (PostgreSQL's backend renumbers them ``$1, $2…``) and
always parameterised.
"""

from __future__ import annotations

import json
import secrets
import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from datetime import datetime
from typing import Any, Protocol, TypeVar, cast

from storage import migrations, periods
from storage.base import (
    ChatOwner,
    GameRecord,
    InboxItem,
    InstallKey,
    LeaderboardRow,
    Lease,
    LobbyRecord,
    PlayerStats,
    Schedule,
    ScheduleT,
    Season,
    SeatRecord,
    SeatScore,
    StoredGame,
)
from storage.errors import Fenced, StorageError

Row = Sequence[Any]
T = TypeVar("T")
Body = Callable[["Tx"], Coroutine[Any, Any, T]]

#: Every game (the ``game`` column of ``scores``).
ALL_GAMES = "*"

_MAX_CACHED = 100_000

#: Seconds a lease lasts unless its owner renews it (owners renew every third of that).
LEASE_TTL = 15.0
#: The database's clock, in epoch seconds (leases never trust a process's own clock).
_DB_NOW: dict[str, str] = {
    "sqlite": "((julianday('now') - 2440587.5) * 86400.0)",
    "postgres": "EXTRACT(EPOCH FROM clock_timestamp())::float8",
}
#: Handled inbox rows are kept this long (s), to recognise a platform's late redelivery.
INBOX_KEEP = 900.0


class Tx(Protocol):
    """A connection inside a transaction (or a read), as the shared SQL sees it."""

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each row of arguments."""
        ...

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""
        ...


def check_text(args: Sequence[Any]) -> None:
    """Refuse NUL characters, which PostgreSQL cannot store in text (SQLite follows suit)."""
    for value in args:
        if isinstance(value, str) and "\x00" in value:
            raise StorageError("text containing a NUL character cannot be stored")


def check_language(code: str) -> None:
    """Refuse a language code that cannot name one language (``en``, ``fr``…: short, ASCII letters
    and digits)."""
    if not code or len(code) > 20 or not code.isascii() or not code.isalnum():
        raise StorageError(f"{code!r} is not a language code")


def clean_name(name: str) -> str:
    """A display name fit to store: NUL characters dropped (they are invisible anyway)."""
    return name.replace("\x00", "")


def is_bot(seat_id: str, seats: Sequence[SeatRecord]) -> bool:
    """Computer players: ``bot:N`` seats, or seats with a bot level."""
    if seat_id.startswith("bot:"):
        return True
    return any(seat.id == seat_id and seat.bot is not None for seat in seats)


def split_seat(seat_id: str, default_platform: str) -> tuple[str, str]:
    """``"discord:123"`` → ``("discord", "123")`` (a bare id belongs to ``default_platform``)."""
    platform, sep, user = seat_id.partition(":")
    return (platform, user) if sep else (default_platform, seat_id)


def ranked(rows: Sequence[Row]) -> list[LeaderboardRow]:
    """Leaderboard rows (sorted by points, best first) with competition ranks: 1, 2, 2, 4."""
    out: list[LeaderboardRow] = []
    rank = 0
    previous: int | None = None
    for position, (user_id, name, points, games, wins, best) in enumerate(rows, start=1):
        if points != previous:
            rank, previous = position, points
        out.append(LeaderboardRow(rank, user_id, name, int(points), int(games), int(wins), best))
    return out


def _key(value: str | None) -> str:
    return value or ""


class SQLStore(ABC):
    """Everything but connections: subclasses provide :meth:`_write`, :meth:`_read` and the lifecycle."""

    dialect: migrations.Dialect

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        #: Wall clock for bookkeeping columns (created_at…); never for game or period logic.
        self.clock = clock
        #: Seconds a game's lease lasts unless renewed (see :class:`~storage.base.Lease`).
        self.lease_ttl = LEASE_TTL
        self._workspaces: set[tuple[str, str]] = set()
        self._names: dict[tuple[str, str], str] = {}

    # ------------------------------------------------------------ backend hooks

    @abstractmethod
    def _write(self) -> AbstractAsyncContextManager[Tx]:
        """One write transaction: committed on exit, rolled back on an exception."""

    @abstractmethod
    def _read(self) -> AbstractAsyncContextManager[Tx]:
        """A connection for reading."""

    async def _transaction(self, body: Body[T]) -> T:
        """Run ``body`` as one write transaction; a backend may run it in one round trip.

        ``body`` must only await the :class:`Tx` it is given.
        """
        async with self._write() as tx:
            return await body(tx)

    async def _lock_schema(self, tx: Tx) -> None:  # noqa: B027 - optional hook
        """Keep two processes from migrating at once (PostgreSQL takes a lock here)."""

    @abstractmethod
    async def open(self) -> None:
        """Connect and apply pending migrations."""

    @abstractmethod
    async def close(self) -> None:
        """Close every connection."""

    # ------------------------------------------------------------ migrations

    async def migrate(self) -> list[int]:
        """Apply pending migrations, each in its own transaction; the versions applied now."""
        known = migrations.load()
        latest = known[-1].version if known else 0
        applied: list[int] = []
        for migration in known:
            async with self._write() as tx:
                await self._lock_schema(tx)
                await tx.execute(migrations.render(migrations.SCHEMA_VERSION_TABLE, self.dialect))
                rows = await tx.fetch("SELECT version FROM schema_version")
                done = {int(row[0]) for row in rows}
                newest = max(done, default=0)
                if newest > latest:
                    raise StorageError(
                        f"the database has schema version {newest}, newer than this moji knows "
                        f"({latest}): upgrade moji"
                    )
                if migration.version in done:
                    continue
                for statement in migration.statements(self.dialect):
                    await tx.execute(statement)
                await tx.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, self.clock()),
                )
                applied.append(migration.version)
        return applied

    async def ping(self) -> None:
        """``SELECT 1`` (readiness probes): returns once the database answers, else StorageError."""
        async with self._read() as tx:
            await tx.fetch("SELECT 1")

    async def schema_version(self) -> int:
        """The newest migration applied to the database (0: none)."""
        async with self._read() as tx:
            rows = await tx.fetch("SELECT MAX(version) FROM schema_version")
        return int(rows[0][0] or 0) if rows else 0

    async def columns(self) -> dict[str, list[str]]:
        """Every table of the database with its columns, read from the database itself (the
        privacy tests check each one is classified in :mod:`storage.personal`)."""
        async with self._read() as tx:
            if self.dialect == "sqlite":
                rows = await tx.fetch(
                    "SELECT m.name, c.name FROM sqlite_master m JOIN pragma_table_info(m.name) c "
                    "WHERE m.type = 'table' ORDER BY m.name, c.cid"
                )
            else:
                rows = await tx.fetch(
                    "SELECT table_name, column_name FROM information_schema.columns "
                    "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
                )
        found: dict[str, list[str]] = {}
        for table, column in rows:
            found.setdefault(str(table), []).append(str(column))
        return found

    # ------------------------------------------------------------ workspaces and players

    async def _ensure_workspace(self, tx: Tx, platform: str, workspace_id: str) -> None:
        if (platform, workspace_id) in self._workspaces:
            return
        now = self.clock()
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

    def _remember_workspace(self, platform: str, workspace_id: str) -> None:
        if len(self._workspaces) > _MAX_CACHED:
            self._workspaces.clear()
        self._workspaces.add((platform, workspace_id))

    async def upsert_workspace(self, platform: str, workspace_id: str) -> None:
        """Make sure the workspace exists (cached: a known workspace costs no write)."""
        if (platform, workspace_id) in self._workspaces:
            return
        async with self._write() as tx:
            await self._ensure_workspace(tx, platform, workspace_id)
        self._remember_workspace(platform, workspace_id)

    async def upsert_player(self, platform: str, user_id: str, display_name: str) -> None:
        """Create the player or refresh their display name (NUL characters are dropped)."""
        name = clean_name(display_name)
        if self._names.get((platform, user_id)) == name:
            return
        async with self._write() as tx:
            await tx.execute(_UPSERT_PLAYER, (platform, user_id, name, self.clock()))
        self._remember_name(platform, user_id, name)

    def _remember_name(self, platform: str, user_id: str, name: str) -> None:
        if len(self._names) > _MAX_CACHED:
            self._names.clear()
        self._names[(platform, user_id)] = name

    async def get_settings(self, platform: str, workspace_id: str) -> dict[str, str]:
        """The workspace's stored settings."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT key, value FROM workspace_settings WHERE platform = ? AND workspace_id = ?",
                (platform, workspace_id),
            )
        return {row[0]: row[1] for row in rows}

    async def set_setting(self, platform: str, workspace_id: str, key: str, value: str, by_user: str) -> None:
        """Set one setting, keeping who changed it and when."""
        async with self._write() as tx:
            await self._ensure_workspace(tx, platform, workspace_id)
            await tx.execute(
                "INSERT INTO workspace_settings (platform, workspace_id, key, value, updated_by, updated_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform, workspace_id, key) DO UPDATE SET "
                "value = excluded.value, updated_by = excluded.updated_by, updated_at = excluded.updated_at",
                (platform, workspace_id, key, value, by_user, self.clock()),
            )
        self._remember_workspace(platform, workspace_id)

    async def word_lists(self, platform: str, workspace_id: str) -> tuple[set[str], set[str]]:
        """The workspace's (added, banned) words."""
        async with self._read() as tx:
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
        async with self._write() as tx:
            await self._ensure_workspace(tx, platform, workspace_id)
            await tx.execute(
                "INSERT INTO workspace_words (platform, workspace_id, word, kind, added_by, added_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (platform, workspace_id, word) DO UPDATE SET "
                "kind = excluded.kind, added_by = excluded.added_by, added_at = excluded.added_at",
                (platform, workspace_id, word, kind, by_user, now.timestamp()),
            )
        self._remember_workspace(platform, workspace_id)

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
        async with self._write() as tx:
            await tx.execute(
                "DELETE FROM workspace_words WHERE platform = ? AND workspace_id = ? AND word = ?",
                (platform, workspace_id, word),
            )

    # ------------------------------------------------------------ games

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
            await self._fence(tx, lease)
            await self._ensure_workspace(tx, record.platform, record.workspace_id)
            await self._insert_game(tx, record)
            # its lobby, if it had one, is gone in the same transaction
            await tx.execute("DELETE FROM open_lobbies WHERE game_id = ?", (record.game_id,))

        await self._transaction(body)
        self._remember_workspace(record.platform, record.workspace_id)

    async def append_action(
        self, game_id: str, seq: int, action: Mapping[str, Any], lease: Lease | None = None
    ) -> None:
        """Append action ``seq`` to a started game's log (idempotent by ``(game_id, seq)``)."""
        text = json.dumps(dict(action), separators=(",", ":"))

        async def body(tx: Tx) -> None:
            await self._fence(tx, lease)
            await tx.execute(
                "INSERT INTO game_actions (game_id, seq, action) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                (game_id, seq, text),
            )

        await self._transaction(body)

    async def finish_game(
        self,
        record: GameRecord,
        scores: Sequence[SeatScore],
        ended_at: float,
        summary: str = "",
        lease: Lease | None = None,
    ) -> bool:
        """Record a game's end and add its scores up: one transaction, exactly once by game id.

        Computer players' seats are kept in ``results`` but never scored. Each
        person's score counts for the game and for "every game", in the
        all-time, season, month, week and day buckets (the workspace's time
        zone): in ``scores`` (every language together) and in
        ``language_scores`` for the game's language. Returns False, changing
        nothing, when the game had already finished or been voided.
        """
        platform, workspace_id = record.platform, record.workspace_id
        players: list[tuple[Any, ...]] = []

        async def body(tx: Tx) -> bool:
            await self._fence(tx, lease)
            await self._ensure_workspace(tx, platform, workspace_id)
            await self._insert_game(tx, record)
            changed = await tx.execute(
                "UPDATE games SET status = 'finished', ended_at = ?, summary = ? "
                "WHERE game_id = ? AND status = 'running'",
                (float(ended_at), summary, record.game_id),
            )
            if not changed:
                return False
            rows = await tx.fetch(
                "SELECT w.season, s.value FROM workspaces w LEFT JOIN workspace_settings s "
                "ON s.platform = w.platform AND s.workspace_id = w.workspace_id AND s.key = 'timezone' "
                "WHERE w.platform = ? AND w.workspace_id = ?",
                (platform, workspace_id),
            )
            season, tz = (int(rows[0][0]), rows[0][1]) if rows else (1, None)
            keys = periods.buckets(periods.from_epoch(ended_at), periods.zone(tz), season)
            results: list[tuple[Any, ...]] = []
            totals: list[tuple[Any, ...]] = []
            for score in scores:
                human = not is_bot(score.seat_id, record.seats)
                user_id: str | None = None
                if human:
                    seat_platform, user_id = split_seat(score.seat_id, platform)
                    name = record.names.get(score.seat_id) or next(
                        (s.name for s in record.seats if s.id == score.seat_id), user_id
                    )
                    players.append((seat_platform, user_id, clean_name(name), self.clock()))
                    for game in (record.game, ALL_GAMES):
                        for key in keys:
                            totals.append(
                                (
                                    platform,
                                    workspace_id,
                                    game,
                                    key,
                                    user_id,
                                    int(score.points),
                                    int(score.won),
                                    score.best_word,
                                )
                            )
                results.append(
                    (
                        record.game_id,
                        score.seat_id,
                        user_id,
                        int(score.points),
                        int(score.won),
                        score.best_word,
                    )
                )
            if results:
                await tx.executemany(
                    "INSERT INTO results (game_id, seat_id, user_id, points, won, best_word) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    results,
                )
            if players:
                await tx.executemany(_UPSERT_PLAYER, players)
            if totals:
                await tx.executemany(_ADD_SCORE, totals)
                await tx.executemany(
                    _ADD_LANGUAGE_SCORE, [(*row[:3], record.language, *row[3:]) for row in totals]
                )
            return True

        if not await self._transaction(body):
            return False
        self._remember_workspace(platform, workspace_id)
        for seat_platform, user, name, _ in players:
            self._remember_name(seat_platform, user, name)
        return True

    async def void_game(
        self, game_id: str, reason: str, at: float | None = None, lease: Lease | None = None
    ) -> bool:
        """Mark an unfinished game void (its scores never count); False if it had already ended."""
        async with self._write() as tx:
            await self._fence(tx, lease)
            changed = await tx.execute(
                "UPDATE games SET status = 'void', void_reason = ?, ended_at = ? "
                "WHERE game_id = ? AND status = 'running'",
                (reason, float(self.clock() if at is None else at), game_id),
            )
        return changed > 0

    async def game_status(self, game_id: str) -> str | None:
        """``running``, ``finished`` or ``void``; None for an unknown game."""
        async with self._read() as tx:
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
        async with self._write() as tx:
            await tx.executemany(
                "UPDATE games SET alive_at = ? WHERE game_id = ? AND status = 'running'",
                [(float(at), game_id) for game_id in game_ids],
            )

    async def ended_games(self, since: float) -> list[StoredGame]:
        """Every game that finished or was voided at ``since`` or later, with its action log."""
        return await self._games(_ENDED_GAMES, _ENDED_ACTIONS, (float(since),))

    async def mark_announced(self, game_id: str, at: float) -> None:
        """Record that a finished game's result was posted in its channel."""
        async with self._write() as tx:
            await tx.execute(
                "UPDATE games SET announced_at = ? WHERE game_id = ? AND announced_at IS NULL",
                (float(at), game_id),
            )

    async def _games(self, games_sql: str, actions_sql: str, args: tuple[Any, ...] = ()) -> list[StoredGame]:
        """The games one of the fixed queries below selects, with their action logs, oldest first."""
        async with self._read() as tx:
            games = await tx.fetch(games_sql, args)
            actions = await tx.fetch(actions_sql, args)
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

    # ------------------------------------------------------------ scores

    async def _board(
        self,
        tx: Tx,
        platform: str,
        workspace_id: str,
        game: str | None,
        bucket: str,
        limit: int,
        language: str | None,
    ) -> list[LeaderboardRow]:
        if language is None:
            rows = await tx.fetch(_BOARD, (platform, workspace_id, game or ALL_GAMES, bucket, int(limit)))
        else:
            rows = await tx.fetch(
                _LANGUAGE_BOARD, (platform, workspace_id, game or ALL_GAMES, language, bucket, int(limit))
            )
        return ranked(rows)

    async def leaderboard(
        self,
        platform: str,
        workspace_id: str,
        game: str | None,
        period: str,
        now: datetime,
        limit: int = 10,
        language: str | None = None,
    ) -> list[LeaderboardRow]:
        """The top ``limit`` players of ``game`` (None: every game) in the period containing ``now``.

        Day, week and month are calendar periods in the workspace's ``timezone``
        setting (UTC by default). Scores are bucketed when a game ends, in the
        time zone set then: changing the setting affects games ending later.
        ``language`` counts only the games played in it (None: every language).
        """
        if period not in periods.PERIODS:
            raise StorageError(f"unknown leaderboard period {period!r}")
        if language is not None:
            check_language(language)
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT w.season, s.value FROM workspaces w LEFT JOIN workspace_settings s "
                "ON s.platform = w.platform AND s.workspace_id = w.workspace_id AND s.key = 'timezone' "
                "WHERE w.platform = ? AND w.workspace_id = ?",
                (platform, workspace_id),
            )
            if not rows:
                return []
            season, tz = int(rows[0][0]), rows[0][1]
            key = periods.bucket(period, now, periods.zone(tz), season)
            return await self._board(tx, platform, workspace_id, game, key, limit, language)

    async def season_leaderboard(
        self,
        platform: str,
        workspace_id: str,
        game: str | None,
        season: int,
        limit: int = 10,
        language: str | None = None,
    ) -> list[LeaderboardRow]:
        """The top players of a season (the current one or an archived one), of every language or
        of ``language``."""
        if language is not None:
            check_language(language)
        bucket = f"season:{int(season)}"
        async with self._read() as tx:
            return await self._board(tx, platform, workspace_id, game, bucket, limit, language)

    async def player_stats(self, platform: str, workspace_id: str, user_id: str) -> PlayerStats | None:
        """A player's all-time record in the workspace (every game), or None."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT COALESCE(p.display_name, s.user_id), s.games, s.wins, s.points, s.best_word "
                "FROM scores s LEFT JOIN players p ON p.platform = s.platform AND p.user_id = s.user_id "
                "WHERE s.platform = ? AND s.workspace_id = ? AND s.game = ? AND s.bucket = 'all' "
                "AND s.user_id = ?",
                (platform, workspace_id, ALL_GAMES, user_id),
            )
        if not rows:
            return None
        name, games, wins, points, best = rows[0]
        return PlayerStats(user_id, name, int(games), int(wins), int(points), best)

    async def reset_season(self, platform: str, workspace_id: str, now: datetime) -> Season:
        """Archive the current season (its scores stay queryable) and start the next one."""
        at = now.timestamp()
        async with self._write() as tx:
            await self._ensure_workspace(tx, platform, workspace_id)
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
        self._remember_workspace(platform, workspace_id)
        return Season(current + 1, at)

    async def seasons(self, platform: str, workspace_id: str) -> list[Season]:
        """Every season of the workspace, oldest first (the last one is current)."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT season, started_at, ended_at FROM seasons "
                "WHERE platform = ? AND workspace_id = ? ORDER BY season",
                (platform, workspace_id),
            )
        return [Season(int(r[0]), float(r[1]), None if r[2] is None else float(r[2])) for r in rows]

    # ------------------------------------------------------------ word breaks

    async def add_schedule(self, schedule: ScheduleT) -> ScheduleT:
        """Save a new schedule (its ``id`` is ignored); returns a copy with its new id."""
        async with self._write() as tx:
            await self._ensure_workspace(tx, schedule.platform, schedule.workspace_id)
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
                    self.clock(),
                ),
            )
        self._remember_workspace(schedule.platform, schedule.workspace_id)
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
        async with self._read() as tx:
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
        async with self._write() as tx:
            changed = await tx.execute(
                "DELETE FROM schedules WHERE id = ? AND platform = ? AND workspace_id = ?",
                (int(schedule_id), platform, workspace_id),
            )
        return changed > 0

    async def claim_schedule_run(self, schedule_id: int, run_at: float) -> bool:
        """Claim the run at ``run_at``: one conditional UPDATE, so exactly one caller (of any process) wins.

        A run is claimed once; a run earlier than the last one claimed is refused too.
        """
        async with self._write() as tx:
            changed = await tx.execute(
                "UPDATE schedules SET last_run_at = ? "
                "WHERE id = ? AND (last_run_at IS NULL OR last_run_at < ?)",
                (float(run_at), int(schedule_id), float(run_at)),
            )
        return changed == 1

    async def claim_once(self, kind: str, key: str, expires_at: float, now: float) -> bool:
        """Claim ``(kind, key)`` until ``expires_at``: one INSERT that only one caller's row survives."""
        async with self._write() as tx:
            await tx.execute("DELETE FROM claimed_once WHERE expires_at < ?", (float(now),))
            added = await tx.execute(
                "INSERT INTO claimed_once (kind, key, expires_at) VALUES (?, ?, ?) "
                "ON CONFLICT (kind, key) DO NOTHING",
                (kind, key, float(expires_at)),
            )
        return added == 1

    # ------------------------------------------------------------ Slack installations

    async def save_lobby(self, lobby: LobbyRecord, lease: Lease | None = None) -> None:
        """Record (or update) an open lobby."""
        text = json.dumps(dict(lobby.data), sort_keys=True)
        check_text((lobby.game_id, lobby.platform, lobby.workspace_id, lobby.channel_id))
        async with self._write() as tx:
            await self._fence(tx, lease)
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
                    self.clock(),
                ),
            )

    async def delete_lobby(self, game_id: str, lease: Lease | None = None) -> None:
        """Forget a lobby that closed without starting, and its claim on its chat (no error if unknown)."""
        async with self._write() as tx:
            await self._fence(tx, lease)
            await tx.execute("DELETE FROM open_lobbies WHERE game_id = ?", (game_id,))
            await tx.execute("DELETE FROM active_games WHERE game_id = ?", (game_id,))

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
        sql = self._sql(_CLAIM_CHAT)
        async with self._write() as tx:
            await tx.execute(sql, (*key, game_id, float(at), owner, self.lease_ttl, float(at) - CLAIM_FRESH))
            rows = await tx.fetch(
                "SELECT game_id, owner, epoch FROM active_games "
                "WHERE platform = ? AND workspace_id = ? AND channel_id = ? AND thread_key = ?",
                key,
            )
        if not rows or str(rows[0][0]) != game_id:
            return str(rows[0][0]) if rows else game_id
        return Lease(game_id, str(rows[0][1]), int(rows[0][2]))

    # ------------------------------------------------------------ privacy

    async def forget_player(self, platform: str, workspace_id: str, user_id: str) -> None:
        """Forget a player in one workspace, in one transaction.

        Their stats rows and display name go (the name stays only while another workspace still
        ranks them); in each finished or void game of the workspace they played, their seat
        becomes "a former player" under a new anonymous id (other players' results and totals
        are untouched) and the game's action log, which holds what they typed, is dropped; their
        authorship of word-list entries, settings and word breaks is anonymised the same way,
        their forwarded events go, and (Slack) their installation row goes and the workspace's
        keeps no trace of them as its installer. Running games are left alone (the bot refuses
        while the player is in one). :mod:`storage.personal` lists every column this reaches.
        """
        seat = f"{platform}:{user_id}"
        former = f"former:{secrets.token_hex(6)}"
        people = (user_id, seat)

        async def body(tx: Tx) -> None:
            rows = await tx.fetch(
                "SELECT game_id, seats, names, host FROM games WHERE platform = ? AND workspace_id = ? "
                "AND status <> 'running' AND (seats LIKE ? ESCAPE '\\' OR host = ?)",
                (platform, workspace_id, _seat_pattern(seat), seat),
            )
            for game_id, seats_json, names_json, host in rows:
                seats = [
                    {**s, "id": former, "name": FORMER} if s.get("id") == seat else s
                    for s in json.loads(seats_json)
                ]
                names = {k: v for k, v in json.loads(names_json).items() if k != seat}
                if any(s["id"] == former for s in seats):
                    names[former] = FORMER
                await tx.execute(
                    "UPDATE games SET seats = ?, names = ?, host = ?, summary = '' WHERE game_id = ?",
                    (
                        json.dumps(seats),
                        json.dumps(names, sort_keys=True),
                        former if host == seat else host,
                        game_id,
                    ),
                )
                await tx.execute("DELETE FROM game_actions WHERE game_id = ?", (game_id,))
                await tx.execute(
                    "UPDATE results SET seat_id = ?, user_id = NULL "
                    "WHERE game_id = ? AND (seat_id = ? OR user_id = ?)",
                    (former, game_id, seat, user_id),
                )
            await tx.execute(
                "DELETE FROM scores WHERE platform = ? AND workspace_id = ? AND user_id = ?",
                (platform, workspace_id, user_id),
            )
            await tx.execute(
                "DELETE FROM language_scores WHERE platform = ? AND workspace_id = ? AND user_id = ?",
                (platform, workspace_id, user_id),
            )
            await tx.execute(
                "UPDATE workspace_words SET added_by = ? WHERE platform = ? AND workspace_id = ? "
                "AND added_by IN (?, ?)",
                (former, platform, workspace_id, *people),
            )
            await tx.execute(
                "UPDATE workspace_settings SET updated_by = ? WHERE platform = ? AND workspace_id = ? "
                "AND updated_by IN (?, ?)",
                (former, platform, workspace_id, *people),
            )
            await tx.execute(
                "UPDATE schedules SET created_by = ?, created_by_name = ? WHERE platform = ? "
                "AND workspace_id = ? AND created_by IN (?, ?)",
                (former, FORMER, platform, workspace_id, *people),
            )
            await tx.execute(
                "DELETE FROM inbox WHERE platform = ? AND workspace_id = ? AND payload LIKE ? ESCAPE '\\'",
                (platform, workspace_id, "%" + _like(user_id) + "%"),
            )
            # a stop recorded by a moji older than migration 0011 named who stopped
            for (name,) in await tx.fetch(
                "SELECT display_name FROM players WHERE platform = ? AND user_id = ?", (platform, user_id)
            ):
                await tx.execute(
                    "UPDATE games SET void_reason = ? WHERE platform = ? AND workspace_id = ? "
                    "AND void_reason = ?",
                    (STOPPED, platform, workspace_id, f"stopped by {name}"),
                )
            if platform == "slack":
                await tx.execute(
                    "DELETE FROM slack_installations WHERE team_id = ? AND user_id = ?",
                    (workspace_id, user_id),
                )
                await self._forget_installer(tx, workspace_id, user_id)
            await self._drop_unranked(tx, platform, [user_id])

        await self._transaction(body)
        self._names.pop((platform, user_id), None)

    async def _forget_installer(self, tx: Tx, team_id: str, user_id: str) -> None:
        """The workspace's installation rows keep its bot token, not who installed it: their
        installer's id becomes an anonymous one and their user token (and its scopes) go."""
        rows = await tx.fetch(
            "SELECT enterprise_id, user_id, data FROM slack_installations WHERE team_id = ?", (team_id,)
        )
        for enterprise, row_user, text in rows:
            data = json.loads(text)
            if data.get("user_id") != user_id:
                continue
            data["user_id"] = f"former:{secrets.token_hex(6)}"
            for key in _INSTALLER_KEYS:
                data.pop(key, None)
            await tx.execute(
                "UPDATE slack_installations SET data = ? "
                "WHERE enterprise_id = ? AND team_id = ? AND user_id = ?",
                (json.dumps(data, sort_keys=True), enterprise, team_id, row_user),
            )

    async def _drop_unranked(self, tx: Tx, platform: str, user_ids: Sequence[str]) -> None:
        """Delete the display names of these players that no workspace ranks any more."""
        for user in user_ids:
            await tx.execute(
                "DELETE FROM players WHERE platform = ? AND user_id = ? "
                "AND NOT EXISTS (SELECT 1 FROM scores s WHERE s.platform = ? AND s.user_id = ?) "
                "AND NOT EXISTS (SELECT 1 FROM results r JOIN games g ON g.game_id = r.game_id "
                "WHERE g.platform = ? AND r.user_id = ?)",
                (platform, user, platform, user, platform, user),
            )

    async def purge_workspace(self, platform: str, workspace_id: str) -> int:
        """Delete everything moji keeps about a workspace, in one transaction: the rows deleted
        (0: nothing was kept). Display names go too, every one of the platform that no remaining
        workspace ranks (someone who only opened or joined a lobby here included)."""
        key = (platform, workspace_id)
        deleted = 0

        async def body(tx: Tx) -> None:
            nonlocal deleted
            deleted = 0  # (a retried transaction counts afresh)
            for statement in _PURGE:
                deleted += await tx.execute(statement, key)
            if platform == "slack":
                deleted += await tx.execute(
                    "DELETE FROM slack_installations WHERE team_id = ?", (workspace_id,)
                )
            # The players table has no workspace: a name kept only because someone opened or
            # joined a lobby here can't be told from one seen elsewhere, so every name of the
            # platform that no remaining workspace ranks goes (it is written again when needed:
            # at a game's end for everyone seated, and when someone starts or joins a game).
            await tx.execute(_DROP_UNRANKED_PLAYERS, (platform, platform, platform))

        await self._transaction(body)
        self._workspaces.discard(key)
        self._names = {k: v for k, v in self._names.items() if k[0] != platform}
        return deleted

    async def prune_game_logs(self, platform: str, workspace_id: str, before: float) -> int:
        """Drop the action logs of the workspace's games that ended before ``before`` (and whose
        result was posted): the number of games. Results and scores stay; running games, and a
        result still to be announced after a crash, keep theirs."""
        async with self._write() as tx:
            rows = await tx.fetch(_PRUNABLE, (platform, workspace_id, float(before)))
            ids = [str(r[0]) for r in rows]
            await tx.executemany(
                "DELETE FROM game_actions WHERE game_id = ?", [(game_id,) for game_id in ids]
            )
        return len(ids)

    async def workspaces_with_logs(self, before: float) -> list[tuple[str, str]]:
        """(platform, workspace_id) of every workspace with a game that ended before ``before``
        and still has its action log."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT DISTINCT g.platform, g.workspace_id FROM games g WHERE g.status <> 'running' "
                "AND g.ended_at < ? AND EXISTS (SELECT 1 FROM game_actions a WHERE a.game_id = g.game_id) "
                "ORDER BY g.platform, g.workspace_id",
                (float(before),),
            )
        return [(str(r[0]), str(r[1])) for r in rows]

    async def schedule_deletion(self, platform: str, workspace_id: str, due_at: float, reason: str) -> None:
        """Delete the workspace's data at ``due_at`` (the bot was removed from it)."""
        async with self._write() as tx:
            await tx.execute(
                "INSERT INTO pending_deletions (platform, workspace_id, due_at, reason) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, workspace_id) DO UPDATE SET due_at = excluded.due_at, "
                "reason = excluded.reason",
                (platform, workspace_id, float(due_at), reason),
            )

    async def cancel_deletion(self, platform: str, workspace_id: str) -> bool:
        """The bot is back in the workspace: its data stays. False if no deletion was pending."""
        async with self._write() as tx:
            changed = await tx.execute(
                "DELETE FROM pending_deletions WHERE platform = ? AND workspace_id = ?",
                (platform, workspace_id),
            )
        return changed > 0

    async def due_deletions(self, now: float) -> list[tuple[str, str]]:
        """(platform, workspace_id) of the deletions due at ``now``."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT platform, workspace_id FROM pending_deletions WHERE due_at <= ? ORDER BY due_at",
                (float(now),),
            )
        return [(str(r[0]), str(r[1])) for r in rows]

    # ------------------------------------------------------------ ownership

    def _sql(self, template: str, **parts: str) -> str:
        """One of this module's statements, with the database's clock (``{now}``) filled in."""
        return template.format(now=_DB_NOW[self.dialect], **parts)

    async def _fence(self, tx: Tx, lease: Lease | None) -> None:
        """Refuse the write unless ``lease`` still holds its game (and renew it).

        None, or epoch 0 (a game no chat claim names: nobody else can hold it), is not checked.
        """
        if lease is None or lease.epoch == 0:
            return
        changed = await tx.execute(
            self._sql(_FENCE),
            (self.lease_ttl, lease.game_id, lease.owner, int(lease.epoch)),
        )
        if not changed:
            raise Fenced(f"game {lease.game_id} is now run by another process")

    async def adopt_game(self, game_id: str, owner: str) -> Lease | None:
        """Take over an active game or lobby whose lease has lapsed (or is already ``owner``'s).

        One conditional UPDATE: of several processes adopting at once, exactly one gets the
        new epoch. None when another process's lease is alive. A game no chat claim names
        (its chat has had a newer game since) gets a lease of epoch 0, which nothing fences.
        """
        async with self._write() as tx:
            rows = await tx.fetch(
                self._sql(_ADOPT),
                (owner, self.lease_ttl, game_id, owner),
            )
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
        async with self._write() as tx:
            for chunk in _chunks([lease.game_id for lease in leases]):
                marks = ", ".join("?" for _ in chunk)
                rows = await tx.fetch(self._sql(_RENEW, marks=marks), (self.lease_ttl, owner, *chunk))
                held |= {(str(r[0]), int(r[1])) for r in rows}
                await tx.execute(self._sql(_ALIVE, marks=marks), (float(at), *chunk))
        return [lease.game_id for lease in leases if (lease.game_id, lease.epoch) not in held]

    async def release_leases(self, leases: Sequence[Lease]) -> None:
        """Let another process adopt these games at once (a graceful stop)."""
        if not leases:
            return
        async with self._write() as tx:
            await tx.executemany(
                "UPDATE active_games SET lease_until = 0 WHERE game_id = ? AND owner = ? AND epoch = ?",
                [(lease.game_id, lease.owner, int(lease.epoch)) for lease in leases],
            )

    async def chat_owner(
        self, platform: str, workspace_id: str, channel_id: str, thread_id: str | None
    ) -> ChatOwner | None:
        """Who runs the chat's active game or open lobby (None: nobody, the chat is free)."""
        async with self._read() as tx:
            rows = await tx.fetch(
                self._sql(_CHAT_OWNER), (platform, workspace_id, channel_id, thread_id or "")
            )
        return _owner(rows[0]) if rows else None

    async def orphaned_games(self, platform: str) -> list[ChatOwner]:
        """The active games and lobbies on ``platform`` whose owner's lease has lapsed."""
        async with self._read() as tx:
            rows = await tx.fetch(self._sql(_ORPHANS), (platform,))
        return [_owner(row) for row in rows]

    async def player_games(
        self, platform: str, workspace_id: str, seat_id: str
    ) -> list[tuple[str, str | None]]:
        """The chats (channel, thread) of the running games in a workspace where ``seat_id`` has a
        seat, newest first."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT channel_id, thread_id FROM games WHERE status = 'running' AND platform = ? "
                "AND workspace_id = ? AND seats LIKE ? ESCAPE '\\' ORDER BY started_at DESC",
                (platform, workspace_id, _seat_pattern(seat_id)),
            )
        return [(str(row[0]), row[1]) for row in rows]

    async def workspace_owner(self, platform: str, workspace_id: str) -> str | None:
        """A live process that runs a game or lobby in the workspace (the latest claimed), if any."""
        async with self._read() as tx:
            rows = await tx.fetch(self._sql(_WORKSPACE_OWNER), (platform, workspace_id))
        return _owner(rows[0]).owner if rows else None

    async def record_table(self, game_id: str, message_id: str) -> None:
        """The game's live table is now message ``message_id``."""
        async with self._write() as tx:
            await tx.execute("UPDATE active_games SET table_ref = ? WHERE game_id = ?", (message_id, game_id))

    async def join_instances(self, instance_id: str, announce: bool = False) -> None:
        """Say that process ``instance_id`` is alive (again now: every few seconds); ``announce``
        (a process starting) also wakes the others listening on :data:`INSTANCES_CHANNEL`."""
        async with self._write() as tx:
            await tx.execute(self._sql(_JOIN_INSTANCES), (instance_id, self.lease_ttl))
            if announce:
                await self._notify(tx, INSTANCES_CHANNEL, instance_id)

    async def leave_instances(self, instance_id: str) -> None:
        """Process ``instance_id`` stops."""
        async with self._write() as tx:
            await tx.execute("DELETE FROM instances WHERE instance_id = ?", (instance_id,))

    async def live_instances(self) -> list[str]:
        """Every process whose last word is fresh (itself included)."""
        async with self._read() as tx:
            rows = await tx.fetch(self._sql(_LIVE_INSTANCES))
        return [str(row[0]) for row in rows]

    # ------------------------------------------------------------ forwarded events

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
        async with self._write() as tx:
            changed = await tx.execute(
                "INSERT INTO inbox (target, platform, workspace_id, channel_id, thread_key, event_key, "
                "payload, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (target, platform, workspace_id, channel_id, thread_id or "", event_key, text, float(at)),
            )
            if changed:
                await self._notify(tx, INBOX_CHANNEL, platform)
        return changed > 0

    async def first_delivery(self, event_key: str, at: float, prune_before: float | None = None) -> bool:
        """Record that the delivery ``event_key`` is handled: True for exactly one caller."""
        async with self._write() as tx:
            if prune_before is not None:
                await tx.execute("DELETE FROM deliveries WHERE seen_at < ?", (float(prune_before),))
            changed = await tx.execute(
                "INSERT INTO deliveries (event_key, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (event_key, float(at)),
            )
        return changed > 0

    async def _notify(self, tx: Tx, channel: str, payload: str) -> None:  # noqa: B027 - optional hook
        """Wake the processes listening on ``channel`` when the transaction commits (PostgreSQL)."""

    async def inbox(self, owner: str, limit: int = 500) -> list[InboxItem]:
        """Unhandled events for ``owner``: those of the chats whose game or lobby it runs (even
        when sent to another process: the game changed hands since), and those sent to it for a
        chat without one (a ``start``); oldest first."""
        async with self._read() as tx:
            rows = await tx.fetch(self._sql(_INBOX), (owner, int(limit)))
        return [InboxItem(int(r[0]), r[1], r[2], r[3], r[4] or None, json.loads(r[5])) for r in rows]

    async def take_inbox(self, item_id: int, at: float) -> bool:
        """Mark a forwarded event handled: True for exactly one caller."""
        async with self._write() as tx:
            changed = await tx.execute(
                "UPDATE inbox SET handled_at = ? WHERE id = ? AND handled_at IS NULL",
                (float(at), int(item_id)),
            )
            # (an event nobody took in that long belonged to a game that ended without its owner)
            await tx.execute("DELETE FROM inbox WHERE created_at < ?", (float(at) - INBOX_KEEP,))
        return changed > 0

    async def listen(self, channel: str, callback: Callable[[str], None]) -> bool:
        """Call ``callback`` (with the payload) whenever ``channel`` is notified; False where the
        backend cannot (SQLite: poll instead)."""
        return False

    async def open_lobbies(self) -> list[LobbyRecord]:
        """Every open lobby, oldest first."""
        async with self._read() as tx:
            rows = await tx.fetch(
                "SELECT game_id, platform, workspace_id, channel_id, thread_id, data FROM open_lobbies "
                "ORDER BY updated_at, game_id",
                (),
            )
        return [LobbyRecord(r[0], r[1], r[2], r[3], r[4], json.loads(r[5])) for r in rows]

    async def save_installation(self, key: InstallKey, data: Mapping[str, Any]) -> None:
        """Save an OAuth installation for its user and as the team's latest."""
        text = json.dumps(dict(data), sort_keys=True)
        now = self.clock()
        users = {_key(key.user_id), ""}
        async with self._write() as tx:
            await tx.executemany(
                "INSERT INTO slack_installations (enterprise_id, team_id, user_id, data, installed_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (enterprise_id, team_id, user_id) DO UPDATE SET "
                "data = excluded.data, installed_at = excluded.installed_at",
                [(_key(key.enterprise_id), _key(key.team_id), user, text, now) for user in sorted(users)],
            )

    async def find_installation(self, key: InstallKey) -> dict[str, Any] | None:
        """The installation for ``key`` (user_id None: the team's latest), or None."""
        async with self._read() as tx:
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
        async with self._write() as tx:
            await tx.execute(sql, args)


_UPSERT_PLAYER = (
    "INSERT INTO players (platform, user_id, display_name, updated_at) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (platform, user_id) DO UPDATE SET display_name = excluded.display_name, "
    "updated_at = excluded.updated_at WHERE players.display_name <> excluded.display_name"
)

#: Best word: the longest; on a tie the one found first stays.
_ADD_SCORE = (
    "INSERT INTO scores (platform, workspace_id, game, bucket, user_id, points, games, wins, best_word) "
    "VALUES (?, ?, ?, ?, ?, ?, 1, ?, ?) "
    "ON CONFLICT (platform, workspace_id, game, bucket, user_id) DO UPDATE SET "
    "points = scores.points + excluded.points, games = scores.games + 1, wins = scores.wins + excluded.wins, "
    "best_word = CASE WHEN length(excluded.best_word) > length(scores.best_word) "
    "THEN excluded.best_word ELSE scores.best_word END"
)
#: A leaderboard: the top rows of one bucket of every language (``scores``), or of one language.
_BOARD = (
    "SELECT s.user_id, COALESCE(p.display_name, s.user_id), s.points, s.games, s.wins, s.best_word "
    "FROM scores s LEFT JOIN players p ON p.platform = s.platform AND p.user_id = s.user_id "
    "WHERE s.platform = ? AND s.workspace_id = ? AND s.game = ? AND s.bucket = ? "
    "ORDER BY s.points DESC, s.wins DESC, s.games, s.user_id LIMIT ?"
)
_LANGUAGE_BOARD = (
    "SELECT s.user_id, COALESCE(p.display_name, s.user_id), s.points, s.games, s.wins, s.best_word "
    "FROM language_scores s LEFT JOIN players p ON p.platform = s.platform AND p.user_id = s.user_id "
    "WHERE s.platform = ? AND s.workspace_id = ? AND s.game = ? AND s.language = ? AND s.bucket = ? "
    "ORDER BY s.points DESC, s.wins DESC, s.games, s.user_id LIMIT ?"
)
#: A score added up per language (``language_scores``), like :data:`_ADD_SCORE`.
_ADD_LANGUAGE_SCORE = (
    "INSERT INTO language_scores (platform, workspace_id, game, language, bucket, user_id, points, games, "
    "wins, best_word) VALUES (?, ?, ?, ?, ?, ?, ?, 1, ?, ?) "
    "ON CONFLICT (platform, workspace_id, game, language, bucket, user_id) DO UPDATE SET "
    "points = language_scores.points + excluded.points, games = language_scores.games + 1, "
    "wins = language_scores.wins + excluded.wins, "
    "best_word = CASE WHEN length(excluded.best_word) > length(language_scores.best_word) "
    "THEN excluded.best_word ELSE language_scores.best_word END"
)

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
#: Seconds a fresh claim on a chat holds before its lobby is recorded (see claim_chat).
CLAIM_FRESH = 30.0
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

#: Channel on which a forwarded event wakes the processes (PostgreSQL LISTEN/NOTIFY).
INBOX_CHANNEL = "moji_inbox"
#: Channel on which a starting process makes itself known to the others at once.
INSTANCES_CHANNEL = "moji_instances"

#: Active games and open lobbies with their owners (callers add conditions after the WHERE).
_OWNERS = (
    "SELECT a.platform, a.workspace_id, a.channel_id, a.thread_key, a.game_id, a.owner, a.epoch, "
    "CASE WHEN a.lease_until >= {now} THEN 1 ELSE 0 END, a.table_ref, g.game, g.options, g.seed "
    "FROM active_games a LEFT JOIN games g ON g.game_id = a.game_id AND g.status = 'running' "
    "WHERE (EXISTS (SELECT 1 FROM games g WHERE g.game_id = a.game_id AND g.status = 'running') "
    "OR EXISTS (SELECT 1 FROM open_lobbies l WHERE l.game_id = a.game_id))"
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
_WORKSPACE_OWNER = (
    _OWNERS + " AND a.platform = ? AND a.workspace_id = ? AND a.lease_until >= {now} "
    "ORDER BY a.claimed_at DESC LIMIT 1"
)
_CHAT_OWNER = _OWNERS + " AND a.platform = ? AND a.workspace_id = ? AND a.channel_id = ? AND a.thread_key = ?"
_ORPHANS = _OWNERS + " AND a.platform = ? AND a.lease_until < {now} ORDER BY a.claimed_at"

#: What a forgotten player is called in the games they played.
FORMER = "a former player"
#: The void reason of a game a person stopped (it never names them: see migration 0011).
STOPPED = "stopped by a player"
#: What an installation's data holds about the person who installed the app, besides their id.
_INSTALLER_KEYS = (
    "user_token",
    "user_refresh_token",
    "user_token_expires_at",
    "user_token_expires_in",
    "user_scopes",
)
#: Every display name of a platform (?, three times) that no workspace ranks (no scores, no results).
_DROP_UNRANKED_PLAYERS = (
    "DELETE FROM players WHERE platform = ? "
    "AND user_id NOT IN (SELECT s.user_id FROM scores s WHERE s.platform = ?) "
    "AND user_id NOT IN (SELECT r.user_id FROM results r JOIN games g ON g.game_id = r.game_id "
    "WHERE g.platform = ? AND r.user_id IS NOT NULL)"
)
#: What a purge deletes, each statement taking (platform, workspace_id): the games' logs and
#: results first, then every table keyed by the workspace.
_PURGE = (
    "DELETE FROM game_actions WHERE game_id IN "
    "(SELECT game_id FROM games WHERE platform = ? AND workspace_id = ?)",
    "DELETE FROM results WHERE game_id IN "
    "(SELECT game_id FROM games WHERE platform = ? AND workspace_id = ?)",
    "DELETE FROM scores WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM language_scores WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM workspace_settings WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM workspace_words WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM seasons WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM schedules WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM active_games WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM open_lobbies WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM inbox WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM games WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM pending_deletions WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM workspaces WHERE platform = ? AND workspace_id = ?",
)
_PRUNABLE = (
    "SELECT g.game_id FROM games g WHERE g.platform = ? AND g.workspace_id = ? AND g.status <> 'running' "
    "AND g.ended_at < ? AND (g.status = 'void' OR g.announced_at IS NOT NULL) "
    "AND EXISTS (SELECT 1 FROM game_actions a WHERE a.game_id = g.game_id)"
)


def _like(text: str) -> str:
    """``text`` for a LIKE pattern with ESCAPE '\\' (its wildcards taken literally)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _seat_pattern(seat_id: str) -> str:
    """A LIKE pattern finding a seat in a game's ``seats`` JSON."""
    return "%" + _like(json.dumps({"id": seat_id})[1:-1]) + "%"
