"""What the games' messages share beyond the catalogue: who "You" is, lists and spans of time in
the language spoken, and plurals by each language's own rules (never an English "s")."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from games.common.grammar import duration, is_you, listing
from games.common.speech import _n, speaking
from games.common.words import describe_bans


def test_listings() -> None:
    assert listing([]) == "" and listing(["Ann"]) == "Ann"
    assert listing(["Ann", "Bo"]) == "Ann and Bo" and listing(["A", "B", "C"], "or") == "A, B or C"


_UNIT = {"s": 1, "min": 60, "h": 3600, "days": 86400}


@given(st.floats(min_value=0, max_value=30 * 86400, allow_nan=False))
def test_one_duration_format_reads_back_to_the_same_time(seconds: float) -> None:
    text = duration(seconds)
    total = sum(int(n) * _UNIT[unit] for n, unit in re.findall(r"(\d+) (s|min|h|days)\b", text))
    whole = round(seconds)
    if whole < 3600:
        assert total == whole, text  # to the second below an hour
    elif whole < 96 * 3600:
        assert 0 <= whole - total < 60, text  # to the minute below four days
    else:
        assert 0 <= whole - total < 3600, text  # to the hour beyond
    assert "hourglass" not in text and "seconds" not in text


def test_durations() -> None:
    assert duration(106) == "1 min 46 s"
    assert duration(120) == "2 min"
    assert duration(45) == "45 s"
    assert duration(72 * 3600 - 60) == "71 h 59 min"
    assert duration(7 * 86400 + 7200) == "7 days 2 h"


def test_bans_read_as_words_not_codes() -> None:
    default = frozenset({"proper", "abbrev", "contraction", "foreign"})
    assert describe_bans(default) == "No proper nouns, abbreviations, contractions or foreign words."
    assert describe_bans(frozenset({"proper", "repeat"})) == "No proper nouns; no word twice in a game."
    assert describe_bans(frozenset()) == ""


def test_language_names_are_said_in_the_language_spoken() -> None:
    from games.common.languages import language
    from games.common.speech import speaking

    assert language("nl").spoken == "Dutch" and language("nl").name == "Dutch"
    with speaking("qps"):
        assert language("de").spoken == "⟦German⟧" and language("de").name == "German"


def test_the_terminal_s_player_is_you_in_every_language() -> None:
    assert is_you("You") and not is_you("Ann") and not is_you("Yours")
    with speaking("de"):
        assert is_you("Du") and is_you("You") and not is_you("Ann")
    with speaking("fr"):
        assert is_you("Toi")


@given(st.integers(min_value=0, max_value=10**7))
def test_plurals_follow_each_language_s_own_rule(n: int) -> None:
    """CLDR: one card is 1 in English and German; French says 0 and 1 in the singular."""
    with speaking("en"):
        assert _n("{count} card", "{count} cards", n).endswith("card" if n == 1 else "cards")
    with speaking("fr"):
        said = _n("{count} card", "{count} cards", n)
        assert said.endswith("carte" if n in (0, 1) else "cartes"), said


def test_numbers_and_lists_are_written_as_each_language_writes_them() -> None:
    with speaking("de"):
        assert _n("{count} card", "{count} cards", 12345) == "12.345 Karten"
        assert listing(["A", "B", "C"]) == "A, B und C"
    with speaking("fr"):
        assert listing(["A", "B"], "or") == "A ou B"
