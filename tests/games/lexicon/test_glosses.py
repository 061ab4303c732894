"""Glosses (``define``, hints): the build on tiny fixtures, the file layout, the reader and the
shipped data."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.common.languages import LANGUAGES, language
from games.lexicon import build_glosses as B
from games.lexicon import glosses
from games.lexicon.glosses import Glosses, Sense
from tests.games.lexicon.helpers import FUZZ

# ----------------------------------------------------------------------------- fixtures
#: A tiny WordNet: DOG (noun, and a rarer verb), MOUSE with its irregular plural, SAW whose
#: verb reading (SemCor counts) outranks its noun, and CHINA (porcelain before the country).
_DATA = {
    "noun": [
        "00000001 05 n 02 dog 0 domestic_dog 0 000 | a member of the genus Canis (probably descended "
        'from the common wolf) that has been domesticated by man since prehistoric times; "the dog barked"',
        "00000002 05 n 01 mouse 0 000 | any of numerous small rodents",
        "00000003 06 n 01 saw 0 000 | hand tool having a toothed blade for cutting",
        "00000004 15 n 01 China 0 000 | a communist nation that covers a vast territory in eastern Asia",
        "00000005 06 n 01 china 0 000 | high quality porcelain originally made only in China",
        "00000006 05 n 01 doe 0 000 | mature female of mammals",
        "00000007 10 n 01 hi 0 000 | an expression of greeting",
    ],
    "verb": [
        "00000011 38 v 01 dog 0 000 | go after with the intent to catch",
        "00000012 39 v 01 see 0 000 | perceive by sight",
        "00000013 41 v 01 do 0 000 | engage in",
    ],
    "adj": [],
    "adv": [],
}
_INDEX = {
    "noun": [
        "dog n 1 0 1 0 00000001",
        "mouse n 1 0 1 0 00000002",
        "saw n 1 0 1 0 00000003",
        "china n 2 0 2 0 00000004 00000005",
        "doe n 1 0 1 0 00000006",
        "hi n 1 0 1 0 00000007",
    ],
    "verb": ["dog v 1 0 1 0 00000011", "see v 1 0 1 1 00000012", "do v 1 0 1 1 00000013"],
    "adj": [],
    "adv": [],
}
_EXC = {"noun": ["mice mouse"], "verb": ["saw see"], "adj": [], "adv": []}
_COUNTS = [
    "dog%1:05:00:: 1 40",
    "dog%2:38:00:: 1 2",
    "see%2:39:00:: 1 90",
    "saw%1:06:00:: 1 3",
    "do%2:41:00:: 1 300",
    "doe%1:05:00:: 1 1",
]


def tiny_wordnet(root: Path) -> Path:
    """Write the tiny WordNet above into ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    for name in ("noun", "verb", "adj", "adv"):
        (root / f"data.{name}").write_text("  1 licence line\n" + "\n".join(_DATA[name]) + "\n", "latin-1")
        (root / f"index.{name}").write_text("  1 licence line\n" + "\n".join(_INDEX[name]) + "\n", "latin-1")
        (root / f"{name}.exc").write_text("\n".join(_EXC[name]) + "\n", "latin-1")
    (root / "cntlist.rev").write_text("\n".join(_COUNTS) + "\n", "latin-1")
    return root


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _b64(n: int) -> str:
    out = ""
    while True:
        out = _B64[n % 64] + out
        n //= 64
        if n == 0:
            return out


def tiny_dictd(stem: Path, entries: list[tuple[str, str]]) -> Path:
    """A dictd dictionary (``stem.index``, ``stem.dict.dz``) of (index headword, entry text)."""
    data = b""
    index = ["00-database-info\tA\tB"]
    data += b"xx"
    for head, text in entries:
        raw = text.encode()
        index.append(f"{head}\t{_b64(len(data))}\t{_b64(len(raw))}")
        data += raw
    stem.with_suffix(".index").write_text("\n".join(index) + "\n", "utf-8")
    stem.with_suffix(".dict.dz").write_bytes(gzip.compress(data))
    return stem


# ----------------------------------------------------------------------------- build
def test_shorten_keeps_the_first_clause_and_cuts_cleanly() -> None:
    assert (
        B.shorten('go after with the intent to catch; "the dog barked"')
        == "go after with the intent to catch"
    )
    long = "a member of the genus Canis (probably descended from the common wolf) that has been domesticated"
    assert B.shorten(long) == "a member of the genus Canis that has been domesticated"
    cut = B.shorten("word " * 40)
    assert len(cut) <= B.MAX_GLOSS and cut.endswith("word…")
    assert B.shorten("alpha, beta; gamma", first_clause=False) == "alpha, beta; gamma"
    assert B.shorten("") == ""


