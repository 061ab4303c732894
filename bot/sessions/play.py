"""How a session's game is played: each action goes to the engine, into the log, then out.

:class:`Play` is the one place an action is played — the engine's move, kept in the game's log
*before* anything of it is announced (with retries while the database refuses), then its notices
delivered — and what follows: the game's end (recorded, its result posted, the session closed)
or the timer armed for the session's next deed. It also does those deeds when the timer wakes
(the lobby's end, computer players, the settle window's batch, the engine's deadline).

The session hands it what it accepted, under the session's lock; it asks the session's state
and parts, never the session: the session's owner hears of the end through the two callables
it is made with.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.core import views
from bot.core.clock import Clock
from bot.core.events import MessageRef, Post
from bot.core.outbox import Outbox
from bot.sessions.announce import Announcer
from bot.sessions.journal import RESULT_WAITS, Journal
from bot.sessions.lobby import Lobby
from bot.sessions.parts import Spawn
from bot.sessions.settle import SettleWindow
from bot.sessions.state import Phase, SessionState
from bot.sessions.timers import Timers
from games.common.protocol import Action, Engine, Notice, Seat
from storage.errors import StorageError

log = logging.getLogger("bot.sessions.session")


class Play:
    """A session's engine room: it plays actions and the timer's deeds, and ends the session."""

    def __init__(
        self,
        state: SessionState,
        lobby: Lobby,
        settle: SettleWindow,
        timers: Timers,
        announcer: Announcer,
        journal: Journal,
        *,
        outbox: Outbox,
        clock: Clock,
        spawn: Spawn,
        think_in_thread: bool,
        finishing: Callable[[], Awaitable[views.View | None]],
        closed: Callable[[], None],
    ) -> None:
        self._state = state
        self._lobby = lobby
        self._settle = settle
        self._timers = timers
        self._announcer = announcer
        self._journal = journal
        self._outbox = outbox
        self._clock = clock
        self._spawn = spawn
        self._think_in_thread = think_in_thread
        self._finishing = finishing  # what follows a finished game's result (the owner's)
        self._closed = closed  # the owner hears the session closed

    # ------------------------------------------------------------ the timer

    def next_wake(self) -> float | None:
        """When the session next has something to do on its own."""
        state = self._state
        if state.phase is Phase.LOBBY:
            return self._lobby.deadline
        if state.phase is not Phase.RUNNING or state.engine is None:
            return None
        wakes = (self._settle.closes_at(), state.deadline(self._settle.hold_ends()), state.bot_time())
        return min((t for t in wakes if t is not None), default=None)

    def rearm(self) -> None:
        """Sleep until the session's next own deed (:meth:`next_wake`)."""
        self._timers.arm(self.next_wake())

    async def due(self, now: float) -> None:
        """What is due at ``now``, in order: the lobby's end; the computer players' answers or
        moves; the settle window's batch; the engine's own deadline."""
        state = self._state
        if state.phase is Phase.LOBBY:
            if self._lobby.expired(now):
                await self.close(self._lobby.timed_out())
            return
        if state.phase is not Phase.RUNNING or state.engine is None:
            return
        await self._bots(state.engine, now)
        if state.phase is not Phase.RUNNING:
            return
        closes = self._settle.closes_at()
        if closes is not None and now >= closes:
            await self.judge(now)
            if state.phase is not Phase.RUNNING:
                return
        tick = state.tick(now, self._settle.hold_ends())
        if tick is not None:
            await self.apply(tick)
            if state.stuck_after(tick):  # an engine whose deadline never moves would spin the timer
                again = state.engine.next_deadline()
                raise RuntimeError(
                    f"{state.info.name} engine kept its deadline {again} after a tick at {now}"
                )

    async def _bots(self, engine: Engine, now: float) -> None:
        # The engine's times are on the game's clock: the wall clock less the outages.
        game_now = self._state.bots_due(now)
        if game_now is None:
            return
        if self._state.info.realtime:
            claims = engine.bot_claims(game_now)
            self._settle.add([replace(c, sent_at=c.sent_at + self._state.paused) for c in claims])
            return
        # A turn-based computer player may search for a while (a board move generator): on the
        # real clock it thinks in a worker thread, so other channels' games keep their pace.
        # The session's lock is held meanwhile: nothing else touches the engine.
        if self._think_in_thread:
            due = await asyncio.to_thread(engine.bot_claims, game_now)
        else:
            due = engine.bot_claims(game_now)
        for claim in due:  # a computer player's turn-based move is logged like anyone's
            await self.apply(Action("say", now, seat=claim.seat, text=claim.text))
            if self._state.phase is not Phase.RUNNING:
                return

    # ------------------------------------------------------------ actions

    async def begin(self, seats: tuple[Seat, ...]) -> None:
        """Start the game with these seats: recorded, the lobby's message closed, the first deal."""
        now = self._clock.now()
        start = self._state.deal(seats, now)
        # one write: the game is recorded and its lobby forgotten together (a crash in between
        # would otherwise lose both, or restore both)
        await self._journal.stored(lambda: self._journal.log.start(start))
        await self._lobby.close_message()
        await self.apply(Action("begin", now))

    async def apply(self, action: Action) -> list[Notice]:
        """Play ``action``: the engine's move, kept in the log, then announced; then the game
        ends, or the timer sleeps until the session's next deed. Returns the engine's notices."""
        state = self._state
        assert state.engine is not None
        notices = state.engine.apply(state.on_game_clock(action))
        await self._journal.append(action)
        await self._announcer.deliver(notices)
        if state.engine.finished and state.phase is Phase.RUNNING:
            if not any(n.kind == "table" for n in notices):  # the final state, no buttons
                await self._outbox.send(Post(state.chat, self._announcer.table_view()))
            await self.finish()
        else:
            self.rearm()
        return notices

    async def judge(self, now: float) -> None:
        """Close the settle window: every answer in it goes to the engine as one batch."""
        try:
            await self.apply(self._settle.take(now))
        finally:
            self._settle.settled()

    async def resume(self, notice: str, paused: float) -> None:
        """Announce a restored game (``notice``), show its table and re-arm the timer; the game's
        clock stands still for the ``paused`` seconds the bot was down (a ``resume`` action)."""
        state, told = self._state, Post(self._state.chat, views.message(notice, "info"))
        assert state.engine is not None
        if not state.begun:  # the process died between recording the start and the first deal
            state.begun = True
            await self._outbox.send(told)
            await self.apply(Action("begin", self._clock.now()))
            return
        if paused > 0 and not state.engine.finished:
            resumed = Action("resume", self._clock.now(), paused=round(paused, 3))
            await self._journal.append(resumed)
            state.paused += resumed.paused or 0.0
        await self._outbox.send(told)
        if state.engine.finished:
            await self.finish()
            return
        await self._outbox.send(Post(state.chat, self._announcer.table_view()))
        if paused > 0:
            await self._announcer.ping_again()
        self.rearm()

    # ------------------------------------------------------------ the end

    async def finish(self) -> None:
        """The game is over: record it, post the result, close."""
        state = self._state
        engine, start = state.engine, state.start_record
        assert engine is not None and start is not None
        outcome, at = engine.result(), self._clock.now()
        # exactly once by game id, so a try that reached the database before failing is harmless
        await self._journal.stored(lambda: self._journal.log.finish(start, outcome, at), RESULT_WAITS)
        view = await self._announcer.result(outcome, start, list(engine.voted_words))
        after = None
        if not outcome.voided:
            try:
                after = await self._finishing()
            except StorageError as exc:  # the result is posted either way
                log.warning("game %s: what follows its end failed (%s)", state.game_id, exc)
        await self.close(view, receipt=None if outcome.voided else self._result_posted)
        if after is not None:
            await self._outbox.send(Post(state.chat, after))

    def _result_posted(self, ref: MessageRef | None) -> None:
        """The result is in the channel: a restart need not announce it again."""
        if ref is not None:
            self._spawn(self._journal.announced(), f"announced {self._state.game_id}")

    async def close(
        self, farewell: views.View, receipt: Callable[[MessageRef | None], None] | None = None
    ) -> None:
        """Close the session (once) with a farewell: no timer, no answer waiting, a lobby forgotten."""
        state = self._state
        if state.phase is Phase.CLOSED:
            return
        self.abandon()
        if state.engine is None:
            await self._lobby.closed()
        await self._outbox.send(Post(state.chat, farewell, receipt))
        self._closed()

    def abandon(self) -> None:
        """Close the session without a word: no timer, no answer waiting."""
        self._state.phase = Phase.CLOSED
        self._timers.cancel()
        self._settle.settled()
