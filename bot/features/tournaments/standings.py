"""Standings: who leads a Swiss or round-robin tournament, and an arena's points.

**Swiss and round-robin.** Only done games count. A seat earns what its SeatResult says
(1 a win, 0.5 a draw, 0 a loss; a bye 1). Players are ordered by, in turn:

1. points;
2. Buchholz: the sum of the final points of every opponent met over the board (a bye or a
   forfeit adds nothing);
3. Sonneborn-Berger: the final points of every opponent beaten over the board, plus half of
   those of every opponent drawn with;
4. ``score_for``: the sum of their own in-game scores (the game's natural tie-break);
5. rating.

Players equal on all five share a place (listed by name, then user id). Withdrawn players stay
in the standings with what they earned.

**Arena.** Each game's seats earn :func:`arena_points` by their place: the winner (place 1,
ties for first included) 2, or 4 when on fire (they won each of their previous two games);
others in the top half 1; the rest 0. When everyone shares place 1, nobody was beaten: everyone
earns 1 and nobody counts as a winner. The arena's standings order by points, then wins, then
fewer games played (the better average), then name; equal points, wins and games share a place.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, replace
from typing import TypeVar

from bot.features.tournaments.history import in_order, records
from storage.tournament_records import FORFEIT, Entry, TournamentGame

T = TypeVar("T")


@dataclass(frozen=True)
class Standing:
    """One player's line in a Swiss or round-robin tournament's standings."""

    user_id: str
    name: str
    place: int  # shared on a full tie
    points: float
    played: int  # done games, byes not counted
    wins: int
    draws: int
    losses: int
    byes: int
    buchholz: float
    sonneborn_berger: float
    score_for: int
    rating: float
    active: bool


@dataclass(frozen=True)
class ArenaStanding:
    """One player's line in an arena's standings."""

    user_id: str
    name: str
    place: int
    points: float
    played: int
    wins: int
    fire: bool  # on fire now: their next win is worth double
    active: bool


def _placed(rows: list[T], key: Callable[[T], Hashable]) -> list[tuple[int, T]]:
    """``rows`` (already in order) with their places, equal keys sharing one."""
    placed: list[tuple[int, T]] = []
    for i, row in enumerate(rows):
        same = placed and key(placed[-1][1]) == key(row)
        placed.append((placed[-1][0] if same else i + 1, row))
    return placed


def _over_the_board(game: TournamentGame) -> bool:
    return game.done and len(game.seats) >= 2 and game.how != FORFEIT


def standings(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> list[Standing]:
    """Every entry's standing in a Swiss or round-robin tournament (the module's order)."""
    final = {user: record.points for user, record in records([g for g in games if g.done]).items()}
    tally: dict[str, list[float]] = {e.user_id: [0, 0, 0, 0, 0, 0.0, 0.0, 0] for e in entries}
    # tally: played, wins, draws, losses, byes, buchholz, sonneborn-berger, score_for
    for game in games:
        if not game.done:
            continue
        for seat in game.seats:
            row = tally.get(seat.user_id)
            if row is None:
                continue
            row[7] += seat.score or 0
            if game.is_bye:
                row[4] += 1
                continue
            earned = seat.points or 0.0
            row[0] += 1
            row[1 if earned >= 1 else 2 if earned > 0 else 3] += 1
            if _over_the_board(game):
                for other in game.seats:
                    if other.user_id != seat.user_id:
                        met = final.get(other.user_id, 0.0)
                        row[5] += met
                        row[6] += met * min(earned, 1.0)
    lines = [
        Standing(
            e.user_id,
            e.name,
            0,
            final.get(e.user_id, 0.0),
            int(t[0]),
            int(t[1]),
            int(t[2]),
            int(t[3]),
            int(t[4]),
            t[5],
            t[6],
            int(t[7]),
            e.rating,
            e.active,
        )
        for e in entries
        for t in (tally[e.user_id],)
    ]

    def order(s: Standing) -> tuple[float, ...]:
        return (-s.points, -s.buchholz, -s.sonneborn_berger, -s.score_for, -s.rating)

    lines.sort(key=lambda s: (order(s), s.name, s.user_id))
    return [replace(s, place=place) for place, s in _placed(lines, order)]


def crosstable(
    entries: Sequence[Entry], games: Sequence[TournamentGame]
) -> dict[str, dict[str, list[float]]]:
    """For each entry, opponent id → the points they scored against them, game by game (done
    games in round order; byes left out)."""
    table: dict[str, dict[str, list[float]]] = {e.user_id: {} for e in entries}
    for game in in_order(games):
        if not game.done or len(game.seats) < 2:
            continue
        for seat in game.seats:
            row = table.get(seat.user_id)
            if row is None:
                continue
            for other in game.seats:
                if other.user_id != seat.user_id:
                    row.setdefault(other.user_id, []).append(seat.points or 0.0)
    return table


def arena_points(place: int, players: int, on_fire: bool, *, all_tied: bool = False) -> float:
    """What a seat earns in an arena game: place 1 (ties included) 2, or 4 on fire; the rest of
    the top half (place ≤ ceil(players/2)) 1; others 0. ``all_tied``: everyone shares place 1
    (nobody beaten), and everyone earns 1."""
    if all_tied:
        return 1.0
    if place == 1:
        return 4.0 if on_fire else 2.0
    return 1.0 if place <= (players + 1) // 2 else 0.0


def _all_tied(game: TournamentGame) -> bool:
    return all(seat.place == 1 for seat in game.seats)


def _won(game: TournamentGame, user_id: str) -> bool:
    if _all_tied(game):
        return False
    return any(seat.user_id == user_id and seat.place == 1 for seat in game.seats)


def on_fire(user_id: str, games: Sequence[TournamentGame]) -> bool:
    """Whether ``user_id`` won each of their previous two done arena games (their own, in round
    order; a game they sat out does not break it; winning an all-tied game is no win)."""
    theirs = [g for g in in_order(games) if g.done and any(s.user_id == user_id for s in g.seats)]
    return len(theirs) >= 2 and all(_won(g, user_id) for g in theirs[-2:])


def arena_standings(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> list[ArenaStanding]:
    """Every entry's standing in an arena (the module's order)."""
    done = [g for g in in_order(games) if g.done]
    tally = {e.user_id: [0.0, 0, 0] for e in entries}  # points, played, wins
    streak = dict.fromkeys(tally, 0)  # games won in a row, up to now
    for game in done:
        for seat in game.seats:
            row = tally.get(seat.user_id)
            if row is None:
                continue
            row[0] += seat.points or 0.0
            row[1] += 1
            won = _won(game, seat.user_id)
            row[2] += won
            streak[seat.user_id] = streak[seat.user_id] + 1 if won else 0
    lines = [
        ArenaStanding(e.user_id, e.name, 0, t[0], int(t[1]), int(t[2]), streak[e.user_id] >= 2, e.active)
        for e in entries
        for t in (tally[e.user_id],)
    ]

    def order(s: ArenaStanding) -> tuple[float, int, int]:
        return (-s.points, -s.wins, s.played)

    lines.sort(key=lambda s: (order(s), s.name, s.user_id))
    return [replace(s, place=place) for place, s in _placed(lines, order)]
