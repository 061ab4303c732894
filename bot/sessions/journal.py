"""A session's writes to its game's log, tried again while the database refuses them.

Every write is idempotent (actions by sequence number, results by game id), so a try that
reached the database before failing is harmless. When the tries run out the error goes on to
the manager, which stops the game with a message; a write another process fenced off is never
tried again (that process runs the game now).
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable, Iterable, Sequence
from typing import TypeVar

from bot.core import metrics
from bot.core.clock import Clock
from bot.core.outbox import GameLog
from games.common.protocol import Action
from storage.errors import Fenced, StorageError

log = logging.getLogger("bot.sessions.session")

T = TypeVar("T")

#: Waits (s) between tries when the database refuses a write (locked, restarting, gone):
#: about half a minute in all, during which the game pauses; then it stops with a message.
STORAGE_WAITS: tuple[float, ...] = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0)
#: A finished game's scores are worth waiting longer for (then every 15 s, 5 minutes more).
RESULT_WAITS: tuple[float, ...] = STORAGE_WAITS + (15.0,) * 20


def handled_refs(actions: Iterable[Action]) -> set[str]:
    """The platform messages a game's log took as answers or moves."""
    refs = {claim.ref for action in actions for claim in action.claims if claim.ref}
    return refs | {action.ref for action in actions if action.ref}


class Journal:
    """One game's log (:attr:`log`), written in order and through retries on the session's clock,
    and the platform messages taken for it: a redelivery of one is never judged twice."""

    def __init__(self, game_log: GameLog, clock: Clock, game_id: str, label: str, seed: int) -> None:
        #: The game log itself, for the writes that are not tried again (a lobby's record).
        self.log = game_log
        #: The sequence number of the next action.
        self.seq = 0
        self._clock = clock
        self._game_id = game_id
        self._label = label
        self._jitter = random.Random(seed)  # (not the game's own randomness)
        self._taken: set[str] = set()

    def take(self, message_id: str) -> bool:
        """Take the answer or move in a platform message (False: it was taken before)."""
        if message_id in self._taken:
            return False
        self._taken.add(message_id)
        return True

    def taken_before(self, message_ids: Iterable[str]) -> None:
        """Platform messages taken before: by an earlier game of the chat, or in this game's log."""
        self._taken.update(message_ids)

    def replayed(self, actions: Sequence[Action]) -> None:
        """The game's log held ``actions`` (after a restart): the next is appended after them."""
        self.seq = len(actions)
        self._taken.update(handled_refs(actions))

    async def append(self, action: Action) -> None:
        """Keep ``action`` as the game's next."""
        seq = self.seq
        await self.stored(lambda: self.log.append(self._game_id, seq, action))
        self.seq += 1

    async def announced(self) -> None:
        """Keep that the game's result is in its channel (a restart need not post it again);
        a refusal is only logged: the result was seen either way."""
        try:
            await self.stored(lambda: self.log.announced(self._game_id, self._clock.now()))
        except StorageError:
            log.warning("game %s: could not record that its result was posted", self._game_id)

    async def stored(self, write: Callable[[], Awaitable[T]], waits: tuple[float, ...] = STORAGE_WAITS) -> T:
        """Run a write, trying again after each of ``waits`` while the database refuses it."""
        for wait in waits:
            try:
                return await write()
            except Fenced:
                raise  # another process runs the game now: nothing to retry
            except StorageError as exc:
                metrics.storage_retry()
                log.warning(
                    "game %s in %s: the database refused a write (%s); trying again in %g s",
                    self._game_id,
                    self._label,
                    exc,
                    wait,
                )
                # a little jitter, so sessions that met the same outage don't retry in lockstep
                await self._clock.sleep_until(self._clock.now() + wait * self._jitter.uniform(0.8, 1.2))
        return await write()
