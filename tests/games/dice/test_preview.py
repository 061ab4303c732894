"""A word's preview (the web page's): fitted and scored as the move would be, never judged by
the dictionary outside strict mode, and it changes nothing."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.games.dice.helpers import WORDS, new_game, say

FIRST = "oestnocdbz"  # die by die: O E S T N O C D B Z


def test_a_word_is_fitted_and_scored_and_a_bad_one_says_why() -> None:
    engine, _ = new_game(first_roll=FIRST)
    found = engine.preview("bob", "STONE")
    assert (found.move, found.shown, found.score, found.reason) == ("STONE", "STONE", 5, "")
    assert "turn, not yours" in engine.preview("ann", "STONE").reason
    assert engine.preview("bob", "QQQ").reason
    assert engine.preview("bob", "challenge").reason  # no word: nothing to preview


def test_outside_strict_mode_the_preview_never_judges_the_word() -> None:
    engine, _ = new_game(first_roll=FIRST)
    found = engine.preview("bob", "DOTES")  # not in the tiny word list, but the dice make it
    assert found.reason == "" and found.score > 0
    strict, _ = new_game(first_roll=FIRST, strict="on")
    assert "dictionary" in strict.preview("bob", "DOTES").reason


@settings(max_examples=40, deadline=None)
@given(word=st.sampled_from([*sorted(WORDS), "dotes", "zzz", "Stone", "stone 2 1"]), strict=st.booleans())
def test_the_preview_agrees_with_the_move_and_changes_nothing(word: str, strict: bool) -> None:
    engine, _ = new_game(first_roll=FIRST, **({"strict": "on"} if strict else {}))
    before = (list(engine.rolled), list(engine.scores), engine.turn)
    found = engine.preview("bob", word)
    assert (list(engine.rolled), list(engine.scores), engine.turn) == before
    notices = say(engine, "bob", word)
    assert (notices[0].kind == "accepted") == (found.reason == "")
    if not found.reason:
        assert engine.history[-1].score == found.score
