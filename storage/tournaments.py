"""Tournaments: who entered, each round's games and their results, shared by every process.

A tournament is announced in one channel (one open or running per channel). Each step that
must happen once, whichever process or restart gets there first, is one guarded write
(docs/TOURNAMENTS.md, "Survives a crash"):

- a round is paired by :meth:`TournamentStore.begin_round`, whose UPDATE moves ``round`` from
  the previous number only once; its games and seats are inserted in the same transaction;
- a game's result is kept by :meth:`TournamentStore.finish_tournament_game`, whose UPDATE
  moves the game from ``playing`` to ``done`` only once, with its seats' points;
- the tournament ends by :meth:`TournamentStore.end_tournament`, once.

Forget-me anonymises a person's entries and seats (the other players' standings stand);
a purge deletes every row of the workspace's tournaments (storage/privacy.py).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from storage.database import Database, Row, Tx
from storage.tournament_records import (
    Entry,
    NewGame,
    SeatResult,
    Tournament,
    TournamentGame,
    tournament_game_id,
)

#: What a purge deletes, each statement taking (platform, workspace_id).
PURGE_TOURNAMENTS = (
    "DELETE FROM tournament_seats WHERE tournament_id IN "
    "(SELECT tournament_id FROM tournaments WHERE platform = ? AND workspace_id = ?)",
    "DELETE FROM tournament_games WHERE tournament_id IN "
    "(SELECT tournament_id FROM tournaments WHERE platform = ? AND workspace_id = ?)",
    "DELETE FROM tournament_players WHERE tournament_id IN "
    "(SELECT tournament_id FROM tournaments WHERE platform = ? AND workspace_id = ?)",
    "DELETE FROM tournaments WHERE platform = ? AND workspace_id = ?",
)


async def forget_in_tournaments(
    tx: Tx, platform: str, workspace_id: str, user_id: str, former: str, former_name: str, now: float
) -> None:
    """Anonymise ``user_id`` in the workspace's tournaments (withdrawn from any still open)."""
    await tx.execute(
        "UPDATE tournament_players SET user_id = ?, name = ?, left_at = COALESCE(left_at, ?) "
        "WHERE user_id = ? AND tournament_id IN "
        "(SELECT tournament_id FROM tournaments WHERE platform = ? AND workspace_id = ?)",
        (former, former_name, float(now), user_id, platform, workspace_id),
    )
    await tx.execute(
        "UPDATE tournament_seats SET user_id = ? WHERE user_id = ? AND tournament_id IN "
        "(SELECT tournament_id FROM tournaments WHERE platform = ? AND workspace_id = ?)",
        (former, user_id, platform, workspace_id),
    )
    await tx.execute(
        "UPDATE tournaments SET created_by = ?, created_by_name = ? "
        "WHERE platform = ? AND workspace_id = ? AND created_by = ?",
        (former, former_name, platform, workspace_id, user_id),
    )


#: The start of every read of tournaments and of their games (a condition follows).
_SELECT_T = (
    "SELECT tournament_id, platform, workspace_id, channel_id, format, game, options, rounds, "
    "round_seconds, speech, created_by, created_by_name, created_at, starts_at, state, round, "
    "round_ends_at, ended_at FROM tournaments WHERE "
)
_SELECT_G = (
    "SELECT tournament_id, round, board, game_id, thread_id, state, how, started_at, ended_at "
    "FROM tournament_games WHERE "
)


def _tournament(row: Row) -> Tournament:
    (tid, platform, ws, channel, fmt, game, options, rounds, secs, speech, by, by_name, created, starts,
     state, round_no, ends, ended) = row  # fmt: skip
    return Tournament(
        str(tid),
        str(platform),
        str(ws),
        str(channel),
        str(fmt),
        str(game),
        tuple(str(o) for o in json.loads(str(options))),
        int(rounds),
        float(secs),
        str(speech),
        str(by),
        str(by_name),
        float(created),
        None if starts is None else float(starts),
        str(state),
        int(round_no),
        None if ends is None else float(ends),
        None if ended is None else float(ended),
    )


def _optional_float(value: Any) -> float | None:
    return None if value is None else float(value)


