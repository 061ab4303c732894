"""What a session is made with (:class:`SessionArgs`), how it runs a task (:data:`Spawn`), and
its lock (:class:`SpokenLock`).

A session (:class:`bot.sessions.session.Session`) holds its state and its parts, and hands each
part, when it makes it, only what that part works with: the state it reads, the outbox it sends
to, the game log, the clock. No part holds the session or another part.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from typing import Any, NotRequired, TypedDict

from bot.core.clock import Clock
from bot.core.events import ChatKey, Player
from bot.core.outbox import GameLog, Outbox
from games.common.options import OptionValue
from games.common.protocol import GameInfo
from games.common.speech import speaking

#: Runs a coroutine as a task the session's host supervises, under a name.
Spawn = Callable[[Coroutine[Any, Any, None], str], "asyncio.Task[None]"]


class SessionArgs(TypedDict):
    """What a session is made with (:class:`bot.hosting.manager.GameManager.new_session`)."""

    chat: ChatKey
    info: GameInfo
    host: Player
    options: Mapping[str, OptionValue]
    game_id: str
    seed: int
    clock: Clock
    outbox: Outbox
    game_log: GameLog
    spawn: Spawn
    #: Called with the session once it has closed.
    on_closed: Callable[[Any], None]
    settle: NotRequired[float]
    lobby_timeout: NotRequired[float]
    words: NotRequired[tuple[frozenset[str], frozenset[str]]]
    #: Puts answers voted in on the workspace's list.
    keep_words: NotRequired[Callable[[list[str]], Awaitable[list[str]]] | None]
    think_in_thread: NotRequired[bool]
    timestamp_precision: NotRequired[float]
    speech: NotRequired[str | None]


class SpokenLock:
    """A session's lock: whoever holds it speaks the session's chat language, so every engine
    call and every view made under it (start, apply, tick, the table, the result) speaks it."""

    def __init__(self, speech: str) -> None:
        self._lock = asyncio.Lock()
        self._speech = speech
        self._voices: list[Any] = []

    async def __aenter__(self) -> None:
        await self._lock.acquire()
        voice = speaking(self._speech)
        voice.__enter__()
        self._voices.append(voice)

    async def __aexit__(self, *exc: object) -> None:
        try:
            self._voices.pop().__exit__(None, None, None)
        finally:
            self._lock.release()

    def locked(self) -> bool:
        """Whether someone holds it."""
        return self._lock.locked()
