"""The build: helpers, the committed data file, and reproducibility (slow, opt-in)."""

from __future__ import annotations

import gzip
import importlib.util
import os
from pathlib import Path

import pytest

from games.lexicon import _format as F
from games.lexicon import build
from games.lexicon.core import DATA_FILE


def test_pair_keys() -> None:
    keys = build._pair_keys("cart")
    assert "ct" in keys["first-and-last"]
    assert {"ac", "at", "ct", "rt"} <= keys["anywhere"]
    assert "ca" in keys["first-or-last"] and "ta" in keys["first-or-last"]
    assert keys["in-between"] == {"ar"}
    assert "tt" in build._pair_keys("tot")["first-and-last"]
    assert "tt" in build._pair_keys("tot")["anywhere"]
    assert build._pair_keys("at")["in-between"] == set()


def test_triple_keys() -> None:
    assert build._triple_keys("cat") == {"act"}
    assert "eee" in build._triple_keys("eerie" + "e")


def test_helpers() -> None:
    assert build.fold("Café") == "cafe"
    assert build._name("Albert_Einstein") == "albert einstein"
    assert build._name("J._R._R._Tolkien") == "j r r tolkien"
    assert build._junk("cs") and build._junk("b") and not build._junk("us") and not build._junk("a")
    assert len(build.TWO_LETTER) == len(set(build.TWO_LETTER)) > 100


def test_sections_round_trip() -> None:
    raw = F.pack_sections([("a", b"xy"), ("b", b""), ("c", b"1\n2")])
    assert F.unpack_sections(raw) == {"a": b"xy", "b": b"", "c": b"1\n2"}
    with pytest.raises(ValueError, match="magic"):
        F.unpack_sections(b"nope")


def test_committed_data_file() -> None:
    data = DATA_FILE.read_bytes()
    assert len(data) < 4_000_000
    assert data[4:8] == b"\0\0\0\0"  # gzip mtime 0: reproducible
    sections = F.unpack_sections(gzip.decompress(data))
    assert set(sections) == {"words", "info", "bases", "persons", "tables", "meta"}
    words = sections["words"].decode("ascii").split("\n")
    assert words == sorted(words) and len(words) * 4 == len(sections["info"])
    notice = (DATA_FILE.parent / "NOTICE").read_text()
    for name in ("SCOWL", "WordNet", "lemminflect", "wordfreq", "CC BY-SA 4.0", "UKACD"):
        assert name in notice


def _deps_missing() -> str | None:
    for module in ("lemminflect", "wordfreq"):
        if importlib.util.find_spec(module) is None:
            return f"{module} is not installed (pip install -e '.[lexicon-build]')"
    for path in (build.SCOWL_DIR, build.WORDNET_DIR):
        if not path.is_dir():
            return f"{path} is missing (apt-get install scowl wordnet-base)"
    return None


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("MOJI_FUZZ"), reason="takes minutes: run with MOJI_FUZZ=1 (make fuzz)")
def test_build_is_reproducible(tmp_path: Path) -> None:
    missing = _deps_missing()
    if missing:
        pytest.skip(missing)
    first = tmp_path / "a.dat.gz"
    second = tmp_path / "b.dat.gz"
    assert build.main(["--out", str(first), "--quiet"]) == 0
    assert build.main(["--out", str(second), "--quiet"]) == 0
    assert first.read_bytes() == second.read_bytes()
