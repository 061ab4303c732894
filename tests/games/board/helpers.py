"""Shared helpers for the board game tests."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.board.engine import BoardGame
from games.board.layout import Layout
from games.board.movegen import Candidate, generate
from games.common.options import OptionValue
from games.common.protocol import Action, Notice, Seat, Setup

ANN = Seat("a", "Ann")
BOB = Seat("b", "Bob")


def new_game(
    options: Mapping[str, OptionValue] | None = None,
    seats: tuple[Seat, ...] = (ANN, BOB),
    seed: int = 1,
    layout: Layout | None = None,
) -> BoardGame:
    """A started game; the player to move is ``game.current``."""
    game = BoardGame(Setup(dict(options or {}), seats, seed), layout=layout)
    game.apply(Action("begin", 0.0))
    return game


def say(game: BoardGame, text: str, seat: str | None = None, now: float = 1.0) -> list[Notice]:
    """A move by ``seat`` (the player to move by default)."""
    return game.apply(Action("say", now, seat=seat or game.current, text=text))


def give(game: BoardGame, seat: str, tiles: str) -> None:
    """Set a rack, keeping the tile count whole by trading with the bag."""
    rack = game.racks[seat]
    game.bag.extend(rack)
    rack.clear()
    for tile in tiles:
        game.bag.remove(tile)
        rack.append(tile)


def kinds(notes: list[Notice]) -> list[str]:
    return [n.kind for n in notes]


def reason(notes: list[Notice]) -> str:
    return next(n.text for n in notes if n.kind == "rejected")


def plays(*args: Any, **kwargs: Any) -> list[Candidate]:
    """What :func:`generate` finds, with named fields."""
    return [Candidate(*found) for found in generate(*args, **kwargs)]
