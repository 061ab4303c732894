"""Personal names apart from places: the ``names`` ban."""

from __future__ import annotations

from games.common.words import BAN_WORDS, BANS, WordRules, describe_bans
from games.lexicon import Lexicon

NAMES = WordRules(bans=frozenset({"names"}))
PROPER = WordRules(bans=frozenset({"proper"}))


def test_places_and_other_names_pass_the_names_ban(lex: Lexicon) -> None:
    for word in ("paris", "london", "nile", "texas", "washington", "monday", "english"):
        assert lex.judge(word, NAMES).ok, word
        assert lex.judge(word, PROPER).reason_code == "proper", word


def test_personal_names_are_refused(lex: Lexicon) -> None:
    for word in ("mary", "einstein", "obama", "abigail"):
        verdict = lex.judge(word, NAMES)
        assert verdict.reason_code == "names", word
        assert verdict.message == f"{word.upper()} is a personal name, banned in this game."
        assert lex.judge(word, PROPER).reason_code == "proper", word


def test_common_words_stay_plain(lex: Lexicon) -> None:
    for word in ("john", "bill", "smith", "cat"):
        assert lex.judge(word, NAMES).ok, word


def test_the_ban_in_players_words() -> None:
    assert "names" in BANS and BAN_WORDS["names"] == "personal names"
    assert describe_bans(frozenset({"names", "abbrev", "contraction"})) == (
        "No personal names, abbreviations or contractions."
    )
    # Proper nouns include personal names: said once.
    assert describe_bans(frozenset({"proper", "names"})) == "No proper nouns."


def test_lifting_themes_lift_the_names_ban(lex: Lexicon) -> None:
    rules = WordRules(bans=frozenset({"names"}), themes=frozenset({"persons"}))
    assert lex.judge("einstein", rules).ok
