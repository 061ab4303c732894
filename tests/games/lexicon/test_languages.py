"""The Dutch, French, German and Spanish lexicons: loading, folding, judging and letter queries."""

from __future__ import annotations

import gzip
import json
from functools import cache

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.common.languages import LANGUAGES, language
from games.common.placement import Placement, match_letters
from games.common.words import WordRules
from games.lexicon import Lexicon, load
from games.lexicon import _format as F
from games.lexicon.core import THEMES_ENGLISH_ONLY, data_file
from tests.games.lexicon.helpers import FUZZ

CODES = ("nl", "fr", "de", "es")
DEFAULT = WordRules(bans=frozenset({"proper", "abbrev", "contraction", "foreign"}))
NO_BANS = WordRules()

#: Per language: common words, inflected forms, names, abbreviations and non-words.
COMMON = {
    "nl": ["huis", "fiets", "lopen", "mooi", "water"],
    "fr": ["maison", "manger", "grand", "eau", "chat"],
    "de": ["Haus", "gehen", "schön", "Wasser", "Katze"],
    "es": ["casa", "comer", "grande", "agua", "gato"],
}
INFLECTED = {
    "nl": ["huizen", "liep", "gelopen", "fietsen", "mooiste"],
    "fr": ["maisons", "mangeons", "allions", "grandes", "mangeâmes"],
    "de": ["Häuser", "ging", "gegangen", "schönsten", "Katzen"],
    "es": ["casas", "comemos", "comió", "grandes", "hablábamos"],
}
NAMES = {
    "nl": ["Amsterdam", "Nederland", "Rotterdam"],
    "fr": ["Marseille", "France", "Toulouse"],
    "de": ["Berlin", "Mozart", "Hamburg"],
    "es": ["Madrid", "España", "Barcelona"],
}
ABBREVIATIONS = {"nl": ["NAVO", "blz."], "fr": ["SNCF"], "de": ["ADAC"], "es": ["ONU"]}
NON_WORDS = ["xyzzyq", "qqqq", "zzkrv"]


@pytest.fixture(scope="module", params=CODES)
def code(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def casual(code: str) -> Lexicon:
    return load("casual", code)


def tournament(code: str) -> Lexicon:
    return load("tournament", code)


@cache
def _tournament_words(code: str) -> list[str]:
    return tournament(code).words()


# --- loading ---


def test_load_is_cached_per_dictionary_and_language(code: str) -> None:
    lex = load("casual", code)
    assert load("casual", code) is lex
    assert load("casual", LANGUAGES[code].name) is lex  # names work too
    assert load("tournament", code) is not lex
    assert load("casual") is not lex and load("casual").language.code == "en"
    assert lex.language is language(code)
    assert repr(lex) == f"<Lexicon casual {code}>"


def test_unknown_language_or_dictionary_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="doesn't play in 'klingon'"):
        load("casual", "klingon")
    with pytest.raises(ValueError, match="unknown dictionary"):
        load("huge", "fr")


def test_data_file_layout(code: str) -> None:
    raw = data_file(code).read_bytes()
    assert len(raw) < 4_000_000
    assert raw[4:8] == b"\0\0\0\0"  # gzip mtime 0: reproducible
    sections = F.unpack_sections(gzip.decompress(raw))
    assert {"words", "blocks", "info", "tables", "meta"} <= set(sections)
    meta = json.loads(sections["meta"])
    assert meta["language"] == code and meta["alphabet"] == language(code).alphabet
    words = sections["words"].decode("utf-8").split("\n")[:-1]
    assert len(words) * 4 == len(sections["info"]) == meta["counts"]["rows"] * 4
    keys = [(len(w.encode()), w.encode()) for w in words]
    assert keys == sorted(keys) and len(set(words)) == len(words)
    assert sum(n for _, n in json.loads(sections["blocks"])) == len(words)


def test_notice_names_every_source() -> None:
    notice = (data_file("fr").parent / "NOTICE").read_text("utf-8")
    for name in ("wdutch", "hunspell-nl", "wfrench", "hunspell-fr", "wngerman", "hunspell-de-de"):
        assert name in notice
    for name in ("wspanish", "hunspell-es", "OpenTaal", "Dicollecte", "igerman98", "Santiago Bosio"):
        assert name in notice


# --- judging ---


def test_common_and_inflected_words(code: str) -> None:
    lex = casual(code)
    name = LANGUAGES[code].name
    for word in COMMON[code]:
        verdict = lex.judge(word, DEFAULT)
        assert verdict.ok, verdict
        assert verdict.message.endswith(f" is in the {name} casual dictionary.")
    for word in INFLECTED[code]:
        assert tournament(code).judge(word, WordRules(dictionary="tournament")).ok, word
    assert sum(lex.judge(w, DEFAULT).ok for w in INFLECTED[code]) >= 4  # most are common


