"""Every row of the rulebook's Letter Placement table, with A, C and T face-up."""

from __future__ import annotations

from collections import Counter

import pytest

from games.common.placement import Placement, match_letters

TABLE = ["a", "c", "t"]
FOL, FAL, BETWEEN = Placement.FIRST_OR_LAST, Placement.FIRST_AND_LAST, Placement.IN_BETWEEN


@pytest.mark.parametrize(
    ("placement", "word", "collected"),
    [
        (FOL, "teach", "act"),
        (FOL, "ache", "ac"),
        (FOL, "part", "at"),
        (FOL, "art", "at"),
        (FAL, "cart", "act"),
        (FAL, "cult", "ct"),
        (BETWEEN, "heartache", "act"),
        (BETWEEN, "hearth", "at"),
        (BETWEEN, "pact", "act"),
    ],
)
def test_you_can_say(placement: Placement, word: str, collected: str) -> None:
    match = match_letters(word, TABLE, placement)
    assert match.ok, match.reason
    assert match.claimed == Counter(collected)


@pytest.mark.parametrize(
    ("placement", "word", "why"),
    [
        (FOL, "back", "first or last"),
        (FAL, "teach", "last letter"),
        (FAL, "part", "first letter"),
        (BETWEEN, "cart", "between"),
    ],
)
def test_you_cannot_say(placement: Placement, word: str, why: str) -> None:
    match = match_letters(word, TABLE, placement)
    assert not match.ok
    assert why in (match.reason or "")
    assert not match.claimed