@given(st.text(min_size=0, max_size=300))
@FUZZ
def test_shorten_never_exceeds_the_limit(text: str) -> None:
    out = B.shorten(text)
    assert len(out) <= B.MAX_GLOSS
    assert "\n" not in out and "\t" not in out


def test_english_orders_senses_as_a_player_means_them(tmp_path: Path) -> None:
    senses, bases, blocked = B.english(tiny_wordnet(tmp_path / "wn"), words=["does", "dogs", "his"])
    # the common noun first (40 SemCor uses), then the verb; the parenthesis goes when too long
    assert senses["dog"][0] == (
        "noun",
        "a member of the genus Canis that has been domesticated by man since…",
    )
    assert senses["dog"][1] == ("verb", "go after with the intent to catch")
    assert len(senses["dog"][0][1]) <= B.MAX_GLOSS
    assert senses["china"][0] == ("noun", "high quality porcelain originally made only in China")
    assert "domestic_dog" not in senses  # one-word lemmas only
    # MICE is MOUSE's plural; SAW, a lemma of its own (the tool, 3 uses), is mostly SEE's past (90);
    # DOES would read as DOE's plural by the reader's rules (nouns first): stored as DO's form.
    # DOGS is left to the rules, which find DOG; HIS is stored without a meaning (no HI plural)
    assert bases == {"mice": "mouse", "saw": "see", "does": "do"}
    assert "saw" not in senses and blocked == sorted(B.NOT_FORMS)


def test_the_build_is_reproducible_and_the_reader_reads_it(tmp_path: Path) -> None:
    root = tiny_wordnet(tmp_path / "wn")
    first = B.encode("en", *B.english(root, words=["does", "his"]))
    second = B.encode("en", *B.english(root, words=["his", "does"]))
    assert first == second
    assert gzip.decompress(first).startswith(b"#moji-glosses 1 en\n")
    assert first[4:8] == b"\0\0\0\0"  # gzip mtime 0
    path = tmp_path / "glosses-en.dat.gz"
    path.write_bytes(first)
    reader = Glosses(path, language("en"))
    assert reader.meaning("DOG") is not None
    assert reader.meaning("his") is None and reader.meaning("hi") is not None
    assert reader.meaning("does") == glosses.Meaning("does", "do", (Sense("verb", "engage in"),))
    dogs = reader.meaning("Dogs")
    assert (
        dogs is not None
        and dogs.base == "dog"
        and dogs.senses[1] == Sense("verb", "go after with the intent to catch")
    )
    mice = reader.meaning("mice")
    assert mice is not None and mice.base == "mouse" and mice.gloss == "any of numerous small rodents"
    assert reader.meaning("cat") is None and reader.meaning("d0g") is None


def test_ding_and_freedict_entries_become_ranked_english_senses(tmp_path: Path) -> None:
    ding = tiny_dictd(
        tmp_path / "german-english",
        [
            (
                "gehen",
                "gehen\n {vi} (in bestimmter Weise enden)\n   to turn out (to end in a particular way)\n",
            ),
            ("gehen", "gehen\n {vi}\n   to go {went; gone}\n"),
            ("haus", "Haus\n {n}\n   house; home\n"),
            ("ein haus", "ein Haus\n\n   a house\n"),
        ],
    )
    found = B.translated(
        B.dictd_entries(ding), B.ding_entry, language("de"), lambda w: {"go": 6.0}.get(w, 0.0)
    )
    assert found["gehen"][0] == ("verb", "to go")  # the commoner English word first
    assert found["haus"] == [("noun", "house, home")]
    assert "ein haus" not in found and "einhaus" not in found
    fd = tiny_dictd(
        tmp_path / "freedict-fra-eng",
        [
            ("aller", "aller /ale/ <v>\n1. fare\n2. go, ride, travel\n"),
            ("chat", "chat /ʃa/ <n, masc>\ncat\n"),
        ],
    )
    zipf = {"go": 6.0, "fare": 4.0, "cat": 5.0}
    found = B.translated(B.dictd_entries(fd), B.freedict_entry, language("fr"), lambda w: zipf.get(w, 0.0))
    assert found["aller"] == [("verb", "go, ride, travel"), ("verb", "fare")]
    assert found["chat"] == [("noun", "cat")]
    again = B.translated(B.dictd_entries(fd), B.freedict_entry, language("fr"), lambda w: zipf.get(w, 0.0))
    assert B.encode("fr", found) == B.encode("fr", again)


