"""The judge: words, bans, themes, overlays, minimum length and multi-word answers."""

from __future__ import annotations

import pytest

from games.common.words import BANS, NEEDS_VOTE, WordRules
from games.lexicon import Lexicon, judge, load

ALL_BANS = frozenset(BANS)
DEFAULT_BANS = frozenset({"proper", "abbrev", "contraction", "foreign"})


def code(lex: Lexicon, word: str, **kw: object) -> str | None:
    return lex.judge(word, WordRules(**kw)).reason_code  # type: ignore[arg-type]


# --- words and bans ---


@pytest.mark.parametrize(
    "word",
    # The issue's own examples, and words that only look like inflections or names.
    ["bus", "news", "sing", "thing", "bed", "need", "wicked", "john", "cat", "cant", "pizza", "gas",
     "boss", "king", "ring", "bring", "red", "shed", "weed", "feed", "physics", "species", "its", "has",
     "yes", "us", "this", "always", "skilled", "hundred", "sacred", "naked", "during", "morning"],
)  # fmt: skip
def test_legal_under_every_ban(lex: Lexicon, word: str) -> None:
    verdict = lex.judge(word, WordRules(bans=ALL_BANS))
    assert verdict.ok, verdict.message
    assert verdict.reason_code is None
    assert word.upper() in verdict.message


BANNED = [
    ("walked", "ed"),
    ("hacked", "ed"),
    ("stopped", "ed"),
    ("carried", "ed"),
    ("making", "ing"),
    ("running", "ing"),
    ("swimming", "ing"),
    ("runs", "plural-s"),
    ("dogs", "plural-s"),
    ("boxes", "plural-s"),
    ("cities", "plural-s"),
    ("goes", "plural-s"),
    ("london", "proper"),
    ("paris", "proper"),
    ("nasa", "abbrev"),
    ("fbi", "abbrev"),
    ("dont", "contraction"),
    ("ciao", "foreign"),
    ("amigo", "foreign"),
    ("adios", "foreign"),
]


@pytest.mark.parametrize(("word", "ban"), BANNED)
def test_each_ban(lex: Lexicon, word: str, ban: str) -> None:
    assert code(lex, word, bans=ALL_BANS) == ban
    assert code(lex, word, bans=frozenset({ban})) == ban
    # Lifting exactly that ban makes the word legal: the ban, not the dictionary, refused it.
    assert lex.judge(word, WordRules(bans=ALL_BANS - {ban})).ok


def test_no_bans_allow_everything_in_the_dictionary(lex: Lexicon) -> None:
    for word, _ in BANNED:
        assert lex.judge(word, WordRules()).ok, word


@pytest.mark.parametrize(
    ("word", "ban", "message"),
    [
        ("walked", "ed", "WALKED is past tense ending in -ed (from WALK), banned in this game."),
        ("making", "ing", "MAKING is a verb ending in -ing (from MAKE), banned in this game."),
        ("dogs", "plural-s", "DOGS is a plural ending in -s (from DOG), banned in this game."),
        ("london", "proper", "LONDON is a proper noun, banned in this game."),
        ("nasa", "abbrev", "NASA is an abbreviation, banned in this game."),
        ("dont", "contraction", "DONT is a contraction, banned in this game."),
        ("ciao", "foreign", "CIAO is a foreign word, banned in this game."),
    ],
)
def test_ban_messages(lex: Lexicon, word: str, ban: str, message: str) -> None:
    assert lex.judge(word, WordRules(bans=frozenset({ban}))).message == message


def test_unknown_word(lex: Lexicon) -> None:
    verdict = lex.judge("xyzzyq", WordRules())
    assert (verdict.ok, verdict.reason_code) == (False, "unknown")
    assert verdict.message == "XYZZYQ isn't in the dictionary."


def test_ok_message(lex: Lexicon) -> None:
    assert lex.judge("cat", WordRules()) == judge("cat")
    assert lex.judge("cat", WordRules()).message == "CAT is in the casual dictionary."


