"""The "add a game" recipe's web page, as the toy follows it: a game's page is one folder of the
game's own (docs/ARCHITECTURE.md, "Recipe: add a game"), named by its registry entry, found
through the registry, and nothing outside that folder names the game."""

from __future__ import annotations

import importlib
import re
import tomllib
from pathlib import Path

import pytest

from adapters.web import scripts
from adapters.web.pages import FILES, STYLE, page_of
from bot.core.registry import load_default
from games.common.page import GamePage, GameView
from games.common.protocol import GameInfo
from tests.toy_game.game import SPELL

ROOT = Path(__file__).resolve().parents[2]
RECIPE = (ROOT / "docs" / "ARCHITECTURE.md").read_text(encoding="utf-8")
#: Every game with a page: the installed ones and the toy.
PAGED = [info for info in (*load_default(), SPELL) if info.page is not None]


def recipe_page_files() -> list[str]:
    """The files of a game's page folder, as the recipe lists them (``web/page.html``…)."""
    section = RECIPE.split("## Recipe: add a game", 1)[1].split("\n## ", 1)[0]
    return sorted(set(re.findall(r"`web/([\w.]+)`", section)))


def game_package(info: GameInfo) -> str:
    """The package of the game ``info`` declares (``games.paths``, ``tests.toy_game``)."""
    package = importlib.import_module(info.create.__module__).__package__
    assert package
    return package


def package_folder(package: str) -> Path:
    module = importlib.import_module(package)
    assert module.__file__ is not None
    return Path(module.__file__).parent


def test_the_recipe_lists_a_pages_files_and_the_toy_has_each() -> None:
    files = recipe_page_files()
    assert files == ["__init__.py", "live.html", "page.html", "script.js", "style.css", "view.py"], files
    assert {*FILES, STYLE} <= set(files), "the recipe lists every file the companion reads"
    folder = ROOT / "tests" / "toy_game" / "web"
    assert [name for name in files if not (folder / name).is_file()] == []


@pytest.mark.parametrize("info", PAGED, ids=[info.name for info in PAGED])
def test_every_page_follows_the_recipe(info: GameInfo) -> None:
    """The toy, and every installed game with a page: its folder is ``web/`` in the game's own
    folder, holds each file the recipe lists, and declares a ``PAGE`` whose view is the game's."""
    page = page_of(info)
    assert page is not None
    assert info.page == f"{game_package(info)}.web"
    assert page.folder == package_folder(game_package(info)) / "web"
    needed = [name for name in recipe_page_files() if name != STYLE]  # (its own styles: if it has some)
    assert [name for name in needed if not (page.folder / name).is_file()] == []
    declared = importlib.import_module(info.page).PAGE
    assert isinstance(declared, GamePage) and isinstance(declared.view, GameView)
    assert page.view.game == info.name
    assert (page.template, page.live, page.script) == (
        f"{info.name}/page.html",
        f"{info.name}/live.html",
        f"{info.name}.js",
    )
    html = (page.folder / "page.html").read_text(encoding="utf-8")
    assert f'src="/static/{info.name}.js"' in html and f'include "{info.name}/live.html"' in html
    styled = (page.folder / STYLE).is_file()
    assert styled == (f'href="/static/{info.name}.css"' in html), "its own styles, linked if it has some"
    # what its script says reaches its page (beside the shared messages), and its page only
    own = set(declared.messages) - set(scripts.MESSAGES)
    assert own <= set(scripts.messages(info.name)) and not own & set(scripts.messages(""))


def test_the_toys_page_is_found_through_its_registry_entry() -> None:
    page = page_of(SPELL)
    assert page is not None and page.folder == ROOT / "tests" / "toy_game" / "web"
    assert page.view is not None and page.view.game == SPELL.name
    assert (page.template, page.live, page.script) == ("spell/page.html", "spell/live.html", "spell.js")


def literals(path: Path) -> list[str]:
    """The quoted lower-case words of a module, script or template (a template's ``class`` and
    ``id`` attributes left out: ``class="board"`` is a table's style, ``id="board"`` a grid's)."""
    text = path.read_text(encoding="utf-8")
    if path.suffix == ".html":
        text = re.sub(r"""\b(?:class|id)=(["'])[^"']*\1""", "", text)
    return re.findall(r"""["']([a-z]+)["']""", text)


def test_nothing_of_the_web_companion_names_a_game() -> None:
    """Whatever is special about a game's page is declared in its folder: adapters/web/ (its
    modules, templates and scripts) names none of the games (their names only appear as data,
    never as a literal), and the package data names no game's folder."""
    games = {"board", "paths", "shed", "dice", "race", "spell"}
    named = [
        f"{path.relative_to(ROOT)}: {literal}"
        for path in sorted((ROOT / "adapters" / "web").rglob("*"))
        if path.suffix in (".py", ".html", ".js")
        for literal in literals(path)
        if literal in games
    ]
    assert named == [], named
    with (ROOT / "pyproject.toml").open("rb") as handle:
        data = tomllib.load(handle)["tool"]["setuptools"]["package-data"]
    assert [key for key in data if set(key.split(".")) & games] == []
