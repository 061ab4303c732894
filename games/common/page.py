"""A game's web page, declared with the game: what its page shows and how a page's move becomes
the words a player would type.

A game with a page keeps it in one folder of its own package, ``web/`` (``games/paths/web/``),
named by the registry's entry (:attr:`games.common.protocol.GameInfo.page`): its ``__init__.py``
declares ``PAGE``, a :class:`GamePage` (its :class:`GameView` in ``view.py``), and beside it
stand ``page.html`` (the page a player or a watcher opens), ``live.html`` (its live regions,
sent as the game changes) and ``script.js`` (the page's script). The web companion
(``adapters/web/``) finds it there through the registry and serves it; nothing else names the
game, and nothing of the companion is one game's.

A view never decides a rule: it writes the move a player would type (``E5 T ATE``, ``#1+H ->
SHOCK``, ``STONe 3 2``), which the companion hands the chat's runtime as a typed ``play``; the
previews are the games' own pure ``preview`` methods.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from games.common.protocol import Snapshot


class BadRequest(ValueError):
    """A page's request that no player could have made; the message says what was expected."""


class Refused(Exception):
    """A page's move that writes no typed move (no tiles placed, none chosen to swap): the
    message is the game's refusal, in its own words, answered as a refusal of a typed one is."""


@dataclass(frozen=True, slots=True)
class Part:
    """A game's own part of a page: its template's model, built for one viewer."""

    game: str
    data: Any


@runtime_checkable
class GameView(Protocol):
    """One game's page (``game``: the registry's name of the game, ``paths``)."""

    game: str
    #: The link button's label on a player's private note ("Open your hand").
    label: str

    def part(self, engine: Any, snapshot: Snapshot, seat: str | None) -> Any:
        """The page's own model for ``seat`` (None: a watcher): never another seat's hand."""
        ...

    def hides(self, line: str) -> bool:
        """Whether the page shows ``line`` of the snapshot its own way (so not as text)."""
        ...

    def preview(self, engine: Any, seat: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """What the page's move would do (``{"ok": …, "move": …, "reason": …}``), by the game."""
        ...

    def words(self, engine: Any, seat: str, body: Mapping[str, Any]) -> tuple[str, ...]:
        """The words of the typed ``play`` command the page's move is (raises :class:`BadRequest`
        for a request no page makes, :class:`Refused` for a move that writes no typed move)."""
        ...


def text_field(body: Mapping[str, Any], name: str, *, limit: int = 120, allow: str = " ") -> str:
    """A short text of a request (letters and ``allow`` only), or :class:`BadRequest`."""
    value = body.get(name, "")
    if not isinstance(value, str) or len(value) > limit:
        raise BadRequest(f"{name} is a short text.")
    if not all(ch.isalpha() or ch in allow for ch in value):
        raise BadRequest(f"{name} holds letters only.")
    return value.strip()


def number(body: Mapping[str, Any], name: str, low: int, high: int) -> int:
    """A whole number of a request within ``low``..``high``, or :class:`BadRequest`."""
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise BadRequest(f"{name} is a number from {low} to {high}.")
    return value


@dataclass(frozen=True, slots=True)
class GamePage:
    """A game's page, as its ``web/__init__.py`` declares it (``PAGE``).

    ``label``: the link button's label on a player's private note ("Open the board"), marked for
    the catalogue; ``view``: how the page is built for one viewer and how its moves are written;
    ``messages``: what the page's script says (key → message marked with ``N_``, its
    ``{placeholders}`` filled by the script's ``t(key, {…})``), carried by its page beside the
    messages every page carries (``adapters/web/scripts.py``, whose keys keep their messages).
    ``replay_hides``: the lines of the
    game's public table that a finished game's replay (its table after each move, as text) leaves
    out, such as the help for typing moves (None: it shows every line).
    """

    label: str
    view: GameView
    messages: Mapping[str, str] = field(default_factory=dict)
    replay_hides: Callable[[str], bool] | None = None
