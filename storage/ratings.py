"""Skill ratings kept per player, game and language in each workspace (docs/RATINGS.md).

Storage knows no rating model: the bot hands a :class:`Rater` (``bot.core.ratings.RATER``) to each call
that changes ratings, and storage gives it plain records read from the stored results. A rating
is changed only by replaying a workspace's history in order — a finished game (rated once, by
game id) or the start of a season — and that order is kept (``rating_events``), so
:meth:`SQLRatings.rebuild_ratings` replays the same history through the same rater and arrives at
the same numbers. Every rating write first takes the workspace's row of ``rating_state`` (a row
lock on PostgreSQL), so two processes rating games of one workspace take turns.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, runtime_checkable

from storage.database import Database, Tx
from storage.rating_records import (
    PlayerRating,
    RatedGame,
    RatedSeat,
    Rater,
    RatingChange,
    RatingOutcome,
    RatingRow,
    Skill,
)
from storage.rating_replay import (
    FORGET_RATINGS,
    GAME_ROW,
    INSERT_EVENT,
    PURGE_RATINGS,
    Replay,
    rated_games,
)
from storage.scores import check_language

#: Current skills in a workspace; the people's condition (placeholders only) follows.
SKILLS = "SELECT user_id, mu, sigma FROM ratings WHERE platform = ? AND workspace_id = ?"

__all__ = [
    "FORGET_RATINGS",
    "PURGE_RATINGS",
    "PlayerRating",
    "RatedGame",
    "RatedSeat",
    "Rater",
    "RatingChange",
    "RatingOutcome",
    "RatingRow",
    "RatingStore",
    "SQLRatings",
    "Skill",
]

_BOARD = (
    "SELECT r.user_id, COALESCE(p.display_name, r.user_id), r.rating, r.games, r.wins "
    "FROM {table} r LEFT JOIN players p ON p.platform = r.platform AND p.user_id = r.user_id "
    "WHERE r.platform = ? AND r.workspace_id = ? AND {season}r.game = ? AND r.language = ? "
    "ORDER BY r.rating DESC, r.user_id LIMIT ?"
)


class SQLRatings:
    """Ratings in SQL: rating a finished game, a new season, a rebuild, and the reads."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def _state(self, tx: Tx, platform: str, workspace_id: str) -> tuple[int, int, int]:
        """Take the workspace's rating row (its lock): (last seq, the season ratings are in, the
        workspace's current season)."""
        await tx.execute(
            "INSERT INTO rating_state (platform, workspace_id, seq, season) "
            "SELECT platform, workspace_id, 0, season FROM workspaces "
            "WHERE platform = ? AND workspace_id = ? "
            "ON CONFLICT (platform, workspace_id) DO NOTHING",
            (platform, workspace_id),
        )
        await tx.execute(
            "UPDATE rating_state SET seq = seq WHERE platform = ? AND workspace_id = ?",
            (platform, workspace_id),
        )
        rows = await tx.fetch(
            "SELECT s.seq, s.season, w.season FROM rating_state s JOIN workspaces w "
            "ON w.platform = s.platform AND w.workspace_id = s.workspace_id "
            "WHERE s.platform = ? AND s.workspace_id = ?",
            (platform, workspace_id),
        )
        if not rows:
            return 0, 1, 1
        return int(rows[0][0]), int(rows[0][1]), int(rows[0][2])

    @staticmethod
    async def _seasons(
        tx: Tx, replay: Replay, platform: str, workspace_id: str, seq: int, season: int, current: int
    ) -> int:
        """Start every season from ``season`` to ``current`` (each an event); the last seq."""
        seq, events = _season_events(replay, platform, workspace_id, seq, season, current)
        if events:
            await tx.executemany(
                INSERT_EVENT,
                events,
            )
        return seq

    @staticmethod
    async def _done(tx: Tx, platform: str, workspace_id: str, seq: int, season: int) -> None:
        await tx.execute(
            "UPDATE rating_state SET seq = ?, season = ? WHERE platform = ? AND workspace_id = ?",
            (seq, season, platform, workspace_id),
        )

    async def rate_game(self, game_id: str, rater: Rater) -> list[RatingChange]:
        """Rate a finished game, exactly once by game id (in one transaction, after any season
        started since the workspace's last rated game): each person's change. A game already
        rated returns the changes it made; a game not finished (running, void, unknown) changes
        nothing."""

        async def body(tx: Tx) -> list[RatingChange]:
            rows = await tx.fetch(GAME_ROW, (game_id,))
            if not rows or rows[0][6] != "finished":
                return []
            platform, workspace_id = str(rows[0][4]), str(rows[0][5])
            seq, season, current = await self._state(tx, platform, workspace_id)
            # (asked once the workspace's row is ours: another process may have just rated it)
            if await tx.fetch("SELECT seq FROM rating_events WHERE game_id = ?", (game_id,)):
                return await self._changes(tx, game_id)
            replay = Replay(rater)
            if season < current:
                await replay.load(tx, platform, workspace_id)
            seq = await self._seasons(tx, replay, platform, workspace_id, seq, season, max(season, current))
            game = (await rated_games(tx, "g.game_id = ?", (game_id,)))[game_id]
            users = [seat.user_id for seat in game.seats if seat.person and seat.user_id is not None]
            if users:
                marks = ", ".join("?" for _ in users)
                await replay.load(
                    tx,
                    platform,
                    workspace_id,
                    f" AND game = ? AND language = ? AND user_id IN ({marks})",
                    (game.game, game.language, *users),
                )
            seq += 1
            made = replay.game(game, seq)
            await tx.execute(INSERT_EVENT, (platform, workspace_id, seq, game_id, None))
            await replay.write(tx, platform, workspace_id, self.db.clock())
            await self._done(tx, platform, workspace_id, seq, max(season, current))
            return made

        return await self.db.transaction(body)

    async def start_rating_seasons(self, platform: str, workspace_id: str, rater: Rater) -> None:
        """Carry the ratings into the workspace's current season (archiving each season that
        ended), if a season started since they were last changed."""

        async def body(tx: Tx) -> None:
            seq, season, current = await self._state(tx, platform, workspace_id)
            if season >= current:
                return
            replay = Replay(rater)
            await replay.load(tx, platform, workspace_id)
            seq = await self._seasons(tx, replay, platform, workspace_id, seq, season, current)
            await replay.write(tx, platform, workspace_id, self.db.clock())
            await self._done(tx, platform, workspace_id, seq, current)

        await self.db.transaction(body)

    async def rebuild_ratings(self, platform: str, workspace_id: str, rater: Rater) -> int:
        """Recompute every rating of the workspace from its stored results, in the order they were
        first rated (then any finished game never rated, by its end), seasons included: the
        number of games rated. Voided games never count. One transaction."""
        rated = 0

        async def body(tx: Tx) -> None:
            nonlocal rated
            rated = 0
            key = (platform, workspace_id)
            _, season, current = await self._state(tx, platform, workspace_id)
            events = await tx.fetch(
                "SELECT game_id, season FROM rating_events WHERE platform = ? AND workspace_id = ? "
                "ORDER BY seq",
                key,
            )
            games = await rated_games(tx, "g.platform = ? AND g.workspace_id = ?", key)
            unrated = await tx.fetch(
                "SELECT g.game_id FROM games g WHERE g.platform = ? AND g.workspace_id = ? "
                "AND g.status = 'finished' AND NOT EXISTS "
                "(SELECT 1 FROM rating_events e WHERE e.game_id = g.game_id) ORDER BY g.ended_at, g.game_id",
                key,
            )
            seasons_seen = sum(1 for _, number in events if number is not None)
            start = season - seasons_seen  # the season the history began in
            for statement in PURGE_RATINGS[:4]:
                await tx.execute(statement, key)
            replay = Replay(rater)
            rows: list[tuple[Any, ...]] = []
            seq = 0
            for game_id, number in [*events, *((row[0], None) for row in unrated)]:
                if number is not None:
                    seq += 1
                    replay.season(int(number) - 1)
                    start = int(number)
                    rows.append((platform, workspace_id, seq, None, int(number)))
                elif str(game_id) in games:
                    seq += 1
                    replay.game(games[str(game_id)], seq)
                    rated += 1
                    rows.append((platform, workspace_id, seq, str(game_id), None))
            seq, started = _season_events(replay, platform, workspace_id, seq, start, current)
            rows += started
            if rows:
                await tx.executemany(
                    INSERT_EVENT,
                    rows,
                )
            await replay.write(tx, platform, workspace_id, self.db.clock())
            await self._done(tx, platform, workspace_id, seq, max(start, current))

        await self.db.transaction(body)
        return rated

    # ------------------------------------------------------------ reads

    @staticmethod
    async def _changes(tx: Tx, game_id: str) -> list[RatingChange]:
        rows = await tx.fetch(
            "SELECT user_id, game, language, before, after, games, won, beaten FROM rating_changes "
            "WHERE game_id = ? ORDER BY user_id",
            (game_id,),
        )
        return [
            RatingChange(
                str(user),
                str(game),
                str(lang),
                float(before),
                float(after),
                int(games),
                bool(won),
                None if beaten is None else float(beaten),
            )
            for user, game, lang, before, after, games, won, beaten in rows
        ]

    async def game_rating_changes(self, game_id: str) -> list[RatingChange]:
        """What a rated game did to each person's rating (none before it is rated)."""
        async with self.db.read() as tx:
            return await self._changes(tx, game_id)

    async def rating_board(
        self,
        platform: str,
        workspace_id: str,
        game: str,
        language: str,
        limit: int = 10,
        season: int | None = None,
    ) -> list[RatingRow]:
        """The top ``limit`` ratings of a game in a language, best first (one index read); of an
        archived season when ``season`` is given."""
        check_language(language)
        args: tuple[Any, ...]
        if season is None:
            sql = _BOARD.format(table="ratings", season="")
            args = (platform, workspace_id, game, language, limit)
        else:
            sql = _BOARD.format(table="season_ratings", season="r.season = ? AND ")
            args = (platform, workspace_id, int(season), game, language, limit)
        async with self.db.read() as tx:
            rows = await tx.fetch(sql, args)
        out: list[RatingRow] = []
        rank, previous = 0, None
        for position, (user, name, rating, games, wins) in enumerate(rows, start=1):
            if round(float(rating)) != previous:
                rank, previous = position, round(float(rating))
            out.append(RatingRow(rank, str(user), str(name), float(rating), int(games), int(wins)))
        return out

    async def season_rating_games(
        self, platform: str, workspace_id: str, season: int
    ) -> list[tuple[str, str]]:
        """(game, language) of every rating archived at the end of ``season``."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT DISTINCT game, language FROM season_ratings WHERE platform = ? AND workspace_id = ? "
                "AND season = ? ORDER BY game, language",
                (platform, workspace_id, int(season)),
            )
        return [(str(g), str(lang)) for g, lang in rows]

    async def player_ratings(
        self, platform: str, workspace_id: str, user_id: str, trend: int = 10, best: int = 3
    ) -> list[PlayerRating]:
        """A person's ratings in the workspace (most played first), each with the ratings after its
        last ``trend`` games and the ``best`` ratings beaten in wins."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT game, language, rating, mu, sigma, games, wins FROM ratings "
                "WHERE platform = ? AND workspace_id = ? AND user_id = ? ORDER BY games DESC, game, language",
                (platform, workspace_id, user_id),
            )
            out: list[PlayerRating] = []
            for game, lang, rating, mu, sigma, games, wins in rows:
                key = (platform, workspace_id, user_id, game, lang)
                recent = await tx.fetch(
                    "SELECT after FROM rating_changes WHERE platform = ? AND workspace_id = ? "
                    "AND user_id = ? AND game = ? AND language = ? ORDER BY seq DESC LIMIT ?",
                    (*key, int(trend)),
                )
                wins_over = await tx.fetch(
                    "SELECT beaten FROM rating_changes WHERE platform = ? AND workspace_id = ? "
                    "AND user_id = ? AND game = ? AND language = ? AND beaten IS NOT NULL "
                    "ORDER BY beaten DESC LIMIT ?",
                    (*key, int(best)),
                )
                out.append(
                    PlayerRating(
                        str(game),
                        str(lang),
                        float(rating),
                        float(mu),
                        float(sigma),
                        int(games),
                        int(wins),
                        tuple(float(r[0]) for r in reversed(recent)),
                        tuple(float(r[0]) for r in wins_over),
                    )
                )
        return out

    async def skills(
        self, platform: str, workspace_id: str, game: str, language: str, user_ids: Sequence[str]
    ) -> dict[str, Skill]:
        """The current skills of these people in a game and language (those rated)."""
        if not user_ids:
            return {}
        marks = ", ".join("?" for _ in user_ids)
        async with self.db.read() as tx:
            rows = await tx.fetch(
                SKILLS + f" AND game = ? AND language = ? AND user_id IN ({marks})",
                (platform, workspace_id, game, language, *user_ids),
            )
        return {str(user): Skill(float(mu), float(sigma)) for user, mu, sigma in rows}


