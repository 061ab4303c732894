"""Letter queries and examples agree with a brute-force scan through match_letters and the judge."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.common.placement import Placement, match_letters
from games.common.words import BANS, WordRules
from games.lexicon import Lexicon
from tests.games.lexicon.helpers import FUZZ

BASE = WordRules(bans=frozenset({"proper", "abbrev", "contraction", "foreign"}))
STRICT = WordRules(bans=frozenset(BANS))
LETTERS = st.sampled_from("abcdefghijklmnopqrstuvwxyz")
PLACEMENTS = st.sampled_from(list(Placement))


def allowed(lex: Lexicon, rules: WordRules) -> list[str]:
    return [w for w in lex.words(rules.dictionary) if len(w) >= 2 and lex.judge(w, rules).ok]


@pytest.fixture(scope="module")
def base_words(lex: Lexicon) -> list[str]:
    return allowed(lex, BASE)


@pytest.fixture(scope="module")
def strict_words(lex: Lexicon) -> list[str]:
    return allowed(lex, STRICT)


def brute(words: list[str], letters: list[str], placement: Placement, min_length: int = 2) -> bool:
    need = Counter(letters)
    for word in words:
        if len(word) < min_length or sum(min(word.count(ch), n) for ch, n in need.items()) < 2:
            continue
        if match_letters(word, letters, placement).ok:
            return True
    return False


@pytest.mark.parametrize(
    ("x", "y", "placement", "expected"),
    [
        ("j", "q", Placement.ANYWHERE, True),
        ("q", "x", Placement.FIRST_AND_LAST, False),
        ("c", "t", Placement.FIRST_AND_LAST, True),  # CART
        ("t", "t", Placement.FIRST_AND_LAST, True),  # TOT needs two T cards
        ("a", "t", Placement.FIRST_OR_LAST, True),
        ("a", "c", Placement.IN_BETWEEN, True),
    ],
)
def test_known_pairs(lex: Lexicon, x: str, y: str, placement: Placement, expected: bool) -> None:
    assert lex.has_pair(x, y, placement) is expected
    assert lex.has_pair(y, x, placement) is expected


@FUZZ
@given(x=LETTERS, y=LETTERS, placement=PLACEMENTS, strict=st.booleans(), min_length=st.integers(2, 9))
def test_pair_tables_match_brute_force(
    lex: Lexicon,
    base_words: list[str],
    strict_words: list[str],
    x: str,
    y: str,
    placement: Placement,
    strict: bool,
    min_length: int,
) -> None:
    words = strict_words if strict else base_words
    expected = brute(words, [x, y], placement, min_length)
    assert lex.has_pair(x, y, placement, strict=strict, min_length=min_length) is expected


@FUZZ
@given(letters=st.lists(LETTERS, min_size=2, max_size=5), placement=PLACEMENTS)
def test_has_word_matches_brute_force(
    lex: Lexicon, base_words: list[str], letters: list[str], placement: Placement
) -> None:
    assert lex.has_word(letters, placement) is brute(base_words, letters, placement)


@FUZZ
@given(x=LETTERS, y=LETTERS, z=LETTERS, strict=st.booleans())
def test_triple_tables_match_brute_force(
    lex: Lexicon, base_words: list[str], strict_words: list[str], x: str, y: str, z: str, strict: bool
) -> None:
    need = Counter(x + y + z)
    words = strict_words if strict else base_words
    expected = any(all(w.count(ch) >= n for ch, n in need.items()) for w in words)
    assert lex.has_triple(x, y, z, strict=strict) is expected


def test_pair_tables_are_exhaustive_for_a_few_letters(lex: Lexicon, base_words: list[str]) -> None:
    for x, y in combinations("jqxzvk", 2):
        for placement in Placement:
            assert lex.has_pair(x, y, placement) is brute(base_words, [x, y], placement), (x, y, placement)


def test_tournament_tables(tlex: Lexicon) -> None:
    assert tlex.has_pair("q", "i", Placement.FIRST_AND_LAST, dictionary="tournament")  # QI
    assert tlex.has_pair("z", "a", Placement.FIRST_AND_LAST)  # ZA


# --- examples ---


@FUZZ
@given(
    letters=st.lists(LETTERS, min_size=2, max_size=6),
    placement=PLACEMENTS,
    rules=st.sampled_from(
        [
            BASE,
            STRICT,
            WordRules(min_length=4, bans=frozenset(BANS)),
            WordRules(themes=frozenset({"animals"})),
            WordRules(themes=frozenset({"food"}), bans=frozenset(BANS)),
            WordRules(dictionary="tournament"),
            WordRules(themes=frozenset({"movies"})),
            WordRules(banned=frozenset({"the", "at", "cat", "act"})),
        ]
    ),
    limit=st.integers(1, 6),
)
def test_examples_are_valid_and_sorted(
    lex: Lexicon, letters: list[str], placement: Placement, rules: WordRules, limit: int
) -> None:
    found = lex.examples(letters, rules, placement, limit)
    assert len(found) <= limit
    assert len(set(found)) == len(found)
    for word in found:
        assert lex.judge(word, rules).ok, word
        assert match_letters(word.replace(" ", ""), letters, placement).ok, word
    zipfs = [lex.zipf(w) if " " not in w else 0.0 for w in found]
    assert zipfs == sorted(zipfs, reverse=True)


@FUZZ
@given(letters=st.lists(LETTERS, min_size=2, max_size=5), placement=PLACEMENTS)
def test_examples_find_the_most_common_word(
    lex: Lexicon, base_words: list[str], letters: list[str], placement: Placement
) -> None:
    found = lex.examples(letters, BASE, placement, 1)
    # base_words is most common first: the first word that fits is the best there is.
    need = Counter(letters)
    best = next(
        (
            w
            for w in base_words
            if sum(min(w.count(ch), n) for ch, n in need.items()) >= 2
            and match_letters(w, letters, placement).ok
        ),
        None,
    )
    if best is None:
        assert found == []
    else:
        assert found and lex.zipf(found[0]) == lex.zipf(best)


def test_examples_prefer_common_words(lex: Lexicon) -> None:
    assert lex.examples(list("act"), BASE, Placement.FIRST_AND_LAST, 3)
    found = lex.examples(list("act"), STRICT, Placement.ANYWHERE, 3)
    assert all(lex.zipf(w) >= 5 for w in found), found
    assert lex.examples(list("a"), BASE) == []
    assert lex.examples(list("ab"), BASE, limit=0) == []


def test_examples_for_themes(lex: Lexicon) -> None:
    for word in lex.examples(list("tigr"), WordRules(themes=frozenset({"animals"})), limit=5):
        assert "animals" in lex.kinds(word)
    # (J and W only: with all of JAWS, the grown lists' commoner one-word titles come first)
    movies = lex.examples(list("jw"), WordRules(themes=frozenset({"movies"})), limit=20)
    assert "jaws" in movies


# --- words_from ---


@pytest.fixture(scope="module")
def counted(base_words: list[str]) -> list[tuple[str, Counter[str]]]:
    return [(w, Counter(w)) for w in base_words]


@FUZZ
@given(rack=st.text("aeioustrnlcdpmbgh", min_size=1, max_size=7), blanks=st.integers(0, 2))
def test_words_from_matches_brute_force(
    lex: Lexicon, counted: list[tuple[str, Counter[str]]], rack: str, blanks: int
) -> None:
    got = lex.words_from(rack, blanks, BASE)
    have = Counter(rack)
    size = len(rack) + blanks
    expected = {
        w
        for w, counts in counted
        if len(w) <= size and sum(max(0, n - have[ch]) for ch, n in counts.items()) <= blanks
    }
    assert set(got) == expected
    assert [len(w) for w in got] == sorted((len(w) for w in got), reverse=True)


def test_words_from_examples(lex: Lexicon, tlex: Lexicon) -> None:
    assert "cat" in lex.words_from("tac")
    assert "cart" not in lex.words_from("tac")
    assert "cart" in lex.words_from("tac", blanks=1)
    assert "qi" in tlex.words_from("qi", rules=WordRules(dictionary="tournament"))
    assert lex.words_from("", blanks=0) == []
