"""One rule for lexicalised words under the -s/-ing/-ed bans (docs/LEXICON.md).

The build decides, word by word, whether a form ending in -s, -ing or -ed is an inflection;
analogous words must come out alike, and no list of exceptions may stand in for the rule.
"""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from games.common.words import WordRules
from games.lexicon import Lexicon, build
from tests.games.lexicon.helpers import FUZZ

INFLECTION_BANS = WordRules(bans=frozenset({"plural-s", "ing", "ed"}))

#: Groups of words the issue found treated unlike; within a group, one verdict.
ALIKE: list[tuple[str, ...]] = [
    ("afterwards", "towards", "forwards", "backwards", "upwards", "onwards"),
    ("towards", "rightwards", "leftwards", "earthwards", "northeastwards", "leewards"),
    ("does", "goes"),
    ("rugged", "ragged", "wicked", "crooked", "jagged", "naked"),
    ("evening", "pudding", "wedding", "clothing", "building", "ceiling", "morning"),
    ("walked", "hacked", "talked"),
    ("making", "running", "swimming"),
    ("dogs", "cats", "runs"),
]
PAIRS = [(a, b) for group in ALIKE for a in group for b in group if a < b]


@FUZZ
@given(pair=st.sampled_from(PAIRS))
def test_analogous_words_are_treated_alike(lex: Lexicon, pair: tuple[str, str]) -> None:
    first, second = (lex.judge(word, INFLECTION_BANS) for word in pair)
    assert first.ok == second.ok, (first.message, second.message)
    assert first.reason_code == second.reason_code, (first.message, second.message)


def test_the_groups_fall_the_right_way(lex: Lexicon) -> None:
    legal = {"afterwards", "towards", "rugged", "ragged", "evening", "wedding", "building"}
    for word in legal:
        assert lex.judge(word, INFLECTION_BANS).ok, word
    assert lex.judge("does", INFLECTION_BANS).reason_code == "plural-s"
    assert (
        lex.judge("goes", INFLECTION_BANS).message
        == "GOES is a plural ending in -s (from GO), banned in this game."
    )
    assert lex.judge("swimming", INFLECTION_BANS).reason_code == "ing"
    assert lex.judge("walked", INFLECTION_BANS).reason_code == "ed"


@FUZZ
@given(data=st.data())
def test_every_wards_adverb_is_legal(lex: Lexicon, data: st.DataObject) -> None:
    """Every casual X-WARDS whose X-WARD the data knows as no noun or verb (an adverb or
    adjective, or a word it lacks) has no plural to be: it is legal like AFTERWARDS."""
    word = data.draw(st.sampled_from(_wards(lex)))
    assert lex.judge(word, INFLECTION_BANS).ok, word


def _wards(lex: Lexicon) -> list[str]:
    words = []
    for word in lex.words():
        if word.endswith("wards") and lex.contains(word):
            kinds = lex.kinds(word[:-1])
            if "nouns" not in kinds and "verbs" not in kinds:
                words.append(word)
    assert len(words) >= 8  # backwards, upwards, onwards, downwards, inwards, ...
    return sorted(words)


def test_nouns_ending_in_wards_are_plurals(lex: Lexicon) -> None:
    for word in ("awards", "rewards", "cowards", "stewards", "wards", "swards"):
        assert lex.judge(word, INFLECTION_BANS).reason_code == "plural-s", word


def test_no_override_lists_stand_in_for_the_rule() -> None:
    assert not hasattr(build, "OVERRIDES")
    assert not hasattr(build, "FUNCTION_WORDS")
    assert set(build.DATA_ERRORS) <= {"his", "during"}  # each documented in docs/LEXICON.md


def test_an_archaic_adverb_does_not_make_a_used_verbs_form_a_word(lex: Lexicon) -> None:
    """An adverb entry counts only if the corpus does not use the base's forms more
    (NEEDS, "must needs"; PASSING, "passing strange"); adverbs of their own stay legal."""
    banned = {"needs": "plural-s", "lots": "plural-s", "passing": "ing", "boiling": "ing", "damned": "ed"}
    for word, code in banned.items():
        assert lex.judge(word, INFLECTION_BANS).reason_code == code, word
    assert lex.judge("needs", INFLECTION_BANS).message == (
        "NEEDS is a plural ending in -s (from NEED), banned in this game."
    )
    for word in ("afterwards", "forwards", "backwards", "alas", "whopping"):
        assert lex.judge(word, INFLECTION_BANS).ok, word


def test_a_coin_is_no_form_of_a_rare_verb(lex: Lexicon) -> None:
    """SHILLING is a coin; SHILL is a verb the corpus never uses, so its -ing form is no reading."""
    assert lex.judge("shilling", INFLECTION_BANS).ok
    assert lex.judge("funding", INFLECTION_BANS).reason_code == "ing"  # FUND is common