def test_non_words_are_unknown(code: str) -> None:
    name = LANGUAGES[code].name
    for word in NON_WORDS:
        verdict = casual(code).judge(word, DEFAULT)
        assert verdict == (False, "unknown", f"{word.upper()} isn't in the {name} dictionary.")
        verdict = tournament(code).judge(word, WordRules(dictionary="tournament"))
        assert verdict.message == f"{word.upper()} isn't in the {name} tournament dictionary."


def test_names_are_proper_nouns(code: str) -> None:
    lex = casual(code)
    for word in NAMES[code]:
        folded = lex.fold(word)
        assert folded is not None
        verdict = lex.judge(word, DEFAULT)
        assert verdict == (False, "proper", f"{folded.upper()} is a proper noun, banned in this game.")
        assert lex.judge(word, NO_BANS).ok  # only the ban refuses them
        assert not lex.contains(folded)


def test_abbreviations(code: str) -> None:
    lex = tournament(code)
    rules = WordRules(dictionary="tournament", bans=frozenset({"abbrev"}))
    for word in ABBREVIATIONS[code]:
        assert lex.judge(word, rules).reason_code == "abbrev", word


def test_english_only_bans_never_flag_other_languages(code: str) -> None:
    lex = casual(code)
    rules = WordRules(bans=frozenset({"plural-s", "ing", "ed", "foreign"}))
    for word in INFLECTED[code] + COMMON[code]:
        verdict = lex.judge(word, rules)
        assert verdict.reason_code not in ("plural-s", "ing", "ed", "foreign"), verdict
    assert lex.base(lex.fold(INFLECTED[code][0]) or "") is None


def test_themes_are_english_only(code: str) -> None:
    with pytest.raises(ValueError, match="English-only"):
        casual(code).judge("water", WordRules(themes=frozenset({"nouns"})))
    assert THEMES_ENGLISH_ONLY == "Themes are English-only for now."
    assert not casual(code).is_title("", "persons") and casual(code).kinds("") == []


def test_workspace_words_fold_by_the_language() -> None:
    lex = casual("de")
    rules = WordRules(added=frozenset({"Quatschwörter"}), banned=frozenset({"Straße"}))
    assert lex.judge("quatschwörter", rules).ok
    assert lex.judge("STRASSE", rules) == (False, "banned", "STRASSE is banned in this workspace.")


# --- letters of their own ---


def test_french_accents_fold_to_the_base_letter() -> None:
    lex = casual("fr")
    for typed in ("Élève", "élève", "eleve", "ELEVE", "ÉLÈVE"):
        assert lex.judge(typed, DEFAULT) == (True, None, "ELEVE is in the French casual dictionary.")
    assert lex.judge("Cœur", DEFAULT).message == "COEUR is in the French casual dictionary."
    assert lex.judge("garçon", DEFAULT).ok and lex.judge("garcon", DEFAULT).ok
    # Words with an apostrophe are one word, as in French word games (AUJOURDHUI).
    assert lex.judge("aujourd'hui", DEFAULT) == lex.judge("aujourdhui", DEFAULT)
    assert lex.judge("aujourd’hui", DEFAULT).ok


def test_spanish_ñ_is_a_letter_of_its_own() -> None:
    lex = casual("es")
    for typed in ("niño", "Niño", "NIÑO"):
        assert lex.judge(typed, DEFAULT) == (True, None, "NIÑO is in the Spanish casual dictionary.")
    assert lex.judge("nino", DEFAULT) == (False, "unknown", "NINO isn't in the Spanish dictionary.")
    assert lex.judge("mañana", DEFAULT).ok and not lex.judge("manana", DEFAULT).ok
    # Other accents fold: árbol is ARBOL, typed either way.
    assert (
        lex.judge("árbol", DEFAULT)
        == lex.judge("arbol", DEFAULT)
        == (
            True,
            None,
            "ARBOL is in the Spanish casual dictionary.",
        )
    )
    assert lex.judge("pingüino", DEFAULT).ok and lex.judge("pinguino", DEFAULT).ok


def test_german_umlauts_are_letters_and_ß_is_ss() -> None:
    lex = casual("de")
    assert lex.judge("Straße", DEFAULT) == (True, None, "STRASSE is in the German casual dictionary.")
    assert lex.judge("STRASSE", DEFAULT) == lex.judge("Straße", DEFAULT)
    assert lex.judge("Äpfel", DEFAULT) == (True, None, "ÄPFEL is in the German casual dictionary.")
    assert lex.judge("äpfel", DEFAULT).ok
    # Ä is a letter (a tile of its own), not a spelling of AE: "aepfel" is not äpfel.
    assert lex.judge("aepfel", DEFAULT) == (False, "unknown", "AEPFEL isn't in the German dictionary.")
    assert not lex.judge("apfel" + "n", DEFAULT).ok or lex.fold("Äpfel") != "apfeln"
    assert lex.judge("Müller", NO_BANS).message.startswith("MÜLLER ")


