"""Board layouts as data: size, premium squares, stars, letter values and counts, rack, bingo.

A layout is a JSON file (format in ``docs/BOARD.md``). Fixed premium squares are
listed by kind; MOJO's are instead drawn per game: the board is cut into
clusters (2×2), coloured like a checkerboard, and each cluster gets one bonus
square at a seeded random position (never on a star). :meth:`Layout.realise`
turns a layout and a seed into the concrete :class:`Squares` of one game.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from games.common.languages import LANGUAGES

LAYOUT_DIR = Path(__file__).with_name("layouts")
BLANK = "?"
PREMIUMS = ("DL", "TL", "DW", "TW")
#: (letter multiplier, word multiplier) of each premium kind.
MULTIPLIERS: dict[str, tuple[int, int]] = {"": (1, 1), "DL": (2, 1), "TL": (3, 1), "DW": (1, 2), "TW": (1, 3)}


#: Every letter a tile may carry, in any playing language (upper case).
TILE_LETTERS = frozenset(ch.upper() for lang in LANGUAGES.values() for ch in lang.alphabet)


class LayoutError(ValueError):
    """A layout file that cannot be used, with the reason."""


def square_name(row: int, col: int) -> str:
    """``(7, 7)`` -> ``H8``: column letter, row number from the top."""
    return f"{chr(65 + col)}{row + 1}"


def parse_square(text: str, size: int) -> tuple[int, int] | None:
    """``H8`` -> ``(7, 7)``; None when it is not a square of a ``size`` board."""
    text = text.strip().upper()
    if len(text) < 2 or not ("A" <= text[0] <= "Z") or not text[1:].isdigit():
        return None
    col, row = ord(text[0]) - 65, int(text[1:]) - 1
    if 0 <= row < size and 0 <= col < size:
        return row, col
    return None


@dataclass(frozen=True, slots=True)
class Clusters:
    """Random bonus squares: one per ``size``×``size`` cluster, colour by checkerboard."""

    size: int
    shades: tuple[str, str]
    bonus: Mapping[str, str]  # shade -> premium kind


@dataclass(frozen=True, slots=True)
class Squares:
    """The concrete squares of one game's board."""

    size: int
    premium: tuple[tuple[str, ...], ...]  # "" | DL | TL | DW | TW
    shade: tuple[tuple[str, ...], ...]  # "" | blue | pink
    stars: frozenset[tuple[int, int]]


