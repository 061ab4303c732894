"""A game's live table: one message edited in place, and when to post it anew instead.

:class:`Tables` keeps each chat's table state (in its :class:`~bot.delivery.lanes.ChatState`) and
decides, when the chat's messages lane reaches the table, which call shows it: an edit
of the live table, a fresh post (scrolled away, too old to edit, deleted, or sooner than
the edit budget), or none yet (a state the game replaces by itself within
:data:`HOLD_LIMIT` seconds; a status-only change while edits are backed up). The table
composed is always the latest state, with the game's announcements as its outcome lines,
the refused answers not taken yet (:meth:`Tables.add_miss`) and the ✅ that
:class:`~bot.delivery.marks.Marks` left to it. :class:`~bot.delivery.delivery.Delivery` hands it tables
and announcements; the rules are in :mod:`bot.delivery.delivery`'s docstring.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace

from bot.core import views
from bot.core.events import ChatKey, MessageRef, React
from bot.delivery.lanes import ChatState, Lanes, Miss, TableItem
from bot.delivery.pacing import RateLimited
from bot.delivery.transport import EditResult, PictureRefused
from games.common.speech import _, _n, speaking

# (one logger for the whole delivery layer, as before it was split into modules)
log = logging.getLogger("bot.delivery.delivery")

#: A table that the game will replace by itself within this many seconds waits for its successor.
HOLD_LIMIT = 2.5
#: How long after ``settles_at`` a held table waits for the game to send its successor (it
#: normally comes within milliseconds; the hold ends the moment it does).
HOLD_GRACE = 0.5
#: New cards wait for the game's next state only while it is due within this many seconds of
#: their appearance: the hold never restarts, so a lively game's holds cannot chain.
HOLD_MAX_DELAY = 2.2
#: Messages written below the live table before a table with new cards is posted anew.
SCROLLED_AWAY = 6
#: Wait at most this long for the edit budget before posting a fresh table instead.
EDIT_PATIENCE = 0.5
#: A change of the table's status only (a vote, a refusal listed, an ✅ left to the table) waits
#: at most this long for the edit budget; then the table is posted anew if that is sooner, so a
#: race never stands still for want of edits (Slack's chat.update budget is the workspace's).
STATUS_PATIENCE = 2.0
#: A refused answer with nothing else to show shows in the table after this many seconds…
MISS_DELAY = 2.0
#: …and once the table has been quiet this long (in a lively game, refusals ride on the next
#: table a claim or a flip brings, at no cost).
MISS_QUIET = 5.0
#: Refusals listed in a table (the rest are counted).
MAX_MISSES = 4
#: Outcome lines a table carries at most (the newest): announcements no table has shown yet stay
#: for the next one, up to this many (a table delivered every few seconds shows them all).
MAX_OUTCOME = 8


class Tables:
    """Each chat's live table: what it shows, and the call that shows it."""

    def __init__(self, lanes: Lanes) -> None:
        self.lanes = lanes
        #: Called with every new live table message (a process adopting the game edits it).
        self.listeners: list[Callable[[MessageRef], None]] = []

    # ------------------------------------------------------------ what the game says

    def new_table(self, state: ChatState, view: views.View) -> None:
        """The game's latest table (it replaces any not sent yet)."""
        if state.dirty and state.table is not None:
            self.lanes.stats.superseded_tables += 1
        state.table = view
        state.outcome_open = False
        self.changed(state)
        state.changed.set()
        key = views.picture_key(view)
        if key != state.picture_key:
            state.table_at = self.lanes.clock.now()  # when these cards appeared
            if state.changed_since is None:
                state.changed_since = state.table_at

    def announce(self, chat: ChatKey, state: ChatState, lines: tuple[str, ...], *, show: bool = True) -> None:
        """Announcements become the table's outcome lines (a new outcome after each table).

        Lines no delivered table has shown yet stay, ahead of the new ones: a table state the game
        replaced before it went out (held for the next flip, or waiting for the budget) must not
        take its outcome with it — "Ann takes V K with INVOKE" would never be seen. Unless
        ``show`` is False (the game's new table follows: it shows them), the table is queued."""
        if not state.outcome_open:
            state.outcome = [line for line in state.outcome if not line.shown]
            state.misses = [miss for miss in state.misses if not miss.shown]
            state.ticks = [tick for tick in state.ticks if not tick.shown]
            state.outcome_open = True
        state.outcome.extend(Miss(line) for line in lines)
        del state.outcome[:-MAX_OUTCOME]
        self.changed(state)
        if show:
            self.queue(chat, state)

    def changed(self, state: ChatState) -> None:
        """The table has something new to show (since when, if it had nothing yet)."""
        if not state.dirty or state.dirty_since is None:
            state.dirty_since = self.lanes.clock.now()
        state.dirty = True

    def queue(self, chat: ChatKey, state: ChatState) -> None:
        """Have the messages lane show the table when it gets there (once, however often asked)."""
        if not state.table_queued:
            state.table_queued = True
            state.queue.append(TableItem())
            self.lanes.stats.note_queue("messages", len(state.queue))
        self.lanes.run(chat, state, "messages")

    def add_miss(self, chat: ChatKey, state: ChatState, message: React, *, reason: bool) -> None:
        """List a refused answer on the table (with its reason when ``reason``)."""
        if not message.word or state.table is None:
            return
        sign = "⏱" if message.mark == "late" else "✗"
        who, word = views.user(message.who), views.user(message.word)
        text = f"{sign} {who}: {word.upper()}" if message.who else f"{sign} {word}"
        if message.reason and reason:
            text += f" — {message.reason}"
        state.misses.append(Miss(text))
        if not state.miss_timer:
            state.miss_timer = True
            self.lanes.spawn(self._show_misses_later(chat, state), f"misses {chat.label()}")

    async def _show_misses_later(self, chat: ChatKey, state: ChatState) -> None:
        clock = self.lanes.clock
        await clock.sleep_until(clock.now() + MISS_DELAY)
        while (quiet := state.table_delivered_at + MISS_QUIET) > clock.now():
            await clock.sleep_until(quiet)
        state.miss_timer = False
        if any(not miss.shown for miss in state.misses) and self.lanes.chats.get(chat) is state:
            self.changed(state)
            self.queue(chat, state)

    def reset(self, state: ChatState) -> None:
        """The chat's game ended: forget its table."""
        state.table, state.live, state.outcome, state.misses, state.ticks = None, None, [], [], []
        state.dirty, state.outcome_open, state.changed_since = False, False, None
        state.dirty_since = None
        state.picture_key, state.below = None, 0
        state.refused.clear()

    # ------------------------------------------------------------ the messages lane's table

    async def deliver(self, chat: ChatKey, state: ChatState) -> None:
        """Show the table as it is now, with the call :meth:`_table_call` chooses."""
        lanes, transport = self.lanes, self.lanes.transport
        if state.table is None:
            if state.outcome:  # announcements of a game without a table: post them
                lines = tuple(line.text for line in state.outcome)
                state.outcome, state.dirty = [], False
                view = views.View(kind="announce", lines=lines)
                await lanes.call("post", chat, lambda: transport.post(chat, view, picture=False))
            return
        await self._hold(state)
        refused = False
        while state.dirty:
            kind = self._table_call(state, refused=refused)
            if kind is None:  # only the status changed and edits are backed up: don't hold up the lane
                self._table_later(chat, state, self._status_later(state))
                return
            await self._draw_ahead(chat, state, kind)
            ticket = await lanes.pacer.acquire(kind, chat)
            try:
                await self._send_table(chat, state, kind)
                return
            except PictureRefused:
                # nothing went out: again at once without the picture, by the sooner call
                lanes.stats.pictures_refused += 1
                log.info("a table in %s was refused for its picture: sending it again without", chat.label())
                state.dirty, refused = True, True
            except RateLimited as exc:
                lanes.limited(kind, chat, exc)
                state.dirty = True
                self.queue(chat, state)
                return
            finally:
                lanes.pacer.release(ticket)

    async def _hold(self, state: ChatState) -> None:
        """Wait while the table is a state the game will replace by itself very soon."""
        clock = self.lanes.clock
        while True:
            table = state.table
            settles = table.settles_at if table is not None else None
            now = clock.now()
            if settles is None or not now < settles <= now + HOLD_LIMIT:
                return
            if state.changed_since is not None and settles > state.changed_since + HOLD_MAX_DELAY:
                return  # these cards have waited long enough: show them now
            state.changed.clear()
            self.lanes.stats.held_tables += 1
            sleeper = asyncio.ensure_future(clock.sleep_until(settles + HOLD_GRACE))
            newer = asyncio.ensure_future(state.changed.wait())
            try:
                await asyncio.wait({sleeper, newer}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                sleeper.cancel()
                newer.cancel()
            if not newer.done() or newer.cancelled():
                return  # the time came and nothing newer did: show what there is

    def compose(self, state: ChatState) -> views.View:
        """The table to show: the game's, with the outcome, the ✅ left to it and the refusals."""
        assert state.table is not None
        table = state.table
        lines = [*(line.text for line in state.outcome), *table.lines]
        if state.ticks:
            lines.append("✅ " + " · ".join(tick.text for tick in state.ticks[-MAX_MISSES:]))
        if state.misses:
            shown = [miss.text for miss in state.misses[-MAX_MISSES:]]
            more = len(state.misses) - len(shown)
            with speaking(table.locale):
                if more:
                    lines.append(
                        _n(
                            "Not taken: {refused} (+{count} more)",
                            "Not taken: {refused} (+{count} more)",
                            more,
                            refused=" · ".join(shown),
                        )
                    )
                else:
                    lines.append(_("Not taken: {refused}", refused=" · ".join(shown)))
        return replace(table, lines=tuple(lines))

    async def _draw_ahead(self, chat: ChatKey, state: ChatState, kind: str) -> None:
        """Have the transport draw the table's picture before the call takes its rate-limit slot
        (a slot is held until the answer comes back; under load, drawing takes long enough to
        matter). Transports that draw no pictures, or none ahead, have no ``draw``."""
        draw = getattr(self.lanes.transport, "draw", None)
        table = state.table
        if draw is None or table is None:
            return
        if kind == "edit" and views.picture_key(table) == state.picture_key:
            return  # the edit keeps the picture already there
        try:
            await draw(chat, table)
        except Exception:
            log.exception("could not draw the table of %s ahead", chat.label())

    def _table_later(self, chat: ChatKey, state: ChatState, delay: float) -> None:
        """Queue the table again once ``delay`` has passed (unless a newer table went meanwhile)."""
        if state.table_timer:
            return
        state.table_timer = True
        clock = self.lanes.clock

        async def later() -> None:
            try:
                await clock.sleep_until(clock.now() + delay)
            finally:
                state.table_timer = False
            if state.dirty and self.lanes.chats.get(chat) is state:
                self.queue(chat, state)

        self.lanes.spawn(later(), f"table later {chat.label()}")

    def _table_call(self, state: ChatState, *, refused: bool = False) -> str | None:
        """Edit the live table, post a new one, or (None) leave a status-only change for later.

        ``refused``: the platform has just refused the table for its picture; it goes again at
        once, by whichever call is sooner (an edit of the live table when a post would wait for
        the channel's next slot, which the refused one took)."""
        assert state.table is not None
        if state.live is None:
            return "post"
        pacer = self.lanes.pacer
        max_age = self.lanes.transport.limits.max_edit_age
        if max_age is not None and self.lanes.clock.now() - state.live_at >= max_age:
            return "post"
        if refused:
            sooner = pacer.wait_time("edit", state.live.chat) <= pacer.wait_time("post", state.live.chat)
            return "edit" if sooner else "post"
        table = state.table
        new_look = views.picture_key(table) != state.picture_key and bool(table.cards or table.board)
        wait_edit = pacer.wait_time("edit", state.live.chat)
        if state.below >= SCROLLED_AWAY and new_look:
            # (a game's final table, with nothing left to show, is edited in place)
            wait_post = pacer.wait_time("post", state.live.chat)
            if wait_post <= EDIT_PATIENCE or wait_post <= wait_edit:
                return "post"
            # the channel's posts are spent: the new cards now, on the live table, rather than a
            # post window later (the next new cards are posted anew)
            return "edit"
        if wait_edit > EDIT_PATIENCE:
            sooner = pacer.wait_time("post", state.live.chat) < wait_edit
            if views.picture_key(table) == state.picture_key:
                # same cards: not worth a fresh message, nor a wait that holds up the lane — until
                # the change has waited STATUS_PATIENCE: then a fresh message, if that is sooner
                return "post" if sooner and self._status_waited(state) >= STATUS_PATIENCE else None
            if sooner:
                return "post"
        return "edit"

    def _status_waited(self, state: ChatState) -> float:
        """How long the table's oldest change not shown yet has waited."""
        now = self.lanes.clock.now()
        return now - (state.dirty_since if state.dirty_since is not None else now)

    def _status_later(self, state: ChatState) -> float:
        """When to look again at a status change left for later: once the edit budget allows it,
        or once it has waited :data:`STATUS_PATIENCE` (a fresh post may show it then)."""
        assert state.live is not None
        pacer, chat = self.lanes.pacer, state.live.chat
        wait = pacer.wait_time("edit", chat)
        left = STATUS_PATIENCE - self._status_waited(state)
        if left > 0:
            return min(wait, left)
        return min(wait, pacer.wait_time("post", chat))

    async def _send_table(self, chat: ChatKey, state: ChatState, kind: str) -> None:
        lanes, transport = self.lanes, self.lanes.transport
        if not await lanes.ours(chat):
            return
        view = self.compose(state)  # the latest state, after any wait for the budget
        lines = [*state.outcome, *state.misses, *state.ticks]  # (what ``view`` shows)
        key = views.picture_key(view)
        since, state.dirty, state.dirty_since = state.dirty_since, False, None
        lanes.counted(kind)
        try:
            if kind == "edit" and state.live is not None:
                outcome = await transport.edit(state.live, view, picture=key != state.picture_key)
                if outcome is EditResult.OK:
                    lanes.stats.table_edits += 1
                    self._table_delivered(state, key, lines)
                    return
                log.info(
                    "the live table in %s could not be edited (%s): posting it anew", chat.label(), outcome
                )
                ref = await lanes.call("post", chat, lambda: transport.post(chat, view, picture=True))
            else:
                ref = await transport.post(chat, view, picture=True)
        except (PictureRefused, RateLimited):
            # nothing went out: the table still waits for it, since it first did
            state.dirty = True
            state.dirty_since = since if since is not None else state.dirty_since
            raise
        if ref is None:
            return
        lanes.stats.fresh_tables += 1
        state.live, state.live_at, state.below = ref, lanes.clock.now(), 0
        self._table_delivered(state, key, lines)
        for listener in self.listeners:
            listener(ref)

    def _table_delivered(self, state: ChatState, key: object, lines: list[Miss]) -> None:
        """A table showing picture ``key`` and ``lines`` went out (lines added while it was on its
        way are not among them: the next table shows them)."""
        now = self.lanes.clock.now()
        if key != state.picture_key:
            state.generation += 1
            state.refused.clear()
        if state.changed_since is not None:
            # the channel caught up with the cards that were new since then (a state that was
            # superseded before it could be shown counts from when it appeared)
            self.lanes.delayed(now - state.changed_since)
            newer = state.table is not None and views.picture_key(state.table) != key
            state.changed_since = state.table_at if newer else None
        state.picture_key = key
        state.table_delivered_at = now
        for line in lines:
            line.shown = True
