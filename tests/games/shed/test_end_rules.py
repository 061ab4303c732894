"""Every round of shed ends (docs/SHED.md, "Every round ends"): the loops the old rules allowed."""

from __future__ import annotations

from games.common.options import parse_options
from games.common.protocol import Action
from games.shed.options import OPTIONS, ShedConfig
from tests.games.shed.helpers import accepted, game, hand, refused, rig, say, words


def test_the_draw_two_exchange_ends_a_played_draw_two_is_out_of_the_game() -> None:
    # the old loop: deck and discard pile empty, Ann's Draw Two went to the discard pile and Bob
    # drew it straight back, and so on for ever
    g = game()
    rig(g, {"a": "q x !draw-two", "b": "z z z"}, deck="", opened=["a", "b"])
    notes = say(g, "a", "+2")
    assert "Bob draws 0" in accepted(notes)
    assert hand(g, "b") == "z z z" and [c.action for c in g.round.out] == ["draw-two"]
    assert not g.round.deck and not g.round.discard
    say(g, "b", "draw")  # nothing to draw: no progress (1 of 2)
    assert not g.finished
    notes = say(g, "a", "draw")  # a full round without progress
    assert g.finished and g.result().winners == ("a",)
    assert any("No cards are left to draw and nobody can play" in n.text for n in notes)


def test_a_skip_cannot_be_drawn_back_and_played_again() -> None:
    g = game()
    rig(g, {"a": "q x !skip", "b": "z z z"}, deck="", opened=["a"])
    accepted(say(g, "a", "skip"))
    assert g.current == "a" and not g.round.discard, "Bob skips; the Skip is out of the game"
    say(g, "a", "draw")  # passes: nothing to draw
    say(g, "b", "draw")
    assert g.finished


def test_moving_table_letters_alone_does_not_hold_the_round_open() -> None:
    g = game()
    rig(g, {"a": "q x", "b": "z z z"}, table=["cat", "shock"], deck="v w y k j", opened=["a", "b"])
    accepted(say(g, "a", "CAT SHOCK -> CHAT SOCK"))
    assert not g.finished and hand(g, "a") == "q x"
    notes = say(g, "b", "CHAT SOCK -> CAT SHOCK")
    assert sorted(words(g)) == ["cat", "shock"]
    assert g.finished and g.result().winners == ("a",), "a round without progress: the fewest cards win"
    assert any("without anyone laying a card from their hand, or drawing one" in n.text for n in notes)


def test_a_draw_laying_a_card_or_an_action_card_is_progress() -> None:
    g = game()
    rig(g, {"a": "c a t q x !skip", "b": "z z z"}, table=["sock"], deck="v w", opened=["a", "b"])
    say(g, "a", "draw")  # a card drawn
    say(g, "b", "SOCK -> SOCK")  # refused: changes nothing
    say(g, "b", "draw")
    say(g, "a", "CAT")  # cards laid
    assert g.empty_passes == 0
    say(g, "b", "draw")  # nothing left: no progress
    assert g.empty_passes == 1
    accepted(say(g, "a", "skip"))  # an action card: progress
    assert g.empty_passes == 0 and not g.finished


def test_a_missed_turn_that_draws_is_progress_and_one_that_cannot_is_not() -> None:
    g = game()
    rig(g, {"a": "q x", "b": "z z z"}, deck="v", opened=["a", "b"])
    g.apply(Action("tick", 10_000.0))  # Ann's time is up: she draws V
    assert hand(g, "a") == "q v x" and g.empty_passes == 0
    g.apply(Action("tick", 20_000.0))  # Bob's: nothing to draw
    assert g.empty_passes == 1
    g.apply(Action("tick", 30_000.0))
    assert g.finished and g.result().winners == ("a", "b"), "three cards each: a tie"


def test_reshuffle_off_leaves_an_empty_deck_empty() -> None:
    g = game(options={"reshuffle": "off"})
    assert not g.round.refill
    cards = rig(g, {"a": "q x !deck-trade", "b": "e"}, deck="", opened=["a"])
    g.round.refill = False  # rig builds a fresh round
    g.round.discard = cards.take("m")
    assert "nothing to trade with" in refused(say(g, "a", "trade Q"))
    accepted(say(g, "a", "draw"))
    assert hand(g, "a") == "!deck-trade q x" and hand(g, "b") == "e"


def test_the_reshuffle_option_and_old_records() -> None:
    assert parse_options(OPTIONS, ())["reshuffle"] == "letters"
    assert parse_options(OPTIONS, ["reshuffle=no"])["reshuffle"] == "off"
    assert ShedConfig.from_options({}).reshuffle == "letters"
    # a game recorded before the option existed replays by its old rules
    old = {k: v for k, v in parse_options(OPTIONS, ()).items() if k != "reshuffle"}
    assert ShedConfig.from_options(old).legacy_end
    g = game(options=old)
    rig(g, {"a": "q x !skip", "b": "z z z"}, table=["cat", "shock"], deck="", opened=["a", "b"])
    accepted(say(g, "a", "skip"))
    assert [c.action for c in g.round.discard] == ["skip"] and not g.round.out
    accepted(say(g, "a", "draw"))  # the old rules: the Skip comes back
    assert "!skip" in hand(g, "a")
    accepted(say(g, "b", "CAT SHOCK -> CHAT SOCK"))  # any play held the round open
    assert g.empty_passes == 0 and not g.finished
