"""The games' own web pages, found through the registry.

A game with a page names its folder in its registry entry (:attr:`GameInfo.page
<games.common.protocol.GameInfo.page>`, e.g. ``games.paths.web``); the folder declares ``PAGE``
(:class:`games.common.page.GamePage`: its view, its link's label, what its script says) and
holds ``page.html``, ``live.html`` and ``script.js`` (:mod:`games.common.page`), and its own
``style.css`` if it has one. :func:`load` reads every page of a registry once; the server then
renders ``<game>/page.html`` and ``<game>/live.html`` from the game's folder (:func:`template`)
and serves its script and styles as ``/static/<game>.js`` and ``/static/<game>.css``
(:func:`asset`), beside the pages' shared scripts and styles, so a page's ``import … from
"./pick.js"`` finds them. What its script says joins, on its page, the messages every page
carries (:func:`adapters.web.scripts.add`).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from adapters.web import scripts
from games.common.page import GamePage, GameView
from games.common.protocol import GameInfo

#: The files every page's folder holds (besides its module), which the server reads.
FILES = ("page.html", "live.html", "script.js")
#: The page's own styles, when it has some (served as ``/static/<game>.css``).
STYLE = "style.css"
#: What the server serves of a page's folder under ``/static/``: the suffix → the file.
ASSETS = {"js": "script.js", "css": STYLE}


@dataclass(frozen=True)
class Page:
    """One game's page, read from its folder."""

    game: str
    #: The link button's label on a player's private note (marked for the catalogue).
    label: str
    #: How the page is built for one viewer and its moves written.
    view: GameView
    folder: Path
    #: The lines of the game's public table a replay leaves out (None: none).
    replay_hides: Callable[[str], bool] | None = None

    @property
    def template(self) -> str:
        """The page's template name."""
        return template_of(self.game)

    @property
    def live(self) -> str:
        """Its live regions' template name."""
        return live_of(self.game)

    @property
    def script(self) -> str:
        """Where the page's script is served, under ``/static/``."""
        return f"{self.game}.js"


def template_of(game: str) -> str:
    """The name of ``game``'s page's template (:func:`template` loads it from its folder)."""
    return f"{game}/page.html"


def live_of(game: str) -> str:
    """The name of ``game``'s page's live regions' template."""
    return f"{game}/live.html"


#: Every page read so far, by game name.
PAGES: dict[str, Page] = {}


def page_of(info: GameInfo) -> Page | None:
    """``info``'s page (None: the game has none), read from its folder on first use."""
    if info.page is None:
        return None
    found = PAGES.get(info.name)
    if found is None:
        module = importlib.import_module(info.page)
        spec = module.PAGE
        if not isinstance(spec, GamePage) or not isinstance(spec.view, GameView) or module.__file__ is None:
            raise TypeError(f"{info.page} declares no PAGE with a view")
        folder = Path(module.__file__).parent
        missing = [name for name in FILES if not (folder / name).is_file()]
        if missing:
            raise FileNotFoundError(f"{info.page} has no {', '.join(missing)}")
        scripts.add(info.name, spec.messages, info.page)
        found = PAGES[info.name] = Page(info.name, spec.label, spec.view, folder, spec.replay_hides)
    return found


def load(games: Iterable[GameInfo]) -> list[Page]:
    """The pages of ``games`` (a registry), each read once."""
    return [page for info in games if (page := page_of(info)) is not None]


def named(game: str) -> Page | None:
    """The page read for ``game`` (None: none, or not read yet)."""
    return PAGES.get(game)


def view_for(game: str) -> GameView | None:
    """The view of ``game``'s page (None: it has none, or it is not read yet)."""
    page = PAGES.get(game)
    return None if page is None else page.view


def template(name: str) -> tuple[str, str, Callable[[], bool]] | None:
    """A page's template by its name (``paths/page.html``), for the server's template loader."""
    game, _slash, file = name.partition("/")
    page = PAGES.get(game)
    if page is None or file not in FILES[:2]:
        return None
    path = page.folder / file
    return path.read_text(encoding="utf-8"), str(path), lambda: True


def asset(name: str) -> bytes | None:
    """A page's script or styles by the name they are served under (``paths.js``, ``paths.css``);
    None when no page read has it."""
    game, dot, kind = name.rpartition(".")
    page = PAGES.get(game) if dot and kind in ASSETS else None
    path = None if page is None else page.folder / ASSETS[kind]
    return path.read_bytes() if path is not None and path.is_file() else None