def test_min_length(lex: Lexicon) -> None:
    assert code(lex, "cat", min_length=4) == "too-short"
    assert lex.judge("cat", WordRules(min_length=4)).message == (
        "CAT is too short: words need at least 4 letters."
    )
    assert lex.judge("cat", WordRules(min_length=3)).ok
    assert lex.judge("catch", WordRules(min_length=5)).ok
    # Spaces do not count as letters.
    assert code(lex, "up", min_length=3, themes=frozenset({"movies"})) == "too-short"
    assert lex.judge("the birds", WordRules(min_length=8, themes=frozenset({"movies"}))).ok


def test_not_a_word(lex: Lexicon) -> None:
    for text in ("", "   ", "c4t", "ca-t", "кот", "😀"):
        verdict = lex.judge(text, WordRules())
        assert not verdict.ok
        assert verdict.reason_code == "not-a-word"


def test_unnormalised_input_is_folded(lex: Lexicon) -> None:
    assert lex.judge("Café", WordRules()).ok
    assert lex.judge("  CAT ", WordRules()).ok


# --- dictionaries ---


def test_dictionaries(lex: Lexicon, tlex: Lexicon) -> None:
    assert judge("qi", WordRules(dictionary="tournament")).ok
    assert judge("qi", WordRules()).reason_code == "unknown"
    # The judge honours rules.dictionary whichever Lexicon object is asked.
    assert lex.judge("qi", WordRules(dictionary="tournament")).ok
    assert tlex.judge("qi", WordRules()).reason_code == "unknown"
    assert (
        tlex.judge("qi", WordRules(dictionary="tournament")).message == "QI is in the tournament dictionary."
    )
    assert code(lex, "qi", dictionary="tournament", min_length=3) == "too-short"
    for word in ("aa", "ab", "ae", "al", "ar", "aw", "bo", "ed", "el", "ew", "gi", "hm", "li", "mm", "mo",
                 "oe", "ok", "op", "os", "za", "xu"):  # fmt: skip
        assert tlex.judge(word, WordRules(dictionary="tournament")).ok, word
    assert tlex.contains("naloxone") and not lex.contains("naloxone")


def test_single_letters_and_letter_plurals_are_not_words(lex: Lexicon) -> None:
    for word in ("cs", "ts", "ms", "b", "x"):
        assert not lex.judge(word, WordRules(min_length=1)).ok, word
    assert lex.judge("a", WordRules(min_length=1)).ok


def test_unknown_dictionary() -> None:
    with pytest.raises(ValueError, match="casual, tournament"):
        load("huge")
    with pytest.raises(ValueError, match="unknown dictionary"):
        judge("cat", WordRules(dictionary="huge"))


def test_load_is_cached() -> None:
    assert load("casual") is load("casual")
    assert load() is load("casual")
    assert load().prepare() is load()


# --- themes ---


@pytest.mark.parametrize(
    ("theme", "good", "bad"),
    [
        ("nouns", ["table", "idea", "cat"], ["quickly", "from"]),
        ("verbs", ["run", "eat", "think"], ["idea", "quickly", "from"]),
        ("adjectives", ["happy", "blue", "quick"], ["table", "from", "run"]),
        (
            "food",
            ["apple", "bread", "coffee", "cheese", "pizza", "tea", "wine", "water"],
            ["table", "car", "board"],
        ),
        ("animals", ["cat", "dog", "tiger", "eagle", "shark", "horse"], ["table", "tree", "car"]),
    ],
)
def test_data_themes(lex: Lexicon, theme: str, good: list[str], bad: list[str]) -> None:
    rules = WordRules(themes=frozenset({theme}), bans=DEFAULT_BANS)
    for word in good:
        assert lex.judge(word, rules).ok, (theme, word)
    for word in bad:
        verdict = lex.judge(word, rules)
        assert verdict.reason_code == "theme", (theme, word, verdict)


def test_theme_message(lex: Lexicon) -> None:
    rules = WordRules(themes=frozenset({"food", "animals"}))
    assert lex.judge("table", rules).message == "TABLE is not an animal or food or drink."
    assert lex.judge("tiger", rules).message == "TIGER is an animal."
    assert lex.judge("xyzzyq", rules).reason_code == "unknown"


