"""What the platform runtime's inbound pipeline costs per event, next to the manager alone.

Every platform's events go through :meth:`bot.inbound.runtime.Runtime.ingest` (the steps of
bot/inbound/steps.py: the chat's line, once-only, fair share, recovery, rights, chatter) before
:meth:`GameManager.handle <bot.hosting.manager.GameManager.handle>`. This feeds the same messages
(answers and chatter, in a running toy game) to ``manager.handle`` directly and through
``runtime.ingest``, in alternating rounds, and prints JSON: p50 and p99 per event for each,
and the ratio of the medians. No budget is asserted (figures depend on the machine).

Run: ``.venv/bin/python bench/bench_ingest.py [--events N] [--rounds R]``
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
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, Inbound, MessageRef, Player, Text
from bot.core.platform import Capabilities
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from bot.inbound.runtime import Runtime
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox, MemoryLog


class BenchPlatform:
    name = "bench"
    capabilities = Capabilities(ephemeral=True, threads=False, buttons=True, timestamp_precision=0.001)
    codec = None

    def may_adopt(self, chat: ChatKey) -> bool:
        return True

    async def is_admin(
        self, player: Player, chat: ChatKey, *, interaction: object | None = None, fresh: bool = False
    ) -> bool:
        return False


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def one_round(
    events: int, through: Callable[[GameManager, Runtime], Callable[[Inbound], Awaitable[bool]]]
) -> list[float]:
    clock = FakeClock()
    manager = GameManager(
        Registry([TOY]), FakeOutbox(), MemoryLog(), clock, lobby_timeout=3600, rng=random.Random(1)
    )
    runtime = Runtime(BenchPlatform(), manager)
    chat = ChatKey("bench", "w", "c")
    host = Player("bench", "host", "Host")
    await manager.handle(Command("start", ("toy", "target=10"), chat, host))
    await manager.handle(Command("go", (), chat, host))
    send = through(manager, runtime)
    texts = ["word", "call me at +1 555 0100"]  # an answer, and chatter
    batch = [Text(chat, host, texts[i % 2], clock.now(), MessageRef(chat, f"m{i}")) for i in range(events)]
    samples: list[float] = []
    gc.disable()
    for event in batch:
        start = time.perf_counter_ns()
        await send(event)
        samples.append((time.perf_counter_ns() - start) / 1000)
    gc.enable()
    await manager.shutdown()
    return samples


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    cases: dict[str, Callable[[GameManager, Runtime], Callable[[Inbound], Awaitable[bool]]]] = {
        "manager_handle": lambda manager, runtime: manager.handle,
        "runtime_ingest": lambda manager, runtime: runtime.ingest,
    }
    samples: dict[str, list[float]] = {name: [] for name in cases}
    for _ in range(args.rounds):  # alternating, so a busy moment of the machine hits both
        for name, through in cases.items():
            samples[name] += await one_round(args.events, through)
    report: dict[str, object] = {"benchmark": "runtime_ingest", "events": args.events, "rounds": args.rounds}
    for name, values in samples.items():
        report[name] = {
            "p50_us": round(statistics.median(values), 2),
            "p99_us": round(percentile(values, 0.99), 2),
        }
    report["ratio_p50"] = round(
        statistics.median(samples["runtime_ingest"]) / statistics.median(samples["manager_handle"]), 2
    )
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
