"""Arena points and standings: the worked streak of docs/TOURNAMENTS.md, and the rules."""

from __future__ import annotations

from bot.features.tournaments.standings import arena_points, arena_standings, on_fire
from storage.tournament_records import PLAYED, Entry, SeatResult, TournamentGame

PLAYERS = [Entry(u, u.capitalize(), 1500, 0) for u in ("ann", "bob", "cat", "dan")]


def scored(games: list[TournamentGame], round_no: int, places: dict[str, int]) -> TournamentGame:
    """A done arena game with these places, each seat's points from :func:`arena_points` (on fire
    by the games before it)."""
    all_tied = set(places.values()) == {1}
    seats = tuple(
        SeatResult(u, 0, p, arena_points(p, len(places), on_fire(u, games), all_tied=all_tied))
        for u, p in places.items()
    )
    return TournamentGame("t", round_no, 1, f"a{round_no}", seats, "done", PLAYED)


def test_the_worked_streak() -> None:
    """1. Ann, Bob, Cat: Ann 2, Bob 1 (top half of 3 is places 1–2), Cat 0.
    2. Ann, Dan, Bob, Cat: Ann 2 (one win behind her: not yet on fire), Dan 1, Bob 0, Cat 0.
    3. Ann, Cat, Dan: Ann won her last two: on fire, 4; Cat 1; Dan 0.
    4. Bob, Cat, Dan all first: nobody beaten, 1 each, no win. Ann sat out: still on fire.
    5. Bob, Ann, Dan: Bob 2 (not on fire: the all-tied game is no win); Ann 1, her streak over.
    Standings: Ann 9 (3 wins); Bob 4 (1 win); Cat and Dan 2 each, 0 wins, 4 games: shared third."""
    games: list[TournamentGame] = []
    rounds = [
        {"ann": 1, "bob": 2, "cat": 3},
        {"ann": 1, "dan": 2, "bob": 3, "cat": 4},
        {"ann": 1, "cat": 2, "dan": 3},
        {"bob": 1, "cat": 1, "dan": 1},
        {"bob": 1, "ann": 2, "dan": 3},
    ]
    points = [[2, 1, 0], [2, 1, 0, 0], [4, 1, 0], [1, 1, 1], [2, 1, 0]]
    fire_after = [False, True, True, True, False]
    for round_no, (places, expected) in enumerate(zip(rounds, points, strict=True), 1):
        games.append(scored(games, round_no, places))
        assert [s.points for s in games[-1].seats] == expected
        assert on_fire("ann", games) is fire_after[round_no - 1]
    table = arena_standings(PLAYERS, games)
    assert [(s.name, s.place, s.points, s.played, s.wins, s.fire) for s in table] == [
        ("Ann", 1, 9.0, 4, 3, False),
        ("Bob", 2, 4.0, 4, 1, False),
        ("Cat", 3, 2.0, 4, 0, False),
        ("Dan", 3, 2.0, 4, 0, False),
    ]


def test_arena_points() -> None:
    assert [arena_points(p, 5, False) for p in (1, 2, 3, 4, 5)] == [2, 1, 1, 0, 0]
    assert [arena_points(p, 4, True) for p in (1, 1, 3, 4)] == [4, 4, 0, 0]
    assert [arena_points(p, 2, False) for p in (1, 2)] == [2, 0]
    assert arena_points(1, 3, True, all_tied=True) == 1


def test_fewer_games_for_the_same_points_rank_higher() -> None:
    """Bob (two wins in two games, on fire) ahead of Ann (two wins in three) on equal points 4;
    Dan (one game) ahead of Cat (two), both on 0. A game still playing counts for nothing."""
    games = [
        TournamentGame("t", 1, 1, "a1", (SeatResult("ann", 0, 1, 2.0), SeatResult("cat", 0, 2, 0.0)), "done"),
        TournamentGame("t", 2, 1, "a2", (SeatResult("bob", 0, 1, 2.0), SeatResult("ann", 0, 2, 0.0)), "done"),
        TournamentGame("t", 3, 1, "a3", (SeatResult("bob", 0, 1, 2.0), SeatResult("dan", 0, 2, 0.0)), "done"),
        TournamentGame("t", 3, 2, "a4", (SeatResult("ann", 0, 1, 2.0), SeatResult("cat", 0, 2, 0.0)), "done"),
        TournamentGame("t", 4, 1, "a5", (SeatResult("ann", 0), SeatResult("dan", 0)), "playing"),
    ]
    table = arena_standings(PLAYERS, games)
    assert [(s.name, s.place, s.points, s.played, s.wins, s.fire) for s in table] == [
        ("Bob", 1, 4.0, 2, 2, True),
        ("Ann", 2, 4.0, 3, 2, False),
        ("Dan", 3, 0.0, 1, 0, False),
        ("Cat", 4, 0.0, 2, 0, False),
    ]
