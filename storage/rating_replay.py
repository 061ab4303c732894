"""Replaying a workspace's rating history (:mod:`storage.ratings`): the current ratings of those
involved, what each finished game or new season does to them through the :class:`Rater`, and
writing that back. Rating a game as it ends and a rebuild run the same code on the same history
in the same order, so they arrive at the same numbers."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from storage.database import Row, Tx
from storage.rating_records import RatedGame, RatedSeat, Rater, RatingChange, Skill


@dataclass(slots=True)
class _Current:
    skill: Skill
    games: int
    wins: int


#: (game, language, person) → the current rating, while replaying.
_Key = tuple[str, str, str]

GAME_ROW = (
    "SELECT game_id, game, language, seats, platform, workspace_id, status FROM games WHERE game_id = ?"
)
_UPSERT = (
    "INSERT INTO ratings (platform, workspace_id, game, language, user_id, mu, sigma, rating, games, wins, "
    "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (platform, workspace_id, game, language, user_id) DO UPDATE SET mu = excluded.mu, "
    "sigma = excluded.sigma, rating = excluded.rating, games = excluded.games, wins = excluded.wins, "
    "updated_at = excluded.updated_at"
)
_CHANGE = (
    "INSERT INTO rating_changes (game_id, platform, workspace_id, game, language, user_id, seq, before, "
    "after, games, won, beaten) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
INSERT_EVENT = (
    "INSERT INTO rating_events (platform, workspace_id, seq, game_id, season) VALUES (?, ?, ?, ?, ?)"
)
_ARCHIVE = (
    "INSERT INTO season_ratings (platform, workspace_id, season, game, language, user_id, mu, sigma, rating, "
    "games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
#: What a purge deletes (each statement takes platform, workspace_id).
PURGE_RATINGS = (
    "DELETE FROM ratings WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM rating_changes WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM season_ratings WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM rating_events WHERE platform = ? AND workspace_id = ?",
    "DELETE FROM rating_state WHERE platform = ? AND workspace_id = ?",
)
#: What forget-me deletes (each statement takes platform, workspace_id, user_id).
FORGET_RATINGS = (
    "DELETE FROM ratings WHERE platform = ? AND workspace_id = ? AND user_id = ?",
    "DELETE FROM rating_changes WHERE platform = ? AND workspace_id = ? AND user_id = ?",
    "DELETE FROM season_ratings WHERE platform = ? AND workspace_id = ? AND user_id = ?",
)
#: A workspace's current ratings; a caller's fixed condition (placeholders only) may follow.
LOAD_RATINGS = (
    "SELECT game, language, user_id, mu, sigma, games, wins FROM ratings "
    "WHERE platform = ? AND workspace_id = ?"
)
#: Finished games (``games g``) and their results; a caller's fixed condition follows the AND.
RATED_GAMES = "SELECT g.game_id, g.game, g.language, g.seats FROM games g WHERE g.status = 'finished' AND "
RATED_RESULTS = (
    "SELECT r.game_id, r.seat_id, r.user_id, r.points, r.won, r.team FROM results r "
    "JOIN games g ON g.game_id = r.game_id WHERE g.status = 'finished' AND "
)


def _seats(seats_json: str, results: Sequence[Row]) -> tuple[RatedSeat, ...]:
    """The game's seats in seat order (the ``games.seats`` JSON), with their results; a result
    whose seat is not listed comes after, by seat id. The order is the same on every read."""
    order: dict[str, tuple[int, str | None]] = {}
    for index, seat in enumerate(json.loads(seats_json)):
        order.setdefault(str(seat["id"]), (index, seat.get("bot")))
    found = [
        RatedSeat(
            seat_id=str(seat_id),
            user_id=None if user_id is None else str(user_id),
            bot=order.get(str(seat_id), (0, None))[1],
            points=int(points),
            won=bool(won),
            team=None if team is None else int(team),
        )
        for _, seat_id, user_id, points, won, team in results
    ]
    return tuple(
        sorted(found, key=lambda s: (s.seat_id not in order, order.get(s.seat_id, (0, None))[0], s.seat_id))
    )


def _person(seat: RatedSeat) -> str:
    """Who a person's seat is, for their rating: their user id, or the forgotten seat's id."""
    return seat.user_id if seat.user_id is not None else seat.seat_id


class Replay:
    """A workspace's ratings being changed: the current ones of those involved, and what changed."""

    def __init__(self, rater: Rater) -> None:
        self.rater = rater
        self.current: dict[_Key, _Current] = {}
        #: ratings changed (written back), and those of forgotten people (never written)
        self.touched: set[_Key] = set()
        self.anonymous: set[_Key] = set()
        #: (game_id, seq, change) of every person with a user id
        self.changes: list[tuple[str, int, RatingChange]] = []
        #: (season, key, current) archived at each season's end
        self.archived: list[tuple[int, _Key, _Current]] = []

    def game(self, game: RatedGame, seq: int) -> list[RatingChange]:
        """Rate one finished game; the changes of its people who have a user id."""
        people = [seat for seat in game.seats if seat.person]
        keys = {seat.seat_id: (game.game, game.language, _person(seat)) for seat in people}
        before = {sid: self.current[key].skill for sid, key in keys.items() if key in self.current}
        outcome = self.rater.rate(game, before)
        made: list[RatingChange] = []
        for seat in people:
            skill = outcome.after.get(seat.seat_id)
            if skill is None:
                continue
            key = keys[seat.seat_id]
            old = self.current.get(key)
            now = _Current(skill, (old.games if old else 0) + 1, (old.wins if old else 0) + int(seat.won))
            self.current[key] = now
            self.touched.add(key)
            if seat.user_id is None:
                self.anonymous.add(key)
                continue
            change = RatingChange(
                seat.user_id,
                game.game,
                game.language,
                self.rater.shown(old.skill if old else self.rater.newcomer()),
                self.rater.shown(skill),
                now.games,
                seat.won,
                outcome.beaten.get(seat.seat_id),
            )
            made.append(change)
            self.changes.append((game.game_id, seq, change))
        return made

    def season(self, ended: int) -> None:
        """Season ``ended`` is over: archive every rating, and carry each into the next."""
        for key, current in sorted(self.current.items()):
            if key not in self.anonymous:
                self.archived.append((ended, key, current))
            self.current[key] = _Current(self.rater.new_season(current.skill), current.games, current.wins)
            self.touched.add(key)

    async def write(self, tx: Tx, platform: str, workspace_id: str, now: float) -> None:
        """Write what changed: ratings, changes and archived seasons (never a forgotten person's)."""
        rows = [
            (
                platform,
                workspace_id,
                game,
                lang,
                person,
                c.skill.mu,
                c.skill.sigma,
                self.rater.shown(c.skill),
                c.games,
                c.wins,
                now,
            )
            for (game, lang, person), c in ((key, self.current[key]) for key in sorted(self.touched))
            if (game, lang, person) not in self.anonymous
        ]
        if rows:
            await tx.executemany(_UPSERT, rows)
        if self.changes:
            await tx.executemany(
                _CHANGE,
                [
                    (
                        game_id,
                        platform,
                        workspace_id,
                        c.game,
                        c.language,
                        c.user_id,
                        seq,
                        c.before,
                        c.after,
                        c.games,
                        int(c.won),
                        c.beaten,
                    )
                    for game_id, seq, c in self.changes
                ],
            )
        if self.archived:
            await tx.executemany(
                _ARCHIVE,
                [
                    (
                        platform,
                        workspace_id,
                        season,
                        game,
                        lang,
                        person,
                        c.skill.mu,
                        c.skill.sigma,
                        self.rater.shown(c.skill),
                        c.games,
                        c.wins,
                    )
                    for season, (game, lang, person), c in self.archived
                ],
            )

    async def load(
        self, tx: Tx, platform: str, workspace_id: str, where: str = "", args: tuple[Any, ...] = ()
    ) -> None:
        """Read current ratings of the workspace (those ``where`` selects) not read yet."""
        rows = await tx.fetch(
            LOAD_RATINGS + where,
            (platform, workspace_id, *args),
        )
        for game, lang, user, mu, sigma, games, wins in rows:
            self.current.setdefault(
                (str(game), str(lang), str(user)),
                _Current(Skill(float(mu), float(sigma)), int(games), int(wins)),
            )


async def rated_games(tx: Tx, where: str, args: tuple[Any, ...]) -> dict[str, RatedGame]:
    """The finished games ``where`` selects (on ``games g``), with their results, by game id."""
    games = await tx.fetch(
        RATED_GAMES + where,
        args,
    )
    results = await tx.fetch(
        RATED_RESULTS + where,
        args,
    )
    by_game: dict[str, list[Row]] = {}
    for row in results:
        by_game.setdefault(str(row[0]), []).append(row)
    return {
        str(game_id): RatedGame(
            str(game_id), str(game), str(lang), _seats(seats, by_game.get(str(game_id), []))
        )
        for game_id, game, lang, seats in games
    }
