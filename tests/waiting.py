"""Waiting in tests for something that happens off the event loop (a database thread, a socket).

The game's time is a :class:`~bot.core.clock.FakeClock` the test moves; but a database call runs on a
real thread and a notification crosses a real server, so a test that needs its result waits for
it: re-checking a condition, with a wall-clock limit that only catches a hang (never a slow
machine: a busy 2-core CI box can stall a thread for seconds).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

#: Seconds of real time before a wait gives up: only a hang takes this long.
PATIENCE = 60.0


async def eventually(
    predicate: Callable[[], object], what: str = "condition", within: float = PATIENCE
) -> None:
    """Return once ``predicate()`` is true, checking on every turn of the event loop and then
    every millisecond; fail (naming ``what``) after ``within`` seconds of real time."""
    deadline = time.monotonic() + within
    turns = 0
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not met within {within:.0f} s")
        turns += 1
        # a few bare turns let ready callbacks run; then sleep a little so threads get the CPU
        await asyncio.sleep(0 if turns % 20 else 0.001)


async def eventually_true(check: Callable[[], Awaitable[object]], what: str = "condition") -> None:
    """:func:`eventually` for a check that must be awaited (e.g. an HTTP probe), every 10 ms."""
    deadline = time.monotonic() + PATIENCE
    while not await check():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what} not met within {PATIENCE:.0f} s")
        await asyncio.sleep(0.01)
