"""What a table picture costs: CPU per picture, as a race and a MOJO game ask for them.

Prints JSON. ``race``: the table pictures of a lively race, one per table state (4–8 face-up
cards from a shuffled deck of every language, each state one or two cards on from the last,
as answers take cards and the dealer turns new ones; a fifth of the states are asked for twice,
as a table re-posted or shown on the web is). ``board``: MOJO boards filling up, three to five
tiles a move, each state drawn once. ``first``: the first picture a process draws (the parts
are drawn then). Times are the thread's CPU (``time.thread_time``), in ms: p50, p99, max.

Run it side by side with a checkout from before pictures were composed from parts
(bench/side_by_side.py), whose pictures are drawn whole and squeezed by PNG's ``optimize``::

    git worktree add --detach /tmp/before f4614c3 && cp bench/bench_pictures.py /tmp/before/bench/
    .venv/bin/python bench/side_by_side.py --before /tmp/before --rounds 5 bench/bench_pictures.py

Budget: a race's table picture p50 ≤ 2 ms, p99 ≤ 5 ms.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adapters.pictures import render_board, render_cards
from games.common.languages import language as language_of
from games.common.protocol import CardFace, Cell
from games.race.cards import full_deck

LANGUAGES = ("en", "nl", "fr", "de", "es")
PREMIUMS = ("DL", "TL", "DW", "TW")


def summary(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": round(statistics.median(ordered), 3),
        "p99": round(ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))], 3),
        "max": round(ordered[-1], 3),
        "n": len(ordered),
    }


def cpu_ms(draw: Callable[[], bytes]) -> float:
    start = time.thread_time()
    draw()
    return (time.thread_time() - start) * 1000


def shuffled_deck(rng: random.Random, code: str) -> list[CardFace]:
    """A race's full deck in the language ``code``, as faces, shuffled."""
    deck = [CardFace(card.label, card.colour, card.points) for card in full_deck(language_of(code))]
    rng.shuffle(deck)
    return deck


def race_tables(rng: random.Random, states: int) -> list[list[CardFace]]:
    """Table states of races in every language, each one or two cards on from the last."""
    tables: list[list[CardFace]] = []
    per_language = states // len(LANGUAGES)
    for code in LANGUAGES:
        deck = shuffled_deck(rng, code)
        shown = [deck.pop() for _ in range(rng.randint(4, 8))]
        for _ in range(per_language):
            for _change in range(rng.randint(1, 2)):
                if len(deck) < 2:
                    deck = shuffled_deck(rng, code)
                shown[rng.randrange(len(shown))] = deck.pop()
            tables.append(list(shown))
    return tables


def boards(rng: random.Random, games: int) -> list[list[list[Cell]]]:
    """MOJO-like 16×16 boards filling up, three to five tiles a move, 20 moves a game."""
    states: list[list[list[Cell]]] = []
    for _ in range(games):
        premiums = {(r, c): rng.choice(PREMIUMS) for r in range(16) for c in range(16) if rng.random() < 0.2}
        premiums[(7, 7)] = "star"
        tiles: dict[tuple[int, int], Cell] = {}
        for _move in range(20):
            recent = set()
            for _tile in range(rng.randint(3, 5)):
                square = (rng.randrange(16), rng.randrange(16))
                letter = rng.choice("ABCDEFGHIJKLMNOPRSTUVWXYZ")
                tiles[square] = Cell(letter=letter, points=rng.randint(1, 10), recent=True)
                recent.add(square)
            for square, tile in list(tiles.items()):
                if square not in recent and tile.recent:
                    tiles[square] = Cell(letter=tile.letter, points=tile.points)
            states.append(
                [
                    [tiles.get((r, c), Cell(premium=premiums.get((r, c), ""))) for c in range(16)]
                    for r in range(16)
                ]
            )
    return states


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--states", type=int, default=1000, help="race table states (default 1000)")
    parser.add_argument("--boards", type=int, default=3, help="MOJO games of 20 moves (default 3)")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    tables = race_tables(rng, args.states)
    first = cpu_ms(lambda: render_cards(tables[0]))
    race: list[float] = []
    for table in tables[1:]:
        race.append(cpu_ms(lambda table=table: render_cards(table)))  # type: ignore[misc]
        if rng.random() < 0.2:  # the same table asked for again (re-posted, a web page)
            race.append(cpu_ms(lambda table=table: render_cards(table)))  # type: ignore[misc]
    board: list[float] = [
        cpu_ms(lambda state=state: render_board(state))  # type: ignore[misc]
        for state in boards(rng, args.boards)
    ]
    size = len(render_cards(tables[-1]))
    result: dict[str, Any] = {
        "first_ms": round(first, 3),
        "race_ms": summary(race),
        "board_ms": summary(board),
        "race_png_bytes": size,
        "budget": {"race_p50_ms": 2.0, "race_p99_ms": 5.0},
    }
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
