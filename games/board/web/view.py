"""MOJO on a page: the board, a player's own rack, tiles placed square by square by pointer or
by keyboard and previewed by the engine itself (``BoardGame.preview``: the words they make and
their score), and the moves the rules allow (place, swap, pass, resign)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from games.common.page import BadRequest, Refused
from games.common.protocol import Snapshot
from games.common.speech import N_, _, _n, number, opening
from games.common.text import plain

#: The most tiles a page may place in one move (a rack holds 7; a few spare for safety).
MAX_TILES = 16
#: The largest row or column a placed tile may name.
MAX_SQUARE = 64
#: The moves a page makes besides placing tiles.
PLAIN_MOVES = ("pass", "resign")


class BoardEngine(Protocol):
    """What the page reads from a MOJO engine (``games.board``'s ``BoardGame``): a seat's own
    rack and the preview of placed tiles."""

    def rack_of(self, seat: str) -> tuple[tuple[str, int], ...]:
        """The seat's own rack as (tile, points); empty for anyone else."""
        ...

    def preview(self, seat: str, tiles: Sequence[tuple[int, int, str]]) -> Any:
        """A preview (``move``, ``words``, ``bingo``, ``score``, ``reason``) or why none."""
        ...


@dataclass(frozen=True, slots=True)
class BoardPart:
    """MOJO's own part of a page: the viewer's rack as (tile, points) (none for a watcher). The
    board itself is every page's (the snapshot's squares)."""

    rack: tuple[tuple[str, int], ...]
    player: bool


def help_lines() -> tuple[str, ...]:
    """How the game's lines that help a player begin (the squares' legend, the moves), as the game
    says them in the language spoken: its page and a replay show no such line."""
    return (
        opening("Squares: {squares}."),
        _("Moves: H8 across WORD, H8 down WORD (a blank in lower case), swap ABC, pass, resign."),
    )


def own_lines() -> tuple[str, ...]:
    """How the game's lines that its page shows in its own way begin: the help, and one's rack."""
    return (*help_lines(), opening("Your rack: {rack}"))


def in_replay_hides(line: str) -> bool:
    """Whether a replay leaves ``line`` of the public table out (the help)."""
    return plain(line).startswith(help_lines())


def tiles_of(body: Mapping[str, Any]) -> list[tuple[int, int, str]]:
    """Placed tiles from a request: ``[[row, column, tile], …]`` (a blank's tile in lower case,
    ``?`` an unplaced blank); anything else is :class:`BadRequest`."""
    raw = body.get("tiles")
    if raw is None:
        return []
    if not isinstance(raw, list) or len(raw) > MAX_TILES:
        raise BadRequest(_("Tiles are a short list of [row, column, letter]."))
    tiles = []
    for item in raw:
        if (
            not isinstance(item, list)
            or len(item) != 3
            or not all(
                isinstance(n, int) and not isinstance(n, bool) and 0 <= n < MAX_SQUARE for n in item[:2]
            )
            or not isinstance(item[2], str)
            or len(item[2]) != 1
            or not (item[2].isalpha() or item[2] == "?")
        ):
            raise BadRequest(_("Each tile is [row, column, letter]."))
        tiles.append((item[0], item[1], item[2]))
    return tiles


def said(move: str, words: Sequence[tuple[str, int]], bingo: int, score: int) -> str:
    """A legal move's preview as one line: "H8 across: CAT 5, DOG 6 = 11 points."."""
    listed = ", ".join(_("{word} {points}", word=word, points=number(points)) for word, points in words)
    points = _n("{count} point", "{count} points", score)
    if bingo:
        return _(
            "{move}: {words}, +{bonus} for using every tile = {points}.",
            move=move,
            words=listed,
            bonus=number(bingo),
            points=points,
        )
    return _("{move}: {words} = {points}.", move=move, words=listed, points=points)


class BoardView:
    """MOJO's page."""

    game = "board"
    label = N_("Open the board")

    def part(self, engine: BoardEngine, snapshot: Snapshot, seat: str | None) -> BoardPart:
        """``seat``'s own rack (from ``rack_of(seat)``; none for a watcher)."""
        return BoardPart(() if seat is None else engine.rack_of(seat), seat is not None)

    def hides(self, line: str) -> bool:
        """The page shows the squares' legend, the moves and the rack itself."""
        return line.startswith(own_lines())

    def preview(self, engine: BoardEngine, seat: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """What the placed tiles would make (the move, its words and score), or why not, by the
        engine's own preview."""
        found = engine.preview(seat, tiles_of(body))
        if isinstance(found, str):
            return {"ok": False, "reason": found}
        if found.reason:
            return {"ok": False, "move": found.move, "reason": found.reason}
        return {
            "ok": True,
            "move": found.move,
            "words": [[word, score] for word, score in found.words],
            "bingo": found.bingo,
            "score": found.score,
            "said": said(found.move, found.words, found.bingo, found.score),
        }

    def words(self, engine: BoardEngine, seat: str, body: Mapping[str, Any]) -> tuple[str, ...]:
        """The typed move: ``H8 across QUIz`` (the placed tiles', as the preview writes it),
        ``swap Q?``, ``pass`` or ``resign``."""
        action = body.get("action")
        if action in PLAIN_MOVES:
            return (str(action),)
        if action == "place":
            found = engine.preview(seat, tiles_of(body))
            if isinstance(found, str):
                raise Refused(found)  # (no move can be written from these tiles)
            return tuple(found.move.split())
        if action == "swap":
            letters = "".join("?" if tile == "?" else tile.upper() for _row, _col, tile in tiles_of(body))
            if not letters:
                raise Refused(_("Choose the tiles to swap first."))
            return ("swap", letters)
        raise BadRequest(_("That's not a move: place, pass, swap or resign."))
