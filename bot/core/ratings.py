"""Skill ratings: OpenSkill's Plackett-Luce model, and how moji shows and uses it (docs/RATINGS.md).

Pure: no storage, no asyncio, no clock. Storage (:mod:`storage.ratings`) reads a finished game's
stored results and the players' ratings, and asks :data:`RATER` for the new ones, both when a game
ends and when every rating is rebuilt from the results, so the two always agree.

- Each person has a skill (``mu``) and an uncertainty (``sigma``) per game and language in a
  workspace; a newcomer starts at mu 25, sigma 25/3 (the model's defaults).
- A game is ranked by its result: the winners first, then everyone else by points (equal points
  share a place: a tie, as the model treats ties). Partners (race team variants) are one team.
- Computer players have a fixed skill per level (:data:`COMPUTERS`) and are never updated, so a
  solo game against them counts.
- The rating shown and ranked is conservative: ``1000 + 25 × (mu − 3·sigma)``
  (:func:`shown`): a newcomer shows 1,000, a regular of average skill about 1,500.
- A rating is provisional for its first :data:`PROVISIONAL_GAMES` rated games.
- A new season keeps each skill but half its distance from a newcomer's, with at least half a
  newcomer's uncertainty (:func:`new_season`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

from games.common.speech import _
from games.common.speech import number as speech_number
from games.common.text import user
from storage.ratings import RatedGame, RatedSeat, RatingChange, RatingOutcome, Skill
from storage.scores import split_seat

#: The model: OpenSkill's Plackett-Luce with its defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300).
MODEL = PlackettLuce()
#: A newcomer's skill.
NEWCOMER = Skill(MODEL.mu, MODEL.sigma)
#: The shown rating: ``BASE + SCALE × (mu − Z·sigma)``.
BASE = 1000.0
SCALE = 25.0
Z = 3.0
#: A rating is provisional for this many rated games (σ has fallen by about 40% by then).
PROVISIONAL_GAMES = 10
#: Computer players' fixed skill per level (never updated): easy, normal, hard.
COMPUTERS: Mapping[str, Skill] = {
    "easy": Skill(20.0, 1.0),
    "normal": Skill(25.0, 1.0),
    "hard": Skill(30.0, 1.0),
}


def shown(skill: Skill) -> float:
    """The rating moji shows and ranks by: a conservative estimate of skill, on a familiar scale."""
    return BASE + SCALE * (skill.mu - Z * skill.sigma)


def computer(level: str | None) -> Skill:
    """A computer player's fixed skill (an unknown level plays as normal, and is rated so)."""
    return COMPUTERS.get(level or "normal", COMPUTERS["normal"])


def is_provisional(games: int) -> bool:
    """Whether a rating with ``games`` rated games is still provisional."""
    return games < PROVISIONAL_GAMES


def new_season(skill: Skill) -> Skill:
    """A rating at the start of a new season: half the way back to a newcomer's skill, and at least
    half a newcomer's uncertainty (so it moves faster again, without starting from zero)."""
    mu = NEWCOMER.mu + (skill.mu - NEWCOMER.mu) / 2
    return Skill(mu, max(skill.sigma, NEWCOMER.sigma / 2))


@dataclass(frozen=True, slots=True)
class _Side:
    """One side of a game: a seat alone, or partners."""

    seats: tuple[RatedSeat, ...]

    @property
    def won(self) -> bool:
        return any(seat.won for seat in self.seats)

    @property
    def points(self) -> int:
        return max(seat.points for seat in self.seats)


def sides(seats: Sequence[RatedSeat]) -> list[_Side]:
    """The game's sides, in seat order: partners (same ``team``) together, everyone else alone."""
    grouped: dict[object, list[RatedSeat]] = {}
    for index, seat in enumerate(seats):
        key: object = ("team", seat.team) if seat.team is not None else ("seat", index)
        grouped.setdefault(key, []).append(seat)
    return [_Side(tuple(group)) for group in grouped.values()]


