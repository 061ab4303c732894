"""Marks on answers: ✅ reactions, refusal reactions, and their fallback to the table.

Every accepted answer gets an ✅ — as a reaction on the player's message, or, when the
reaction would come too late or take budget the chat's tables wait for, as a line of the
table (``✅ Ann: INVOKE``, through :class:`~bot.delivery.tables.Tables`), so it is never dropped.
A refused answer is listed on the table (:meth:`~bot.delivery.tables.Tables.add_miss`); with the
workspace's ``reasons`` setting it also gets a reaction (❌, ⏱) on a player's first
refused word per table, and those are dropped first under pressure. :class:`Marks` runs
each chat's ``marks`` lane (:mod:`bot.delivery.lanes`); the rules are in :mod:`bot.delivery.delivery`'s
docstring.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from bot.core import views
from bot.core.events import ChatKey, Mark, MessageRef, React
from bot.delivery.lanes import ChatState, Lanes, Miss
from bot.delivery.pacing import RateLimited, Ticket
from bot.delivery.tables import Tables

# (one logger for the whole delivery layer, as before it was split into modules)
log = logging.getLogger("bot.delivery.delivery")

#: Refusal reactions waiting at most; the oldest are dropped first.
MAX_REFUSAL_MARKS = 4
#: A refusal reaction is dropped when reactions would wait longer than this.
REFUSAL_PATIENCE = 1.0
#: An ✅ that waited this long, while a table naming it was delivered, is left to the table.
MARK_MAX_AGE = 20.0
#: An ✅ is left to the table when reactions draw from a bucket tables need too (Discord's
#: global limit) and that bucket is backed up for longer than this.
MARK_PATIENCE = 3.0
#: An ✅ that could not be on its message within this many seconds of the answer being accepted
#: (its age plus the reactions' wait, on any platform: Slack's workspace-wide reactions budget
#: in a busy workspace) is shown on the table instead, which the game is redrawing anyway, so
#: every accepted answer shows as accepted within seconds rather than when the budget allows.
MARK_HORIZON = 1.0

#: A workspace's choice to mark refused answers with reactions (its ``reasons`` setting).
RefusalMarksFor = Callable[[ChatKey], Awaitable[bool]]


class Marks:
    """Each chat's marks: which go as reactions, which the table shows instead."""

    def __init__(self, lanes: Lanes, tables: Tables, refusal_marks: RefusalMarksFor | None) -> None:
        self.lanes = lanes
        self.tables = tables
        self.refusal_marks = refusal_marks
        lanes.serve("marks", self._marks)

    async def react(self, message: React) -> None:
        """Mark an answer: an ✅ is queued; a refusal is listed (and maybe queued as a reaction)."""
        chat = message.ref.chat
        lanes = self.lanes
        state = lanes.state(chat)
        if message.mark == "accepted":
            label = (
                f"{views.user(message.who)}: {views.user(message.word.upper())}"
                if message.who and message.word
                else ""
            )
            state.accepted.append((message.ref, lanes.clock.now(), label))
            lanes.stats.note_queue("marks", len(state.accepted) + len(state.refusals))
            lanes.run(chat, state, "marks")
            return
        marks = await self._marks_refusals(chat)
        self.tables.add_miss(chat, state, message, reason=marks or message.mark == "late")
        if not marks or not message.seat or message.seat in state.refused:
            return
        state.refused.add(message.seat)
        state.refusals.append((message.ref, message.mark))
        while len(state.refusals) > MAX_REFUSAL_MARKS:
            state.refusals.popleft()
            lanes.stats.refusal_marks_dropped += 1
        lanes.stats.note_queue("marks", len(state.accepted) + len(state.refusals))
        lanes.run(chat, state, "marks")

    def pending(self, chat: ChatKey) -> bool:
        """True while marks for ``chat`` wait to be sent (or are being sent)."""
        state = self.lanes.chats.get(chat)
        if state is None:
            return False
        lane = state.lanes.get("marks")
        return bool(state.accepted or state.refusals or (lane is not None and not lane.done()))

    async def _marks_refusals(self, chat: ChatKey) -> bool:
        if self.refusal_marks is None:
            return False
        try:
            return await self.refusal_marks(chat)
        except Exception:
            log.exception("could not read the refusal-marks setting of %s", chat.label())
            return False

    async def _marks(self, chat: ChatKey, state: ChatState) -> None:
        clock, pacer, stats = self.lanes.clock, self.lanes.pacer, self.lanes.stats
        while state.accepted or state.refusals:
            try:
                if state.accepted:
                    ref, at, label = state.accepted[0]
                    old = clock.now() - at >= MARK_MAX_AGE and state.table_delivered_at > at
                    if old or self._marks_cost_tables(chat) or self._mark_too_late(chat, at):
                        state.accepted.popleft()
                        stats.accepted_left_to_table += 1
                        if label and state.table is not None:  # the table shows the ✅ instead
                            state.ticks.append(Miss(label))
                            self.tables.changed(state)
                        continue
                    if await self._mark(chat, ref, "accepted"):
                        state.accepted.popleft()
                    continue
                if pacer.wait_time("react", chat) > REFUSAL_PATIENCE:
                    stats.refusal_marks_dropped += len(state.refusals)
                    state.refusals.clear()
                    continue
                ref, mark = state.refusals.popleft()
                await self._mark(chat, ref, mark)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not mark an answer in %s", chat.label())
                if state.accepted:
                    state.accepted.popleft()

    def _marks_cost_tables(self, chat: ChatKey) -> bool:
        """True when a reaction now would take budget the chat's tables wait for."""
        calls = self.lanes.transport.limits.calls
        shared = set(calls.get("react", ())) & (set(calls.get("post", ())) | set(calls.get("edit", ())))
        return bool(shared) and self.lanes.pacer.wait_time("react", chat) > MARK_PATIENCE

    def _mark_too_late(self, chat: ChatKey, accepted_at: float) -> bool:
        """True when an ✅ would reach its message more than :data:`MARK_HORIZON` seconds after
        the answer was accepted (the reactions' budget is backed up): the table shows it sooner."""
        return self.lanes.clock.now() - accepted_at + self.lanes.pacer.wait_time("react", chat) > MARK_HORIZON

    async def _mark(self, chat: ChatKey, ref: MessageRef, mark: Mark) -> bool:
        """One reaction; False when the platform refused it for its rate limit (to try again)."""
        lanes = self.lanes
        if not await lanes.ours(chat):
            return True  # (the game is another process's now: nothing more to mark here)
        ticket: Ticket = await lanes.pacer.acquire("react", chat)
        try:
            lanes.counted("react")
            await lanes.transport.react(ref, mark)
            return True
        except RateLimited as exc:
            lanes.limited("react", chat, exc)
            return False
        finally:
            lanes.pacer.release(ticket)
