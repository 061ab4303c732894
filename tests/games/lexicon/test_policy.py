"""The written policy for debatable words (docs/LEXICON.md, "Debatable words"), enforced.

Each row: the word, and the ban that refuses it when every ban is on (None: legal).
Keep this table and the one in docs/LEXICON.md in step.
"""

from __future__ import annotations

import pytest

from games.common.words import BANS, WordRules
from games.lexicon import Lexicon

POLICY: list[tuple[str, str | None]] = [
    # 1. A plural or verb form is banned unless its own entry gives it a meaning of its own
    #    that is used more than the plain form of its base (docs/LEXICON.md, "Lexicalised words").
    ("glasses", "plural-s"),
    ("arms", "plural-s"),
    ("goods", "plural-s"),
    ("dogs", "plural-s"),
    ("jeans", "plural-s"),  # JEAN (the cloth) is the same thing
    ("trousers", "plural-s"),  # TROUSER is the same garment
    # 2. Words with a meaning of their own, or with no singular, are not plurals.
    ("clothes", None),
    ("pants", None),
    ("scissors", None),
    ("news", None),
    ("physics", None),
    ("species", None),
    ("series", None),
    ("outskirts", None),
    ("afterwards", None),
    ("forwards", None),
    ("towards", None),
    # 3. -s forms of verbs made by adding -s or -es are banned like plurals (runs, goes, does);
    #    function words that are no such form are not.
    ("does", "plural-s"),
    ("goes", "plural-s"),
    ("its", None),
    ("his", None),
    ("has", None),
    ("yes", None),
    ("us", None),
    ("bus", None),
    ("gas", None),
    # 4. An -ed or -ing word that is the form of a used verb is banned, adjective though it may
    #    also be; so is a noun that names only the act (swimming) or is used less than the verb
    #    (meeting); irregular past tenses spelled -ed count.
    ("tired", "ed"),
    ("bored", "ed"),
    ("interested", "ed"),
    ("aged", "ed"),
    ("led", "ed"),
    ("fed", "ed"),
    ("meeting", "ing"),
    ("swimming", "ing"),
    ("interesting", "ing"),
    # 5. ...but not a noun of its own used more than the verb's forms, nor an adjective whose
    #    "verb" is never used as one, nor a word with no verb at all.
    ("building", None),
    ("wedding", None),
    ("clothing", None),
    ("painting", None),
    ("ceiling", None),
    ("evening", None),
    ("morning", None),
    ("during", None),
    ("pudding", None),
    ("wicked", None),
    ("ragged", None),
    ("crooked", None),
    ("rugged", None),
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
    # 8. Contractions typed without the apostrophe are contractions unless they spell a word;
    #    spoken run-togethers of two words are contractions too.
    ("dont", "contraction"),
    ("gonna", "contraction"),
    ("wanna", "contraction"),
    ("gotta", "contraction"),
    ("kinda", "contraction"),
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
    ("ono", None),  # a fish in the word-game lists, though SCOWL knows Yoko Ono
    ("antisera", None),  # an irregular plural of a tournament word (WordNet's noun.exc)
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
