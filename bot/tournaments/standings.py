"""Standings: Swiss and round-robin (points, then tie-breaks), and the arena's points.

Swiss and round-robin: a win 1 point, a draw ½, a loss 0, a bye 1. Ties are broken by, in
order: Buchholz (the sum of the final points of the opponents met over the board; byes and
forfeits add nothing), Sonneborn-Berger (the points of the opponents beaten, plus half those
of the opponents drawn with), the points scored in the games themselves (the game's natural
tie-break), then rating. Places are shared only when all of these are equal.

Arena: a game's winner (first place, ties for first included) scores 2 points, 4 on fire (they
won their previous two arena games); the others in the top half score 1; the rest 0. When
everyone shares first place, everyone scores 1 and nobody counts as a winner.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from storage.tournament_records import BYE, FORFEIT, Entry, TournamentGame


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a Swiss's or a round-robin's standings."""

    user_id: str
    name: str
    place: int
    points: float
    played: int
    wins: int
    draws: int
    losses: int
    byes: int
    buchholz: float
    sonneborn_berger: float
    score_for: int
    rating: float
    active: bool


@dataclass(frozen=True, slots=True)
class ArenaStanding:
    """One line of an arena's standings."""

    user_id: str
    name: str
    place: int
    points: float
    played: int
    wins: int
    fire: bool
    active: bool


def _over_board(game: TournamentGame) -> bool:
    return game.done and len(game.seats) > 1 and game.how not in (BYE, FORFEIT)


def standings(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> list[Standing]:
    """The standings of a Swiss or round-robin from its done games (see the module's doc)."""
    points = {e.user_id: 0.0 for e in entries}
    tallies = {e.user_id: [0, 0, 0, 0, 0, 0] for e in entries}  # played, w, d, l, byes, score
    met: dict[str, list[tuple[str, float]]] = {e.user_id: [] for e in entries}
    for game in games:
        if not game.done:
            continue
        for seat in game.seats:
            if seat.user_id not in points:
                continue
            got = seat.points or 0.0
            points[seat.user_id] += got
            tally = tallies[seat.user_id]
            if game.how == BYE or len(game.seats) == 1:
                tally[4] += 1
                continue
            tally[0] += 1
            tally[1 if got == 1.0 else 2 if got == 0.5 else 3] += 1
            tally[5] += seat.score or 0
            if _over_board(game):
                met[seat.user_id] += [(o.user_id, got) for o in game.seats if o.user_id != seat.user_id]
    rows = []
    for e in entries:
        opponents = [(o, got) for o, got in met[e.user_id] if o in points]
        buchholz = sum(points[o] for o, _got in opponents)
        sb = sum(points[o] * got for o, got in opponents)
        played, wins, draws, losses, byes, score = tallies[e.user_id]
        rows.append(
            Standing(
                e.user_id,
                e.name,
                0,
                points[e.user_id],
                played,
                wins,
                draws,
                losses,
                byes,
                buchholz,
                sb,
                score,
                e.rating,
                e.active,
            )
        )

    def key(row: Standing) -> tuple[float, ...]:
        return (-row.points, -row.buchholz, -row.sonneborn_berger, -row.score_for, -row.rating)

    rows.sort(key=lambda r: (key(r), r.name.lower(), r.user_id))
    placed: list[Standing] = []
    for index, row in enumerate(rows):
        place = placed[-1].place if placed and key(placed[-1]) == key(row) else index + 1
        placed.append(_with_place(row, place))
    return placed


def _with_place(row: Standing, place: int) -> Standing:
    return Standing(
        row.user_id, row.name, place, row.points, row.played, row.wins, row.draws, row.losses,
        row.byes, row.buchholz, row.sonneborn_berger, row.score_for, row.rating, row.active,
    )  # fmt: skip


def crosstable(
    entries: Sequence[Entry], games: Sequence[TournamentGame]
) -> dict[str, dict[str, list[float]]]:
    """For each player: opponent → the points they scored against them, game by game."""
    table: dict[str, dict[str, list[float]]] = {e.user_id: {} for e in entries}
    for game in sorted(games, key=lambda g: (g.round, g.board)):
        if not game.done or len(game.seats) < 2:
            continue
        for seat in game.seats:
            for other in game.seats:
                if other.user_id != seat.user_id and seat.user_id in table:
                    table[seat.user_id].setdefault(other.user_id, []).append(seat.points or 0.0)
    return table


def arena_points(place: int, players: int, on_fire: bool, everyone_first: bool = False) -> float:
    """What a place in an arena game of ``players`` is worth (see the module's doc)."""
    if everyone_first:
        return 1.0
    if place == 1:
        return 4.0 if on_fire else 2.0
    return 1.0 if place <= math.ceil(players / 2) else 0.0


def _won(game: TournamentGame, user_id: str) -> bool:
    places = [s.place for s in game.seats]
    mine = next((s for s in game.seats if s.user_id == user_id), None)
    return mine is not None and mine.place == 1 and not all(p == 1 for p in places)


def on_fire(user_id: str, games: Sequence[TournamentGame]) -> bool:
    """Whether ``user_id`` won each of their previous two done arena games."""
    theirs = [
        g
        for g in sorted(games, key=lambda g: g.round)
        if g.done and any(s.user_id == user_id for s in g.seats)
    ]
    return len(theirs) >= 2 and all(_won(g, user_id) for g in theirs[-2:])


def arena_standings(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> list[ArenaStanding]:
    """The arena's standings: points, then wins, then fewer games played, then name."""
    rows = []
    for e in entries:
        theirs = [g for g in games if g.done and any(s.user_id == e.user_id for s in g.seats)]
        points = sum(s.points or 0.0 for g in theirs for s in g.seats if s.user_id == e.user_id)
        wins = sum(1 for g in theirs if _won(g, e.user_id))
        rows.append(
            ArenaStanding(
                e.user_id, e.name, 0, points, len(theirs), wins, on_fire(e.user_id, games), e.active
            )
        )
    rows.sort(key=lambda r: (-r.points, -r.wins, r.played, r.name.lower(), r.user_id))
    placed: list[ArenaStanding] = []
    for index, row in enumerate(rows):
        same = placed and (placed[-1].points, placed[-1].wins, placed[-1].played) == (
            row.points,
            row.wins,
            row.played,
        )
        place = placed[-1].place if same else index + 1
        placed.append(
            ArenaStanding(
                row.user_id, row.name, place, row.points, row.played, row.wins, row.fire, row.active
            )
        )
    return placed


__all__ = [
    "ArenaStanding",
    "Standing",
    "arena_points",
    "arena_standings",
    "crosstable",
    "on_fire",
    "standings",
]