def places(teams: Sequence[_Side]) -> list[int]:
    """Each side's place (1 is best): winners first, then by points; equal results share a place."""
    keys = [(not side.won, -side.points) for side in teams]
    return [1 + sum(1 for other in keys if other < key) for key in keys]


def counts(game: RatedGame) -> bool:
    """Whether a finished game moves ratings: at least two sides, and at least one person."""
    return len(sides(game.seats)) >= 2 and any(seat.person for seat in game.seats)


class Rater:
    """What :mod:`storage.ratings` asks: the new skills after a game, and the season rule."""

    def rate(self, game: RatedGame, before: Mapping[str, Skill]) -> RatingOutcome:
        """The people's skills after ``game`` (by seat id), from ``before`` (a seat missing there is a
        newcomer); and, for each person who won, the best rating they beat (shown before the game)."""
        teams = sides(game.seats)
        if len(teams) < 2 or not any(seat.person for seat in game.seats):
            return RatingOutcome({}, {})
        ranks = places(teams)
        skills = [
            [before.get(seat.seat_id, NEWCOMER) if seat.person else computer(seat.bot) for seat in side.seats]
            for side in teams
        ]
        model_teams = [[MODEL.rating(mu=skill.mu, sigma=skill.sigma) for skill in side] for side in skills]
        rated = MODEL.rate(model_teams, ranks=[float(rank) for rank in ranks])
        best_shown = [max(shown(skill) for skill in side) for side in skills]
        after: dict[str, Skill] = {}
        beaten: dict[str, float] = {}
        for side, rank, new in zip(teams, ranks, rated, strict=True):
            below = [best for best, other in zip(best_shown, ranks, strict=True) if other > rank]
            for seat, rating in zip(side.seats, new, strict=True):
                if seat.person:
                    after[seat.seat_id] = Skill(float(rating.mu), float(rating.sigma))
                    if seat.won and below:
                        beaten[seat.seat_id] = max(below)
        return RatingOutcome(after, beaten)

    def new_season(self, skill: Skill) -> Skill:
        """:func:`new_season`."""
        return new_season(skill)

    def shown(self, skill: Skill) -> float:
        """:func:`shown`."""
        return shown(skill)

    def newcomer(self) -> Skill:
        """:data:`NEWCOMER`."""
        return NEWCOMER


#: The one rater moji uses.
RATER = Rater()


def auto_level(humans: Sequence[float | None]) -> str:
    """``level=auto``: the computer level whose skill is closest to the seated people's average
    skill (``mu``; None for someone not rated yet: a newcomer's)."""
    known = [NEWCOMER.mu if mu is None else mu for mu in humans] or [NEWCOMER.mu]
    average = sum(known) / len(known)
    return min(COMPUTERS, key=lambda level: (abs(COMPUTERS[level].mu - average), level != "normal"))


def number(value: float) -> str:
    """A rating as people read it, in the language being spoken: ``1,512`` (``1.512``)."""
    return speech_number(round(value))


def change_line(name: str, before: float, after: float, games: int) -> str:
    """``Ann 1,512 → 1,538`` (marked provisional for a rating's first games)."""
    if is_provisional(games):
        return _(
            "{name} {before} → {after} (provisional)", name=name, before=number(before), after=number(after)
        )
    return _("{name} {before} → {after}", name=name, before=number(before), after=number(after))


def result_lines(
    changes: Sequence[RatingChange], seats: Sequence[str], names: Mapping[str, str], platform: str
) -> list[str]:
    """The game-over message's rating changes, in seat order: ``Ann 1,512 → 1,538``."""
    by_user = {change.user_id: change for change in changes}
    lines = []
    for seat in seats:
        change = by_user.pop(split_seat(seat, platform)[1], None)
        if change is not None:
            lines.append(change_line(user(names.get(seat, seat)), change.before, change.after, change.games))
    return lines
