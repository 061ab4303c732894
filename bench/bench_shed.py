"""Shed benchmarks: checking a move, a computer player's turn, the word index, many games at once.

Prints JSON. Budgets:

* a move (parse, rearrangement, word judge, apply; valid and refused moves mixed): p99 ≤ 5 ms;
* a computer player's whole turn (hard, the word index already built): p99 ≤ 250 ms;
* building the anagram word index for the tournament dictionary, once per rule set: ≤ 3 s;
* 1,000 simultaneous games through the manager with a fake outbox, people's moves:
  p99 decision latency (engine, log append, delivery) ≤ 10 ms; memory per game reported.

Run: ``.venv/bin/python bench/bench_shed.py [--games N] [--moves M]``
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import statistics
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, Player
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from bot.sessions import session as session_module
from games.common.protocol import Action, Seat, Setup
from games.lexicon import load
from games.shed import GAME
from games.shed import bots as bots_module
from games.shed.bots import plan_turn, word_index
from games.shed.engine import ShedGame
from tests.doubles import FakeOutbox, MemoryLog

MOVE_BUDGET_P99_MS = 5.0
BOT_BUDGET_P99_MS = 250.0
INDEX_BUDGET_S = 3.0
DECISION_BUDGET_P99_MS = 10.0

JUNK = ["xyzzy", "SOCK+H -> SHOCK", "#1-A+S -> SEA #1", "skip 2", "trade E", "CAT; DOG", "qqq", "#1+Z -> "]


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _game(seed: int, level: str | None = None) -> ShedGame:
    seats = [Seat("a", "Ann", level), Seat("b", "Bob", level), Seat("c", "Cy", level)]
    game = ShedGame(Setup({"cards": "group"}, seats, seed))
    game.apply(Action("begin", 0.0))
    return game


def bench_index() -> dict[str, Any]:
    """The anagram index for the default rules (tournament, default bans)."""
    load("tournament").prepare()
    bots_module._cache.clear()
    game = _game(0)
    start = time.perf_counter()
    index = word_index(game)
    seconds = time.perf_counter() - start
    # memory on a second build (tracemalloc would slow the timed one down)
    bots_module._cache.clear()
    gc.collect()
    tracemalloc.start()
    word_index(game)
    size = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return {
        "signatures": len(index),
        "build_seconds": round(seconds, 2),
        "memory_mib": round(size / 2**20, 1),
        "budget_seconds": INDEX_BUDGET_S,
        "within_budget": seconds <= INDEX_BUDGET_S,
    }


def bench_moves(moves: int) -> dict[str, Any]:
    """People's moves: a planner's real move or a junk line, on games in progress."""
    rng = random.Random(4)
    game = _game(1)
    samples: list[float] = []
    cpu: list[float] = []  # process CPU time: what the move costs, without the machine's other load
    bot_samples: dict[str, list[float]] = {"easy": [], "normal": [], "hard": []}
    accepted = 0
    now = 0.0
    gc.collect()
    gc.disable()  # a collection pause is the runtime's, not the referee's (collected between games)
    for n in range(moves):
        if game.finished:
            gc.collect()
            game = _game(n)
            now = 0.0
        now += 1.0
        seat = game.current or "a"
        level = ("easy", "normal", "hard")[n % 3]
        if rng.random() < 0.7:
            start = time.perf_counter()
            text = plan_turn(game, seat, level, rng)
            bot_samples[level].append((time.perf_counter() - start) * 1000)
        else:
            text = rng.choice(JUNK)
        start, start_cpu = time.perf_counter(), time.process_time()
        notices = game.apply(Action("say", now, seat=seat, text=text))
        samples.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
        if any(x.kind == "accepted" for x in notices):
            accepted += 1
        else:
            game.apply(Action("say", now, seat=seat, text="draw"))
    gc.enable()
    hard = bot_samples["hard"]
    return {
        "move_check": {
            "moves": len(samples),
            "accepted": accepted,
            "p50_ms": round(statistics.median(samples), 3),
            "p99_ms": round(percentile(samples, 0.99), 3),
            "max_ms": round(max(samples), 3),
            "cpu_p50_ms": round(statistics.median(cpu), 3),
            "cpu_p99_ms": round(percentile(cpu, 0.99), 3),
            "budget_p99_ms": MOVE_BUDGET_P99_MS,
            "within_budget": percentile(samples, 0.99) <= MOVE_BUDGET_P99_MS,
        },
        "computer_turn": {
            **{f"{level}_p50_ms": round(statistics.median(s), 2) for level, s in bot_samples.items() if s},
            "hard_p99_ms": round(percentile(hard, 0.99), 2),
            "budget_hard_p99_ms": BOT_BUDGET_P99_MS,
            "within_budget": percentile(hard, 0.99) <= BOT_BUDGET_P99_MS,
        },
    }


async def bench_games(games: int, rounds: int) -> dict[str, Any]:
    clock = FakeClock()
    manager = GameManager(
        Registry([GAME]), FakeOutbox(), MemoryLog(), clock, lobby_timeout=3600, rng=random.Random(1)
    )
    chats = [ChatKey("bench", "w", f"c{i}") for i in range(games)]
    hosts = [Player("bench", f"h{i}", "Host") for i in range(games)]
    guests = [Player("bench", f"g{i}", "Guest") for i in range(games)]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for chat, host, guest in zip(chats, hosts, guests, strict=True):
        await manager.handle(Command("start", ("shed",), chat, host))
        await manager.handle(Command("join", (), chat, guest))
        await manager.handle(Command("go", (), chat, host))
    gc.collect()
    per_game = (tracemalloc.get_traced_memory()[0] - before) / games
    tracemalloc.stop()
    decisions: list[float] = []
    original = session_module.Session._apply

    async def timed(self: session_module.Session, action: Any) -> Any:
        start = time.perf_counter_ns()
        out = await original(self, action)
        if action.kind == "say":
            decisions.append((time.perf_counter_ns() - start) / 1e6)
        return out

    session_module.Session._apply = timed  # type: ignore[method-assign]
    rng = random.Random(9)
    wall = time.perf_counter()
    # moves are planned before the clock starts, one per game per round, then sent
    for _ in range(rounds):
        planned: list[tuple[int, Player, str]] = []
        for i, chat in enumerate(chats):
            session = manager.sessions.get(chat)
            if session is None:
                continue
            engine = session.engine
            assert isinstance(engine, ShedGame)
            person = hosts[i] if engine.current == hosts[i].seat_id else guests[i]
            text = (
                plan_turn(engine, person.seat_id, "normal", rng) if rng.random() < 0.8 else rng.choice(JUNK)
            )
            planned.append((i, person, text))
        gc.collect()
        gc.disable()  # as above: collections run between rounds of moves
        for i, person, text in planned:
            await manager.handle(Command("play", tuple(text.split()), chats[i], person))
        gc.enable()
        await clock.advance(1.0)
    wall = time.perf_counter() - wall
    session_module.Session._apply = original  # type: ignore[method-assign]
    await manager.shutdown()
    p99 = percentile(decisions, 0.99)
    return {
        "games": games,
        "moves": len(decisions),
        "decision_p50_ms": round(statistics.median(decisions), 3),
        "decision_p99_ms": round(p99, 3),
        "decision_max_ms": round(max(decisions), 3),
        "memory_per_game_kib": round(per_game / 1024, 1),
        "budget_p99_ms": DECISION_BUDGET_P99_MS,
        "within_budget": p99 <= DECISION_BUDGET_P99_MS,
        "errors": len(manager.errors),
        "wall_seconds_incl_planning": round(wall, 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=5, help="moves per game in the many-games run")
    parser.add_argument("--moves", type=int, default=600)
    args = parser.parse_args()
    result = {
        "benchmark": "shed",
        "word_index": bench_index(),
        **bench_moves(args.moves),
        "simultaneous_games": asyncio.run(bench_games(args.games, args.rounds)),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
