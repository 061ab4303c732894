"""Scores added up when a game ends, and the leaderboards and stats read from them.

A game's end adds each person's score into one row per period bucket (:mod:`storage.periods`),
for the game and for every game, in ``scores`` (every language together) and in
``language_scores`` (its language): a leaderboard is then one indexed read.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from storage import periods
from storage.database import Database, Row, Tx
from storage.errors import StorageError
from storage.records import GameRecord, LeaderboardRow, PlayerStats, SeatRecord, SeatScore
from storage.workspaces import UPSERT_PLAYER, clean_name

#: Every game (the ``game`` column of ``scores``).
ALL_GAMES = "*"

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
#: The workspace's current season and time zone setting.
_SEASON_AND_ZONE = (
    "SELECT w.season, s.value FROM workspaces w LEFT JOIN workspace_settings s "
    "ON s.platform = w.platform AND s.workspace_id = w.workspace_id AND s.key = 'timezone' "
    "WHERE w.platform = ? AND w.workspace_id = ?"
)


def check_language(code: str) -> None:
    """Refuse a language code that cannot name one language (``en``, ``fr``…: short, ASCII letters
    and digits)."""
    if not code or len(code) > 20 or not code.isascii() or not code.isalnum():
        raise StorageError(f"{code!r} is not a language code")


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


async def add_up(
    tx: Tx, record: GameRecord, scores: Sequence[SeatScore], ended_at: float, now: float
) -> list[tuple[str, str, str, float]]:
    """Record a finished game's results and add each person's score up, inside ``tx``.

    Computer players' seats are kept in ``results`` but never scored. Each person's score
    counts for the game and for "every game", in the all-time, season, month, week and day
    buckets (the workspace's time zone), in ``scores`` and in ``language_scores``. Returns the
    ``players`` rows written (platform, user id, name, ``now``).
    """
    platform, workspace_id = record.platform, record.workspace_id
    rows = await tx.fetch(_SEASON_AND_ZONE, (platform, workspace_id))
    season, tz = (int(rows[0][0]), rows[0][1]) if rows else (1, None)
    keys = periods.buckets(periods.from_epoch(ended_at), periods.zone(tz), season)
    players: list[tuple[str, str, str, float]] = []
    results: list[tuple[Any, ...]] = []
    totals: list[tuple[Any, ...]] = []
    for score in scores:
        user_id: str | None = None
        if not is_bot(score.seat_id, record.seats):
            seat_platform, user_id = split_seat(score.seat_id, platform)
            name = record.names.get(score.seat_id) or next(
                (s.name for s in record.seats if s.id == score.seat_id), user_id
            )
            players.append((seat_platform, user_id, clean_name(name), now))
            for game in (record.game, ALL_GAMES):
                for key in keys:
                    points, won = int(score.points), int(score.won)
                    totals.append((platform, workspace_id, game, key, user_id, points, won, score.best_word))
        results.append(
            (
                record.game_id,
                score.seat_id,
                user_id,
                int(score.points),
                int(score.won),
                score.best_word,
                score.team,
            )
        )
    if results:
        await tx.executemany(
            "INSERT INTO results (game_id, seat_id, user_id, points, won, best_word, team) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            results,
        )
    if players:
        await tx.executemany(UPSERT_PLAYER, players)
    if totals:
        await tx.executemany(_ADD_SCORE, totals)
        await tx.executemany(_ADD_LANGUAGE_SCORE, [(*row[:3], record.language, *row[3:]) for row in totals])
    return players


@runtime_checkable
class ScoreStore(Protocol):
    """Leaderboards and players' stats."""

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

        ``period`` is one of :data:`storage.periods.PERIODS` (``day``, ``week``,
        ``month``, ``season``, ``all``). Day, week and month are calendar periods in
        the workspace's ``timezone`` setting (UTC by default) as it was when each
        game ended. ``language`` (a code such as ``fr``) counts only the games played
        in that language; None counts every language together.
        """
        ...

    async def season_leaderboard(
        self,
        platform: str,
        workspace_id: str,
        game: str | None,
        season: int,
        limit: int = 10,
        language: str | None = None,
    ) -> list[LeaderboardRow]:
        """The top players of a season (the current one or an archived one); ``language`` as in
        :meth:`leaderboard`."""
        ...

    async def player_stats(self, platform: str, workspace_id: str, user_id: str) -> PlayerStats | None:
        """A player's all-time record in the workspace, or None before their first finished game."""
        ...


class SQLScores:
    """:class:`ScoreStore` in SQL."""

    def __init__(self, db: Database) -> None:
        self.db = db

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
        async with self.db.read() as tx:
            rows = await tx.fetch(_SEASON_AND_ZONE, (platform, workspace_id))
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
        async with self.db.read() as tx:
            return await self._board(tx, platform, workspace_id, game, bucket, limit, language)

    async def player_stats(self, platform: str, workspace_id: str, user_id: str) -> PlayerStats | None:
        """A player's all-time record in the workspace (every game), or None."""
        async with self.db.read() as tx:
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
