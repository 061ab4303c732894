"""The 110 cards and the rulebook's card sets."""

from __future__ import annotations

from collections import Counter

import pytest

from games.shed.cards import ACTIONS, DECK_SIZE, box, deck_for, hand_text, resolve_set


def test_the_box_holds_110_cards_as_documented() -> None:
    cards = box()
    assert len(cards) == DECK_SIZE == 110 and len({c.id for c in cards}) == 110
    letters = [c for c in cards if c.kind == "letter"]
    assert Counter(c.colour for c in letters) == {"blue": 31, "red": 31, "yellow": 31}
    blue = Counter(c.letter for c in letters if c.colour == "blue")
    assert all(blue[v] == 2 for v in "aeiou") and sum(blue.values()) == 31 and len(blue) == 26
    assert sum(1 for c in cards if c.kind == "joker") == 5
    assert Counter(c.action for c in cards if c.kind == "action") == dict.fromkeys(ACTIONS, 2)


@pytest.mark.parametrize(
    ("card_set", "players", "size", "jokers", "colours"),
    [
        ("two", 2, 46, 3, {"blue"}),
        ("group", 3, 79, 5, {"blue", "red"}),
        ("children", 2, 110, 5, {"blue", "red", "yellow"}),
        ("auto", 2, 46, 3, {"blue"}),
        ("auto", 4, 79, 5, {"blue", "red"}),
        ("auto", 6, 110, 5, {"blue", "red", "yellow"}),
    ],
)
def test_card_sets(card_set: str, players: int, size: int, jokers: int, colours: set[str]) -> None:
    cards = deck_for(card_set, players)
    assert len(cards) == size
    assert sum(1 for c in cards if c.kind == "joker") == jokers
    assert {c.colour for c in cards if c.kind == "letter"} == colours
    assert sum(1 for c in cards if c.kind == "action") == 12, "every set has every action card"
    assert resolve_set(card_set, players) in {"two", "group", "children"}


def test_hands_read_letters_then_jokers_then_actions() -> None:
    cards = box()
    pick = [cards[100], cards[5], cards[95], cards[0]]
    assert hand_text(pick) == "A E ★ [Trade]"
    assert hand_text([]) == "(no cards)"
