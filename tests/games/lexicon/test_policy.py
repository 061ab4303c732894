"""The written policy for debatable words (docs/LEXICON.md, "Debatable words"), enforced.

Each row: the word, and the ban that refuses it when every ban is on (None: legal).
Keep this table and the one in docs/LEXICON.md in step.
"""

from __future__ import annotations

import pytest

from games.common.words import BANS, WordRules
from games.lexicon import Lexicon

POLICY: list[tuple[str, str | None]] = [
    # 1. A plural whose singular is a common word is a plural, even with a meaning of its own.
    ("glasses", "plural-s"),
    ("arms", "plural-s"),
    ("goods", "plural-s"),
    ("dogs", "plural-s"),
    # 2. Words that only exist in the plural, or are far more common than their "singular", are not.
    ("clothes", None),
    ("pants", None),
    ("scissors", None),
    ("jeans", None),
    ("trousers", None),
    ("news", None),
    ("physics", None),
    ("species", None),
    ("series", None),
    ("outskirts", None),
    # 3. Function words ending in -s are never plurals.
    ("its", None),
    ("his", None),
    ("has", None),
    ("does", None),
    ("yes", None),
    ("us", None),
    ("bus", None),
    ("gas", None),
    # 4. An -ed or -ing word that is the form of a common verb is banned, adjective or noun though
    #    it may also be; irregular past tenses spelled -ed count.
    ("tired", "ed"),
    ("bored", "ed"),
    ("interested", "ed"),
    ("aged", "ed"),
    ("led", "ed"),
    ("fed", "ed"),
    ("building", "ing"),
    ("wedding", "ing"),
    ("meeting", "ing"),
    ("painting", "ing"),
    ("interesting", "ing"),
    # 5. ...but not when the "verb" is rare or unrelated, or there is none.
    ("ceiling", None),
    ("evening", None),
    ("morning", None),
    ("during", None),
    ("pudding", None),
    ("wicked", None),
    ("skilled", None),
    ("naked", None),
    ("hundred", None),
    # 6. Base forms that merely end in -ed/-ing/-s stay legal.
    ("bed", None),
    ("red", None),
    ("need", None),
    ("feed", None),
    ("shed", None),
    ("sing", None),
    ("thing", None),
    ("king", None),
    ("ring", None),
    ("string", None),
    ("spring", None),
    # 7. A name that is also a common lower-case word is legal; a common name with only a rare
    #    lower-case reading is a proper noun.
    ("john", None),
    ("bill", None),
    ("may", None),
    ("london", "proper"),
    ("paris", "proper"),
    ("english", "proper"),
    # 8. Contractions typed without the apostrophe are contractions unless they spell a word.
    ("dont", "contraction"),
    ("cant", None),
    ("wont", None),
    ("well", None),
    # 9. Foreign words: common greetings and words English speakers know as foreign.
    ("ciao", "foreign"),
    ("amigo", "foreign"),
    ("adios", "foreign"),
    ("pizza", None),
    ("cafe", None),
    ("taco", None),
    ("sushi", None),
]


#: Rule 7 in the tournament dictionary: the plain reading counts there.
TOURNAMENT_POLICY: list[tuple[str, str | None]] = [
    ("english", None),
    ("paris", None),
    ("ok", None),
    ("ed", None),
    ("london", "proper"),
]

#: Rule 9: English words that only look foreign to the frequency signal.
NOT_FOREIGN = ["quanta", "lire", "causer", "optimiser", "hast", "touche", "zit", "travail", "pertinence"]


@pytest.mark.parametrize(("word", "expected"), TOURNAMENT_POLICY)
def test_tournament_policy(tlex: Lexicon, word: str, expected: str | None) -> None:
    verdict = tlex.judge(word, WordRules(dictionary="tournament", bans=frozenset(BANS)))
    assert verdict.reason_code == expected, verdict.message


@pytest.mark.parametrize("word", NOT_FOREIGN)
def test_not_foreign(tlex: Lexicon, word: str) -> None:
    verdict = tlex.judge(word, WordRules(dictionary="tournament", bans=frozenset({"foreign"})))
    assert verdict.ok, verdict.message


@pytest.mark.parametrize(("word", "expected"), POLICY)
def test_policy(lex: Lexicon, word: str, expected: str | None) -> None:
    verdict = lex.judge(word, WordRules(bans=frozenset(BANS)))
    assert verdict.reason_code == expected, verdict.message


def test_policy_table_is_in_the_docs() -> None:
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[3] / "docs" / "LEXICON.md").read_text()
    for word, _ in POLICY + TOURNAMENT_POLICY:
        assert word.upper() in doc, word
    for word in NOT_FOREIGN:
        assert word.upper() in doc, word