def test_several_themes_accept_any(lex: Lexicon) -> None:
    rules = WordRules(themes=frozenset({"food", "animals"}))
    assert lex.judge("apple", rules).ok and lex.judge("tiger", rules).ok


@pytest.mark.parametrize(
    ("theme", "answer"),
    [
        ("persons", "albert einstein"),
        ("persons", "einstein"),
        ("persons", "mozart"),
        ("persons", "picasso"),
        ("persons", "abraham lincoln"),
        # the curated persons.txt, beside WordNet's names: full names and surnames alike
        ("persons", "beyonce"),
        ("persons", "barack obama"),
        ("persons", "obama"),
        ("persons", "lionel messi"),
        ("persons", "messi"),
        ("persons", "serena williams"),
        ("persons", "jk rowling"),
        ("persons", "j k rowling"),
        ("persons", "greta thunberg"),
        ("persons", "the weeknd"),
        ("movies", "star wars"),
        ("movies", "squid game"),
        ("movies", "the queens gambit"),
        ("movies", "apollo thirteen"),
        ("movies", "the godfather"),
        ("movies", "godfather"),
        ("movies", "jaws"),
        ("movies", "friends"),
        ("movies", "breaking bad"),
        ("movies", "et"),
        ("books", "pride and prejudice"),
        ("books", "moby dick"),
        ("books", "harry potter"),
        ("books", "nineteen eighty four"),
        ("books", "the hobbit"),
        ("books", "hobbit"),
        ("books", "project hail mary"),
        ("books", "the three body problem"),
    ],
)
def test_title_and_person_themes(lex: Lexicon, theme: str, answer: str) -> None:
    verdict = lex.judge(answer, WordRules(themes=frozenset({theme}), bans=frozenset(BANS)))
    assert verdict.ok, verdict.message


@pytest.mark.parametrize(
    ("theme", "answer"),
    [("persons", "zzcazz"), ("persons", "my aunt ada"), ("movies", "my home movie"), ("books", "table")],
)
def test_needs_vote(lex: Lexicon, theme: str, answer: str) -> None:
    verdict = lex.judge(answer, WordRules(themes=frozenset({theme})))
    assert verdict.reason_code == NEEDS_VOTE
    assert verdict.undecided and not verdict.ok
    assert answer.upper() in verdict.message


def test_curated_lists_are_big_enough(lex: Lexicon) -> None:
    titles = lex._data.titles
    assert len(titles["movies"]) >= 300
    assert len(titles["books"]) >= 300
    assert len(lex._data.persons) >= 3000
    assert len(titles["persons"]) >= 500  # people of the last decades, beside WordNet's


