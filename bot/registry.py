"""Games by name and alias."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Iterable, Iterator

from games.common.protocol import GameInfo

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
