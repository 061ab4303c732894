"""Preparing games: their one-off work (word lists, computer players' tries, :attr:`GameInfo.prepare`)
done in a worker thread ahead of the first computer move that would otherwise do it on the spot.

At start-up every game is prepared for English and its default options (:func:`prepare_at_start`);
each lobby in another language or with other options prepares its own as it opens
(:class:`Preparing`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Hashable, Iterable, Mapping

from bot.hosting.host import GameHost
from games.common.options import OptionValue
from games.common.protocol import GameInfo

log = logging.getLogger(__name__)


class Preparing:
    """What one host's process has prepared, and the preparing of the rest."""

    def __init__(self, host: GameHost, games: Iterable[GameInfo]) -> None:
        self.host = host
        #: :meth:`GameInfo.preparation` keys (game, language, options' key) whose one-off work
        #: this process has begun: English with default options at start-up.
        self.begun: set[tuple[Hashable, ...]] = {info.preparation("en", {}) for info in games}

    def defer(self, games: Iterable[GameInfo]) -> None:
        """``games`` were not prepared at start-up (PREPARE_AT_START): their first lobby in
        English with the default options prepares them, as any other lobby would."""
        for info in games:
            self.begun.discard(info.preparation("en", {}))

    def prepare(self, info: GameInfo, options: Mapping[str, OptionValue]) -> None:
        """Start ``info``'s one-off work for the lobby's language and options (its word lists, its
        computer players' tries) in a worker thread as a lobby opens, so that the first computer
        move, which would otherwise do it on the spot, finds it done: once per
        :meth:`GameInfo.preparation` key in this process, and only where players think in threads
        (the real clock). English with the default options is prepared at start-up, unless
        :meth:`defer` said otherwise."""
        language = str(options.get("language", "en"))
        key = info.preparation(language, options)
        if not self.host.think_in_thread or key in self.begun:
            return
        self.begun.add(key)
        prepare = info.prepare

        async def in_a_thread() -> None:
            try:
                await asyncio.to_thread(prepare, language, options)
            except Exception:
                log.exception(
                    "preparing %s in %s failed; its game will do the work instead", info.name, language
                )

        self.host.spawn(in_a_thread(), f"prepare {info.name} {language}")


async def prepare_at_start(games: Iterable[GameInfo]) -> None:
    """Run each game's ``prepare`` for English and its default options in a daemon thread, one
    after another: a server prepares every game at start-up (:func:`bot.process.app.serve`), the
    terminal only the game it plays, during its countdown (:mod:`bot.process.local`)."""
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
