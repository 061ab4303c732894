"""Swiss and round-robin standings: worked examples and properties."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.features.tournaments.pairing import round_robin_round, round_robin_rounds, swiss_round
from bot.features.tournaments.standings import crosstable, standings
from storage.tournament_records import FORFEIT, PLAYED, Entry, SeatResult, TournamentGame
from tests.tournaments.sim import field, play


def game(
    round_no: int, board: int, *seats: SeatResult, how: str = PLAYED, done: bool = True
) -> TournamentGame:
    return TournamentGame(
        "t", round_no, board, f"g{round_no}-{board}", seats, "done" if done else "playing", how
    )


def test_forfeits_add_nothing_to_tie_breaks() -> None:
    """A beats B 10–5; C wins by forfeit against D. A and C have 1 point each, but A's Buchholz
    is B's 0 and C's forfeit adds nothing: both 0; A's in-game score (10) puts A first. B's
    Buchholz is A's 1, D's nothing: B third. A game still playing counts for nothing."""
    entries = [
        Entry("a", "A", 1500, 0),
        Entry("b", "B", 1500, 0),
        Entry("c", "C", 1400, 0),
        Entry("d", "D", 1400, 0),
    ]
    games = [
        game(1, 1, SeatResult("a", 10, 1, 1.0), SeatResult("b", 5, 2, 0.0)),
        game(1, 2, SeatResult("c", None, 1, 1.0), SeatResult("d", None, 2, 0.0), how=FORFEIT),
        game(2, 1, SeatResult("a"), SeatResult("c"), done=False),
    ]
    table = standings(entries, games)
    assert [(s.user_id, s.place, s.points, s.buchholz, s.sonneborn_berger, s.score_for) for s in table] == [
        ("a", 1, 1.0, 0.0, 0.0, 10),
        ("c", 2, 1.0, 0.0, 0.0, 0),
        ("b", 3, 0.0, 1.0, 0.0, 5),
        ("d", 4, 0.0, 0.0, 0.0, 0),
    ]
    assert [(s.played, s.wins, s.draws, s.losses, s.byes) for s in table] == [
        (1, 1, 0, 0, 0),
        (1, 1, 0, 0, 0),
        (1, 0, 0, 1, 0),
        (1, 0, 0, 1, 0),
    ]
    assert crosstable(entries, games) == {
        "a": {"b": [1.0]},
        "b": {"a": [0.0]},
        "c": {"d": [1.0]},
        "d": {"c": [0.0]},
    }


def test_a_full_tie_shares_the_place_listed_by_name() -> None:
    """Zed and Amy (equal ratings) draw 5–5: equal on everything, both first, Amy listed first.
    Bo, withdrawn, had the bye: 1 point and no tie-break, ahead on points all the same."""
    entries = [Entry("z", "Zed", 1500, 0), Entry("a", "Amy", 1500, 0), Entry("b", "Bo", 1, 0, left_at=3.0)]
    games = [
        game(1, 1, SeatResult("z", 5, 1, 0.5), SeatResult("a", 5, 1, 0.5)),
        game(1, 2, SeatResult("b", None, 1, 1.0), how="bye"),
    ]
    table = standings(entries, games)
    assert [(s.name, s.place, s.points, s.buchholz, s.sonneborn_berger, s.active) for s in table] == [
        ("Bo", 1, 1.0, 0.0, 0.0, False),
        ("Amy", 2, 0.5, 0.5, 0.25, True),
        ("Zed", 2, 0.5, 0.5, 0.25, True),
    ]
    assert [(s.played, s.draws, s.byes) for s in table] == [(0, 0, 1), (1, 1, 0), (1, 1, 0)]


def check(entries: list[Entry], games: list[TournamentGame]) -> None:
    table = standings(entries, games)
    assert sorted(s.user_id for s in table) == sorted(e.user_id for e in entries)
    places = [s.place for s in table]
    assert places == sorted(places) and places[0] == 1
    keys = [(-s.points, -s.buchholz, -s.sonneborn_berger, -s.score_for, -s.rating) for s in table]
    assert keys == sorted(keys)
    for i in range(1, len(table)):
        assert (table[i].place == table[i - 1].place) == (keys[i] == keys[i - 1])
        assert table[i].place in (table[i - 1].place, i + 1)
    played = [g for g in games if len(g.seats) == 2]
    byes = len(games) - len(played)
    assert sum(s.points for s in table) == len(played) + byes
    assert sum(s.wins + s.draws + s.losses for s in table) == 2 * len(played)
    for s in table:
        assert s.points == s.wins + s.draws / 2 + s.byes


@settings(max_examples=40, deadline=None, derandomize=True)
@given(size=st.integers(2, 40), rounds=st.integers(1, 8), seed=st.integers(0, 2**32))
def test_swiss_standings_properties(size: int, rounds: int, seed: int) -> None:
    rng = random.Random(seed)
    entries, games = play(field(size, rng), rounds, rng, swiss_round)
    check(entries, games)


@settings(max_examples=20, deadline=None, derandomize=True)
@given(size=st.integers(2, 14), seed=st.integers(0, 2**32))
def test_round_robin_standings_properties(size: int, seed: int) -> None:
    rng = random.Random(seed)
    entries, games = play(
        field(size, rng), round_robin_rounds(size), rng, lambda e, _g, r: round_robin_round(e, r)
    )
    check(entries, games)
    table = crosstable(entries, games)
    assert all(len(row) == size - 1 and all(len(v) == 1 for v in row.values()) for row in table.values())
