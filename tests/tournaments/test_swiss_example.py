"""The worked Swiss example of docs/TOURNAMENTS.md, and Swiss's first round and first moves.

Five players, three rounds (ratings: Ann 1600, Bob 1550, Cat 1500, Dan 1450, Eve 1400):

- Round 1, everyone on 0, seeded by rating: Ann–Cat, Bob–Dan (top half against bottom half),
  the bye to Eve, the lowest-ranked. Ann beats Cat, Bob and Dan draw.
- Round 2: Ann 1, Eve 1, Bob ½, Dan ½, Cat 0. Cat (lowest, no bye yet) has the bye. Bob–Dan
  would be a rematch, so the two on 1 each meet one on ½: Dan–Ann (Dan moved second last
  time, Ann first) and Eve–Bob (Bob moved first; Eve has not played). Ann and Dan draw; Bob
  beats Eve.
- Round 3: Ann 1½, Bob 1½, Cat 1, Dan 1, Eve 1. Dan is the lowest who has not had a bye.
  Ann–Bob (both moved first then second: the higher-ranked moves first), Cat–Eve (Cat has
  moved second, Eve first). Ann and Cat win.
- Standings: Ann 2½; Dan and Cat 2 each, Dan ahead on Buchholz (Bob 1½ + Ann 2½ = 4 against
  Ann 2½ + Eve 1 = 3½); Bob 1½; Eve 1.
"""

from __future__ import annotations

from bot.features.tournaments.pairing import swiss_round
from bot.features.tournaments.standings import standings
from storage.tournament_records import BYE, PLAYED, Entry, NewGame, SeatResult, TournamentGame

PLAYERS = [
    Entry(u, u.capitalize(), r, 0.0)
    for u, r in [("ann", 1600), ("bob", 1550), ("cat", 1500), ("dan", 1450), ("eve", 1400)]
]


def played(round_no: int, new: NewGame, first_scored: float) -> TournamentGame:
    """``new`` played, its first mover scoring ``first_scored`` (in-game scores 30–20, 25–25)."""
    a, b = new.seats
    score_a, score_b = {1.0: (30, 20), 0.5: (25, 25), 0.0: (20, 30)}[first_scored]
    seats = (
        SeatResult(a, score_a, 1 if first_scored >= 0.5 else 2, first_scored),
        SeatResult(b, score_b, 1 if first_scored <= 0.5 else 2, 1.0 - first_scored),
    )
    return TournamentGame("t", round_no, new.board, f"g{round_no}-{new.board}", seats, "done", PLAYED)


def bye(round_no: int, new: NewGame) -> TournamentGame:
    return TournamentGame("t", round_no, new.board, f"g{round_no}-{new.board}", new.done, "done", new.how)


def test_the_worked_example() -> None:
    games: list[TournamentGame] = []
    expected = [
        ([("ann", "cat"), ("bob", "dan"), ("eve",)], [1.0, 0.5]),
        ([("dan", "ann"), ("eve", "bob"), ("cat",)], [0.5, 0.0]),
        ([("ann", "bob"), ("cat", "eve"), ("dan",)], [1.0, 1.0]),
    ]
    for round_no, (pairings, results) in enumerate(expected, 1):
        new = swiss_round(PLAYERS, games, round_no)
        assert [g.seats for g in new] == pairings
        assert new[-1] == NewGame(3, pairings[-1], (SeatResult(pairings[-1][0], None, 1, 1.0),), BYE)
        games += [played(round_no, g, r) for g, r in zip(new, results, strict=False)] + [
            bye(round_no, new[-1])
        ]
    table = [
        (s.place, s.name, s.points, s.buchholz, s.sonneborn_berger, s.score_for)
        for s in standings(PLAYERS, games)
    ]
    assert table == [
        (1, "Ann", 2.5, 5.5, 4.5, 85),
        (2, "Dan", 2.0, 4.0, 2.0, 50),
        (3, "Cat", 2.0, 3.5, 1.0, 50),
        (4, "Bob", 1.5, 5.5, 2.0, 75),
        (5, "Eve", 1.0, 3.5, 0.0, 40),
    ]


def test_round_one_is_seeded_dutch_style() -> None:
    """Eight players on 0: 1–5, 2–6, 3–7, 4–8 by rating, equal ratings by user id, the higher
    seed moving first."""
    ratings = [1500, 1900, 1700, 1700, 1200, 1800, 1600, 1300]
    entries = [Entry(f"u{i}", f"U{i}", r, 0.0) for i, r in enumerate(ratings)]
    # by rating: u1 1900, u5 1800, u2 1700, u3 1700, u6 1600, u0 1500, u7 1300, u4 1200
    assert [g.seats for g in swiss_round(entries, [], 1)] == [
        ("u1", "u6"),
        ("u5", "u0"),
        ("u2", "u7"),
        ("u3", "u4"),
    ]


def test_withdrawn_players_are_not_paired() -> None:
    entries = [*PLAYERS[:4], Entry("eve", "Eve", 1400, 0.0, left_at=5.0)]
    assert [g.seats for g in swiss_round(entries, [], 1)] == [("ann", "cat"), ("bob", "dan")]


def test_nobody_moves_first_a_third_time_in_a_row_while_avoidable() -> None:
    """Ann moved first twice, Bob second twice (against X and Y, who have left): Bob moves first
    now, though Ann is ranked higher."""
    entries = [Entry(u, u, r, 0.0) for u, r in [("ann", 1600), ("bob", 1500)]]
    games = [
        TournamentGame(
            "t", 1, 1, "a", (SeatResult("ann", 0, 1, 1.0), SeatResult("x", 0, 2, 0.0)), "done", PLAYED
        ),
        TournamentGame(
            "t", 1, 2, "b", (SeatResult("y", 0, 1, 1.0), SeatResult("bob", 0, 2, 0.0)), "done", PLAYED
        ),
        TournamentGame(
            "t", 2, 1, "c", (SeatResult("ann", 0, 2, 0.0), SeatResult("y", 0, 1, 1.0)), "done", PLAYED
        ),
        TournamentGame(
            "t", 2, 2, "d", (SeatResult("x", 0, 2, 0.0), SeatResult("bob", 0, 1, 1.0)), "done", PLAYED
        ),
    ]
    assert [g.seats for g in swiss_round(entries, games, 3)] == [("bob", "ann")]
