"""Games by name and alias."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from games.common.options import OptionKind, OptionSpec
from games.common.protocol import GameInfo
from games.common.speech import _

log = logging.getLogger(__name__)

#: Modules that export ``GAME: GameInfo``; a game not built yet is skipped.
GAME_MODULES: tuple[str, ...] = ("games.race", "games.board", "games.dice", "games.paths", "games.shed")


class UnknownGame(LookupError):
    """No game has that name or alias."""


class Registry:
    """Looks games up by name or alias, case-insensitively."""

    def __init__(self, games: Iterable[GameInfo] = ()) -> None:
        self._games: dict[str, GameInfo] = {}
        self._names: dict[str, str] = {}
        for info in games:
            self.add(info)

    def add(self, info: GameInfo) -> None:
        """Register a game; names and aliases must be unique."""
        for key in (info.name, *info.aliases):
            key = key.lower()
            if key in self._names:
                raise ValueError(f"game name {key!r} is taken by {self._names[key]!r}")
            self._names[key] = info.name
        self._games[info.name] = info

    def get(self, name: str) -> GameInfo:
        """The game called ``name`` (or an alias); raises :class:`UnknownGame`."""
        key = self._names.get(name.strip().lower())
        if key is None:
            raise UnknownGame(f"there is no game called {name!r}; games: {', '.join(self.names())}")
        return self._games[key]

    def find(self, name: str) -> GameInfo | None:
        """Like :meth:`get`, but None when unknown."""
        key = self._names.get(name.strip().lower())
        return self._games[key] if key else None

    def names(self) -> list[str]:
        """Game names in registration order."""
        return list(self._games)

    @property
    def default(self) -> GameInfo:
        """The game `start` begins when none is named (the first registered)."""
        return next(iter(self._games.values()))

    def __iter__(self) -> Iterator[GameInfo]:
        return iter(self._games.values())

    def __len__(self) -> int:
        return len(self._games)


def load_default() -> Registry:
    """Every game that is installed, race first."""
    registry = Registry()
    for module_name in GAME_MODULES:
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue  # that game is not part of this build
            raise
        info = getattr(module, "GAME", None)
        if isinstance(info, GameInfo):
            registry.add(info)
        else:
            log.warning("%s has no GAME to register", module_name)
    return registry


#: Names a start form keeps for itself: the game, and the rest of the options as typed words.
START_RESERVED: frozenset[str] = frozenset({"game", "more"})


@dataclass(frozen=True, slots=True)
class StartField:
    """One option as a platform's start form offers it (Discord's ``/moji start`` options): the
    options of that name of every game that puts it in its form, merged.

    ``kind`` is the games' shared kind (``text`` where they differ); ``choices`` are set only
    when every such game offers the same ones; ``low``/``high`` span every game's range;
    ``help`` is theirs when they agree; ``games`` are theirs, in registry order.
    """

    name: str
    kind: OptionKind
    help: str
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    games: tuple[str, ...] = ()


def start_fields(registry: Registry, most: int) -> list[StartField]:
    """The options a start form offers, ``most`` at most, from the games' declarations
    (:meth:`GameInfo.form_options`). Options more games put in their forms come first (``bots``,
    ``language``); then each game's in its own order, taken in turn game by game (the default
    game first), so every game gets its first options in before any game its last. Options left
    out are still typed as ``key=value`` words; a name is offered once, merged across games."""
    found: dict[str, list[tuple[str, OptionSpec]]] = {}
    first: dict[str, tuple[int, int]] = {}  # name -> (position in a form, game's index)
    for index, info in enumerate(registry):
        for position, spec in enumerate(info.form_options()):
            if spec.name in START_RESERVED:
                continue
            found.setdefault(spec.name, []).append((info.name, spec))
            first[spec.name] = min(first.get(spec.name, (position, index)), (position, index))
    ranked = sorted(found, key=lambda name: (-len(found[name]), first[name]))
    return [_merged(name, found[name]) for name in ranked[:most]]


def _merged(name: str, found: list[tuple[str, OptionSpec]]) -> StartField:
    """One field for the options called ``name`` of several games."""
    specs = [spec for _game, spec in found]
    first = specs[0]
    kind: OptionKind = first.kind if all(s.kind == first.kind for s in specs) else "text"
    same_choices = all(s.choices == first.choices for s in specs)
    choices = first.choices if kind in ("choice", "set") and same_choices else ()
    low = high = None
    if kind == "int" and all(s.low is not None and s.high is not None for s in specs):
        low = min(s.low for s in specs if s.low is not None)
        high = max(s.high for s in specs if s.high is not None)
    games = tuple(game for game, _spec in found)
    if all(s.help == first.help for s in specs):
        about = first.text
    else:  # (``turn`` is hours in one game, seconds in another: each game's rules say which)
        about = _("{option} ({game}; other games: see their rules)", option=_gist(first.text), game=games[0])
    return StartField(name, kind, about, choices, low, high, games)


def _gist(text: str) -> str:
    """The head of an option's help, before its details in parentheses or after a colon."""
    for mark in (" (", ": ", "; "):
        text = text.split(mark, 1)[0]
    return text
