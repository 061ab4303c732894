"""A line's preview (the web page's): judged as the line itself would be, on a copy of the
round, so nothing changes and nothing hidden is told."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from tests.games.shed.helpers import ANN, BOB, FUZZ, game, hand, rig, say, words


def test_a_word_from_the_hand_is_previewed_then_played_alike() -> None:
    g = game()
    rig(g, {"a": "w h o s c k", "b": "a b c"}, table=["sock"], opened=["a"])
    g.current = "a"
    found = g.preview("a", "SOCK+H -> SHOCK")
    assert found.ok and found.said.startswith("You ") and "5 cards left" in found.said, found
    assert words(g) == ["sock"] and "h" in hand(g, "a")
    refusal = g.preview("a", "ZZZQ")
    assert not refusal.ok and refusal.reason
    assert not g.preview("b", "ABC").ok and "not your turn" in g.preview("b", "ABC").reason


def test_a_draw_is_previewed_without_telling_the_card() -> None:
    g = game()
    rig(g, {"a": "w h o", "b": "a b c"}, deck="q")
    g.current = "a"
    found = g.preview("a", "draw")
    assert found.ok and "Q" not in found.said.upper().replace("CARDS", "")
    assert hand(g, "a") == "h o w"


@FUZZ
@given(
    line=st.sampled_from(
        [
            "who",
            "how",
            "SOCK+H -> SHOCK",
            "draw",
            "skip Bob",
            "+2 all",
            "trade W",
            "ZZZ",
            "sock -> socks",
            "wh*o",
        ]
    )
)
def test_the_preview_agrees_with_the_line_and_changes_nothing(line: str) -> None:
    g = game(seats=(ANN, BOB))
    rig(g, {"a": "w h o * !skip !all-draw-two !deck-trade", "b": "a b c"}, table=["sock"], opened=["a"])
    g.current = "a"
    before = (hand(g, "a"), hand(g, "b"), words(g), len(g.round.deck), g.rng.getstate())
    found = g.preview("a", line)
    assert (hand(g, "a"), hand(g, "b"), words(g), len(g.round.deck), g.rng.getstate()) == before
    notices = say(g, "a", line)
    rejected = [n.text for n in notices if n.kind == "rejected"]
    assert found.ok == (not rejected)
    if not found.ok:
        assert rejected == [found.reason]


def test_a_hand_is_its_owner_s_only_with_each_action_card_s_name_and_use() -> None:
    g = game()
    rig(g, {"a": "b a * !skip", "b": "c"})
    cards = g.hand_of("a")
    assert [(c.kind, c.letter) for c in cards] == [
        ("letter", "a"),
        ("letter", "b"),
        ("joker", ""),
        ("action", ""),
    ]
    assert (cards[-1].action, cards[-1].name, cards[-1].usage) == ("skip", "Skip", "skip Bob")
    assert [c.letter for c in g.hand_of("b")] == ["c"] and g.hand_of("nobody") == ()
