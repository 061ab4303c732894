"""The other languages' build: source entries, Hunspell expansion, the file layout and its reader."""

from __future__ import annotations

import gzip
from array import array
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.common.languages import language
from games.common.words import WordRules
from games.lexicon import _format as F
from games.lexicon import build_lang
from games.lexicon._hunspell import Hunspell
from games.lexicon.core import Lexicon, _CompactInfo, _Data
from tests.games.lexicon.helpers import FUZZ


@pytest.mark.parametrize(
    ("raw", "code", "expected"),
    [
        ("huis", "nl", ("huis", 0, False)),
        ("Amsterdam", "nl", ("Amsterdam", 0, True)),
        ("auto's", "nl", ("autos", 0, False)),
        ("Hedy's", "nl", ("Hedys", 0, True)),
        ("zo'n", "nl", ("zon", F.CONTRACTION, False)),
        ("'t", "nl", ("t", F.CONTRACTION, False)),
        ("blz.", "nl", ("blz", F.ABBREV, False)),
        ("NAVO", "nl", ("NAVO", F.ABBREV, True)),
        ("aujourd'hui", "fr", ("aujourdhui", 0, False)),
        ("iPod", "nl", ("iPod", 0, True)),
        ("e-mail", "nl", None),
        ("06-nummer", "nl", None),
        ("Annie M.G. Schmidt", "nl", None),
        ("", "fr", None),
    ],
)
def test_classify(raw: str, code: str, expected: tuple[str, int, bool] | None) -> None:
    assert build_lang.classify(raw, code) == expected


def test_word_blocks_order_by_utf8_length() -> None:
    words, blocks = build_lang.word_blocks(["zz", "äa", "a", "ab", "ñ", "abc"])
    assert words == ["a", "ab", "zz", "ñ", "abc", "äa"]
    assert blocks == [[1, 1], [2, 3], [3, 2]]


def _tiny_hunspell(tmp_path: Path) -> Hunspell:
    aff = tmp_path / "t.aff"
    aff.write_text(
        "SET UTF-8\nFLAG UTF-8\n# a comment\n"
        "SFX S Y 2\nSFX S 0 s [^s]\nSFX S 0 es s\n"
        "SFX R Y 1\nSFX R ar amos ar\n"
        "PFX D Y 1\nPFX D 0 des .\n"
        "SFX ñ Y 1\nSFX ñ 0 lo ar\n",
        "utf-8",
    )
    dic = tmp_path / "t.dic"
    dic.write_text("4\ncasa/S\nmes/S\nhacer/RDS\nMadrid\tpo:prn\n", "utf-8")
    return Hunspell(aff, dic)


def test_hunspell_expansion(tmp_path: Path) -> None:
    hun = _tiny_hunspell(tmp_path)
    stems = {s.word: s for s in hun.stems}
    assert set(stems) == {"casa", "mes", "hacer", "Madrid"}
    assert stems["Madrid"].morph == "po:prn" and not stems["Madrid"].flags
    assert hun.expand(stems["casa"]) == {"casa", "casas"}
    assert hun.expand(stems["mes"]) == {"mes", "meses"}
    # hacer: -ar rules don't match (condition), S and the prefix cross: deshacer, deshacers…
    assert hun.expand(stems["hacer"]) == {"hacer", "hacers", "deshacer", "deshacers"}
    assert hun.expand(stems["hacer"], frozenset("D")) == {"hacer", "hacers"}


def test_hunspell_long_flags(tmp_path: Path) -> None:
    aff = tmp_path / "l.aff"
    aff.write_text("FLAG long\nSFX Aa Y 1\nSFX Aa 0 en .\n", "utf-8")
    dic = tmp_path / "l.dic"
    dic.write_text("1\nhuis/AaBb\n", "utf-8")
    hun = Hunspell(aff, dic)
    assert hun.stems[0].flags == frozenset({"Aa", "Bb"})
    assert hun.expand(hun.stems[0]) == {"huis", "huisen"}


def _tiny_file(tmp_path: Path) -> Path:
    rows = {
        "haus": F.CASUAL | F.TOURNAMENT | 50 << F.ZIPF_SHIFT,
        "häuser": F.CASUAL | F.TOURNAMENT | 40 << F.ZIPF_SHIFT,
        "berlin": F.CASUAL | F.TOURNAMENT | F.PROPER | 45 << F.ZIPF_SHIFT,
        "adac": F.TOURNAMENT | F.ABBREV | 20 << F.ZIPF_SHIFT,
        "strasse": F.CASUAL | F.TOURNAMENT | 48 << F.ZIPF_SHIFT,
        "ärger": F.TOURNAMENT | 10 << F.ZIPF_SHIFT,
    }
    german, source, versions = language("de"), build_lang.SOURCES["de"], {"wordfreq": "test"}
    data = build_lang.pack(rows, german, source, versions)
    assert data == build_lang.pack(rows, german, source, versions)  # reproducible
    assert data[4:8] == b"\0\0\0\0"
    path = tmp_path / "lexicon-de.dat.gz"
    path.write_bytes(data)
    return path


def test_compact_reader_finds_every_word(tmp_path: Path) -> None:
    data = _Data(_tiny_file(tmp_path))
    info = data.info
    assert isinstance(info, _CompactInfo) and len(info) == 6
    assert info.get("häuser") == F.CASUAL | F.TOURNAMENT | 40 << F.ZIPF_SHIFT
    assert "ärger" in info and "ärgern" not in info and "" not in info
    assert info.get("zzzzzz") is None and info.get("haus\n") is None
    with pytest.raises(KeyError):
        info["nope"]
    assert sorted(info) == sorted(["haus", "häuser", "berlin", "adac", "strasse", "ärger"])
    assert sorted(w for w, _ in info.items_with(F.CASUAL)) == ["berlin", "haus", "häuser", "strasse"]
    assert info.count(F.TOURNAMENT) == 6
    lex = Lexicon("casual", data, language("de"))
    rules = WordRules(bans=frozenset({"proper"}))
    assert lex.judge("Häuser", rules) == (True, None, "HÄUSER is in the German casual dictionary.")
    assert lex.judge("Berlin", rules).reason_code == "proper"
    assert lex.judge("Straße", rules).ok
    assert lex.words() == ["haus", "strasse", "berlin", "häuser"]
    assert lex.examples(["ä", "s"], rules) == ["häuser"]
    sections = F.unpack_sections(gzip.decompress(_tiny_file(tmp_path).read_bytes()))
    assert sections["words"].endswith(b"\n")


@FUZZ
@given(words=st.sets(st.text(alphabet="abcäöüñ", min_size=1, max_size=6), min_size=1, max_size=40))
def test_compact_reader_agrees_with_a_dict(words: set[str]) -> None:
    rows = {w: F.TOURNAMENT | (i % 70) << F.ZIPF_SHIFT for i, w in enumerate(sorted(words))}
    ordered, blocks = build_lang.word_blocks(rows)
    blob = "".join(w + "\n" for w in ordered).encode()
    info = _CompactInfo(blob, blocks, array("I", (rows[w] for w in ordered)))
    assert dict(info.items()) == rows
    for word in sorted(words):
        assert info.get(word) == rows[word]
        assert info.get(word + "a") == rows.get(word + "a")
        assert info.get(word[:-1]) == rows.get(word[:-1])
