"""The web companion's files ship in the package: its own templates (the browsing pages' too) and
scripts, and each game's page folder (games/<game>/web/), with no line per game in
pyproject.toml — a game's page is its folder, and the package data takes any page folder whole."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from adapters.web.pages import FILES, STYLE, page_of
from bot.core.registry import GAME_MODULES, load_default
from tests.packaging.helpers import ROOT

#: What a build reads besides the packages.
BUILD_FILES = ("pyproject.toml", "README.md", "LICENSE")


def served() -> list[str]:
    """Every file the companion serves or renders, relative to the repository."""
    web = ROOT / "adapters" / "web"
    own = [p for p in (*(web / "templates").rglob("*.html"), *(web / "static").iterdir()) if p.is_file()]
    pages = [
        page.folder / name
        for info in load_default()
        if (page := page_of(info))
        for name in (*FILES, STYLE)
        if (page.folder / name).is_file()
    ]
    return sorted(str(path.relative_to(ROOT)) for path in (*own, *pages))


def test_the_package_data_names_no_game() -> None:
    with (ROOT / "pyproject.toml").open("rb") as f:
        data = tomllib.load(f)["tool"]["setuptools"]["package-data"]
    games = {module.rsplit(".", 1)[1] for module in GAME_MODULES}
    named = [key for key in data if any(part in games for part in key.split("."))]
    assert named == [], named


@pytest.mark.skipif(importlib.util.find_spec("setuptools") is None, reason="needs setuptools")
def test_every_file_the_companion_serves_is_in_the_built_package(tmp_path: Path) -> None:
    source = tmp_path / "source"
    source.mkdir()
    for name in BUILD_FILES:
        shutil.copy(ROOT / name, source / name)
    for package in ("bot", "adapters", "games", "storage"):
        shutil.copytree(ROOT / package, source / package, ignore=shutil.ignore_patterns("__pycache__"))
    built = tmp_path / "built"
    subprocess.run(
        [sys.executable, "-c", "import setuptools; setuptools.setup()", "-q", "build_py", "-d", str(built)],
        cwd=source,
        check=True,
        capture_output=True,
        timeout=300,
    )
    missing = [name for name in served() if not (built / name).is_file()]
    assert missing == [], missing
