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


class SettleWindow(SessionCore):
    """A session's settle window (a part of :class:`bot.sessions.session.Session`)."""

    async def why_after_verdict(self, player: Player) -> str:
        """``why``: when the player's answer still waits in the settle window, its verdict first."""
        if any(claim.seat == player.seat_id for claim in self._pending):
            await self._judged.wait()
        return self.why(player)

    def _add_claims(self, claims: list[Claim]) -> None:
        if not claims:
            return
        if not self._pending:
            self._settle_deadline = self._clock.now() + self._settle
            self._judged.clear()
        self._pending.extend(claims)

    async def _judge_pending(self, now: float) -> None:
        """Close the settle window: every answer in it goes to the engine as one batch."""
        batch, self._pending, self._settle_deadline = tuple(self._pending), [], None
        batch_now = max([now, *(c.sent_at for c in batch)])
        try:
            await self._apply(Action("claims", batch_now, claims=batch))
        finally:
            self._judged.set()

    def hold(self) -> None:
        """Keep the settle window open: answers sent earlier may still be on their way (the
        platform's connection dropped and will replay what it missed). Answers are judged once
        every hold is released — by their send times, as always — or :data:`HOLD_MOST` seconds
        after the first hold was taken, whichever comes first; the game's own deadline (a
        card's hourglass) waits as long, so a missed answer cannot lose to it either."""
        if not self._holds:
            self._held_since = self._clock.now()
        self._holds += 1

    def release(self) -> None:
        """Let go of one :meth:`hold` (the replay is over)."""
        self._holds = max(0, self._holds - 1)
        self._reschedule()

    def _hold_ends(self) -> float:
        """When the holds stop holding anything (0: no hold)."""
        return self._held_since + HOLD_MOST if self._holds else 0.0

    def _settle_closes_at(self) -> float | None:
        if self._settle_deadline is None:
            return None
        return max(self._settle_deadline, self._hold_ends())
