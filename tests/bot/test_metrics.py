"""/metrics after a short game: every series moji exposes moves (fake clock, real HTTP server)."""

from __future__ import annotations

import random
import time
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot.core import metrics
from bot.core.clock import FakeClock
from bot.core.events import Button, ChatKey
from bot.core.registry import Registry
from bot.core.views import GO, JOIN
from bot.delivery.delivery import Delivery
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.process.app import Services
from bot.process.health import HealthServer
from bot.sessions.gamelog import StoreGameLog
from games.common.protocol import Action
from storage import StorageError, open_store
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_delivery import Recorder
from tests.bot.test_manager import cmd, letter, start_two, text
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox, MemoryLog

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


class FlakyLog(MemoryLog):
    """A game log whose next ``fail`` appends are refused (the database was busy)."""

    fail = 0

    async def append(self, game_id: str, seq: int, action: Action) -> None:
        if self.fail:
            self.fail -= 1
            raise StorageError("database is locked")
        await super().append(game_id, seq, action)


async def scrape(server: HealthServer) -> Samples:
    """Every sample /metrics shows, by name and labels."""
    await server.start()
    try:
        url = f"http://127.0.0.1:{server.port}/metrics"
        async with aiohttp.ClientSession() as http, http.get(url) as resp:
            assert resp.status == 200
            body = await resp.text()
    finally:
        await server.stop()
    samples: Samples = {}
    for family in text_string_to_metric_families(body):
        assert family.documentation, f"{family.name} has no HELP text"
        assert family.name.startswith("moji_")
        for sample in family.samples:
            samples[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return samples


async def settle(clock: FakeClock, seconds: float) -> None:
    """Let the fake clock run in small steps (the delivery layer paces calls on it)."""
    for _ in range(int(seconds / 0.25)):
        await clock.advance(0.25)
    await clock.settle()


async def test_every_series_moves_after_a_short_game(fresh_metrics: metrics.Metrics) -> None:
    server = HealthServer("127.0.0.1", 0, metrics=fresh_metrics)
    before = await scrape(server)
    assert before[("moji_storage_retries_total", ())] == 0
    assert before[("moji_recoveries_total", (("outcome", "resumed"),))] == 0

    clock = FakeClock(1000.0)
    transport = Recorder(clock)
    transport.limited_once = True  # the platform answers the first reaction with a 429
    delivery = Delivery(transport, clock)
    log = FlakyLog()
    manager = GameManager(Registry([TOY]), delivery, log, clock, settle=0.15, rng=random.Random(7))
    manager.closed_listeners.append(delivery.closed)
    metrics.watch(manager)
    try:
        await manager.handle(cmd("start toy", chat=ChatKey("test", "w1", "lobby")))
        await start_two(manager, "target=1")
        await settle(clock, 1.0)
        during = await scrape(server)
        assert during[("moji_games_running", (("game", "toy"),))] == 1
        assert during[("moji_lobbies_open", (("game", "toy"),))] == 1

        wanted = letter(manager)
        wrong = next(c for c in "zqxjkvwy" if c != wanted) * 3
        log.fail = 1  # the claims' log write is refused once, then goes through
        await manager.handle(text(wrong, clock.now(), BOB, "b1"))
        await manager.handle(text(wanted + "at", clock.now() + 0.01, ANN, "a1"))
        await settle(clock, 5.0)
        assert CHAT not in manager.sessions  # Ann won: the game is over
    finally:
        await manager.shutdown()
        await delivery.close()

    after = await scrape(server)
    assert after.get(("moji_games_running", (("game", "toy"),)), 0) == 0
    assert after[("moji_answers_judged_total", (("game", "toy"), ("verdict", "accepted")))] == 1
    assert after[("moji_answers_judged_total", (("game", "toy"), ("verdict", "refused")))] == 1
    assert after[("moji_storage_retries_total", ())] == 1
    for kind in ("post", "react"):
        assert after[("moji_platform_calls_total", (("kind", kind), ("platform", "test")))] >= 1
    assert after[("moji_platform_rate_limited_total", (("kind", "react"), ("platform", "test")))] == 1
    assert after[("moji_delivery_delay_seconds_count", (("platform", "test"),))] >= 1
    assert after[("moji_delivery_delay_seconds_bucket", (("le", "+Inf"), ("platform", "test")))] >= 1


async def test_recoveries_are_counted_by_outcome(tmp_path: Path, fresh_metrics: metrics.Metrics) -> None:
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    registry = Registry([TOY])
    svc = Services(registry, Workspace(store, registry), StoreGameLog(store), store)
    clock = FakeClock(time.time())
    try:
        first = GameManager(registry, FakeOutbox(), svc.game_log, clock, rng=random.Random(1))
        await first.handle(cmd("start toy"))
        await first.handle(Button(CHAT, BOB, JOIN))
        await first.handle(Button(CHAT, ANN, GO))
        await first.handle(cmd("start toy", chat=ChatKey("test", "w1", "lobby")))
        await first.shutdown()  # the process dies with a game running and a lobby open
        second = GameManager(registry, FakeOutbox(), svc.game_log, clock, rng=random.Random(2))
        recovery = await svc.recover(second, "test")
        await second.shutdown()
    finally:
        await store.close()
    samples = await scrape(HealthServer("127.0.0.1", 0, metrics=fresh_metrics))

    def count(outcome: str) -> float:
        return samples[("moji_recoveries_total", (("outcome", outcome),))]

    assert count("resumed") == len(recovery.resumed) and count("voided") == len(recovery.voided)
    assert count("resumed") + count("voided") == 1
    assert count("lobbies") == 1 and count("announced") == 0
