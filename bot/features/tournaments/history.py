"""What each player's past games of a tournament say: points, who they met, byes and first moves.

Shared by the pairings and the standings. Only games already given are read; nothing is stored.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from storage.tournament_records import FORFEIT, TournamentGame

FIRST, SECOND = 1, -1


@dataclass(slots=True)
class Record:
    """One player's tournament so far."""

    user_id: str
    points: float = 0.0  # done games' points (a bye counts)
    met: set[str] = field(default_factory=set)  # everyone they were paired with, in any state
    byes: int = 0
    firsts: int = 0
    seconds: int = 0
    last: int = 0  # FIRST, SECOND, or 0 before their first game over the board
    streak: int = 0  # how many games in a row ``last``

    @property
    def balance(self) -> int:
        """First moves minus second moves."""
        return self.firsts - self.seconds

    def moved(self, seat: int) -> None:
        """Note a game over the board moved ``seat`` (FIRST or SECOND)."""
        if seat == FIRST:
            self.firsts += 1
        else:
            self.seconds += 1
        self.streak = self.streak + 1 if self.last == seat else 1
        self.last = seat


def in_order(games: Iterable[TournamentGame]) -> list[TournamentGame]:
    """Games by round, then board."""
    return sorted(games, key=lambda g: (g.round, g.board))


def records(games: Sequence[TournamentGame]) -> dict[str, Record]:
    """Every player's record from ``games`` (any round), by user id.

    A seat's points count once its game is done. Everyone paired in one game has met the others,
    whatever became of the game. First moves count in two-seat games that were not forfeited
    (a forfeit was not played), the first seat moving first.
    """
    found: dict[str, Record] = {}

    def of(user_id: str) -> Record:
        record = found.get(user_id)
        if record is None:
            record = found[user_id] = Record(user_id)
        return record

    for game in in_order(games):
        users = [seat.user_id for seat in game.seats]
        for seat in game.seats:
            record = of(seat.user_id)
            if game.done and seat.points is not None:
                record.points += seat.points
            record.met.update(u for u in users if u != seat.user_id)
        if game.is_bye:
            of(users[0]).byes += 1
        elif len(users) == 2 and game.how != FORFEIT:
            of(users[0]).moved(FIRST)
            of(users[1]).moved(SECOND)
    return found
