"""The judge speaks only through the catalogue: every kind of verdict in the pseudo-language
``qps`` (every message marked ``⟦…⟧``) leaves nothing unmarked but the words judged, and the
verdicts kept per rule set never carry one spoken language's message into another."""

from __future__ import annotations

import pytest

from games.common.speech import OPEN, _, speaking
from games.common.words import BANS, NEEDS_VOTE, WordRules
from games.lexicon import Lexicon, load
from tests.speech.pseudo import unmarked

ALL_BANS = frozenset(BANS)
FOOD, ANIMALS, NOUNS = (
    frozenset({"food"}),
    frozenset({"animals"}),
    frozenset({"nouns", "verbs", "adjectives"}),
)

#: (word, rules, reason code): a spread of every verdict the judge gives.
CASES: list[tuple[str, WordRules, str | None]] = [
    ("cat", WordRules(), None),
    ("xyzzyq", WordRules(), "unknown"),
    ("qi", WordRules(dictionary="tournament"), None),
    ("xyzzyq", WordRules(dictionary="tournament"), "unknown"),
    ("cat", WordRules(min_length=4), "too-short"),
    ("a", WordRules(min_length=2), "too-short"),
    ("c4t!", WordRules(), "not-a-word"),
    ("   ", WordRules(), "not-a-word"),
    ("walked", WordRules(bans=ALL_BANS), "ed"),
    ("making", WordRules(bans=ALL_BANS), "ing"),
    ("dogs", WordRules(bans=ALL_BANS), "plural-s"),
    ("london", WordRules(bans=ALL_BANS), "proper"),
    ("nasa", WordRules(bans=ALL_BANS), "abbrev"),
    ("dont", WordRules(bans=ALL_BANS), "contraction"),
    ("ciao", WordRules(bans=ALL_BANS), "foreign"),
    ("cat", WordRules(themes=ANIMALS), None),
    ("pizza", WordRules(themes=FOOD | ANIMALS), None),
    ("table", WordRules(themes=FOOD | ANIMALS), "theme"),
    ("table", WordRules(themes=NOUNS), None),
    ("the", WordRules(themes=frozenset({"nouns", "verbs"})), "theme"),
    ("star wars", WordRules(themes=frozenset({"movies"})), None),
    ("qqqq zzzz", WordRules(themes=frozenset({"books", "persons"})), NEEDS_VOTE),
    ("zzzz qqqq", WordRules(themes=FOOD), "theme"),
    ("ice cream", WordRules(themes=FOOD), None),
    ("star wars", WordRules(), "multiword"),
    ("cat", WordRules(banned=frozenset({"cat"})), "banned"),
    ("selfiex", WordRules(added=frozenset({"selfiex"})), None),
    ("selfie x", WordRules(added=frozenset({"selfie x"}), themes=frozenset({"food"})), NEEDS_VOTE),
    ("selfiex", WordRules(added=frozenset({"selfiex"}), themes=frozenset({"nouns"})), NEEDS_VOTE),
]


@pytest.fixture(scope="module")
def lexicons() -> dict[str, Lexicon]:
    return {"en": load("casual"), "de": load("casual", "de")}


@pytest.mark.parametrize(("word", "rules", "reason"), CASES)
def test_every_verdict_comes_through_the_catalogue(
    lexicons: dict[str, Lexicon], word: str, rules: WordRules, reason: str | None
) -> None:
    lex = lexicons["en"]
    with speaking("qps"):
        verdict = lex.judge(word, rules)
        again = lex.judge(word, rules)  # the kept verdict
    assert verdict.reason_code == reason, verdict.message
    assert again == verdict
    assert verdict.message.startswith(OPEN), verdict.message
    # Only the words judged (and their bases) may stand outside the marks: they are shown in capitals.
    assert unmarked(verdict.message, allowed=word.split()) == [], verdict.message


@pytest.mark.parametrize(
    ("code", "known"), [("de", "haus"), ("nl", "huis"), ("fr", "maison"), ("es", "casa")]
)
def test_verdicts_of_other_playing_languages_come_through_the_catalogue(code: str, known: str) -> None:
    lex = load("casual", code)
    for word in ("xyzzyq", "c4t!", "a"):
        with speaking("qps"):
            verdict = lex.judge(word, WordRules(min_length=2))
        assert not verdict.ok
        assert unmarked(verdict.message, allowed=[word]) == [], verdict.message
    for rules in (WordRules(), WordRules(dictionary="tournament")):
        with speaking("qps"):
            verdict = lex.judge(known, rules)
        assert verdict.ok and unmarked(verdict.message, allowed=[known]) == [], verdict.message


@pytest.mark.parametrize(("word", "rules", "reason"), [c for c in CASES if c[0].strip()])
def test_a_kept_verdict_speaks_the_language_it_is_asked_in(
    lexicons: dict[str, Lexicon], word: str, rules: WordRules, reason: str | None
) -> None:
    lex = lexicons["en"]
    english = lex.judge(word, rules).message
    with speaking("de"):
        german = lex.judge(word, rules).message
    with speaking("qps"):
        pseudo = lex.judge(word, rules).message
    assert lex.judge(word, rules).message == english
    assert pseudo != english and pseudo.startswith(OPEN)
    with speaking("de"):
        assert lex.judge(word, rules).message == german
        # Said the way German says it, whatever the catalogue holds for the message:
        shout = word.upper()
        if reason is None and rules == WordRules():
            assert german == _("{word} is in the casual dictionary.", word=shout)
        if reason == "unknown" and rules == WordRules():
            assert german == _("{word} isn't in the dictionary.", word=shout)
        if reason == "banned":
            assert german == _("{word} is banned in this workspace.", word=shout)


def test_a_german_word_judged_in_english_then_german_then_english(lexicons: dict[str, Lexicon]) -> None:
    lex = lexicons["de"]
    rules = WordRules(bans=ALL_BANS)
    for word in ("haus", "xyzzyq"):
        english = lex.judge(word, rules).message
        with speaking("de"):
            german = lex.judge(word, rules).message
        assert lex.judge(word, rules).message == english
        with speaking("de"):
            assert lex.judge(word, rules).message == german
    with speaking("de"):
        assert lex.judge("xyzzyq", rules).message == _(
            "{word} isn't in the German dictionary.", word="XYZZYQ"
        )
    assert lex.judge("xyzzyq", rules).message == "XYZZYQ isn't in the German dictionary."
