"""Round-robin: Berger's tables over every entry, byes and forfeits."""

from __future__ import annotations

from collections import Counter

import pytest

from bot.features.tournaments.pairing import round_robin_round, round_robin_rounds
from storage.tournament_records import BYE, FORFEIT, Entry, NewGame, SeatResult


def players(n: int) -> list[Entry]:
    return [Entry(f"u{i:02}", f"U{i}", 1500.0 - i, float(i)) for i in range(n)]


def test_rounds() -> None:
    assert [round_robin_rounds(n) for n in range(7)] == [0, 0, 1, 3, 3, 5, 5]


@pytest.mark.parametrize("n", range(2, 21))
def test_everyone_meets_everyone_once_with_balanced_first_moves(n: int) -> None:
    entries = players(n)
    met: Counter[frozenset[str]] = Counter()
    balance: Counter[str] = Counter()
    byes: Counter[str] = Counter()
    for round_no in range(1, round_robin_rounds(n) + 1):
        games = round_robin_round(entries, round_no)
        assert [g.board for g in games] == list(range(1, len(games) + 1))
        assert sorted(u for g in games for u in g.seats) == sorted(e.user_id for e in entries)
        for game in games:
            if game.how == BYE:
                assert game == games[-1]
                assert game.done == (SeatResult(game.seats[0], None, 1, 1.0),)
                byes[game.seats[0]] += 1
                continue
            first, second = game.seats
            assert not game.done and not game.how
            met[frozenset(game.seats)] += 1
            balance[first] += 1
            balance[second] -= 1
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}
    assert byes == (Counter({e.user_id: 1 for e in entries}) if n % 2 else Counter())
    assert all(abs(balance[e.user_id]) <= 1 for e in entries)
    assert round_robin_round(entries, round_robin_rounds(n) + 1) == []


def test_the_schedule_ignores_the_order_entries_come_in() -> None:
    entries = players(7)
    for round_no in range(1, 8):
        assert round_robin_round(entries[::-1], round_no) == round_robin_round(entries, round_no)


def test_withdrawn_players_forfeit_and_lose_their_bye() -> None:
    """Five players, u03 and u04 withdrawn: every one of their games is decided when paired,
    and the schedule is the one of five present players."""
    present = players(5)
    entries = [
        e if e.user_id not in ("u03", "u04") else Entry(e.user_id, e.name, e.rating, e.joined_at, 9.0)
        for e in present
    ]
    gone = {"u03", "u04"}
    for round_no in range(1, 6):
        full = round_robin_round(present, round_no)
        now = round_robin_round(entries, round_no)
        assert [g.seats for g in now] == [g.seats for g in full if not (g.how == BYE and g.seats[0] in gone)]
        for game in now:
            if game.how == BYE:
                continue
            absent = [u for u in game.seats if u in gone]
            if not absent:
                assert game == NewGame(game.board, game.seats)
                continue
            assert game.how == FORFEIT
            expected = tuple(
                SeatResult(u, None, 2, 0.0) if u in gone else SeatResult(u, None, 1, 1.0) for u in game.seats
            )
            assert game.done == expected
