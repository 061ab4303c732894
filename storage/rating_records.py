"""The values of the ratings role (:mod:`storage.ratings`): what the rater is given and answers,
and what the reads return. Plain data: storage knows no rating model."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class Skill:
    """A rating as the model keeps it: ``mu`` (skill) and ``sigma`` (uncertainty)."""

    mu: float
    sigma: float


@dataclass(frozen=True, slots=True)
class RatedSeat:
    """One seat of a finished game, as the rater sees it.

    ``user_id`` is None for a computer player and for a person who used forget-me (their seat is
    then ``former:…``, the same in every game of theirs, so a rebuild still rates it — in memory
    only). ``bot`` is a computer player's level. Partners share a ``team`` number.
    """

    seat_id: str
    user_id: str | None
    bot: str | None
    points: int
    won: bool
    team: int | None = None

    @property
    def person(self) -> bool:
        """A person's seat (rated), not a computer player's (fixed rating)."""
        return self.bot is None and not self.seat_id.startswith("bot:")


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game's results, seats in their seat order."""

    game_id: str
    game: str
    language: str
    seats: tuple[RatedSeat, ...]


@dataclass(frozen=True, slots=True)
class RatingOutcome:
    """What a game did: each person's skill after it (by seat id) and, for each person who won,
    the best rating (as shown) they beat."""

    after: Mapping[str, Skill]
    beaten: Mapping[str, float] = field(default_factory=dict)


@runtime_checkable
class Rater(Protocol):
    """The rating model (pure): ``bot.core.ratings.Rater``."""

    def rate(self, game: RatedGame, before: Mapping[str, Skill]) -> RatingOutcome:
        """The skills after ``game`` from those before it (by seat id; missing: a newcomer)."""
        ...

    def new_season(self, skill: Skill) -> Skill:
        """A skill carried into a new season."""
        ...

    def shown(self, skill: Skill) -> float:
        """The rating shown and ranked."""
        ...

    def newcomer(self) -> Skill:
        """The skill a person without a rating starts from."""
        ...


@dataclass(frozen=True, slots=True)
class RatingChange:
    """What one game did to one person's rating (as shown)."""

    user_id: str
    game: str
    language: str
    before: float
    after: float
    games: int
    won: bool
    beaten: float | None = None


@dataclass(frozen=True, slots=True)
class RatingRow:
    """One line of a leaderboard by rating (equal ratings share a rank)."""

    rank: int
    user_id: str
    display_name: str
    rating: float
    games: int
    wins: int


@dataclass(frozen=True, slots=True)
class PlayerRating:
    """A person's rating in one game and language, with its trend and best wins."""

    game: str
    language: str
    rating: float
    mu: float
    sigma: float
    games: int
    wins: int
    #: the rating after each of the last rated games, oldest first
    trend: tuple[float, ...] = ()
    #: the best ratings beaten in wins, best first
    best_wins: tuple[float, ...] = ()
