"""The daily's attempts: one per person per day, shared by every process.

A person's attempt of a date is one row keyed by (platform, user id, date): starting it is an
INSERT that only the first caller's makes, so a second attempt the same day is refused on every
process and in every workspace (the deal is the same everywhere, so it is once per person, not
per workspace). The row points at the recorded game, which is how a daily interrupted by a crash
resumes (bot/hosting/recovery.py resumes it like any game); at its end it keeps the cards taken, the
points, the seconds played and the streak (consecutive dates finished, up to this one).
Dates are the daily's UTC dates as text (``YYYY-MM-DD``, :func:`games.race.daily.daily_day`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta
from typing import Protocol, runtime_checkable

from storage.database import Database, Row, Tx

#: The game id of every daily starts with this: the game log records a daily's end without
#: scores or a rating (it has its own board), on every process and after a restart.
DAILY_GAME_PREFIX = "daily-"

#: Why a daily's game is recorded as not counting (its result is in ``daily_plays``).
DAILY_NOT_SCORED = "a daily: its result counts on the daily board only"


def is_daily_game(game_id: str) -> bool:
    """Whether ``game_id`` is a daily's game."""
    return game_id.startswith(DAILY_GAME_PREFIX)


#: What forget-me and a purge delete, each taking (platform, workspace_id, user_id) and
#: (platform, workspace_id): a forgotten person's attempts go (so does their streak).
FORGET_DAILY = ("DELETE FROM daily_plays WHERE platform = ? AND workspace_id = ? AND user_id = ?",)
PURGE_DAILY = ("DELETE FROM daily_plays WHERE platform = ? AND workspace_id = ?",)

_SELECT = (
    "SELECT platform, user_id, day, workspace_id, language, game_id, started_at, ended_at, cards, "
    "points, seconds, streak, shared_at FROM daily_plays WHERE "
)


@dataclass(frozen=True, slots=True)
class DailyPlay:
    """One person's daily of one date; the result fields are None until it ends."""

    platform: str
    user_id: str
    day: str
    workspace_id: str
    language: str
    game_id: str
    started_at: float
    ended_at: float | None = None
    cards: int | None = None
    points: int | None = None
    seconds: float | None = None
    streak: int | None = None
    shared_at: float | None = None

    @property
    def playing(self) -> bool:
        """Started and not ended yet."""
        return self.ended_at is None

    @property
    def finished(self) -> bool:
        """Ended with a result (not voided)."""
        return self.ended_at is not None and self.cards is not None


def _play(row: Row) -> DailyPlay:
    platform, user, day, workspace, lang, game_id, started, ended, cards, points, secs, streak, shared = row
    return DailyPlay(
        str(platform),
        str(user),
        str(day),
        str(workspace),
        str(lang),
        str(game_id),
        float(started),
        None if ended is None else float(ended),
        None if cards is None else int(cards),
        None if points is None else int(points),
        None if secs is None else float(secs),
        None if streak is None else int(streak),
        None if shared is None else float(shared),
    )


def previous_day(day: str) -> str:
    """The date before ``day`` (both ``YYYY-MM-DD``)."""
    return (date.fromisoformat(day) - timedelta(days=1)).isoformat()


@runtime_checkable
class DailyStore(Protocol):
    """The daily's attempts."""

    async def begin_daily(
        self,
        platform: str,
        workspace_id: str,
        user_id: str,
        day: str,
        language: str,
        game_id: str,
        now: float,
    ) -> DailyPlay:
        """Record the start of a person's daily of ``day`` as ``game_id``, unless they started one
        already: the row either way (its ``game_id`` is not ours: refused, played already)."""
        ...

    async def finish_daily(
        self, game_id: str, cards: int, points: int, seconds: float, now: float
    ) -> DailyPlay | None:
        """Keep the result of the daily played as ``game_id`` and its streak (None: not a daily,
        or ended already)."""
        ...

    async def void_daily(self, game_id: str, now: float) -> DailyPlay | None:
        """End the daily played as ``game_id`` without a result (the attempt stays used)."""
        ...

    async def daily_play(self, platform: str, user_id: str, day: str) -> DailyPlay | None:
        """A person's daily of ``day``, if they started it."""
        ...

    async def daily_of_game(self, game_id: str) -> DailyPlay | None:
        """The daily played as ``game_id`` (None: that game is not a daily)."""
        ...

    async def mark_daily_shared(self, platform: str, user_id: str, day: str, now: float) -> bool:
        """Note that the finished daily was shared (False: there is no finished daily to share)."""
        ...

    async def daily_board(self, platform: str, workspace_id: str, day: str, limit: int) -> list[DailyPlay]:
        """The finished dailies of ``day`` in a workspace: most points first, then most cards,
        then the quickest."""
        ...

    async def daily_names(self, platform: str, workspace_id: str, day: str) -> dict[str, str]:
        """The display names moji knows of the workspace's players of the dailies of ``day`` and
        the day before (everyone its board and current streaks can show; a forgotten person has
        none)."""
        ...

    async def daily_streaks(
        self, platform: str, workspace_id: str, day: str, limit: int
    ) -> list[tuple[str, int]]:
        """(user id, current streak) of the workspace's players, longest first: a streak is
        current while its last date is ``day`` or the day before."""
        ...


