"""The grammar helper every game's messages use (issue #21: "You plays", "a A tile", "one a card")."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.common.grammar import (
    a,
    agree,
    article,
    base_form,
    count,
    does,
    duration,
    listing,
    plural,
    possessive,
    their,
    verb,
)
from games.common.words import describe_bans

names = st.text(
    alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz", min_size=1, max_size=12
).filter(lambda n: n.lower() != "you")


@pytest.mark.parametrize(
    ("letter", "expected"),
    [(ch, "an") for ch in "AEFHILMNORSX"] + [(ch, "a") for ch in "BCDGJKPQTUVWYZ"],
)
def test_letters_take_the_article_of_their_spoken_name(letter: str, expected: str) -> None:
    assert article(letter) == expected
    assert article(letter.lower()) == expected


@pytest.mark.parametrize(
    ("word", "expected"),
    [
        ("A", "an A"),
        ("U", "a U"),
        ("card", "a card"),
        ("apple", "an apple"),
        ("unicorn", "a unicorn"),
        ("one-word answer", "a one-word answer"),
        ("hour", "an hour"),
        ("8", "an 8"),
        ("18", "an 18"),
        ("180", "a 180"),
        ("E tile", "an E tile"),
    ],
)
def test_a_word_with_its_article(word: str, expected: str) -> None:
    assert a(word) == expected


@pytest.mark.parametrize(
    ("singular", "base"),
    [
        ("plays", "play"),
        ("passes", "pass"),
        ("loses", "lose"),
        ("gives", "give"),
        ("wins", "win"),
        ("tries", "try"),
        ("has", "have"),
        ("is", "are"),
        ("does", "do"),
        ("goes", "go"),
        ("fixes", "fix"),
        ("watches", "watch"),
        ("knocks", "knock"),
    ],
)
def test_base_forms(singular: str, base: str) -> None:
    assert base_form(singular) == base
    assert verb("You", singular) == base
    assert verb("Ann", singular) == singular


def test_you_and_groups_take_the_plural_verb() -> None:
    assert does("You", "passes.") == "You pass."
    assert does("Ann", "passes.") == "Ann passes."
    assert does("You", "plays H8 across CAT") == "You play H8 across CAT"
    assert does("Ann & You", "wins") == "Ann & You win"
    assert does("Ann and Bo", "is moji Masters") == "Ann and Bo are moji Masters"
    assert agree("You", "scores 3") == "score 3"
    assert verb("You", "concedes", "concede") == "concede"
    assert possessive("You") == "Your" and possessive("You", start=False) == "your"
    assert possessive("Ann") == "Ann's"
    assert their("You") == "your" and their("Ann") == "their"


@given(names, st.sampled_from(["plays", "passes", "loses", "gives", "knocks", "draws"]))
def test_a_name_keeps_the_third_person_and_you_never_does(name: str, singular: str) -> None:
    assert does(name, f"{singular} X") == f"{name} {singular} X"
    said = does("You", f"{singular} X")
    assert said == f"You {base_form(singular)} X" and said != f"You {singular} X", said


@given(st.integers(min_value=0, max_value=10**6), st.sampled_from(["card", "tile", "point", "pass", "try"]))
def test_count_is_singular_only_for_one(n: int, noun: str) -> None:
    text = count(n, noun)
    assert text == (f"1 {noun}" if n == 1 else f"{n} {plural(noun)}")
    assert " a " not in text


def test_plurals_and_listings() -> None:
    assert count(1, "card") == "1 card" and count(0, "card") == "0 cards" and count(2, "pass") == "2 passes"
    assert count(3, "try") == "3 tries" and count(2, "die", "dice") == "2 dice"
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
