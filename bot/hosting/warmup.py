"""Preparing games ahead of their first lobby: each game's one-off work in a daemon thread.

A server runs every game's ``prepare("en", {})`` at start-up (:func:`bot.process.app.serve`), the
terminal only the game it plays, during the countdown (:mod:`bot.process.local`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterable

from games.common.protocol import GameInfo

log = logging.getLogger(__name__)


async def warm_up(games: Iterable[GameInfo]) -> None:
    """Run each game's ``prepare`` in a worker thread, one after another (see GameInfo)."""
    for info in games:
        started = time.monotonic()
        try:
            await in_daemon_thread(info.prepare, "en", {})  # the default options
        except Exception:
            log.exception("preparing %s failed; its first game will do the work instead", info.name)
        else:
            log.info("%s prepared in %.1f s", info.name, time.monotonic() - started)


async def in_daemon_thread(work: Callable[..., object], *args: object) -> object:
    """``work(*args)`` in a thread of its own that never holds the process up at exit.

    A game's preparation builds tables in memory for seconds (tens on a busy machine); in
    asyncio's default executor a stop signal arriving meanwhile would wait for it after the
    bot has said "stopped" — past a container's grace period, into a SIGKILL.
    """

    loop = asyncio.get_running_loop()
    done: asyncio.Future[object] = loop.create_future()

    def settle(result: object, error: BaseException | None) -> None:
        if done.cancelled():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result)

    def run() -> None:
        try:
            result = work(*args)
        except BaseException as exc:  # (handed to the awaiting task)
            error: BaseException | None = exc
            result = None
        else:
            error = None
        with contextlib.suppress(RuntimeError):  # the loop has closed: nobody waits any more
            loop.call_soon_threadsafe(settle, result, error)

    threading.Thread(target=run, name=f"moji {getattr(work, '__name__', 'work')}", daemon=True).start()
    return await done
