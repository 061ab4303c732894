"""The settle window: real-time answers are judged in fair batches, not on arrival.

The first answer opens a window (``settle`` seconds, default 150 ms); when it closes, every
answer received so far goes to the engine as one batch, which orders them by the platform's
own send time. An answer that arrives late but was sent first still wins. While a platform
replays what its dropped connection missed, the window is held open (:meth:`SettleWindow.hold`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

from bot.core.clock import Clock
from games.common.protocol import Action, Claim

#: The longest a settle window is held open for answers a platform may still replay (s).
HOLD_MOST = 10.0


class SettleWindow:
    """A session's settle window: the answers waiting to be judged, and when they will be.

    The session takes the batch (:meth:`take`), plays it, and says when it is judged
    (:meth:`settled`); the window itself plays nothing.
    """

    def __init__(self, settle: float, clock: Clock) -> None:
        self._settle = settle
        self._clock = clock
        self._pending: list[Claim] = []
        self._closes: float | None = None
        self._judged = asyncio.Event()  # set while no answer waits to be judged
        self._judged.set()
        self._holds = 0
        self._held_since = 0.0

    @property
    def pending(self) -> Sequence[Claim]:
        """The answers in the window, in arrival order."""
        return tuple(self._pending)

    @property
    def holds(self) -> int:
        """How many :meth:`hold` calls are not released yet."""
        return self._holds

    def add(self, claims: Sequence[Claim]) -> None:
        """Answers into the window (the first opens it)."""
        if not claims:
            return
        if not self._pending:
            self._closes = self._clock.now() + self._settle
            self._judged.clear()
        self._pending.extend(claims)

    def take(self, now: float) -> Action:
        """Close the window: its answers as one ``claims`` action (at ``now``, or at the latest
        send time if a clock ran ahead). Until :meth:`settled`, they still count as waiting."""
        batch, self._pending, self._closes = tuple(self._pending), [], None
        return Action("claims", max([now, *(c.sent_at for c in batch)]), claims=batch)

    def settled(self) -> None:
        """The answers taken are judged (or never will be: the session closed)."""
        self._judged.set()

    def waits_for(self, seat: str) -> bool:
        """Whether an answer of ``seat`` waits in the window."""
        return any(claim.seat == seat for claim in self._pending)

    async def judged(self) -> None:
        """Until no answer waits to be judged."""
        await self._judged.wait()

    def hold(self) -> None:
        """Keep the window open: answers sent earlier may still be on their way (the platform's
        connection dropped and will replay what it missed). Answers are judged once every hold
        is released — by their send times, as always — or :data:`HOLD_MOST` seconds after the
        first hold was taken, whichever comes first; the game's own deadline (a card's
        hourglass) waits as long, so a missed answer cannot lose to it either."""
        if not self._holds:
            self._held_since = self._clock.now()
        self._holds += 1

    def release(self) -> None:
        """Let go of one :meth:`hold` (the replay is over)."""
        self._holds = max(0, self._holds - 1)

    def hold_ends(self) -> float:
        """When the holds stop holding anything (0: no hold)."""
        return self._held_since + HOLD_MOST if self._holds else 0.0

    def closes_at(self) -> float | None:
        """When the window closes (None: it is not open)."""
        if self._closes is None:
            return None
        return max(self._closes, self.hold_ends())
