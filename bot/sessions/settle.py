"""The settle window: real-time answers are judged in fair batches, not on arrival.

The first answer opens a window (``settle`` seconds, default 150 ms); when it closes, every
answer received so far goes to the engine as one batch, which orders them by the platform's
own send time. An answer that arrives late but was sent first still wins. While a platform
replays what its dropped connection missed, the window is held open (:meth:`SettleWindow.hold`).
"""

from __future__ import annotations

from bot.core.events import Player
from bot.sessions.session_core import SessionCore
from games.common.protocol import Action, Claim

#: The longest a settle window is held open for answers a platform may still replay (s).
HOLD_MOST = 10.0


class SettleWindow:
    """A session's settle window (a part of :class:`bot.sessions.session.Session`)."""

    def __init__(self, session: SessionCore) -> None:
        self.session = session

    async def why_after_verdict(self, player: Player) -> str:
        """``why``: when the player's answer still waits in the settle window, its verdict first."""
        if any(claim.seat == player.seat_id for claim in self.session._pending):
            await self.session._judged.wait()
        return self.session.why(player)

    def add(self, claims: list[Claim]) -> None:
        if not claims:
            return
        if not self.session._pending:
            self.session._settle_deadline = self.session._clock.now() + self.session._settle
            self.session._judged.clear()
        self.session._pending.extend(claims)

    async def judge(self, now: float) -> None:
        """Close the settle window: every answer in it goes to the engine as one batch."""
        batch, self.session._pending, self.session._settle_deadline = tuple(self.session._pending), [], None
        batch_now = max([now, *(c.sent_at for c in batch)])
        try:
            await self.session._apply(Action("claims", batch_now, claims=batch))
        finally:
            self.session._judged.set()

    def hold(self) -> None:
        """Keep the settle window open: answers sent earlier may still be on their way (the
        platform's connection dropped and will replay what it missed). Answers are judged once
        every hold is released — by their send times, as always — or :data:`HOLD_MOST` seconds
        after the first hold was taken, whichever comes first; the game's own deadline (a
        card's hourglass) waits as long, so a missed answer cannot lose to it either."""
        if not self.session._holds:
            self.session._held_since = self.session._clock.now()
        self.session._holds += 1

    def release(self) -> None:
        """Let go of one :meth:`hold` (the replay is over)."""
        self.session._holds = max(0, self.session._holds - 1)
        self.session.timers.reschedule()

    def hold_ends(self) -> float:
        """When the holds stop holding anything (0: no hold)."""
        return self.session._held_since + HOLD_MOST if self.session._holds else 0.0

    def closes_at(self) -> float | None:
        if self.session._settle_deadline is None:
            return None
        return max(self.session._settle_deadline, self.hold_ends())