class SQLTournaments:
    """:class:`TournamentStore` in SQL."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Save a tournament unless the channel has a live one (see :class:`TournamentStore`)."""
        t = tournament
        async with self.db.write() as tx:
            live = await _live(tx, t.platform, t.workspace_id, t.channel_id)
            if live is not None:
                return live
            # (another process may open one between the look above and this insert: on
            # PostgreSQL the insert then waits for it and does nothing, and that one is returned)
            inserted = await tx.execute(
                "INSERT INTO tournaments (tournament_id, platform, workspace_id, channel_id, format, game, "
                "options, rounds, round_seconds, speech, created_by, created_by_name, created_at, starts_at, "
                "state, round, round_ends_at, ended_at) VALUES "
                "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                "ON CONFLICT (platform, workspace_id, channel_id) "
                "WHERE state IN ('registering', 'running') DO NOTHING",
                (
                    t.tournament_id, t.platform, t.workspace_id, t.channel_id, t.format, t.game,
                    json.dumps(list(t.options)), int(t.rounds), float(t.round_seconds), t.speech,
                    t.created_by, t.created_by_name, float(t.created_at), _optional_float(t.starts_at),
                    t.state, int(t.round), _optional_float(t.round_ends_at), _optional_float(t.ended_at),
                ),
            )  # fmt: skip
            if inserted != 1:
                live = await _live(tx, t.platform, t.workspace_id, t.channel_id)
                if live is not None:
                    return live
            return await _one(tx, t.tournament_id) or t

    async def tournament(self, tournament_id: str) -> Tournament | None:
        """A tournament by id."""
        async with self.db.read() as tx:
            return await _one(tx, tournament_id)

    async def live_tournament(self, platform: str, workspace_id: str, channel_id: str) -> Tournament | None:
        """The channel's live tournament."""
        async with self.db.read() as tx:
            return await _live(tx, platform, workspace_id, channel_id)

    async def live_tournaments(self, platform: str) -> list[Tournament]:
        """Every live tournament of a platform, oldest first."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                _SELECT_T + "platform = ? "
                "AND state IN ('registering', 'running') ORDER BY created_at, tournament_id",
                (platform,),
            )
        return [_tournament(row) for row in rows]

    async def recent_tournaments(self, platform: str, workspace_id: str, limit: int) -> list[Tournament]:
        """A workspace's tournaments, newest first."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                _SELECT_T + "platform = ? AND workspace_id = ? "
                "ORDER BY created_at DESC, tournament_id LIMIT ?",
                (platform, workspace_id, int(limit)),
            )
        return [_tournament(row) for row in rows]

    async def start_tournament(self, tournament_id: str, now: float) -> bool:
        """Close registration, once."""
        async with self.db.write() as tx:
            changed = await tx.execute(
                "UPDATE tournaments SET state = 'running', starts_at = ? "
                "WHERE tournament_id = ? AND state = 'registering'",
                (float(now), tournament_id),
            )
        return changed == 1

    async def end_tournament(self, tournament_id: str, state: str, now: float) -> bool:
        """End a live tournament, once."""
        async with self.db.write() as tx:
            changed = await tx.execute(
                "UPDATE tournaments SET state = ?, ended_at = ? "
                "WHERE tournament_id = ? AND state IN ('registering', 'running')",
                (state, float(now), tournament_id),
            )
        return changed == 1

    async def join_tournament(
        self, tournament_id: str, user_id: str, name: str, rating: float, now: float
    ) -> bool:
        """Enter (or re-enter) a player."""
        async with self.db.write() as tx:
            inserted = await tx.execute(
                "INSERT INTO tournament_players (tournament_id, user_id, name, rating, joined_at) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (tournament_id, user_id, name, float(rating), float(now)),
            )
            if inserted == 1:
                return True
            back = await tx.execute(
                "UPDATE tournament_players SET left_at = NULL, name = ? "
                "WHERE tournament_id = ? AND user_id = ? AND left_at IS NOT NULL",
                (name, tournament_id, user_id),
            )
        return back == 1

    async def leave_tournament(self, tournament_id: str, user_id: str, now: float) -> bool:
        """Withdraw a player."""
        async with self.db.write() as tx:
            changed = await tx.execute(
                "UPDATE tournament_players SET left_at = ? "
                "WHERE tournament_id = ? AND user_id = ? AND left_at IS NULL",
                (float(now), tournament_id, user_id),
            )
        return changed == 1

    async def entries(self, tournament_id: str) -> list[Entry]:
        """Everyone who entered, in the order they joined."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT user_id, name, rating, joined_at, left_at FROM tournament_players "
                "WHERE tournament_id = ? ORDER BY joined_at, user_id",
                (tournament_id,),
            )
        return [Entry(str(u), str(n), float(r), float(j), _optional_float(left)) for u, n, r, j, left in rows]

    async def begin_round(
        self, tournament_id: str, round_no: int, ends_at: float | None, games: Sequence[NewGame], now: float
    ) -> bool:
        """Pair a round, once (see :class:`TournamentStore`)."""
        async with self.db.write() as tx:
            changed = await tx.execute(
                "UPDATE tournaments SET round = ?, round_ends_at = ?, state = 'running' "
                "WHERE tournament_id = ? AND round = ? AND state IN ('registering', 'running')",
                (int(round_no), _optional_float(ends_at), tournament_id, int(round_no) - 1),
            )
            if changed != 1:
                return False
            for game in games:
                game_id = tournament_game_id(tournament_id, round_no, game.board)
                await tx.execute(
                    "INSERT INTO tournament_games (tournament_id, round, board, game_id, thread_id, state, "
                    "how, started_at, ended_at) VALUES (?, ?, ?, ?, NULL, ?, ?, ?, ?)",
                    (
                        tournament_id,
                        int(round_no),
                        int(game.board),
                        game_id,
                        "done" if game.done else "playing",
                        game.how,
                        float(now),
                        float(now) if game.done else None,
                    ),
                )
                results = {r.user_id: r for r in game.done}
                await tx.executemany(
                    "INSERT INTO tournament_seats (tournament_id, round, board, seat, user_id, score, "
                    "place, points) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [
                        (
                            tournament_id,
                            int(round_no),
                            int(game.board),
                            seat,
                            user,
                            *(_seat_values(results.get(user))),
                        )
                        for seat, user in enumerate(game.seats)
                    ],
                )
        return True

    async def claim_tournament_game(self, game_id: str, where: str) -> bool:
        """Claim a game's start, once."""
        async with self.db.write() as tx:
            changed = await tx.execute(
                "UPDATE tournament_games SET thread_id = ? WHERE game_id = ? AND thread_id IS NULL "
                "AND state = 'playing'",
                (where, game_id),
            )
        return changed == 1

    async def release_tournament_game(self, game_id: str) -> None:
        """Give a claimed start back."""
        async with self.db.write() as tx:
            await tx.execute(
                "UPDATE tournament_games SET thread_id = NULL WHERE game_id = ? AND state = 'playing'",
                (game_id,),
            )

    async def set_game_thread(self, game_id: str, thread_id: str) -> None:
        """Note where a game is played."""
        async with self.db.write() as tx:
            await tx.execute(
                "UPDATE tournament_games SET thread_id = ? WHERE game_id = ?", (thread_id, game_id)
            )

    async def finish_tournament_game(
        self, game_id: str, seats: Sequence[SeatResult], how: str, now: float
    ) -> bool:
        """Keep a game's result, once."""
        async with self.db.write() as tx:
            changed = await tx.execute(
                "UPDATE tournament_games SET state = 'done', how = ?, ended_at = ? "
                "WHERE game_id = ? AND state = 'playing'",
                (how, float(now), game_id),
            )
            if changed != 1:
                return False
            for result in seats:
                await tx.execute(
                    "UPDATE tournament_seats SET score = ?, place = ?, points = ? WHERE user_id = ? AND "
                    "(tournament_id, round, board) IN "
                    "(SELECT tournament_id, round, board FROM tournament_games WHERE game_id = ?)",
                    (*_seat_values(result), result.user_id, game_id),
                )
        return True

    async def tournament_games(self, tournament_id: str) -> list[TournamentGame]:
        """Every game of a tournament, by round and board."""
        async with self.db.read() as tx:
            games = await tx.fetch(
                _SELECT_G + "tournament_id = ? ORDER BY round, board",
                (tournament_id,),
            )
            seats = await tx.fetch(
                "SELECT round, board, user_id, score, place, points FROM tournament_seats "
                "WHERE tournament_id = ? ORDER BY round, board, seat",
                (tournament_id,),
            )
        return _games(games, seats)

    async def tournament_game(self, game_id: str) -> TournamentGame | None:
        """One game by its game id."""
        async with self.db.read() as tx:
            games = await tx.fetch(_SELECT_G + "game_id = ?", (game_id,))
            if not games:
                return None
            tid, round_no, board = games[0][0], games[0][1], games[0][2]
            seats = await tx.fetch(
                "SELECT round, board, user_id, score, place, points FROM tournament_seats "
                "WHERE tournament_id = ? AND round = ? AND board = ? ORDER BY seat",
                (tid, round_no, board),
            )
        found = _games(games, seats)
        return found[0] if found else None


