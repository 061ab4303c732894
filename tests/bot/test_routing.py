"""Two moji "processes" on one database: events reach the owner, dead owners' games are adopted.

Each process here is a real :class:`GameManager` with its own store connection, game log (its
own owner name) and :class:`Router`, on one SQLite file; the clock is a fake one they share.
A process "dies" by being shut down without a word (as kill -9 leaves it) and its leases are
moved into the past in the database (what the lease time would do).
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Button, ChatKey, Command, Player, PrivateText
from bot.core.registry import Registry
from bot.core.views import GO, JOIN
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.inbound.routing import POLL, Router
from bot.inbound.wiring import connect
from bot.sessions.gamelog import StoreGameLog, load_unfinished
from storage import open_store
from storage.sqlstore import SQLStore
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_manager import text
from tests.bot.toygame import TOY, ToyEngine
from tests.doubles import FakeOutbox

EVERY = 5.0


@dataclass
class Proc:
    """One moji process."""

    name: str
    store: SQLStore
    manager: GameManager
    outbox: FakeOutbox
    router: Router

    def said(self) -> list[str]:
        return [post.view.plain() for post in self.outbox.posts()]


@pytest.fixture
async def world(tmp_path: Path) -> AsyncIterator[tuple[FakeClock, list[Proc]]]:
    clock = FakeClock()
    procs: list[Proc] = []

    async def spawn(name: str) -> Proc:
        store = open_store(f"sqlite:///{tmp_path}/moji.db")
        await store.open()
        registry = Registry([TOY])
        outbox = FakeOutbox()
        manager = GameManager(
            registry,
            outbox,
            StoreGameLog(store, owner=name),
            clock,
            workspace=Workspace(store, registry),
            rng=random.Random(len(procs)),
            keep_alive=EVERY,
        )
        router = Router(manager, store, manager.game_log, "test", every=EVERY)  # type: ignore[arg-type]
        connect(manager, router)
        proc = Proc(name, store, manager, outbox, router)
        procs.append(proc)
        return proc

    for name in ("A", "B"):
        proc = await spawn(name)
        await proc.router.start()
    await until(clock, lambda: all(p.router.shared for p in procs))  # each has seen the other alive
    yield clock, procs
    for proc in procs:
        await proc.manager.shutdown()
        await proc.store.close()


async def until(clock: FakeClock, predicate: Callable[[], bool], most: float = 30.0) -> None:
    """Let time pass, a poll at a time (each process reads its inbox every POLL), until
    ``predicate`` holds. The database answers from its own thread, so after each step this
    waits (briefly, really) for its answers; it fails after ``most`` simulated seconds."""
    waited = 0.0
    while not predicate():
        if waited > most:
            raise AssertionError("condition not met in time")
        await clock.advance(POLL)
        waited += POLL
        for _ in range(200):
            await asyncio.sleep(0.002)
            if predicate():
                return


async def die(proc: Proc) -> None:
    """kill -9: nothing more from this process, and (time passing) its leases lapse."""
    await proc.manager.shutdown()
    await lapse(proc)


async def lapse(proc: Proc) -> None:
    """The process's leases lapse (it stood still: a long pause, a network split)."""
    async with proc.store._write() as tx:
        await tx.execute("UPDATE active_games SET lease_until = 0 WHERE owner = ?", (proc.name,))
        await tx.execute("UPDATE instances SET seen_until = 0 WHERE instance_id = ?", (proc.name,))


def engine(proc: Proc) -> ToyEngine:
    session = proc.manager.sessions[CHAT]
    assert isinstance(session.engine, ToyEngine)
    return session.engine


async def running_on_a(clock: FakeClock, a: Proc, b: Proc) -> None:
    """A opens a toy game; Bob's Join reaches B, which forwards it to A; Ann starts it on A."""
    await a.manager.handle(Command("start", ("toy",), CHAT, ANN))
    await b.manager.handle(Button(CHAT, BOB, JOIN))
    assert b.router.forwarded == 1 and CHAT not in b.manager.sessions
    await until(clock, lambda: bool(a.outbox.privates()))
    assert [p.user_id for p in a.manager.sessions[CHAT].players] == ["u1", "u2"], "Bob joined, on A"
    assert "joined" in a.outbox.privates()[-1].view.plain().lower()
    await a.manager.handle(Button(CHAT, ANN, GO))
    await clock.settle()


