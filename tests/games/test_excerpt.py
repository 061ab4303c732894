"""``excerpt``: what a message quotes of a player's text is bounded, on one line, and printable."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.common.grammar import EXCERPT, excerpt


def test_short_text_is_quoted_whole_and_long_text_is_cut_with_its_length() -> None:
    assert excerpt("cat") == "'cat'"
    assert excerpt("Q" * 2000) == "'" + "Q" * (EXCERPT - 1) + "…' (2,000 characters)"


@given(st.text())
def test_any_text_gives_a_bounded_printable_line(text: str) -> None:
    quoted = excerpt(text)
    assert len(quoted) <= EXCERPT * 4 + 30  # repr may escape a few characters; still bounded
    assert "\n" not in quoted and "\x1b" not in quoted
    if sum(ch.isalnum() for ch in text) > EXCERPT:  # too much to quote whole: its length is said
        assert quoted.endswith(f"({len(text):,} characters)")