def _seat_values(result: SeatResult | None) -> tuple[int | None, int | None, float | None]:
    if result is None:
        return (None, None, None)
    return (
        None if result.score is None else int(result.score),
        None if result.place is None else int(result.place),
        _optional_float(result.points),
    )


def _games(games: list[Row], seats: list[Row]) -> list[TournamentGame]:
    by_game: dict[tuple[int, int], list[SeatResult]] = {}
    for round_no, board, user, score, place, points in seats:
        by_game.setdefault((int(round_no), int(board)), []).append(
            SeatResult(
                str(user),
                None if score is None else int(score),
                None if place is None else int(place),
                _optional_float(points),
            )
        )
    return [
        TournamentGame(
            str(tid),
            int(round_no),
            int(board),
            str(game_id),
            tuple(by_game.get((int(round_no), int(board)), ())),
            str(state),
            str(how),
            None if thread is None else str(thread),
            float(started),
            _optional_float(ended),
        )
        for tid, round_no, board, game_id, thread, state, how, started, ended in games
    ]


async def _one(tx: Tx, tournament_id: str) -> Tournament | None:
    rows = await tx.fetch(_SELECT_T + "tournament_id = ?", (tournament_id,))
    return _tournament(rows[0]) if rows else None


async def _live(tx: Tx, platform: str, workspace_id: str, channel_id: str) -> Tournament | None:
    rows = await tx.fetch(
        _SELECT_T
        + "platform = ? AND workspace_id = ? AND channel_id = ? AND state IN ('registering', 'running')",
        (platform, workspace_id, channel_id),
    )
    return _tournament(rows[0]) if rows else None


__all__ = ["PURGE_TOURNAMENTS", "SQLTournaments", "forget_in_tournaments"]
