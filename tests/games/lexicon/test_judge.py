"""The judge: words, bans, themes, overlays, minimum length and multi-word answers."""

from __future__ import annotations

import pytest

from games.common.words import BANS, NEEDS_VOTE, WordRules
from games.lexicon import Lexicon, judge, load

ALL_BANS = frozenset(BANS)


@pytest.fixture(scope="module")
def lex() -> Lexicon:
    return load("casual")


def verdict_code(lex: Lexicon, word: str, **kw: object) -> str | None:
    rules = WordRules(**kw)  # type: ignore[arg-type]
    return lex.judge(word, rules).reason_code


@pytest.mark.parametrize(
    "word", ["bus", "news", "sing", "thing", "bed", "need", "wicked", "john", "cat", "cant", "pizza"]
)
def test_legal_under_every_ban(lex: Lexicon, word: str) -> None:
    verdict = lex.judge(word, WordRules(bans=ALL_BANS))
    assert verdict.ok, verdict.message
    assert verdict.reason_code is None


@pytest.mark.parametrize(
    ("word", "code"),
    [
        ("walked", "ed"),
        ("hacked", "ed"),
        ("making", "ing"),
        ("runs", "plural-s"),
        ("dogs", "plural-s"),
        ("london", "proper"),
        ("nasa", "abbrev"),
        ("dont", "contraction"),
        ("ciao", "foreign"),
        ("amigo", "foreign"),
    ],
)
def test_bans(lex: Lexicon, word: str, code: str) -> None:
    assert verdict_code(lex, word, bans=ALL_BANS) == code
    assert verdict_code(lex, word, bans=frozenset({code})) == code
    others = ALL_BANS - {code}
    assert lex.judge(word, WordRules(bans=others)).ok


def test_message_names_the_word(lex: Lexicon) -> None:
    msg = lex.judge("walked", WordRules(bans=frozenset({"ed"}))).message
    assert msg == "WALKED is past tense ending in -ed (from WALK), banned in this game."


def test_unknown_and_too_short(lex: Lexicon) -> None:
    assert verdict_code(lex, "xyzzyq") == "unknown"
    assert verdict_code(lex, "cat", min_length=4) == "too-short"
    assert lex.judge("cat", WordRules(min_length=3)).ok


def test_module_judge_uses_named_dictionary() -> None:
    assert judge("qi", WordRules(dictionary="tournament")).ok
    assert judge("qi", WordRules()).reason_code == "unknown"


def test_unknown_dictionary() -> None:
    with pytest.raises(ValueError, match="casual"):
        load("huge")


def test_themes(lex: Lexicon) -> None:
    assert lex.judge("cat", WordRules(themes=frozenset({"animals"}))).ok
    assert verdict_code(lex, "table", themes=frozenset({"food"})) == "theme"
    assert lex.judge("albert einstein", WordRules(themes=frozenset({"persons"}))).ok
    assert verdict_code(lex, "beyonce", themes=frozenset({"persons"})) == NEEDS_VOTE
    assert verdict_code(lex, "star wars") == "multiword"


def test_overlays(lex: Lexicon) -> None:
    assert lex.judge("selfie", WordRules(added=frozenset({"selfie"}))).ok
    assert verdict_code(lex, "cat", banned=frozenset({"cat"})) == "banned"
    assert verdict_code(lex, "london", bans=ALL_BANS, added=frozenset({"london"})) == "proper"


def test_examples(lex: Lexicon) -> None:
    rules = WordRules(bans=ALL_BANS)
    words = lex.examples(list("actr"), rules)
    assert len(words) == 3
    for word in words:
        assert lex.judge(word, rules).ok
