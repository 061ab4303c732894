"""Tournaments: pairing a big Swiss round and the standings of a long tournament.

Prints JSON. Budgets (docs/PERFORMANCE.md, "Tournaments"), "well under a second" each:

* ``swiss_round``: round 6 of a 1,000-player Swiss (five rounds already played with random
  results, draws included, seeded), median ≤ 1,000 ms (p95 reported);
* ``standings``: a 200-player Swiss after 9 rounds, median ≤ 1,000 ms.

Both are pure computations (no I/O): wall clock and process CPU time are reported; the budget
is held against the wall-clock median. Exits 1 when a budget is missed.

Run: ``.venv/bin/python bench/bench_tournaments.py [--repeats N] [--players N] [--quick]``
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.features.tournaments.pairing import swiss_round
from bot.features.tournaments.standings import crosstable, standings
from storage.tournament_records import PLAYED, Entry, NewGame, SeatResult, TournamentGame

PAIRING_BUDGET_MS = 1000.0
STANDINGS_BUDGET_MS = 1000.0


def played(new: NewGame, round_no: int, rng: random.Random) -> TournamentGame:
    """``new`` with a random result: 45 % either side's win, 10 % a draw."""
    if new.done:
        return TournamentGame("b", round_no, new.board, f"g{round_no}-{new.board}", new.done, "done", new.how)
    first, second = new.seats
    roll = rng.random()
    won = 1.0 if roll < 0.45 else 0.5 if roll < 0.55 else 0.0
    seats = (
        SeatResult(first, rng.randint(0, 40), 1 if won >= 0.5 else 2, won),
        SeatResult(second, rng.randint(0, 40), 1 if won <= 0.5 else 2, 1.0 - won),
    )
    return TournamentGame("b", round_no, new.board, f"g{round_no}-{new.board}", seats, "done", PLAYED)


def tournament(players: int, rounds: int, seed: int) -> tuple[list[Entry], list[TournamentGame]]:
    """``players`` entries (random ratings) and ``rounds`` paired and played rounds."""
    rng = random.Random(seed)
    entries = [Entry(f"p{i:04}", f"Player {i}", rng.uniform(800, 2200), 0.0) for i in range(players)]
    games: list[TournamentGame] = []
    for round_no in range(1, rounds + 1):
        games += [played(new, round_no, rng) for new in swiss_round(entries, games, round_no)]
    return entries, games


def timed(repeats: int, run: Any) -> dict[str, Any]:
    """Median and p95 of ``repeats`` runs, wall clock and CPU, in ms."""
    wall: list[float] = []
    cpu: list[float] = []
    for _ in range(repeats):
        w, c = time.perf_counter(), time.process_time()
        run()
        wall.append((time.perf_counter() - w) * 1000)
        cpu.append((time.process_time() - c) * 1000)
    ordered = sorted(wall)
    return {
        "repeats": repeats,
        "median_ms": round(statistics.median(wall), 1),
        "p95_ms": round(ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))], 1),
        "cpu_median_ms": round(statistics.median(cpu), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=1000, help="the Swiss field to pair")
    parser.add_argument("--repeats", type=int, default=15)
    parser.add_argument("--quick", action="store_true", help="3 repeats (a smoke run)")
    args = parser.parse_args()
    repeats = 3 if args.quick else args.repeats

    started = time.perf_counter()
    entries, games = tournament(args.players, 5, seed=6)
    setup_s = time.perf_counter() - started
    pairing = timed(repeats, lambda: swiss_round(entries, games, 6))
    pairing.update(players=args.players, played_rounds=5, setup_five_rounds_s=round(setup_s, 1))
    pairing["budget_median_ms"] = PAIRING_BUDGET_MS
    pairing["within_budget"] = pairing["median_ms"] <= PAIRING_BUDGET_MS

    small, small_games = tournament(200, 9, seed=9)
    table = timed(repeats, lambda: standings(small, small_games))
    table.update(players=200, rounds=9)
    table["budget_median_ms"] = STANDINGS_BUDGET_MS
    table["within_budget"] = table["median_ms"] <= STANDINGS_BUDGET_MS
    table["crosstable"] = timed(repeats, lambda: crosstable(small, small_games))

    report = {"swiss_round": pairing, "standings": table}
    print(json.dumps(report, indent=2))
    if not (pairing["within_budget"] and table["within_budget"]):
        sys.exit(1)


if __name__ == "__main__":
    main()
