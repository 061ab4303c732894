"""What speaking through the catalogue costs: a race table rendered and a notice made.

Prints JSON, one line per language spoken. For each: ``table`` is one race table (the engine's
public snapshot, the neutral view and its Discord rendering, picture left out), ``notice`` one
accepted answer (a claim applied: the engine's notices, the take's sentence, the new table).
Run it side by side with a checkout from before the catalogues (bench/side_by_side.py); that
checkout has no ``games.common.speech`` and runs English only.

Run: ``.venv/bin/python bench/bench_speech.py [--rounds N] [--languages en,de,fr]``
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import random
import statistics
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from adapters.discord.render import render
from bot.core import views
from games.common.protocol import Action, Claim, Seat, Setup
from games.lexicon import load
from games.race import GAME

try:
    from games.common.speech import speaking
except ImportError:  # a checkout from before the catalogues speaks English only
    speaking = None


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


@contextlib.contextmanager
def spoken(code: str) -> Iterator[None]:
    if speaking is None:
        yield
        return
    with speaking(code):
        yield


def a_game(seed: int) -> Any:
    seats = [Seat("p:1", "Ann"), Seat("p:2", "Bo"), Seat("p:3", "Cy")]
    engine = GAME.create(Setup(options={"cards": 15}, seats=seats, seed=seed))
    engine.apply(Action("begin", now=0.0))
    engine.apply(Action("tick", now=10.0))
    return engine


def bench(code: str, rounds: int) -> dict[str, Any]:
    load("casual").prepare()
    tables: list[float] = []
    notices: list[float] = []
    with spoken(code):
        engine = a_game(1)
        gc.disable()
        for _round in range(rounds):
            start = time.perf_counter_ns()
            snapshot = engine.snapshot()
            render(views.table(snapshot, "race", realtime=True), with_picture=False)
            tables.append((time.perf_counter_ns() - start) / 1000)
        gc.enable()
        seed = 1
        now = 20.0
        while len(notices) < rounds and seed < rounds * 20:
            engine = a_game(seed)
            seed += 1
            letters = "".join(card.letter.lower() for card in engine.snapshot().cards)
            word = next(
                (
                    w
                    for w in ("tea", "eat", "tan", "net", "rat", "art", "sat", "tin", "lot", "den")
                    if sum(1 for ch in set(w) if ch in letters) >= 2
                ),
                None,
            )
            if word is None:
                continue
            gc.disable()
            start = time.perf_counter_ns()
            said = engine.apply(Action("claims", now=now, claims=(Claim("p:1", word, now - 0.01),)))
            render(views.table(engine.snapshot(), "race", realtime=True), with_picture=False)
            for notice in said:
                views.message(notice.text)
            notices.append((time.perf_counter_ns() - start) / 1000)
            gc.enable()
    return {
        "scenario": code,
        "table_p50_us": round(statistics.median(tables), 1),
        "table_p99_us": round(percentile(tables, 0.99), 1),
        "notice_p50_us": round(statistics.median(notices), 1),
        "notice_p99_us": round(percentile(notices, 0.99), 1),
        "notices": len(notices),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--languages", default="en,nl,fr,de,es")
    args = parser.parse_args()
    random.seed(1)
    for code in args.languages.split(","):
        print(json.dumps(bench(code, args.rounds)), flush=True)


if __name__ == "__main__":
    main()
