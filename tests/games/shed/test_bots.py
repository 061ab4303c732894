"""Computer players find real plays at every level."""

from __future__ import annotations

import random

import pytest

from games.common.protocol import Action, Seat
from games.shed.bots import plan_turn
from games.shed.notation import Act, Draw, Form, Source, parse
from tests.games.shed.helpers import ANN, BOB, CY, accepted, game, hand, rig, say


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_a_first_word_from_the_hand(level: str) -> None:
    g = game()
    rig(g, {"a": "c a t d o g q", "b": "e"})
    text = plan_turn(g, "a", level, random.Random(1))
    ops = parse(text)
    assert ops and all(isinstance(op, Form) and not op.sources for op in ops)
    notes = say(g, "a", text)
    assert any(n.kind == "accepted" for n in notes), text
    assert len(g.round.hands["a"]) < 7


def test_no_joker_in_the_first_word_and_draw_when_stuck() -> None:
    g = game()
    rig(g, {"a": "q x * z", "b": "e"})
    assert plan_turn(g, "a", "hard", random.Random(1)) == "draw"


def test_hard_extends_and_takes_from_table_words() -> None:
    g = game()
    rig(g, {"a": "w o q", "b": "e"}, table=["shock"], opened=["a"])
    text = plan_turn(g, "a", "hard", random.Random(1))
    assert any(isinstance(op, Form) and any(s.take for s in op.sources) for op in parse(text)), text
    say(g, "a", text)
    assert hand(g, "a") == "q"
    g2 = game()
    rig(g2, {"a": "h q", "b": "e"}, table=["sock"], opened=["a"])
    text = plan_turn(g2, "a", "normal", random.Random(1))
    assert parse(text) == (Form(("shock",), (Source("sock"),), "h"),)


def test_hard_aims_action_cards_at_the_leader() -> None:
    g = game(seats=(ANN, BOB, CY))
    rig(g, {"a": "q x z !draw-two", "b": "e", "c": "m n o p"}, opened=["a"])
    text = plan_turn(g, "a", "hard", random.Random(1))
    assert parse(text) == (Act("draw-two", "2"),)
    say(g, "a", text)
    assert hand(g, "b") == "e j k"


def test_a_computer_never_plays_its_last_card_as_an_action() -> None:
    g = game()
    rig(g, {"a": "!skip", "b": "e"}, opened=["a"])
    assert parse(plan_turn(g, "a", "hard", random.Random(1))) == (Draw(),)


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_computer_players_finish_a_game(level: str) -> None:
    seats = [Seat("x", "Xi", level), Seat("y", "Yo", level), Seat("z", "Zu", level)]
    g = game(seats=seats, seed=4)
    now = 0.0
    for _ in range(400):
        if g.finished:
            break
        due = g.next_bot_time()
        assert due is not None
        now = max(now, due)
        (claim,) = g.bot_claims(now)
        assert g.next_bot_time() is None, "one move per turn"
        notes = g.apply(Action("say", now, seat=claim.seat, text=claim.text))
        assert not [n for n in notes if n.kind == "rejected"], claim.text
    assert g.finished and g.result().winners


def test_a_big_hand_still_finds_words() -> None:
    g = game()
    rig(g, {"a": "q x z j k v w y b c d f g h m p l n r s t e", "b": "e"}, deck="", table=["cat", "dog"])
    text = plan_turn(g, "a", "hard", random.Random(2))
    assert text != "draw"
    assert any(n.kind == "accepted" for n in say(g, "a", text)), text


def test_with_actions_alone_an_action_card_replaces_a_small_play() -> None:
    g = game(seats=(ANN, BOB, CY))
    rig(g, {"a": "h q x !draw-two", "b": "e", "c": "m n o p"}, table=["sock"], opened=["a"])
    text = plan_turn(g, "a", "hard", random.Random(1))
    assert parse(text) == (Act("draw-two", "2"),), "an extension sheds one card: the action card instead"
    accepted(say(g, "a", text))


def test_with_actions_alone_a_big_play_keeps_its_words_and_no_action_card() -> None:
    g = game(seats=(ANN, BOB, CY))
    rig(g, {"a": "c a t s !draw-two x", "b": "e", "c": "m n o p"}, opened=["a"])
    text = plan_turn(g, "a", "hard", random.Random(1))
    ops = parse(text)
    assert ops and not any(isinstance(op, Act) for op in ops), text
    accepted(say(g, "a", text))


def test_with_actions_last_the_action_card_follows_the_words() -> None:
    g = game(seats=(ANN, BOB, CY), options={"actions": "last"})
    rig(g, {"a": "h q x !draw-two", "b": "e", "c": "m n o p"}, table=["sock"], opened=["a"])
    text = plan_turn(g, "a", "hard", random.Random(1))
    ops = parse(text)
    assert len(ops) == 2 and ops[-1] == Act("draw-two", "2"), text
    accepted(say(g, "a", text))


@pytest.mark.parametrize("actions", ["alone", "last"])
def test_computer_players_finish_a_game_under_either_action_rule(actions: str) -> None:
    seats = [Seat("x", "Xi", "hard"), Seat("y", "Yo", "normal"), Seat("z", "Zu", "easy")]
    g = game(seats=seats, seed=7, options={"actions": actions})
    now = 0.0
    for _ in range(400):
        if g.finished:
            break
        due = g.next_bot_time()
        assert due is not None
        now = max(now, due)
        (claim,) = g.bot_claims(now)
        notes = g.apply(Action("say", now, seat=claim.seat, text=claim.text))
        assert not [n for n in notes if n.kind == "rejected"], claim.text
    assert g.finished