@given(
    st.dictionaries(
        st.text(alphabet="abcdefghijklmnopqrstuvwxyzäöü", min_size=1, max_size=12),
        st.lists(
            st.tuples(
                st.sampled_from(["noun", "verb", "adj", "adv", ""]),
                st.text(
                    alphabet=st.characters(
                        blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="`*_~|<>#&\\"
                    ),
                    min_size=1,
                    max_size=40,
                )
                .map(lambda s: " ".join(s.split()))
                .filter(bool),
            ),
            min_size=1,
            max_size=3,
        ),
        max_size=30,
    )
)
@FUZZ
def test_every_word_written_is_read_back(
    tmp_path_factory: pytest.TempPathFactory, rows: dict[str, list[tuple[str, str]]]
) -> None:
    path = tmp_path_factory.mktemp("g") / "glosses-de.dat.gz"
    path.write_bytes(B.encode("de", rows))
    reader = Glosses(path, language("de"))
    assert len(reader) == len(rows)
    for word, senses in rows.items():
        found = reader.meaning(word.upper())
        assert found is not None and found.base is None
        assert [(s.pos, s.text) for s in found.senses] == senses
    assert reader.meaning("qqqqqqqqqqqqqq") is None or "qqqqqqqqqqqqqq" in rows


# ----------------------------------------------------------------------------- shipped data
def test_shipped_files_exist_for_every_language() -> None:
    assert set(glosses.languages()) == set(LANGUAGES)


@pytest.mark.parametrize(
    ("word", "code", "expected"),
    [
        ("zebra", "en", "any of several fleet black-and-white striped African equines"),
        ("Zebras", "en", "any of several fleet black-and-white striped African equines"),
        ("mice", "en", None),
        ("Stadt", "de", "city"),
        ("Zucker", "de", "sugar"),
        ("gehen", "de", "to go"),
        ("maison", "fr", "house"),
        ("perro", "es", "dog"),
        ("hond", "nl", "dog"),
    ],
)
def test_shipped_glosses(word: str, code: str, expected: str | None) -> None:
    found = glosses.gloss(word, code)
    if expected is None:
        assert found is not None and "rodent" in found
    else:
        assert found == expected


def test_inflected_forms_find_their_base() -> None:
    for form, base in (
        ("dogs", "dog"),
        ("walked", "walk"),
        ("hoping", "hope"),
        ("went", "go"),
        ("mice", "mouse"),
        ("running", "run"),
        ("found", "find"),
    ):
        found = glosses.meaning(form)
        assert found is not None and found.base == base, form


def test_a_regular_form_keeps_only_the_senses_its_ending_allows() -> None:
    walked = glosses.meaning("walked")  # -ed: a verb form, not the noun WALK
    assert walked is not None and {s.pos for s in walked.senses} == {"verb"}
    hurter = glosses.meaning("hurter")  # -er: the adjective HURT, not the verb
    assert hurter is not None and {s.pos for s in hurter.senses} == {"adj"}
    walks = glosses.meaning("walks")  # -s: a noun's plural or a verb's
    assert walks is not None and {s.pos for s in walks.senses} == {"noun", "verb"}


def test_shipped_readings_of_tricky_forms() -> None:
    assert glosses.meaning("does") is not None and glosses.meaning("does").base == "do"  # type: ignore[union-attr]
    for word in ("his", "its", "us", "it"):  # no HI plural, no IT (information technology)
        assert glosses.gloss(word) is None, word
    assert glosses.gloss("china") == "high quality porcelain originally made only in China"
    assert glosses.gloss("paris") == "the capital and largest city of France"


def test_unknown_words_and_non_words_have_no_gloss() -> None:
    assert glosses.gloss("qzxqzx") is None
    assert glosses.gloss("") is None
    assert glosses.gloss("dog!?x") is None
    assert glosses.gloss("12") is None
    with pytest.raises(ValueError, match="doesn't play"):
        glosses.gloss("dog", "xx")


def test_every_shipped_gloss_is_short_and_one_line() -> None:
    for code in LANGUAGES:
        path = glosses.data_file(code)
        lines = gzip.decompress(path.read_bytes()).decode().split("\n")
        assert lines[0] == f"#moji-glosses 1 {code}"
        keys = [line.split("\t")[0].encode() for line in lines[1:] if line]
        assert keys == sorted(keys) and len(set(keys)) == len(keys), code
        for line in lines[1:]:
            fields = line.split("\t")[1:]
            assert all(len(f) <= B.MAX_GLOSS for f in fields), line
            # glosses are moji's own text, which renderers don't escape: no chat markup in them
            assert not set(line) & set("`*_~|<>@#&\\"), line


@given(st.sampled_from(["dog", "zebra", "house", "quickly", "china"]), st.data())
@FUZZ
def test_lookup_ignores_case_and_accents(word: str, data: st.DataObject) -> None:
    flips = data.draw(st.lists(st.booleans(), min_size=len(word), max_size=len(word)))
    typed = "".join(ch.upper() if up else ch for ch, up in zip(word, flips, strict=True))
    assert glosses.meaning(typed) == glosses.meaning(word)
    assert glosses.gloss(" " + typed + "?") == glosses.gloss(word)
    assert glosses.gloss("café") == glosses.gloss("cafe")
