"""The card font ships inside the package and is the one every picture is drawn with."""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from adapters.pictures import fonts, render_cards
from games.common.protocol import CardFace
from tests.packaging.helpers import ROOT


@pytest.fixture
def fresh_fonts() -> Iterator[None]:
    """Empty the font caches before and after (another test may have warmed them)."""
    fonts._source.cache_clear()
    fonts.font.cache_clear()
    yield
    fonts._source.cache_clear()
    fonts.font.cache_clear()


def test_the_shipped_font_is_the_one_loaded(fresh_fonts: None) -> None:
    shipped = fonts.font_path()
    assert shipped == ROOT / "adapters" / "pictures" / "fonts" / "DejaVuSans-Bold.ttf"
    assert shipped.is_file()
    for size in (11, 24, 78):
        face = fonts.font(size)
        assert getattr(face, "path", None) == str(shipped)
        assert face.getname() == ("DejaVu Sans", "Bold")  # type: ignore[union-attr]
    assert render_cards((CardFace("M", "red", 3),)).startswith(b"\x89PNG")


def test_only_the_face_used_ships_with_its_licence() -> None:
    folder = ROOT / "adapters" / "pictures" / "fonts"
    assert sorted(p.name for p in folder.iterdir()) == ["DejaVuSans-Bold.ttf", "NOTICE"]
    notice = (folder / "NOTICE").read_text(encoding="utf-8")
    for needed in ("Bitstream Vera Fonts Copyright", "Arev Fonts Copyright", "Permission is hereby granted"):
        assert needed in notice


def test_a_missing_font_file_is_said_once(
    fresh_fonts: None, monkeypatch: pytest.MonkeyPatch, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(fonts, "font_path", lambda: tmp_path / "gone.ttf")
    with caplog.at_level(logging.WARNING, logger="adapters.pictures.fonts"):
        faces = [fonts.font(size) for size in (11, 24, 24, 78)]
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "gone.ttf is missing from the package" in warnings[0].getMessage()
    # the same face from the host if it has one, else Pillow's own: never some other face unsaid
    for face in faces:
        path = getattr(face, "path", None)  # Pillow's own font has none, or a BytesIO
        assert not isinstance(path, str) or path.endswith("DejaVuSans-Bold.ttf"), path


def test_the_wheel_carries_the_font(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    skip = shutil.ignore_patterns("__pycache__", "*.pyc", "*.egg-info")
    for package in ("bot", "adapters", "games", "storage"):
        shutil.copytree(ROOT / package, source / package, ignore=skip)
    dist = tmp_path / "dist"
    pip_wheel = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--wheel-dir", str(dist)]
    subprocess.run([*pip_wheel, str(source)], check=True, timeout=300)
    (wheel,) = dist.glob("moji-*.whl")
    archive = zipfile.ZipFile(wheel)
    names = archive.namelist()
    assert "adapters/pictures/fonts/DejaVuSans-Bold.ttf" in names
    assert "adapters/pictures/fonts/NOTICE" in names
    assert [n for n in names if n.endswith(".ttf")] == ["adapters/pictures/fonts/DejaVuSans-Bold.ttf"]
    fonts = sum(
        i.compress_size for i in archive.infolist() if i.filename.startswith("adapters/pictures/fonts/")
    )
    assert fonts < 1_000_000, "only the face used, not the whole family"
    # the rest is mostly the lexicons: English and four more languages, a few MB each, and the
    # words' meanings (`define`, hints): 3.4 MB for the five languages
    lexicons = [n for n in names if n.startswith("games/lexicon/data/lexicon")]
    meanings = [n for n in names if n.startswith("games/lexicon/data/glosses-")]
    assert len(lexicons) == 5 and len(meanings) == 5 and wheel.stat().st_size < 14_000_000
