"""A session's one timer task: it sleeps until the next thing the session does by itself.

That is the lobby's expiry, the settle window's close, a computer player's answer or move,
or the engine's own deadline (an hourglass, a turn limit), whichever comes first — on the
injected clock, and on the game's clock for the engine (the wall clock less any outage).
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.core import views
from bot.sessions.session_core import Phase, SessionCore
from games.common.protocol import Action
from games.common.speech import _


class Timers(SessionCore):
    """A session's timers (a part of :class:`bot.sessions.session.Session`)."""

    def next_wake(self) -> float | None:
        """When the session next has something to do on its own."""
        candidates: list[float] = []
        if self.phase is Phase.LOBBY and self._lobby_deadline is not None:
            candidates.append(self._lobby_deadline)
        elif self.phase is Phase.RUNNING and self.engine is not None:
            closes = self._settle_closes_at()
            if closes is not None:
                candidates.append(closes)
            deadline = self.engine.next_deadline()
            if deadline is not None:  # the game's clock → the wall clock (a held tick waits too)
                candidates.append(max(deadline + self._paused, self._hold_ends()))
            bot_time = self.engine.next_bot_time()
            if bot_time is not None:
                candidates.append(bot_time + self._paused)
        return min(candidates) if candidates else None

    def _reschedule(self) -> None:
        wake = self.next_wake()
        if wake == self._timer_at and self._timer is not None and not self._timer.done():
            return
        self._cancel_timer()
        if wake is not None:
            self._timer_at = wake
            self._timer = self._spawn(self._sleep_then_wake(wake), f"timer {self.chat.label()}")

    def _cancel_timer(self) -> None:
        timer, self._timer, self._timer_at = self._timer, None, None
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def _sleep_then_wake(self, when: float) -> None:
        await self._clock.sleep_until(when)
        async with self._lock:
            if self._timer is asyncio.current_task():
                self._timer, self._timer_at = None, None
            await self._wake()
            if self.phase is not Phase.CLOSED and self._timer is None:
                self._reschedule()

    async def _wake(self) -> None:
        now = self._clock.now()
        if self.phase is Phase.LOBBY:
            if self._lobby_deadline is not None and now >= self._lobby_deadline:
                await self._close(
                    views.message(
                        _("Nobody started the {game} game, so the lobby timed out.", game=_(self.info.title)),
                        "info",
                    )
                )
            return
        if self.phase is not Phase.RUNNING or self.engine is None:
            return
        # The engine's times are on the game's clock: the wall clock less the outages.
        bot_time = self.engine.next_bot_time()
        if bot_time is not None and bot_time + self._paused <= now:
            game_now = max(now - self._paused, bot_time)
            if self.info.realtime:
                claims = self.engine.bot_claims(game_now)
                self._add_claims([replace(c, sent_at=c.sent_at + self._paused) for c in claims])
            else:
                # A turn-based computer player may search for a while (a board move generator):
                # on the real clock it thinks in a worker thread, so other channels' games keep
                # their pace. The session's lock is held meanwhile: nothing else touches the engine.
                if self._think_in_thread:
                    due = await asyncio.to_thread(self.engine.bot_claims, game_now)
                else:
                    due = self.engine.bot_claims(game_now)
                # a computer player's turn-based move is logged like anyone's
                for claim in due:
                    await self._apply(Action("say", now, seat=claim.seat, text=claim.text))
                    if self.phase is not Phase.RUNNING:
                        return
        closes = self._settle_closes_at()
        if closes is not None and now >= closes:
            await self._judge_pending(now)
            if self.phase is not Phase.RUNNING:
                return
        deadline = self.engine.next_deadline()
        if deadline is not None and max(deadline + self._paused, self._hold_ends()) <= now:
            # (while held, the game's own deadline waits too: an answer on its way may beat it)
            tick = Action("tick", self._wall_for(deadline, now))
            await self._apply(tick)
            again = self.engine.next_deadline()
            if self.phase is Phase.RUNNING and again is not None and again + self._paused <= tick.now:
                # An engine whose deadline never moves would spin this timer forever.
                raise RuntimeError(f"{self.info.name} engine kept its deadline {again} after a tick at {now}")

    def abandon(self) -> None:
        """Drop timers without any message (the manager reports the reason)."""
        self.phase = Phase.CLOSED
        self._cancel_timer()
        self._judged.set()
