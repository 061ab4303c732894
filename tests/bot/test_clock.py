"""FakeClock: tests wait on the events they need, never on the wall clock."""

from __future__ import annotations

import asyncio

from bot.core.clock import FakeClock


async def test_sleeper_returns_once_a_task_sleeps_until_that_time_or_later() -> None:
    clock = FakeClock(start=100.0)
    started = asyncio.Event()
    ran: list[float] = []

    async def job() -> None:
        while True:
            await started.wait()  # stands for work the clock cannot see (a thread, a socket)
            ran.append(clock.now())
            await clock.sleep_until(clock.now() + 60)

    task = asyncio.create_task(job())
    waiting = asyncio.create_task(clock.sleeper(160.0))
    await clock.settle()
    assert not waiting.done(), "nothing sleeps on the clock yet"
    started.set()
    await asyncio.wait_for(waiting, 5)
    assert ran == [100.0] and clock.next_wake == 160.0
    # a sleeper that wakes earlier does not count
    early = asyncio.create_task(clock.sleep_until(130.0))
    later = asyncio.create_task(clock.sleeper(220.0))
    await clock.settle()
    assert not later.done()
    await clock.advance(60)
    await asyncio.wait_for(later, 5)
    assert ran == [100.0, 160.0] and early.done()
    task.cancel()
    await asyncio.gather(task, return_exceptions=True)


async def test_a_cancelled_sleeper_is_not_waited_on() -> None:
    clock = FakeClock(start=0.0)
    nap = asyncio.create_task(clock.sleep_until(50.0))
    await clock.settle()
    nap.cancel()
    await asyncio.gather(nap, return_exceptions=True)
    waiting = asyncio.create_task(clock.sleeper(50.0))
    await clock.settle()
    assert not waiting.done()
    again = asyncio.create_task(clock.sleep_until(75.0))
    await asyncio.wait_for(waiting, 5)
    again.cancel()
    await asyncio.gather(again, return_exceptions=True)
