"""Adoption races inside one process, and a process that stood still past its lease.

The two-process world of :mod:`tests.bot.test_routing` (real managers and routers on one
SQLite file, a shared fake clock).
"""

from __future__ import annotations

import asyncio

from bot.core.clock import FakeClock
from tests.bot.conftest import ANN, CHAT
from tests.bot.test_manager import text
from tests.bot.test_routing import Proc, die, engine, lapse, running_on_a, until, world

__all__ = ["world"]


async def test_an_events_adoption_and_the_watchs_at_once_take_the_game_once(
    world: tuple[FakeClock, list[Proc]],
) -> None:
    clock, (a, b) = world
    await running_on_a(clock, a, b)
    game_id = a.manager.sessions[CHAT].game_id
    await die(a)
    [orphan] = await b.store.orphaned_games("test")
    # an event for the chat adopts it (route) while the watch's look adopts it too
    await asyncio.gather(b.router._adopt([orphan]), b.router._adopt([orphan]))
    await until(clock, lambda: any("carries on" in line for line in b.said()))
    assert await b.store.game_status(game_id) == "running", "not voided"
    assert b.manager.sessions[CHAT].game_id == game_id
    assert not [line for line in b.said() if "couldn't restore" in line]
    assert len([line for line in b.said() if "♻️" in line]) == 1


async def test_an_event_reaching_an_owner_that_stood_still_past_its_lease_goes_to_the_new_owner(
    world: tuple[FakeClock, list[Proc]],
) -> None:
    clock, (a, b) = world
    await running_on_a(clock, a, b)
    game_id = a.manager.sessions[CHAT].game_id
    await lapse(a)  # A stands still past its lease (a long pause) …
    a.manager.game_log.confirmed[game_id] -= 3600  # type: ignore[attr-defined]
    [orphan] = await b.store.orphaned_games("test")
    await b.router._adopt([orphan])  # … and B takes the game over meanwhile
    assert CHAT in b.manager.sessions
    # A wakes up with Ann's answer before it has noticed: the answer must not be lost with A's copy
    word = engine(b).letter * 2
    await a.manager.handle(text(word, clock.now(), ANN))
    assert CHAT not in a.manager.sessions, "A gave the game up before handling the answer"
    await until(clock, lambda: engine(b).scores["test:u1"] == 1)
    assert a.outbox.reactions() == [] and a.manager.errors == []
