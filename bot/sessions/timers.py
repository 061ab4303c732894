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


class Timers:
    """A session's timers (a part of :class:`bot.sessions.session.Session`)."""

    def __init__(self, session: SessionCore) -> None:
        self.session = session

    def next_wake(self) -> float | None:
        """When the session next has something to do on its own."""
        candidates: list[float] = []
        if self.session.phase is Phase.LOBBY and self.session._lobby_deadline is not None:
            candidates.append(self.session._lobby_deadline)
        elif self.session.phase is Phase.RUNNING and self.session.engine is not None:
            closes = self.session.window.closes_at()
            if closes is not None:
                candidates.append(closes)
            deadline = self.session.engine.next_deadline()
            if deadline is not None:  # the game's clock → the wall clock (a held tick waits too)
                candidates.append(max(deadline + self.session._paused, self.session.window.hold_ends()))
            bot_time = self.session.engine.next_bot_time()
            if bot_time is not None:
                candidates.append(bot_time + self.session._paused)
        return min(candidates) if candidates else None

    def reschedule(self) -> None:
        wake = self.next_wake()
        if (
            wake == self.session._timer_at
            and self.session._timer is not None
            and not self.session._timer.done()
        ):
            return
        self.cancel()
        if wake is not None:
            self.session._timer_at = wake
            self.session._timer = self.session._spawn(
                self._sleep_then_wake(wake), f"timer {self.session.chat.label()}"
            )

    def cancel(self) -> None:
        timer, self.session._timer, self.session._timer_at = self.session._timer, None, None
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def _sleep_then_wake(self, when: float) -> None:
        await self.session._clock.sleep_until(when)
        async with self.session._lock:
            if self.session._timer is asyncio.current_task():
                self.session._timer, self.session._timer_at = None, None
            await self._wake()
            if self.session.phase is not Phase.CLOSED and self.session._timer is None:
                self.reschedule()

    async def _wake(self) -> None:
        now = self.session._clock.now()
        if self.session.phase is Phase.LOBBY:
            if self.session._lobby_deadline is not None and now >= self.session._lobby_deadline:
                await self.session._close(
                    views.message(
                        _(
                            "Nobody started the {game} game, so the lobby timed out.",
                            game=_(self.session.info.title),
                        ),
                        "info",
                    )
                )
            return
        if self.session.phase is not Phase.RUNNING or self.session.engine is None:
            return
        # The engine's times are on the game's clock: the wall clock less the outages.
        bot_time = self.session.engine.next_bot_time()
        if bot_time is not None and bot_time + self.session._paused <= now:
            game_now = max(now - self.session._paused, bot_time)
            if self.session.info.realtime:
                claims = self.session.engine.bot_claims(game_now)
                self.session.window.add(
                    [replace(c, sent_at=c.sent_at + self.session._paused) for c in claims]
                )
            else:
                # A turn-based computer player may search for a while (a board move generator):
                # on the real clock it thinks in a worker thread, so other channels' games keep
                # their pace. The session's lock is held meanwhile: nothing else touches the engine.
                if self.session._think_in_thread:
                    due = await asyncio.to_thread(self.session.engine.bot_claims, game_now)
                else:
                    due = self.session.engine.bot_claims(game_now)
                # a computer player's turn-based move is logged like anyone's
                for claim in due:
                    await self.session._apply(Action("say", now, seat=claim.seat, text=claim.text))
                    if self.session.phase is not Phase.RUNNING:
                        return
        closes = self.session.window.closes_at()
        if closes is not None and now >= closes:
            await self.session.window.judge(now)
            if self.session.phase is not Phase.RUNNING:
                return
        deadline = self.session.engine.next_deadline()
        if (
            deadline is not None
            and max(deadline + self.session._paused, self.session.window.hold_ends()) <= now
        ):
            # (while held, the game's own deadline waits too: an answer on its way may beat it)
            tick = Action("tick", self.session._wall_for(deadline, now))
            await self.session._apply(tick)
            again = self.session.engine.next_deadline()
            if (
                self.session.phase is Phase.RUNNING
                and again is not None
                and again + self.session._paused <= tick.now
            ):
                # An engine whose deadline never moves would spin this timer forever.
                raise RuntimeError(
                    f"{self.session.info.name} engine kept its deadline {again} after a tick at {now}"
                )

    def abandon(self) -> None:
        """Drop timers without any message (the manager reports the reason)."""
        self.session.phase = Phase.CLOSED
        self.cancel()
        self.session._judged.set()