class SQLDaily:
    """:class:`DailyStore` in SQL."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def begin_daily(
        self,
        platform: str,
        workspace_id: str,
        user_id: str,
        day: str,
        language: str,
        game_id: str,
        now: float,
    ) -> DailyPlay:
        """Start a daily once (see :class:`DailyStore`): one INSERT only the first caller's makes."""
        async with self.db.write() as tx:
            await tx.execute(
                "INSERT INTO daily_plays (platform, user_id, day, workspace_id, language, game_id, "
                "started_at) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (platform, user_id, day, workspace_id, language, game_id, float(now)),
            )
            rows = await tx.fetch(
                _SELECT + "platform = ? AND user_id = ? AND day = ?", (platform, user_id, day)
            )
        return _play(rows[0])

    async def finish_daily(
        self, game_id: str, cards: int, points: int, seconds: float, now: float
    ) -> DailyPlay | None:
        """Keep a daily's result and streak (see :class:`DailyStore`)."""
        async with self.db.write() as tx:
            play = await _of_game(tx, game_id)
            if play is None or not play.playing:
                return None
            before = await tx.fetch(
                "SELECT streak FROM daily_plays WHERE platform = ? AND user_id = ? AND day = ? "
                "AND cards IS NOT NULL",
                (play.platform, play.user_id, previous_day(play.day)),
            )
            streak = (int(before[0][0] or 0) if before else 0) + 1
            await tx.execute(
                "UPDATE daily_plays SET ended_at = ?, cards = ?, points = ?, seconds = ?, streak = ? "
                "WHERE game_id = ? AND ended_at IS NULL",
                (float(now), int(cards), int(points), float(seconds), streak, game_id),
            )
            return await _of_game(tx, game_id)

    async def void_daily(self, game_id: str, now: float) -> DailyPlay | None:
        """End a daily without a result (see :class:`DailyStore`)."""
        async with self.db.write() as tx:
            await tx.execute(
                "UPDATE daily_plays SET ended_at = ? WHERE game_id = ? AND ended_at IS NULL",
                (float(now), game_id),
            )
            return await _of_game(tx, game_id)

    async def daily_play(self, platform: str, user_id: str, day: str) -> DailyPlay | None:
        """A person's daily of a date (see :class:`DailyStore`)."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                _SELECT + "platform = ? AND user_id = ? AND day = ?", (platform, user_id, day)
            )
        return _play(rows[0]) if rows else None

    async def daily_of_game(self, game_id: str) -> DailyPlay | None:
        """The daily of a game (see :class:`DailyStore`)."""
        async with self.db.read() as tx:
            return await _of_game(tx, game_id)

    async def mark_daily_shared(self, platform: str, user_id: str, day: str, now: float) -> bool:
        """Note a share (see :class:`DailyStore`)."""
        async with self.db.write() as tx:
            changed = await tx.execute(
                "UPDATE daily_plays SET shared_at = ? WHERE platform = ? AND user_id = ? AND day = ? "
                "AND cards IS NOT NULL",
                (float(now), platform, user_id, day),
            )
        return changed == 1

    async def daily_board(self, platform: str, workspace_id: str, day: str, limit: int) -> list[DailyPlay]:
        """A day's finished dailies in a workspace, best first (see :class:`DailyStore`)."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                _SELECT + "platform = ? AND workspace_id = ? AND day = ? AND cards IS NOT NULL "
                "ORDER BY points DESC, cards DESC, seconds ASC, user_id ASC LIMIT ?",
                (platform, workspace_id, day, int(limit)),
            )
        return [_play(row) for row in rows]

    async def daily_streaks(
        self, platform: str, workspace_id: str, day: str, limit: int
    ) -> list[tuple[str, int]]:
        """The workspace's current streaks, longest first (see :class:`DailyStore`)."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT user_id, MAX(streak) FROM daily_plays WHERE platform = ? AND workspace_id = ? "
                "AND day IN (?, ?) AND cards IS NOT NULL GROUP BY user_id "
                "ORDER BY MAX(streak) DESC, user_id ASC LIMIT ?",
                (platform, workspace_id, day, previous_day(day), int(limit)),
            )
        return [(str(user), int(streak)) for user, streak in rows]

    async def daily_names(self, platform: str, workspace_id: str, day: str) -> dict[str, str]:
        """Display names (see :class:`DailyStore`)."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT DISTINCT d.user_id, p.display_name FROM daily_plays d JOIN players p "
                "ON p.platform = d.platform AND p.user_id = d.user_id "
                "WHERE d.platform = ? AND d.workspace_id = ? AND d.day IN (?, ?)",
                (platform, workspace_id, day, previous_day(day)),
            )
        return {str(user): str(name) for user, name in rows}


async def _of_game(tx: Tx, game_id: str) -> DailyPlay | None:
    rows = await tx.fetch(_SELECT + "game_id = ?", (game_id,))
    return _play(rows[0]) if rows else None
