"""Playing tournaments out for the tests: random results, withdrawals and late entries."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import replace

from storage.tournament_records import PLAYED, Entry, NewGame, SeatResult, TournamentGame

Pairer = Callable[[Sequence[Entry], Sequence[TournamentGame], int], list[NewGame]]


def entry(user_id: str, rating: float, joined_at: float = 0.0) -> Entry:
    """A player named after their id."""
    return Entry(user_id, user_id.upper(), rating, joined_at)


def field(size: int, rng: random.Random) -> list[Entry]:
    """``size`` players with random ratings (some equal: the user id breaks the tie)."""
    return [entry(f"p{i:03}", float(rng.choice(range(1000, 2000, 25)))) for i in range(size)]


def result(new: NewGame, round_no: int, rng: random.Random, draws: float = 0.15) -> TournamentGame:
    """``new`` played: a win for either seat or (``draws`` of the time) a draw; a game decided
    when paired keeps its result."""
    if new.done:
        return TournamentGame("t", round_no, new.board, f"g{round_no}-{new.board}", new.done, "done", new.how)
    first, second = new.seats
    roll = rng.random()
    won = 1.0 if roll < (1 - draws) / 2 else 0.5 if roll < (1 + draws) / 2 else 0.0
    seats = (
        SeatResult(first, rng.randint(0, 30), 1 if won >= 0.5 else 2, won),
        SeatResult(second, rng.randint(0, 30), 1 if won <= 0.5 else 2, 1.0 - won),
    )
    return TournamentGame("t", round_no, new.board, f"g{round_no}-{new.board}", seats, "done", PLAYED)


def churn(entries: list[Entry], rng: random.Random, leave: float, join: float, round_no: int) -> list[Entry]:
    """Some active players withdraw (each with probability ``leave``) and, with probability
    ``join``, a newcomer enters."""
    out = [replace(e, left_at=float(round_no)) if e.active and rng.random() < leave else e for e in entries]
    if rng.random() < join:
        out.append(entry(f"late{round_no:02}", float(rng.choice(range(1000, 2000, 25))), float(round_no)))
    return out


def play(
    entries: list[Entry],
    rounds: int,
    rng: random.Random,
    pairer: Pairer,
    leave: float = 0.0,
    join: float = 0.0,
) -> tuple[list[Entry], list[TournamentGame]]:
    """``rounds`` rounds paired by ``pairer`` with random results (and churn before each round
    after the first)."""
    games: list[TournamentGame] = []
    for round_no in range(1, rounds + 1):
        if round_no > 1:
            entries = churn(entries, rng, leave, join, round_no)
        games += [result(new, round_no, rng) for new in pairer(entries, games, round_no)]
    return entries, games