async def test_events_that_reach_another_process_are_handled_by_the_owner(
    world: tuple[FakeClock, list[Proc]],
) -> None:
    clock, (a, b) = world
    await running_on_a(clock, a, b)
    word = engine(a).letter * 3
    await b.manager.handle(text(word, clock.now(), BOB, mid="m-bob"))
    await b.manager.handle(text(word, clock.now(), BOB, mid="m-bob"))  # a redelivery, to B again
    await until(clock, lambda: engine(a).scores["test:u2"] == 1)
    await until(clock, lambda: a.router.received == 2)
    assert engine(a).scores["test:u2"] == 1, "judged once, by the owner"
    assert b.outbox.posts() == [] and b.outbox.reactions() == [], "B never speaks for A's game"
    assert await b.manager.game_log.adopt(a.manager.sessions[CHAT].game_id) is False  # type: ignore[attr-defined]
    # a start on B while A's game runs: refused, as on A
    await b.manager.handle(Command("start", ("toy",), CHAT, BOB))
    await until(clock, lambda: "already" in a.outbox.privates()[-1].view.plain())


async def test_chatter_that_reaches_another_process_is_dropped_there_never_forwarded(
    world: tuple[FakeClock, list[Proc]],
) -> None:
    from tests.storage.scan import every_text

    clock, (a, b) = world
    await running_on_a(clock, a, b)
    forwarded = b.router.forwarded
    chatter = "my salary is too low, call me at +1 555 0100"
    await b.manager.handle(text(chatter, clock.now(), BOB, mid="m-chat"))
    await b.manager.handle(text("x" * 39_000, clock.now(), BOB, mid="m-huge"))
    await b.manager.handle(PrivateText(CHAT, BOB, chatter, clock.now()))  # the toy takes lists
    assert b.router.forwarded == forwarded + 1, "only the private list went (emptied: it has no words)"
    word = engine(a).letter * 3
    await b.manager.handle(text(f"  {word} ", clock.now(), BOB, mid="m-word"))
    assert b.router.forwarded == forwarded + 2
    await until(clock, lambda: engine(a).scores["test:u2"] == 1)
    stored = await every_text(a.store)
    # (the phone number with its space: a stored time such as 1795733834.4213555 has "555" in it)
    assert "555 0100" not in stored and "salary" not in stored and "xxxx" not in stored
    inbox = [line for line in stored.splitlines() if line.startswith("inbox:")]
    assert any(f'"text":"{word}",' in line for line in inbox), inbox  # trimmed


async def test_a_dead_owners_game_is_adopted_by_the_next_event_and_the_old_owner_is_fenced(
    world: tuple[FakeClock, list[Proc]],
) -> None:
    clock, (a, b) = world
    await running_on_a(clock, a, b)
    game_id = a.manager.sessions[CHAT].game_id
    said = len(a.said())
    await lapse(a)  # A stands still (a long pause) past its lease
    await b.manager.handle(text("zz", clock.now(), BOB))  # B sees the owner is gone: adopts, handles
    await until(clock, lambda: any("carries on" in line for line in b.said()))
    assert b.manager.sessions[CHAT].game_id == game_id
    # A wakes up and judges an answer: its write is refused, so it drops the game, silently
    word = engine(a).letter * 2
    await a.manager.handle(text(word, clock.now(), ANN))
    await until(clock, lambda: CHAT not in a.manager.sessions)
    assert len(a.said()) == said and a.outbox.reactions() == [], "the new owner speaks for the game"
    assert a.manager.errors == []
    [(start, actions)] = await load_unfinished(b.store)
    claimed = [c.seat for x in actions for c in (x.claims or ())]
    assert start.game_id == game_id and claimed == ["test:u2"], "B judged Bob's answer; nothing of A's stored"


