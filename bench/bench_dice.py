"""Letter-dice benchmarks: the solver's proofs, a computer player's move, a move applied, a replay.

Prints JSON. Budgets:

* proving whether any word can be made from a roll (done on every roll, since a side that
  cannot make a word loses at once): p99 ≤ 10 ms;
* a computer player choosing its word (every word that fits, then its level's pick):
  p99 ≤ 100 ms;
* applying a move (fit, score, the next roll and its proof): p99 ≤ 15 ms;
* rebuilding a finished game from its action log (restart recovery): p99 ≤ 50 ms;
* building the allowed-word list once per process (tournament dictionary): ≤ 1.5 s.

Rolls come from real games between hard computer players with the tournament dictionary,
so the dice left and the words on the mat are those play produces.

Run: ``.venv/bin/python bench/bench_dice.py [--games N]``
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.common.protocol import Action, Seat, Setup
from games.dice.engine import BANS, DICTIONARY, LetterDice
from games.dice.solver import BOT_STEPS, any_word, scored
from games.dice.wordlist import allowed_words, game_words
from games.lexicon import load

PROOF_BUDGET_P99_MS = 10.0
BOT_BUDGET_P99_MS = 100.0
APPLY_BUDGET_P99_MS = 15.0
REPLAY_BUDGET_P99_MS = 50.0
WORDLIST_BUDGET_S = 1.5


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def figures(samples: list[float], cpu: list[float], budget: float) -> dict[str, Any]:
    """Wall-clock percentiles (the budget's measure) and CPU-time ones (this process only, so a
    busy shared machine shows as the gap between the two)."""
    p99 = percentile(samples, 0.99)
    return {
        "samples": len(samples),
        "p50_ms": round(statistics.median(samples), 3),
        "p99_ms": round(p99, 3),
        "max_ms": round(max(samples), 3),
        "cpu_p50_ms": round(statistics.median(cpu), 3),
        "cpu_p99_ms": round(percentile(cpu, 0.99), 3),
        "budget_p99_ms": budget,
        "within_budget": p99 <= budget,
    }


class Timer:
    """Collects wall-clock and CPU milliseconds of timed blocks."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []
        self._start = (0, 0)

    def __enter__(self) -> Timer:
        self._start = (time.perf_counter_ns(), time.process_time_ns())
        return self

    def __exit__(self, *exc: object) -> None:
        wall, cpu = self._start
        self.wall.append((time.perf_counter_ns() - wall) / 1e6)
        self.cpu.append((time.process_time_ns() - cpu) / 1e6)

    def figures(self, budget: float) -> dict[str, Any]:
        return figures(self.wall, self.cpu, budget)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    args = parser.parse_args()

    from games.common.words import WordRules

    lexicon = load(DICTIONARY).prepare()
    started, started_cpu = time.perf_counter(), time.process_time()
    wordlist = allowed_words(game_words(lexicon, WordRules(dictionary=DICTIONARY, bans=BANS)))
    build, build_cpu = time.perf_counter() - started, time.process_time() - started_cpu

    proofs, bots, applies, replays = Timer(), Timer(), Timer(), Timer()
    hopeless = 0
    seats = [Seat("bot:1", "Ada (bot)", "hard"), Seat("bot:2", "Basil (bot)", "hard")]
    for seed in range(args.games):
        setup = Setup({"strict": True}, seats, seed)
        engine = LetterDice(setup)
        log = [Action("begin", 1.0)]
        engine.apply(log[0])
        now = 1.0
        while not engine.finished:
            with proofs:
                found = any_word(wordlist, engine.rolled, engine.mat)
            hopeless += found is None
            at = engine.next_bot_time()
            assert at is not None
            now = max(now, at)
            with bots:
                (claim,) = engine.bot_claims(now)
            action = Action("say", now, seat=claim.seat, text=claim.text)
            with applies:
                engine.apply(action)
            log.append(action)
        with replays:
            replay = LetterDice(setup)
            for action in log:
                replay.apply(action)
        assert replay.result() == engine.result()

    # the worst first roll a player can face: ten letters and both blanks
    worst = LetterDice(Setup({}, seats, 0))
    worst.apply(Action("begin", 1.0))
    from games.dice.dice import face

    worst.rolled = [(n, face(ch)) for n, ch in enumerate("??tsernlhz")]
    worst_timer = Timer()
    with worst_timer:
        count = len(scored(wordlist, worst.rolled, (), BOT_STEPS))

    result = {
        "benchmark": "dice",
        "games": args.games,
        "wordlist": {
            "words": len(wordlist),
            "build_s": round(build, 3),
            "build_cpu_s": round(build_cpu, 3),
            "budget_s": WORDLIST_BUDGET_S,
            "within_budget": build <= WORDLIST_BUDGET_S,
        },
        "proof_any_word": {**proofs.figures(PROOF_BUDGET_P99_MS), "rolls_without_a_word": hopeless},
        "bot_move": bots.figures(BOT_BUDGET_P99_MS),
        "apply_move": applies.figures(APPLY_BUDGET_P99_MS),
        "replay_game": replays.figures(REPLAY_BUDGET_P99_MS),
        "two_blank_first_roll": {
            "words_found": count,
            "ms": round(worst_timer.wall[0], 1),
            "cpu_ms": round(worst_timer.cpu[0], 1),
            "step_cap": BOT_STEPS,
        },
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
