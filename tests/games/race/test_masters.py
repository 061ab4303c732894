"""Master's Choice as the race declares it (games/race/masters.py, GameInfo.after_game)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.common.protocol import Result
from games.race import GAME
from games.race.masters import CHALLENGE_OPTIONS, MastersChoice, after_game

ANN, BOB = "test:ann", "test:bob"
WON = Result({ANN: 5, BOB: 2}, (ANN,), "Ann is the moji Master")
NOBODY = Result({ANN: 0, BOB: 0}, (), "Nobody scored")


def test_the_race_declares_the_hook() -> None:
    assert GAME.after_game is after_game


def test_the_winner_of_a_masters_choice_race_becomes_the_master() -> None:
    rule = after_game(WON, {"masters-choice": True}, {ANN: "Ann"}, None)
    assert rule == MastersChoice(ANN, "Ann") and rule.seat_ids == frozenset({ANN})
    assert after_game(WON, {"masters-choice": True}, {}, None) == MastersChoice(ANN, ANN)  # no name known


def test_without_masters_choice_no_rule_and_without_a_winner_the_old_one_stands() -> None:
    before = MastersChoice(BOB, "Bob")
    assert after_game(WON, {"masters-choice": False}, {ANN: "Ann"}, before) is None
    assert after_game(WON, {}, {}, before) is None
    assert after_game(NOBODY, {"masters-choice": True}, {}, before) is before
    assert after_game(NOBODY, {"masters-choice": True}, {}, None) is None


def test_only_the_master_picks_the_challenges_of_a_race() -> None:
    rule = MastersChoice(ANN, "Ann")
    refused = rule.refusal("race", BOB, ("race", "min=4", "bots=1"))
    assert refused == (
        "Master's Choice: Ann, the last moji Master, picks this round's challenges. "
        "Start without challenge options, or ask them to start it."
    )
    assert rule.refusal("race", BOB, ("race", "Themes=animals")) is not None  # keys in any case
    assert rule.refusal("race", ANN, ("min=4",)) is None
    assert rule.refusal("race", BOB, ("bots=2", "cards=5")) is None
    assert rule.refusal("board", BOB, ("min=4",)) is None


OTHER_KEYS = st.sampled_from(("bots", "cards", "language", "target", "timer", "mins"))


@given(
    challenge=st.lists(st.sampled_from(CHALLENGE_OPTIONS), max_size=2),
    other=st.lists(OTHER_KEYS, max_size=3),
    starter=st.sampled_from((ANN, BOB)),
)
def test_a_start_is_refused_exactly_when_someone_else_types_a_challenge_option(
    challenge: list[str], other: list[str], starter: str
) -> None:
    args = tuple(f"{key}=1" for key in (*other, *challenge))
    refused = MastersChoice(ANN, "Ann").refusal("race", starter, ("race", *args))
    assert (refused is not None) == (starter == BOB and bool(challenge))