@runtime_checkable
class RatingStore(Protocol):
    """Skill ratings: rating finished games, seasons, rebuilds and the reads."""

    async def rate_game(self, game_id: str, rater: Rater) -> list[RatingChange]:
        """Rate a finished game, exactly once by game id; each person's change."""
        ...

    async def start_rating_seasons(self, platform: str, workspace_id: str, rater: Rater) -> None:
        """Carry the ratings into the workspace's current season (archiving the ended ones)."""
        ...

    async def rebuild_ratings(self, platform: str, workspace_id: str, rater: Rater) -> int:
        """Recompute every rating of the workspace from the stored results, in order."""
        ...

    async def game_rating_changes(self, game_id: str) -> list[RatingChange]:
        """What a rated game did to each person's rating."""
        ...

    async def rating_board(
        self,
        platform: str,
        workspace_id: str,
        game: str,
        language: str,
        limit: int = 10,
        season: int | None = None,
    ) -> list[RatingRow]:
        """The top ratings of a game in a language (now, or at the end of an archived season)."""
        ...

    async def season_rating_games(
        self, platform: str, workspace_id: str, season: int
    ) -> list[tuple[str, str]]:
        """(game, language) of every rating archived at the end of ``season``."""
        ...

    async def player_ratings(
        self, platform: str, workspace_id: str, user_id: str, trend: int = 10, best: int = 3
    ) -> list[PlayerRating]:
        """A person's ratings in the workspace, with trends and best wins."""
        ...

    async def skills(
        self, platform: str, workspace_id: str, game: str, language: str, user_ids: Sequence[str]
    ) -> dict[str, Skill]:
        """The current skills of these people in a game and language."""
        ...


def _season_events(
    replay: Replay, platform: str, workspace_id: str, seq: int, season: int, current: int
) -> tuple[int, list[tuple[Any, ...]]]:
    """Start every season from ``season`` to ``current`` in ``replay``: the last seq, and the
    rating events (rows of ``INSERT_EVENT``) that record them."""
    events: list[tuple[Any, ...]] = []
    while season < current:
        seq += 1
        replay.season(season)
        season += 1
        events.append((platform, workspace_id, seq, None, season))
    return seq, events
