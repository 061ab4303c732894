"""``python -m games.shed``: check, hint and deck."""

from __future__ import annotations

from games.shed.__main__ import run


def test_check_explains_a_move_or_its_refusal() -> None:
    status, answer = run(["check", "--table", "SHOCK", "--hand", "W O X", "--move", "SHOCK-H+WO -> WHO SOCK"])
    assert status == 0 and answer["table"] == ["SOCK", "WHO"] and answer["hand"] == "X"
    assert answer["said"] == "You turn SHOCK into SOCK and WHO (1 card left)." or "You turn" in str(
        answer["said"]
    )
    status, answer = run(["check", "--table", "SOCK", "--hand", "H", "--first", "--move", "SOCK+H -> SHOCK"])
    assert status == 1 and "word of your own" in str(answer["reason"])
    status, answer = run(["check", "--hand", "Q Q Q Q", "--move", "draw"])
    assert status == 2 and "no more Q" in str(answer["reason"])


def test_hint_finds_a_computer_play() -> None:
    status, answer = run(["hint", "--table", "SHOCK", "--hand", "W O Q"])
    assert status == 0 and answer["move"] == "SHOCK-H+OW -> WHO SOCK"


def test_deck_lists_a_card_set() -> None:
    status, answer = run(["deck", "--cards", "group", "--players", "3"])
    assert status == 0 and answer["cards"] == 79
    assert answer["kinds"] == {"letter": 62, "joker": 5, "action": 12}
    _, everything = run(["deck"])
    assert everything["cards"] == 110