async def test_orphans_are_adopted_without_any_event(world: tuple[FakeClock, list[Proc]]) -> None:
    clock, (a, b) = world
    await running_on_a(clock, a, b)
    await die(a)
    await until(clock, lambda: CHAT in b.manager.sessions)  # B looks around every EVERY seconds
    word = engine(b).letter * 2
    await b.manager.handle(text(word, clock.now(), ANN))
    await until(clock, lambda: engine(b).scores["test:u1"] == 1)


async def test_a_restart_never_resumes_a_game_a_live_process_runs(
    world: tuple[FakeClock, list[Proc]],
) -> None:
    clock, (a, b) = world
    await running_on_a(clock, a, b)
    report = await b.manager.recover(await load_unfinished(b.store))
    assert report.resumed == [] and report.elsewhere == [a.manager.sessions[CHAT].game_id]
    assert CHAT not in b.manager.sessions and b.said() == []


async def test_one_process_alone_reads_nothing_for_chatter(tmp_path: Path) -> None:
    clock = FakeClock()
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    try:
        registry = Registry([TOY])
        manager = GameManager(registry, FakeOutbox(), StoreGameLog(store), clock, rng=random.Random(1))
        router = Router(manager, store, manager.game_log, "test")  # type: ignore[arg-type]
        connect(manager, router)
        await router.start()
        assert not router.shared and not manager.may_have_game(CHAT)
        reads = 0
        plain = store.chat_owner

        async def counted(*args: object) -> object:
            nonlocal reads
            reads += 1
            return await plain(*args)  # type: ignore[arg-type]

        store.chat_owner = counted  # type: ignore[method-assign]
        await manager.handle(text("hello", clock.now(), Player("test", "u5", "Eve")))
        assert reads == 0
        await manager.shutdown()
    finally:
        await store.close()


async def test_forwarding_adoption_and_drops_are_counted(world: tuple[FakeClock, list[Proc]]) -> None:
    from bot.core import metrics

    series = metrics.reset()
    clock, (a, b) = world
    await running_on_a(clock, a, b)
    await lapse(a)
    await b.manager.handle(text("zz", clock.now(), BOB))
    await a.manager.handle(text(engine(a).letter * 2, clock.now(), ANN))
    await until(clock, lambda: CHAT not in a.manager.sessions)
    text_out = series.exposition().decode()
    assert 'moji_events_forwarded_total{platform="test"} 1.0' in text_out
    assert 'moji_forward_delay_seconds_count{platform="test"} 1.0' in text_out
    assert 'moji_games_adopted_total{platform="test"} 1.0' in text_out
    assert "moji_games_dropped_total 1.0" in text_out


async def test_a_word_break_skips_a_channel_whose_game_another_process_runs(
    world: tuple[FakeClock, list[Proc]],
) -> None:
    from bot.features.schedule import start_scheduled
    from storage.base import Schedule

    clock, (a, b) = world
    await running_on_a(clock, a, b)
    due = Schedule(1, CHAT.workspace_id, CHAT.channel_id, (0,), "10:00", ("toy",), platform="test")
    await start_scheduled(b.manager, due, clock.now(), "☕ Word break!")
    await clock.settle()
    assert b.outbox.posts() == [] and CHAT not in b.manager.sessions, "no notice, no second lobby"


async def test_a_workspaces_new_game_opens_in_the_process_running_its_other_games(
    world: tuple[FakeClock, list[Proc]],
) -> None:
    clock, (a, b) = world
    await running_on_a(clock, a, b)
    elsewhere = ChatKey(CHAT.platform, CHAT.workspace_id, "c2")
    await b.manager.handle(Command("start", ("toy",), elsewhere, BOB))
    assert elsewhere not in b.manager.sessions and b.router.forwarded == 2
    await until(clock, lambda: elsewhere in a.manager.sessions)
    other_workspace = ChatKey(CHAT.platform, "w2", "c1")
    await b.manager.handle(Command("start", ("toy",), other_workspace, BOB))
    assert other_workspace in b.manager.sessions, "a workspace without games: opened where it arrived"
