"""Mark My Words on a page: the grid, the player's letters, one tile placed by pointer or by
keyboard, the words it makes named by the player and judged by the game's preview
(``PathsEngine.preview``), and the moves the rules allow (place, blank, discard, knock, pass,
and taking tiles from the Free Letter Pile for one word, which everyone sees).

The page never lists words the player did not name: finding them is the game (a page that
listed them would play for its player, which a player in chat cannot have)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from games.common.page import BadRequest, number, text_field
from games.common.protocol import Snapshot
from games.common.speech import N_, _, opening


class PathsGame(Protocol):
    """What the page reads from a Mark My Words engine (``games.paths``'s ``PathsEngine``)."""

    size: int

    def preview(self, seat: str, text: str) -> Any:
        """A placed tile's preview (``move``, ``words``, ``score``, ``reason``) or why none."""
        ...


@dataclass(frozen=True, slots=True)
class Square:
    """One square of the grid, as the page shows it."""

    row: int
    col: int
    name: str  # "E5"
    label: str  # "E5, T" / "E5, blank tile" / "E5, empty"
    letter: str
    blank: bool
    recent: bool


@dataclass(frozen=True, slots=True)
class PathsPart:
    """A Mark My Words page: the grid, and a player's own letters and blanks (none for a watcher)."""

    grid: tuple[tuple[Square, ...], ...]
    rack: tuple[str, ...]
    blanks: int
    knock: bool
    player: bool
    #: The Free Letter Pile (public), and whether the game has one (``free-pile``).
    pile: tuple[str, ...] = ()
    free: bool = False


def square_label(name: str, letter: str, blank: bool) -> str:
    """A square's accessible name: its coordinate and what is on it."""
    if blank:
        return _("{square}, blank tile", square=name)
    if letter:
        return _("{square}, {letter}", square=name, letter=letter)
    return _("{square}, empty", square=name)


class PathsView:
    """Mark My Words' page."""

    game = "paths"
    label = N_("Open the board")

    def part(self, engine: Any, snapshot: Snapshot, seat: str | None) -> PathsPart:
        """The grid, and ``seat``'s own letters (from their own snapshot; a watcher's has none)."""
        grid = tuple(
            tuple(
                Square(
                    r,
                    c,
                    f"{chr(65 + c)}{r + 1}",
                    square_label(f"{chr(65 + c)}{r + 1}", cell.letter.strip(), cell.blank),
                    cell.letter.strip(),
                    cell.blank,
                    cell.recent,
                )
                for c, cell in enumerate(row)
            )
            for r, row in enumerate(snapshot.board)
        )
        rack = tuple(card.letter for card in snapshot.cards if card.letter) if seat else ()
        blanks = sum(1 for card in snapshot.cards if not card.letter) if seat else 0
        knocking = opening("Knocking: `knock WORD` claims new words for {seconds} after each turn.")
        knock = any(line.startswith(knocking) for line in snapshot.lines)
        free = bool(getattr(getattr(engine, "config", None), "free_pile", False))
        pile = tuple(sorted(ch.upper() for ch in getattr(engine, "pile", ()))) if free else ()
        return PathsPart(grid, rack, blanks, knock, seat is not None, pile, free)

    def hides(self, line: str) -> bool:
        """The page shows the player's tiles, the Free Letter Pile and the knock button itself."""
        # (the game's own lines, as the game says them in the language spoken)
        return line.startswith(
            (
                opening("Your tiles: {letters}."),
                _("Your tiles: no letters."),
                opening("Your tiles: no letters + {count} blank."),
                opening("Knocking: `knock WORD` claims new words for {seconds} after each turn."),
                opening("Free Letter Pile: {letters}"),
                _("Free Letter Pile: empty"),
            )
        )

    def preview(self, engine: PathsGame, seat: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """A placed tile's preview: each named word judged, the points, or why the move fails."""
        if body.get("action", "place") != "place":
            return {"ok": False, "reason": _("Only a tile placed on the grid has a preview.")}
        text = " ".join(self.words(engine, seat, body))
        found = engine.preview(seat, text)
        if isinstance(found, str):
            return {"ok": False, "reason": found}
        return {
            "ok": not found.reason,
            "move": found.move,
            "words": [list(judged) for judged in found.words],
            "score": found.score,
            "reason": found.reason,
        }

    def words(self, engine: PathsGame, seat: str, body: Mapping[str, Any]) -> tuple[str, ...]:
        """The typed move: ``E5 T ATE TEA``, ``blank E5``, ``discard Q``, ``knock TEA``, ``pass``."""
        action = body.get("action")
        if action == "pass":
            return ("pass",)
        if action == "knock":
            named = _named(body)
            if not named:
                raise BadRequest(_("Name the new words you found to knock."))
            return ("knock", *named)
        if action == "discard":
            return ("discard", _letter(body))
        if action == "free":
            return _free(engine.size, body)
        if action not in ("place", "blank"):
            raise BadRequest("That's not a move: place, blank, discard, free, knock or pass.")
        row = number(body, "row", 0, engine.size - 1)
        col = number(body, "col", 0, engine.size - 1)
        square = f"{chr(65 + col)}{row + 1}"
        if action == "blank":
            return ("blank", square)
        return (square, _letter(body), *_named(body))


def _free(size: int, body: Mapping[str, Any]) -> tuple[str, ...]:
    """``free O F6 X G6 OXCART``: each tile taken from the pile, its square, the one word."""
    tiles = body.get("tiles")
    if not isinstance(tiles, list) or not 1 <= len(tiles) <= 7:
        raise BadRequest(_("Place the free tiles you take on the grid (one to seven)."))
    out = ["free"]
    for tile in tiles:
        if not (isinstance(tile, list) and len(tile) == 3):
            raise BadRequest(_("Each free tile is a row, a column and a letter."))
        row = number({"row": tile[0]}, "row", 0, size - 1)
        col = number({"column": tile[1]}, "column", 0, size - 1)
        out += [_letter({"letter": tile[2]}), f"{chr(65 + col)}{row + 1}"]
    named = _named(body)
    if len(named) != 1:
        raise BadRequest(_("Name the one new word your free tiles make."))
    return (*out, *named)


def _letter(body: Mapping[str, Any]) -> str:
    letter = text_field(body, "letter", limit=2, allow="")
    if len(letter) != 1:
        raise BadRequest(_("Choose one letter tile."))
    return letter.upper()


def _named(body: Mapping[str, Any]) -> tuple[str, ...]:
    named = tuple(w.upper() for w in text_field(body, "words", allow=" ,").replace(",", " ").split())
    if len(named) > 12:
        raise BadRequest(_("Name at most 12 words at once."))
    return named
