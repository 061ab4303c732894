"""An arena game's result as the arena counts it: places by score, arena points, the streak."""

from __future__ import annotations

from collections.abc import Sequence

from bot.features.tournaments.standings import arena_points, on_fire
from games.common.protocol import Result
from storage.tournament_records import SeatResult, TournamentGame


def places(scores: Sequence[int]) -> list[int]:
    """Each score's place (1 = the best; equal scores share a place)."""
    return [1 + sum(1 for other in scores if other > score) for score in scores]


def arena_results(
    result: Result, seat_ids: Sequence[str], users: Sequence[str], earlier: Sequence[TournamentGame]
) -> tuple[SeatResult, ...]:
    """The seats of a finished arena game (``seat_ids`` as the game knew them, ``users`` as the
    tournament does), given the arena's games done before it (for each player's streak)."""
    scores = [int(result.scores.get(seat, 0)) for seat in seat_ids]
    placed = places(scores)
    everyone_first = all(place == 1 for place in placed)
    return tuple(
        SeatResult(
            user,
            score,
            place,
            arena_points(place, len(users), on_fire(user, earlier), all_tied=everyone_first),
        )
        for user, score, place in zip(users, scores, placed, strict=True)
    )


__all__ = ["arena_results", "places"]
