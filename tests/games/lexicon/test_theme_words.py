"""Food, drink and animal answers: several words, words outside the dictionaries, drinks."""

from __future__ import annotations

from games.common.placement import Placement
from games.common.words import WordRules, normalize
from games.lexicon import Lexicon

FOOD = WordRules(themes=frozenset({"food"}))
ANIMALS = WordRules(themes=frozenset({"animals"}))


def judge(lex: Lexicon, text: str, rules: WordRules) -> tuple[bool, str | None, str]:
    word = normalize(text, multiword=True)
    assert word is not None
    return tuple(lex.judge(word, rules))  # type: ignore[return-value]


def test_several_words_of_food_and_animals(lex: Lexicon) -> None:
    assert lex.judge("scrambled eggs", FOOD).message == "SCRAMBLED EGGS is food or drink."
    assert lex.judge("ice cream", FOOD).ok
    assert lex.judge("coca cola", FOOD).ok  # WordNet lists the drink
    assert lex.judge("polar bear", ANIMALS).message == "POLAR BEAR is an animal."
    assert not lex.judge("polar bear", FOOD).ok
    refused = lex.judge("purple cow", ANIMALS)
    assert (refused.ok, refused.reason_code) == (False, "theme")


def test_spaces_hyphens_or_none_fold_to_one_answer(lex: Lexicon) -> None:
    for typed in ("ice cream", "Ice-Cream", "ICE  CREAM", "icecream"):
        word = normalize(typed, multiword=True)
        assert word is not None
        assert lex.judge(word, FOOD).ok, typed
        assert lex.answer(word, FOOD) == "ice cream", typed
    assert lex.answer("polarbear", ANIMALS) == "polar bear"
    assert lex.answer("polarbear", FOOD) == "polarbear"  # not an answer of that theme
    assert lex.answer("cat", ANIMALS) == "cat"


def test_a_theme_word_the_dictionary_lacks(lex: Lexicon) -> None:
    assert lex.judge("donut", FOOD).message == "DONUT is food or drink."
    assert lex.judge("donut", WordRules()).reason_code == "unknown"
    assert lex.judge("donut", ANIMALS).reason_code == "unknown"
    # Such rows never leak into the plain dictionaries, word lists or examples.
    for name in ("casual", "tournament"):
        assert "donut" not in lex.words(name)
        assert "ice cream" not in lex.words(name)
    assert not lex.contains("donut")
    assert lex.dictionaries("donut") == []
    for rules in (FOOD, WordRules()):
        for word in lex.examples(list("dnut"), rules, Placement.ANYWHERE, limit=20):
            assert lex.contains(word) or lex.dictionaries(word), word


def test_drinks_rule(lex: Lexicon) -> None:
    for word in ("water", "coke", "milk", "coffee", "date"):
        assert lex.judge(word, FOOD).ok, word
    for word in ("table", "board", "car", "rock"):
        assert lex.judge(word, FOOD).reason_code == "theme", word


def test_several_words_need_a_multiword_theme(lex: Lexicon) -> None:
    assert lex.judge("ice cream", WordRules()).reason_code == "multiword"
    assert lex.judge("ice-cream", WordRules()).reason_code == "not-a-word"


def test_dictionary_slips(lex: Lexicon, tlex: Lexicon) -> None:
    tournament = WordRules(
        dictionary="tournament", bans=frozenset({"proper", "names", "abbrev", "contraction"})
    )
    assert tlex.judge("ono", tournament).ok  # a fish, though SCOWL knows Yoko Ono
    assert lex.judge("ono", WordRules(bans=frozenset({"proper"}))).reason_code == "proper"
    assert tlex.judge("antisera", tournament).ok
    assert lex.judge("text", WordRules(themes=frozenset({"verbs"}))).ok
    assert lex.judge("texted", WordRules(themes=frozenset({"verbs"}))).ok
    for word in ("gonna", "wanna", "gotta", "kinda", "sorta", "dunno", "lemme", "gimme"):
        assert lex.judge(word, WordRules(bans=frozenset({"contraction"}))).reason_code == "contraction", word


def test_examples_find_the_food_and_animals_no_dictionary_lists(lex: Lexicon) -> None:
    """The judge accepts ICE CREAM and ACAI under their theme though no dictionary lists them:
    the examples (the race's hints and computer players) can offer them too, after the single
    words that are more common."""
    many = lex.examples(list("icecream"), FOOD, limit=100_000)
    assert "ice cream" in many and "cream" in many
    assert many.index("cream") < many.index("ice cream")  # a name of several words ranks last
    assert "acai" in lex.examples(list("acai"), FOOD, limit=100_000)
    assert all(lex.judge(word, FOOD).ok for word in many)
    assert lex.examples(list("icecream"), FOOD, limit=3) == many[:3]  # a short list stops early