@dataclass(frozen=True, slots=True)
class Layout:
    """Everything about a board game that is data rather than rules."""

    name: str
    title: str
    size: int
    rack: int
    bingo: int
    stars: tuple[tuple[int, int], ...]
    premiums: Mapping[tuple[int, int], str]
    clusters: Clusters | None
    counts: Mapping[str, int]  # letter (or "?") -> tiles in the bag
    points: Mapping[str, int]  # letter (or "?") -> points

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Layout:
        """Read a layout from its JSON form; raises :class:`LayoutError` with a reason."""
        try:
            size = int(data["size"])
            if not 2 <= size <= 26:
                raise LayoutError("size must be between 2 and 26")

            def square(text: str) -> tuple[int, int]:
                found = parse_square(str(text), size)
                if found is None:
                    raise LayoutError(f"{text!r} is not a square of a {size}×{size} board")
                return found

            stars = tuple(square(s) for s in data.get("stars", ()))
            if not stars:
                raise LayoutError("a layout needs at least one star (where the first word goes)")
            premiums: dict[tuple[int, int], str] = {}
            for kind, squares in dict(data.get("premiums", {})).items():
                if kind not in PREMIUMS:
                    raise LayoutError(f"unknown premium {kind!r} (use {', '.join(PREMIUMS)})")
                for s in squares:
                    premiums[square(s)] = kind
            clusters = None
            if "clusters" in data:
                c = data["clusters"]
                shades = tuple(str(s) for s in c["shades"])
                bonus = {str(k): str(v) for k, v in dict(c["bonus"]).items()}
                if len(shades) != 2 or any(v not in PREMIUMS for v in bonus.values()):
                    raise LayoutError("clusters need two shades and a premium kind for each")
                clusters = Clusters(int(c["size"]), (shades[0], shades[1]), bonus)
            counts: dict[str, int] = {}
            points: dict[str, int] = {}
            for letter, spec in dict(data["letters"]).items():
                key = str(letter).upper()
                if not (key == BLANK or key in TILE_LETTERS):
                    raise LayoutError(f"{letter!r} is not a letter (use A-Z, Ä Ö Ü Ñ, and ? for the blank)")
                counts[key] = int(spec["count"])
                points[key] = 0 if key == BLANK else int(spec["points"])
            return cls(
                name=str(data.get("name", "custom")),
                title=str(data.get("title", data.get("name", "custom"))),
                size=size,
                rack=int(data.get("rack", 7)),
                bingo=int(data.get("bingo", 50)),
                stars=stars,
                premiums=premiums,
                clusters=clusters,
                counts=counts,
                points=points,
            )
        except LayoutError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise LayoutError(f"bad layout: {exc!r}") from None

    @classmethod
    def load(cls, path: str | Path) -> Layout:
        """Read a layout file (JSON)."""
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as exc:
            raise LayoutError(f"cannot read layout {path}: {exc}") from None
        return cls.from_dict(data)

    @classmethod
    def named(cls, name: str, language: str = "en") -> Layout:
        """A layout shipped with the game: ``mojo`` or ``classic``, with ``language``'s tiles."""
        layout = _named(name)
        if language == "en":
            return layout
        return layout.in_language(language)

    def in_language(self, language: str) -> Layout:
        """This layout with ``language``'s tiles (``games.board.tilesets``); English, or a
        layout of its own, keeps its letters."""
        from games.board.tilesets import tiles_for

        tiles = tiles_for(self.name, language)
        if tiles is None:
            return self
        return replace(
            self,
            counts={k: count for k, (count, _) in tiles.items()},
            points={k: points for k, (_, points) in tiles.items()},
        )

    def realise(self, seed: int) -> Squares:
        """The concrete squares of a game: fixed premiums, plus the seeded cluster bonuses."""
        n = self.size
        premium = [["" for _ in range(n)] for _ in range(n)]
        shade = [["" for _ in range(n)] for _ in range(n)]
        for (r, c), kind in self.premiums.items():
            premium[r][c] = kind
        if self.clusters is not None:
            rng = random.Random(f"board-layout:{seed}")
            k = self.clusters.size
            stars = set(self.stars)
            for cr in range(0, n, k):
                for cc in range(0, n, k):
                    colour = self.clusters.shades[((cr // k) + (cc // k)) % 2]
                    cells = [(r, c) for r in range(cr, min(cr + k, n)) for c in range(cc, min(cc + k, n))]
                    for r, c in cells:
                        shade[r][c] = colour
                    free = [(r, c) for r, c in cells if (r, c) not in stars and not premium[r][c]]
                    kind = self.clusters.bonus.get(colour, "")
                    if free and kind:
                        r, c = rng.choice(free)
                        premium[r][c] = kind
        return Squares(
            n, tuple(tuple(row) for row in premium), tuple(tuple(row) for row in shade), frozenset(self.stars)
        )

    def bag(self) -> list[str]:
        """Every tile of a fresh bag, in a fixed order (the game shuffles it)."""
        return [letter for letter in sorted(self.counts) for _ in range(self.counts[letter])]


_CACHE: dict[str, Layout] = {}


def _named(name: str) -> Layout:
    if name not in _CACHE:
        path = LAYOUT_DIR / f"{name}.json"
        if not path.is_file():
            raise LayoutError(f"no layout called {name!r}")
        _CACHE[name] = Layout.load(path)
    return _CACHE[name]
