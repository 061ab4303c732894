"""The "add a game" recipe's web page, as the toy follows it: a game's page is one folder of the
game's own (docs/ARCHITECTURE.md, "Recipe: add a game"), named by its registry entry."""

from __future__ import annotations

import re
from pathlib import Path

from adapters.web.pages import page_of
from tests.toy_game.game import SPELL

ROOT = Path(__file__).resolve().parents[2]
RECIPE = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")


def recipe_page_files() -> list[str]:
    """The files of a game's page folder, as the recipe lists them (``web/page.html``…)."""
    section = RECIPE.split("## Recipe: add a game", 1)[1].split("\n## ", 1)[0]
    return sorted(set(re.findall(r"`web/([\w.]+)`", section)))


def test_the_recipe_lists_a_pages_files_and_the_toy_has_each() -> None:
    files = recipe_page_files()
    assert files == ["__init__.py", "live.html", "page.html", "script.js", "view.py"], files
    folder = ROOT / "tests" / "toy_game" / "web"
    assert [name for name in files if not (folder / name).is_file()] == []


def test_the_toys_page_is_found_through_its_registry_entry() -> None:
    page = page_of(SPELL)
    assert page is not None and page.folder == ROOT / "tests" / "toy_game" / "web"
    assert page.view is not None and page.view.game == SPELL.name
    assert (page.template, page.live, page.script) == ("spell/page.html", "spell/live.html", "spell.js")


def test_nothing_of_the_web_companion_names_a_game() -> None:
    """Whatever is special about a game's page is declared in its folder: adapters/web/ names
    none of the games (their names only appear as data, never as a literal)."""
    games = {"board", "paths", "shed", "dice", "race", "spell"}
    named = [
        f"{path.relative_to(ROOT)}: {literal}"
        for path in sorted((ROOT / "adapters" / "web").rglob("*.py"))
        for literal in re.findall(r"""["']([a-z]+)["']""", path.read_text(encoding="utf-8"))
        if literal in games
    ]
    assert named == [], named