@pytest.mark.parametrize("name", ["movies.txt", "books.txt", "persons.txt"])
def test_every_curated_line_can_be_typed(name: str) -> None:
    # a line whose every variant folds away (digits, symbols only) would be a title nobody can name
    from games.lexicon.core import DATA_DIR, _fold_title

    for line in (DATA_DIR / name).read_text("utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            folded = [_fold_title(v) for v in line.split("|")]
            assert any(f and len(f.replace(" ", "")) >= 2 for f in folded), line


def test_person_names_keep_a_leading_the(lex: Lexicon) -> None:
    # titles may drop THE; a name may not (THE ROCK is no reason for ROCK to be a person)
    assert lex.is_title("the weeknd", "persons") and lex.is_title("weeknd", "persons")
    assert "the edge" in lex._data.titles["persons"] and "edge" not in lex._data.titles["persons"]
    assert "persons" in lex.kinds("obama")


def test_multiword_only_for_title_food_and_animal_themes(lex: Lexicon) -> None:
    assert code(lex, "star wars") == "multiword"
    assert code(lex, "ice cream", themes=frozenset({"nouns"})) == "multiword"
    assert lex.judge("ice cream", WordRules(themes=frozenset({"food"}))).ok
    assert lex.judge("star wars", WordRules(themes=frozenset({"movies"}))).ok


@pytest.mark.parametrize("theme", ["movies", "food", "books", "persons"])
def test_lifting_themes_lift_proper_plural_and_verb_bans(lex: Lexicon, theme: str) -> None:
    rules = WordRules(themes=frozenset({theme}), bans=frozenset(BANS))
    for word in ("dogs", "walked", "making", "london"):
        assert lex.judge(word, rules).reason_code not in ("plural-s", "ed", "ing", "proper"), (theme, word)
    assert lex.judge("nasa", rules).reason_code == "abbrev"


def test_lifting_in_practice(lex: Lexicon) -> None:
    bans = frozenset(BANS)
    assert lex.judge("tacos", WordRules(themes=frozenset({"food"}), bans=bans)).ok
    assert lex.judge("apples", WordRules(themes=frozenset({"food"}), bans=bans)).ok
    assert lex.judge("the birds", WordRules(themes=frozenset({"movies"}), bans=bans)).ok
    assert lex.judge("shining", WordRules(themes=frozenset({"movies"}), bans=bans)).ok
    # Not lifted for the other themes.
    assert code(lex, "dogs", themes=frozenset({"animals"}), bans=bans) == "plural-s"
    assert code(lex, "running", themes=frozenset({"verbs"}), bans=bans) == "ing"
    # Abbreviations stay banned even under a lifting theme.
    assert code(lex, "nasa", themes=frozenset({"food"}), bans=bans) == "abbrev"


# --- workspace overlays ---


def test_added_words(lex: Lexicon) -> None:
    assert code(lex, "selfiex") == "unknown"
    rules = WordRules(added=frozenset({"selfiex"}), bans=frozenset(BANS))
    verdict = lex.judge("selfiex", rules)
    assert verdict.ok and verdict.message == "SELFIEX is on this workspace's word list."
    # Bans still apply to added words the data knows.
    assert code(lex, "london", bans=frozenset(BANS), added=frozenset({"london"})) == "proper"
    assert lex.judge("london", WordRules(added=frozenset({"london"}))).ok
    # A tournament-only word added to a casual game.
    assert lex.judge("naloxone", WordRules(added=frozenset({"naloxone"}))).ok
    # Under a theme the data cannot judge an added word: the players vote.
    assert code(lex, "selfiex", themes=frozenset({"nouns"}), added=frozenset({"selfiex"})) == NEEDS_VOTE


def test_banned_words(lex: Lexicon) -> None:
    verdict = lex.judge("cat", WordRules(banned=frozenset({"cat"})))
    assert (verdict.ok, verdict.reason_code) == (False, "banned")
    assert verdict.message == "CAT is banned in this workspace."
    # Banned beats added and every theme.
    both = WordRules(added=frozenset({"cat"}), banned=frozenset({"cat"}), themes=frozenset({"animals"}))
    assert code(lex, "cat", **{f: getattr(both, f) for f in ("added", "banned", "themes")}) == "banned"
    assert code(lex, "star wars", themes=frozenset({"movies"}), banned=frozenset({"star wars"})) == "banned"


def test_overlays_are_case_insensitive(lex: Lexicon) -> None:
    assert code(lex, "cat", banned=frozenset({"CAT"})) == "banned"
    assert lex.judge("selfiex", WordRules(added=frozenset({"Selfiex"}))).ok


# --- helpers ---


def test_contains_zipf_base(lex: Lexicon) -> None:
    assert lex.contains("cat") and not lex.contains("xyzzyq")
    assert not lex.contains("london")  # a proper noun is an entry, not a plain word
    assert lex.contains("walked")
    assert lex.zipf("the") > 7 > lex.zipf("cat") > 4 > lex.zipf("naloxone")
    assert lex.zipf("xyzzyq") == 0.0
    assert lex.base("walked") == "walk"
    assert lex.base("cat") is None
    assert "animals" in lex.kinds("cat")
    assert lex.dictionaries("qi") == ["tournament"]
