"""The name decision against the labelled sets, on the committed data.

Budgets per language: >= 99% of everyday words accepted and >= 90% of names refused by a
race's default bans, the names the dictionary also lists in lower case (duals) counted too;
Mark My Words refuses symbols and personal names and allows places.
The sets and their sources: tests/games/lexicon/labelled/ (bench/bench_names.py prints the
full figures).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from games.common.languages import LANGUAGES
from games.common.words import WordRules
from games.lexicon import load
from games.lexicon.labelled import (
    EVERYDAY_ACCEPTED_MIN,
    NAMES_REFUSED_MIN,
    lexicon_info,
    measure,
    read_sets,
)
from games.paths.options import DEFAULT_BANS as PATHS_BANS
from games.race.options import DEFAULT_BANS as RACE_BANS

LABELLED = Path(__file__).resolve().parent / "labelled"


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_the_sets_are_hundreds_of_words_with_their_sources(code: str) -> None:
    sets = read_sets(LABELLED, code)
    names = sets.places + sets.persons
    assert len(sets.everyday) >= 300 and len(names) >= 150 and len(names + sets.duals) >= 250
    assert not set(sets.everyday) & set(names + sets.duals), "a word is counted both ways"
    for name in (f"{code}-everyday.txt", f"{code}-names.txt"):
        head = (LABELLED / name).read_text("utf-8").splitlines()[0]
        assert head.startswith("#"), f"{name} says where its words come from"


@pytest.mark.parametrize("code", list(LANGUAGES))
def test_budgets(code: str) -> None:
    figures = measure(read_sets(LABELLED, code), lexicon_info(load("casual", code)))
    assert float(str(figures["everyday_accepted_pct"])) >= EVERYDAY_ACCEPTED_MIN, figures["everyday_refused"]
    assert float(str(figures["names_refused_pct"])) >= NAMES_REFUSED_MIN, figures["names_accepted"]
    # the duals count too: Spanish juan, rusia, French londres, Dutch jan
    accepted = (figures["names_accepted"], figures["duals_accepted"])
    assert float(str(figures["names_and_duals_refused_pct"])) >= NAMES_REFUSED_MIN, accepted
    assert float(str(figures["proper_precision"])) >= 95.0


@pytest.mark.parametrize(
    ("code", "everyday", "names"),
    [
        (
            "de",
            "stadt zucker apfel silber wurst physik hammer kanal brust essen halle bad",
            "münchen köln berlin",
        ),
        ("de", "internet montag haus", "österreich anna jürgen"),
        ("fr", "internet paris ville rose pierre", "marseille nathalie allemagne"),
        ("es", "internet ciudad rosa", "madrid zaragoza begoña"),
        ("nl", "internet mars stad roos", "amsterdam utrecht frankrijk"),
        ("en", "internet mark bill rose", "london mary einstein"),
    ],
)
def test_the_issue_examples(code: str, everyday: str, names: str) -> None:
    lex = load("casual", code)
    rules = WordRules(bans=frozenset(RACE_BANS))
    for word in everyday.split():
        assert lex.judge(word, rules).ok, word
    for word in names.split():
        assert lex.judge(word, rules).reason_code == "proper", word


def test_mark_my_words_refuses_symbols_and_persons_and_allows_places() -> None:
    lex = load("tournament")
    rules = WordRules(dictionary="tournament", bans=frozenset(PATHS_BANS))
    for symbol in ("sn", "xe", "ni", "hg"):  # (FE is a tournament word: the Hebrew letter)
        verdict = lex.judge(symbol, rules)
        assert verdict.reason_code == "abbrev", (symbol, verdict)
        assert lex.name_kind(symbol) == "abbreviation"
    assert lex.judge("monday", rules).reason_code == "non-place"
    assert lex.judge("mary", rules).reason_code == "names"
    for place in ("paris", "london", "nile", "texas"):
        assert lex.judge(place, rules).ok, place
        assert load("casual").name_kind(place) == "place"  # (the tournament list has PARIS plain)


@pytest.mark.parametrize("code", [c for c in LANGUAGES if c != "en"])
def test_mark_my_words_in_other_languages_refuses_first_names_and_allows_cities(code: str) -> None:
    lex = load("tournament", code)
    rules = WordRules(dictionary="tournament", bans=frozenset(PATHS_BANS))
    sets = read_sets(LABELLED, code)
    info_of = lexicon_info(lex)
    places = [w for w in sets.places if info_of(w) is not None and lex.name_kind(w)]
    persons = [w for w in sets.persons if info_of(w) is not None and lex.name_kind(w)]
    allowed = sum(lex.judge(w, rules).ok for w in places)
    refused = sum(not lex.judge(w, rules).ok for w in persons)
    assert allowed >= 0.9 * len(places) and refused >= 0.7 * len(persons), (allowed, len(places), refused)


def test_the_figures_with_the_duals_count_every_name() -> None:
    from games.lexicon import _format as F
    from games.lexicon.labelled import Labelled

    sets = Labelled(everyday=("haus",), places=("rom", "wien"), persons=("anna",), duals=("juan", "palma"))
    flags = {"haus": 0, "rom": F.PROPER, "wien": 0, "anna": F.PROPER, "juan": 0, "palma": F.PROPER}
    figures = measure(sets, flags.get)
    assert figures["names_refused_pct"] == 66.7  # ROM and ANNA of the three names; the duals apart
    assert figures["duals_refused_pct"] == 50.0
    assert figures["names_and_duals_refused_pct"] == 60.0  # three of all five


@pytest.mark.parametrize(
    ("code", "everyday", "names"),
    [
        (
            "es",
            "palma cuenca segura asia roma quito lima julio milagros van irán",
            "juan pedro maría rusia japón berlín",
        ),
        ("fr", "jura vienne marie paris tours suisse", "londres chine jean jacques"),
        ("nl", "wenen peter leiden namen polen", "jan zweden hans milaan"),
    ],
)
def test_a_strong_name_in_lower_case_needs_a_lower_case_reading(code: str, everyday: str, names: str) -> None:
    # the dictionary lists juan, rusia, jan in lower case too (docs/LEXICON.md)
    lex = load("casual", code)
    rules = WordRules(bans=frozenset(RACE_BANS))
    for word in everyday.split():
        assert lex.judge(word, rules).ok, word
    for word in names.split():
        assert lex.judge(word, rules).reason_code == "proper", word
