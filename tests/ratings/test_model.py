"""The rating model (bot/core/ratings.py): pure, and OpenSkill's Plackett-Luce underneath."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from bot.core import ratings
from bot.core.ratings import NEWCOMER, RATER, auto_level, change_line, new_season, places, shown, sides
from storage.ratings import RatedGame, RatedSeat, Skill

skills = st.builds(Skill, st.floats(0.0, 50.0), st.floats(0.5, 25.0 / 3))


def person(n: int, points: int, won: bool = False, team: int | None = None) -> RatedSeat:
    return RatedSeat(f"t:u{n}", f"u{n}", None, points, won, team)


def computer(n: int, points: int, level: str = "normal", won: bool = False) -> RatedSeat:
    return RatedSeat(f"bot:{n}", None, level, points, won)


def game(*seats: RatedSeat) -> RatedGame:
    return RatedGame("g1", "race", "en", seats)


def test_a_newcomer_shows_1000_and_the_scale_is_documented() -> None:
    assert shown(NEWCOMER) == pytest.approx(1000.0)
    assert shown(Skill(25.0, 2.0)) == pytest.approx(1475.0)  # an average regular: about 1,500
    assert ratings.number(1512.4) == "1,512"
    assert change_line("Ann", 1512.0, 1538.0, 20) == "Ann 1,512 → 1,538"
    assert change_line("Ann", 1000.0, 1086.0, 1) == "Ann 1,000 → 1,086 (provisional)"


def test_places_put_winners_first_then_points_and_ties_share() -> None:
    seats = [person(1, 5), person(2, 9, won=True), person(3, 5), person(4, 1)]
    assert places(sides(seats)) == [2, 1, 2, 4]


def test_a_two_player_game_is_exactly_the_models_update() -> None:
    a, b = Skill(27.0, 6.0), Skill(22.0, 4.0)
    out = RATER.rate(game(person(1, 10, won=True), person(2, 3)), {"t:u1": a, "t:u2": b})
    model = PlackettLuce()
    [[ra], [rb]] = model.rate(
        [[model.rating(mu=a.mu, sigma=a.sigma)], [model.rating(mu=b.mu, sigma=b.sigma)]], ranks=[1.0, 2.0]
    )
    assert out.after["t:u1"] == Skill(ra.mu, ra.sigma)
    assert out.after["t:u2"] == Skill(rb.mu, rb.sigma)
    assert out.beaten == {"t:u1": shown(b)}


@given(st.lists(skills, min_size=2, max_size=8), st.data())
def test_a_win_never_lowers_the_winner(before: list[Skill], data: st.DataObject) -> None:
    winner = data.draw(st.integers(0, len(before) - 1))
    seats = [
        person(i, 10 if i == winner else data.draw(st.integers(0, 9)), won=i == winner)
        for i in range(len(before))
    ]
    out = RATER.rate(game(*seats), {f"t:u{i}": skill for i, skill in enumerate(before)})
    assert out.after[f"t:u{winner}"].mu >= before[winner].mu
    assert shown(out.after[f"t:u{winner}"]) >= shown(before[winner]) - 25.0 * 3 * ratings.MODEL.tau


@given(skills, skills)
def test_a_tie_follows_the_model(a: Skill, b: Skill) -> None:
    """Equal results share a place, and the update is the model's own for a tie."""
    out = RATER.rate(game(person(1, 4, won=True), person(2, 4, won=True)), {"t:u1": a, "t:u2": b})
    model = PlackettLuce()
    [[ra], [rb]] = model.rate(
        [[model.rating(mu=a.mu, sigma=a.sigma)], [model.rating(mu=b.mu, sigma=b.sigma)]], ranks=[1.0, 1.0]
    )
    assert out.after == {"t:u1": Skill(ra.mu, ra.sigma), "t:u2": Skill(rb.mu, rb.sigma)}
    assert out.beaten == {}  # a tie beats nobody
    if a == b:  # a tie between equals moves neither skill
        assert out.after["t:u1"].mu == pytest.approx(a.mu)


@given(st.lists(skills, min_size=4, max_size=4), st.booleans())
def test_partners_are_one_team_in_the_model(before: list[Skill], first_won: bool) -> None:
    seats = [
        person(0, 8, first_won, 1),
        person(1, 3, not first_won, 2),
        person(2, 8, first_won, 1),
        person(3, 3, not first_won, 2),
    ]
    out = RATER.rate(game(*seats), {f"t:u{i}": s for i, s in enumerate(before)})
    model = PlackettLuce()
    r = [model.rating(mu=s.mu, sigma=s.sigma) for s in before]
    ranks = [1.0, 2.0] if first_won else [2.0, 1.0]
    [[a, c], [b, d]] = model.rate([[r[0], r[2]], [r[1], r[3]]], ranks=ranks)
    assert [out.after[f"t:u{i}"] for i in range(4)] == [Skill(x.mu, x.sigma) for x in (a, b, c, d)]
    winners = (0, 2) if first_won else (1, 3)
    for i in winners:
        assert out.after[f"t:u{i}"].mu >= before[i].mu


def test_computers_have_fixed_ratings_and_are_never_updated() -> None:
    out = RATER.rate(game(person(1, 9, won=True), computer(1, 2, "hard")), {})
    assert set(out.after) == {"t:u1"}
    assert out.after["t:u1"].mu > NEWCOMER.mu
    assert out.beaten == {"t:u1": shown(ratings.COMPUTERS["hard"])}
    # losing to an easy computer costs more than losing to a hard one
    easy = RATER.rate(game(person(1, 1), computer(1, 9, "easy", won=True)), {}).after["t:u1"]
    hard = RATER.rate(game(person(1, 1), computer(1, 9, "hard", won=True)), {}).after["t:u1"]
    assert easy.mu < hard.mu


def test_a_game_with_one_side_or_no_person_moves_nothing() -> None:
    assert RATER.rate(game(person(1, 9, won=True)), {}).after == {}
    assert RATER.rate(game(computer(1, 9, won=True), computer(2, 1)), {}).after == {}
    partners_only = game(person(1, 5, True, 1), person(2, 5, True, 1))
    assert RATER.rate(partners_only, {}).after == {}


@given(skills)
def test_a_new_season_keeps_half_the_distance_and_some_uncertainty(skill: Skill) -> None:
    carried = new_season(skill)
    assert carried.mu - NEWCOMER.mu == pytest.approx((skill.mu - NEWCOMER.mu) / 2)
    assert carried.sigma >= NEWCOMER.sigma / 2 and carried.sigma >= skill.sigma


def test_auto_level_is_the_closest_computer() -> None:
    assert auto_level([]) == "normal"
    assert auto_level([None]) == "normal"  # newcomers play the normal computer
    assert auto_level([31.0, 29.0]) == "hard"
    assert auto_level([19.0, None]) == "easy"  # average 22: closer to easy (20) than normal (25)
    assert auto_level([22.5]) == "normal"  # exactly between: normal
