"""``excerpt``: what a message quotes of a player's text is bounded, on one line, and printable."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.common.grammar import EXCERPT, excerpt
from games.common.text import CLOSE, OPEN, plain, spans


def test_short_text_is_quoted_whole_and_long_text_is_cut_with_its_length() -> None:
    assert plain(excerpt("cat")) == "'cat'"
    assert plain(excerpt("Q" * 2000)) == "'" + "Q" * (EXCERPT - 1) + "…' (2,000 characters)"


def test_the_quoted_part_is_marked_as_user_text() -> None:
    assert excerpt("cat") == f"'{OPEN}cat{CLOSE}'"
    link = "[x](https://e.example)"
    assert spans(excerpt(link)) == [("'", False), (link, True), ("'", False)]
    # a marker typed by someone cannot close the span early
    assert spans(excerpt(f"a{CLOSE}**b**")) == [("'", False), ("a**b**", True), ("'", False)]


@given(st.text())
def test_any_text_gives_a_bounded_printable_line(text: str) -> None:
    quoted = plain(excerpt(text))
    assert len(quoted) <= EXCERPT * 4 + 30  # repr may escape a few characters; still bounded
    assert "\n" not in quoted and "\x1b" not in quoted
    if sum(ch.isalnum() for ch in text) > EXCERPT:  # too much to quote whole: its length is said
        assert quoted.endswith(f"({len(text):,} characters)")
