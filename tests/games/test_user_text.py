"""``games.common.text``: what people typed is marked, survives composition, and cannot be forged."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.common.grammar import excerpt, is_you, listing
from games.common.speech import _
from games.common.text import BIDI_CONTROLS, CLOSE, OPEN, plain, spans, tidy, user


@given(st.text())
def test_a_marked_text_is_one_user_span_of_one_line(text: str) -> None:
    shown = tidy(text)
    assert spans(user(text)) == ([(shown, True)] if shown else [])
    assert "\n" not in shown and "\x1b" not in shown and not set(shown) & BIDI_CONTROLS
    assert user(user(text)) == user(text)  # idempotent


@given(st.text(), st.text(), st.text())
def test_marks_survive_sentences_and_cannot_be_forged(before: str, typed: str, after: str) -> None:
    # a person typing the markers themselves cannot close their span or open one elsewhere
    sentence = f"{plain(before)} {user(typed + CLOSE + '**x**' + OPEN)} {plain(after)}"
    user_parts = [part for part, mine in spans(sentence) if mine]
    assert user_parts == ([tidy(typed + "**x**")] if tidy(typed + "**x**") else [])
    assert OPEN not in plain(sentence) and CLOSE not in plain(sentence)


def test_messages_and_lists_keep_the_marks() -> None:
    ann, bo = user("Ann"), user("Bo")
    assert spans(_("{name} plays.", name=ann)) == [("Ann", True), (" plays.", False)]
    assert spans(listing([ann, bo])) == [("Ann", True), (" and ", False), ("Bo", True)]
    assert is_you(user("You"))
    assert spans(excerpt("**x**")) == [("'", False), ("**x**", True), ("'", False)]


def test_a_stray_close_is_ignored_and_an_unclosed_open_runs_to_the_end() -> None:
    assert spans(f"a{CLOSE}b{OPEN}c") == [("a", False), ("b", False), ("c", True)]
