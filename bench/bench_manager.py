"""Dispatch cost per inbound event, with 1 session and with 10,000 sessions: typed text
(``active``: the running game's chat; ``idle``: any chat) and a command (``command``: ``rules``
in the running game's chat, through the command handlers' table, answered privately).

Prints JSON. Budget: p99 under 50 µs per event, and the cost must
not grow with the number of sessions (dispatch is one dict lookup).

Run: ``.venv/bin/python bench/bench_manager.py``
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, MessageRef, Player, Text
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox, MemoryLog

BUDGET_P99_US = 50.0
EVENTS = 20_000
#: Commands per case (each renders a private rules view, so fewer).
COMMANDS = 5_000


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def measure(sessions: int) -> dict[str, float]:
    clock = FakeClock()
    manager = GameManager(
        Registry([TOY]), FakeOutbox(), MemoryLog(), clock, lobby_timeout=3600, rng=random.Random(1)
    )
    host = Player("bench", "host", "Host")
    chats = [ChatKey("bench", "w", f"c{i}") for i in range(sessions)]
    for chat in chats:
        await manager.handle(Command("start", ("toy",), chat, host))
    active = chats[0]
    await manager.handle(Command("go", (), active, host))
    rng = random.Random(2)
    results: dict[str, float] = {"sessions": sessions}
    for label, pick in (("active", lambda: active), ("idle", lambda: rng.choice(chats))):
        events = [Text(pick(), host, "word", clock.now(), MessageRef(active, f"m{i}")) for i in range(EVENTS)]
        samples: list[float] = []
        gc.disable()
        for event in events:
            start = time.perf_counter_ns()
            await manager.handle(event)
            samples.append((time.perf_counter_ns() - start) / 1000)
        gc.enable()
        results[f"{label}_p50_us"] = round(statistics.median(samples), 2)
        results[f"{label}_p99_us"] = round(percentile(samples, 0.99), 2)
    outbox = manager.outbox
    assert isinstance(outbox, FakeOutbox)
    commands = [Command("rules", (), active, host) for _ in range(COMMANDS)]
    samples = []
    gc.disable()
    for command in commands:
        start = time.perf_counter_ns()
        await manager.handle(command)
        samples.append((time.perf_counter_ns() - start) / 1000)
        outbox.sent.clear()
    gc.enable()
    results["command_p50_us"] = round(statistics.median(samples), 2)
    results["command_p99_us"] = round(percentile(samples, 0.99), 2)
    await manager.shutdown()
    return results


async def main() -> None:
    small = await measure(1)
    large = await measure(10_000)
    p99 = max(large["active_p99_us"], large["idle_p99_us"])
    report = {
        "benchmark": "manager_dispatch",
        "events_per_case": EVENTS,
        "one_session": small,
        "ten_thousand_sessions": large,
        "growth_active_p50": round(large["active_p50_us"] / small["active_p50_us"], 2),
        "budget_p99_us": BUDGET_P99_US,
        "within_budget": p99 <= BUDGET_P99_US,
    }
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