def test_dutch_ij_is_i_then_j_and_apostrophes() -> None:
    lex = casual("nl")
    for typed in ("ijs", "IJs", "IJS", "\u0133s"):
        assert lex.judge(typed, DEFAULT) == (True, None, "IJS is in the Dutch casual dictionary.")
    # A plural with an apostrophe is a plain word; zo'n, z'n are contractions.
    assert (
        lex.judge("auto's", DEFAULT)
        == lex.judge("autos", DEFAULT)
        == (
            True,
            None,
            "AUTOS is in the Dutch casual dictionary.",
        )
    )
    rules = WordRules(bans=frozenset({"contraction"}))
    assert lex.judge("z'n", rules).reason_code == "contraction"


def test_examples_use_the_language_alphabet() -> None:
    de = casual("de")
    found = de.examples(["ä", "r"], DEFAULT, limit=5)
    assert found and all("ä" in w and "r" in w for w in found)
    for word in found:
        assert de.judge(word, DEFAULT).ok
        assert match_letters(word, ["ä", "r"], Placement.ANYWHERE).ok
    es = casual("es")
    found = es.examples(["ñ", "o", "a"], DEFAULT, limit=10)
    assert "años" in found  # claims all three
    assert all(match_letters(w, ["ñ", "o", "a"], Placement.ANYWHERE).ok for w in found)
    assert all("ñ" in w for w in es.examples(["ñ", "o"], DEFAULT))
    assert es.examples(["Ñ", "O"], DEFAULT)  # upper-case face-up letters fold
    # A letter that is no Spanish letter is ignored, not an error.
    assert es.examples(["ä", "z"], DEFAULT) == []


def test_pair_tables_know_the_extra_letters() -> None:
    de, es = casual("de"), casual("es")
    assert de.has_pair("ä", "u") and de.has_pair("ö", "l") and de.has_pair("ü", "b")
    assert es.has_pair("ñ", "a") and es.has_pair("ñ", "o", Placement.IN_BETWEEN)
    assert not es.has_pair("ñ", "ä")
    assert de.has_word(["ä", "x", "q", "r"])
    assert de.has_triple("ä", "r", "t")


def test_words_from_a_rack_with_umlauts() -> None:
    de = casual("de")
    words = de.words_from("bärtei", 0, WordRules(min_length=3))
    assert words and any("ä" in w for w in words)
    for word in words:
        assert all(word.count(ch) <= "bärtei".count(ch) for ch in word)


# --- property tests ---

_TYPED = st.text(
    alphabet=st.sampled_from(list("aeinorstuzAEOUäöüÄÖÜßéèêëàçñÑÉœŒĳ' ")),
    min_size=1,
    max_size=12,
)


@FUZZ
@given(text=_TYPED, code=st.sampled_from(CODES))
def test_folding_is_idempotent_and_spells_with_the_alphabet(text: str, code: str) -> None:
    lex = casual(code)
    folded = lex.fold(text)
    if folded is None:
        return
    assert lex.fold(folded) == folded
    assert language(code).is_word(folded)
    assert lex.judge(text, NO_BANS) == lex.judge(folded, NO_BANS)


@FUZZ
@given(data=st.data(), code=st.sampled_from(CODES))
def test_stored_words_are_folded_and_found(data: st.DataObject, code: str) -> None:
    lex = tournament(code)
    words = _tournament_words(code)
    word = words[data.draw(st.integers(0, len(words) - 1))]
    assert language(code).is_word(word) and lex.fold(word) == word
    # min_length 1: the one-letter words (Spanish E, French A) are stored too
    assert lex.judge(word.upper(), WordRules(dictionary="tournament", min_length=1)).ok


def test_every_stored_word_is_made_of_the_alphabet(code: str) -> None:
    alphabet = set(language(code).alphabet)
    words = _tournament_words(code)
    assert len(words) == len(set(words)) > 200_000
    assert all(set(w) <= alphabet for w in words)
    assert set(casual(code).words()) <= set(words)


def test_words_are_listed_most_common_first(code: str) -> None:
    lex = tournament(code)
    words = lex.words()
    assert isinstance(words, list) and words[:3] == lex.words()[:3]
    zipfs = [lex.zipf(w) for w in words[:3000]] + [lex.zipf(w) for w in words[-100:]]
    assert zipfs == sorted(zipfs, reverse=True)
    assert lex.words("casual") == casual(code).words()


def test_module_judge_takes_a_language() -> None:
    from games.lexicon import judge

    assert judge("Straße", language="de") == (True, None, "STRASSE is in the German casual dictionary.")
    assert not judge("Straße").ok  # English by default
    assert judge("niño", WordRules(dictionary="tournament"), "es").message == (
        "NIÑO is in the Spanish tournament dictionary."
    )
