"""A stand-in for ``bot.tournaments.standings`` while that module is not on this branch yet: the
same names and fields, plain arithmetic, for the tournament pages' tests only. :func:`install`
does nothing once the real module imports."""

from __future__ import annotations

import importlib
import sys
import types
from collections.abc import Sequence
from dataclasses import dataclass

from storage.tournaments import Entry, TournamentGame


@dataclass(frozen=True, slots=True)
class Standing:
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
    score_for: float
    rating: float
    active: bool


@dataclass(frozen=True, slots=True)
class ArenaStanding:
    user_id: str
    name: str
    place: int
    points: float
    played: int
    wins: int
    fire: bool
    active: bool


def _points(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> dict[str, float]:
    totals = {e.user_id: 0.0 for e in entries}
    for game in games:
        for seat in game.seats:
            if game.done and seat.points is not None:
                totals[seat.user_id] = totals.get(seat.user_id, 0.0) + seat.points
    return totals


def crosstable(
    entries: Sequence[Entry], games: Sequence[TournamentGame]
) -> dict[str, dict[str, list[float]]]:
    table: dict[str, dict[str, list[float]]] = {e.user_id: {} for e in entries}
    for game in games:
        if not game.done or len(game.seats) != 2:
            continue
        a, b = game.seats
        table.setdefault(a.user_id, {}).setdefault(b.user_id, []).append(a.points or 0.0)
        table.setdefault(b.user_id, {}).setdefault(a.user_id, []).append(b.points or 0.0)
    return table


def standings(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> list[Standing]:
    totals = _points(entries, games)
    cross = crosstable(entries, games)
    rows = []
    for e in entries:
        mine = [g for g in games if g.done and any(s.user_id == e.user_id for s in g.seats)]
        seats = [next(s for s in g.seats if s.user_id == e.user_id) for g in mine]
        opponents = cross.get(e.user_id, {})
        rows.append(
            Standing(
                e.user_id,
                e.name,
                0,
                totals[e.user_id],
                len(mine),
                sum(1 for s in seats if s.points == 1),
                sum(1 for s in seats if s.points == 0.5),
                sum(1 for s in seats if s.points == 0),
                sum(1 for g in mine if g.is_bye),
                sum(totals.get(o, 0.0) * len(p) for o, p in opponents.items()),
                sum(totals.get(o, 0.0) * x for o, p in opponents.items() for x in p),
                float(sum(s.score or 0 for s in seats)),
                e.rating,
                e.active,
            )
        )
    rows.sort(key=lambda s: (-s.points, -s.buchholz, -s.sonneborn_berger, s.name))
    return [
        Standing(**{**{f: getattr(s, f) for f in Standing.__slots__}, "place": i})  # type: ignore[arg-type]
        for i, s in enumerate(rows, 1)
    ]


def arena_standings(entries: Sequence[Entry], games: Sequence[TournamentGame]) -> list[ArenaStanding]:
    totals = _points(entries, games)
    rows = []
    for e in entries:
        seats = [s for g in games if g.done for s in g.seats if s.user_id == e.user_id]
        wins = [s.place == 1 for s in seats]
        rows.append(
            ArenaStanding(
                e.user_id,
                e.name,
                0,
                totals[e.user_id],
                len(seats),
                sum(wins),
                wins[-2:] == [True, True],
                e.active,
            )
        )
    rows.sort(key=lambda s: (-s.points, s.name))
    return [
        ArenaStanding(s.user_id, s.name, i, s.points, s.played, s.wins, s.fire, s.active)
        for i, s in enumerate(rows, 1)
    ]


def install() -> None:
    """Make ``bot.tournaments.standings`` importable: the real module, else this stand-in."""
    try:
        importlib.import_module("bot.tournaments.standings")
    except ModuleNotFoundError:
        package = sys.modules.get("bot.tournaments")
        if package is None:
            package = types.ModuleType("bot.tournaments")
            package.__path__ = []
            sys.modules["bot.tournaments"] = package
        module = types.ModuleType("bot.tournaments.standings")
        for name in ("Standing", "ArenaStanding", "standings", "crosstable", "arena_standings"):
            setattr(module, name, globals()[name])
        sys.modules["bot.tournaments.standings"] = module
        package.standings = module  # type: ignore[attr-defined]
