"""Delivery: what sessions want visible → the fewest platform calls, inside the platform's limits.

Sessions say what should be visible — a game's table, announcements, marks on
answers, private notes — through the :class:`~bot.outbox.Outbox` protocol;
:class:`Delivery` decides which calls make it so, and paces them with a
:class:`~bot.pacing.Pacer` over the limits the adapter declares. Every platform
shares these rules:

- **One live table per game, edited in place.** A game's announcements ("Ann
  takes V K with INVOKE…", "The hourglass ran out…") become the table's outcome
  lines instead of posts of their own. A new table message is posted only when the
  old one has scrolled away (:data:`SCROLLED_AWAY` messages were written below it
  and the cards changed), is too old to edit (``PlatformLimits.max_edit_age``;
  Discord), was deleted, or when waiting for the edit budget would take longer than
  posting.
- **Latest state wins.** A table state superseded before it was sent is never
  sent. A state the game will replace by itself within :data:`HOLD_LIMIT` seconds
  (a view's ``settles_at``, e.g. the race's pause before the next cards flip) waits
  for its successor instead of costing a call of its own.
- **Pictures only when they change**: an edit that changes only the status (a
  score, a timer, an outcome line) keeps the picture already there.
- **Marks**: ✅ on every accepted answer. A refused answer is listed in the next
  table ("not taken: ✗ Bob XYZ · ⏱ Cat VOKE") at no extra call; with the
  workspace's ``reasons`` setting it also gets a reaction (❌ a wrong word, ⏱ a
  valid word that lost by milliseconds), on a player's first refused word per
  table. ``why`` always explains. Under pressure refusal reactions are dropped
  first. An ✅ is never dropped: when it waited :data:`MARK_MAX_AGE` seconds, or when
  a reaction would take budget the chat's tables wait for (Discord's per-token limit,
  backed up more than :data:`MARK_PATIENCE` seconds), it is shown on the table instead
  ("✅ Ann: INVOKE"), which names the answer anyway.
- **Per chat, in order**: each chat has a lane for messages (posts and its table),
  one for edits of other messages (a lobby), one for marks and one for private
  notes, so a slow reaction or edit budget never holds up a table. Lanes are tasks
  that exist only while they have work.
- **Private notes by turns**: the private lane takes one person's note at a time, in
  turn (:class:`~bot.fairshare.RoundRobin`), each person's in their order, so many
  replies owed to one person never hold up another's.

:meth:`Delivery.send` returns at once (a lobby post waits for its message id; a post's
``receipt`` is called once it is out), so a game never waits on the platform.
"""

from __future__ import annotations

import asyncio
import enum
import logging
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol

from bot import metrics, views
from bot.clock import Clock
from bot.events import ChatKey, Edit, Mark, MessageRef, Outbound, Post, Private, React
from bot.fairshare import RoundRobin
from bot.pacing import Pacer, PlatformLimits, RateLimited, Ticket
from bot.reach import PrivateRefused, Unreachable, pointer, seat_of, with_pointer

log = logging.getLogger(__name__)

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
#: A message (a lobby) edited again within this many seconds waits, and its edits coalesce.
EDIT_SETTLE = 3.0
#: Wait at most this long for the edit budget before posting a fresh table instead.
EDIT_PATIENCE = 0.5
#: A refused answer with nothing else to show shows in the table after this many seconds…
MISS_DELAY = 2.0
#: …and once the table has been quiet this long (in a lively game, refusals ride on the next
#: table a claim or a flip brings, at no cost).
MISS_QUIET = 5.0
#: Refusals listed in a table (the rest are counted).
MAX_MISSES = 4
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


class EditResult(enum.Enum):
    """How an edit went."""

    OK = "ok"
    GONE = "gone"  # the message was deleted
    STALE = "stale"  # the platform no longer lets the bot edit it (too old)
    FAILED = "failed"  # refused or failed for another reason (logged by the adapter)


class Transport(Protocol):
    """An adapter's sending side: one method per platform call the delivery layer makes.

    Methods never raise, except :class:`~bot.pacing.RateLimited` when the platform
    refused a call for its rate limit after the client library's own retries.
    """

    limits: PlatformLimits

    async def post(self, chat: ChatKey, view: views.View, *, picture: bool) -> MessageRef | None:
        """Post a message (with its picture when ``picture``); its reference, or None if it failed."""
        ...

    async def edit(self, ref: MessageRef, view: views.View, *, picture: bool) -> EditResult:
        """Replace a message's content; ``picture`` False keeps the picture it has."""
        ...

    async def react(self, ref: MessageRef, mark: Mark) -> None:
        """Add a mark to a player's message."""
        ...

    async def private(self, message: Private) -> None:
        """Show a view to one player only."""
        ...

    def forget(self, chat: ChatKey) -> None:
        """The chat's game ended and everything for it was delivered."""
        ...


@dataclass
class _PostItem:
    view: views.View
    reply: asyncio.Future[MessageRef | None] | None = None
    receipt: Callable[[MessageRef | None], None] | None = None


@dataclass
class _EditItem:
    ref: MessageRef
    view: views.View
    not_before: float = 0.0


class _TableItem:
    """The chat's table, as it is when the lane gets here."""


class _CloseItem:
    """The chat's game ended."""


_Item = _PostItem | _TableItem | _CloseItem


@dataclass
class _Miss:
    text: str
    shown: bool = False


@dataclass
class _Chat:
    """What the delivery layer knows about one chat."""

    table: views.View | None = None
    outcome: list[str] = field(default_factory=list)
    outcome_open: bool = False  # announcements join the current outcome (no table since)
    misses: list[_Miss] = field(default_factory=list)
    dirty: bool = False
    changed_since: float | None = None  # first undelivered state whose cards changed
    table_at: float = 0.0  # when the latest table's cards appeared
    live: MessageRef | None = None
    live_at: float = 0.0
    below: int = 0
    picture_key: object = None
    generation: int = 0
    refused: set[str] = field(default_factory=set)
    table_delivered_at: float = 0.0
    queue: deque[_Item] = field(default_factory=deque)
    edits: dict[MessageRef, _EditItem] = field(default_factory=dict)  # other messages (a lobby)
    table_queued: bool = False
    miss_timer: bool = False
    table_timer: bool = False
    accepted: deque[tuple[MessageRef, float, str]] = field(default_factory=deque)
    ticks: list[_Miss] = field(default_factory=list)  # ✅ left to the table
    refusals: deque[tuple[MessageRef, Mark]] = field(default_factory=deque)
    #: Private notes waiting, taken one person at a time (each person's in their order).
    privates: RoundRobin[str, Private] = field(default_factory=RoundRobin)
    lanes: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    changed: asyncio.Event = field(default_factory=asyncio.Event)
    edited_at: dict[str, float] = field(default_factory=dict)  # message id -> last edit (not tables)


@dataclass
class DeliveryStats:
    """What the delivery layer did (for tests, benchmarks and metrics)."""

    calls: Counter[str] = field(default_factory=Counter)
    fresh_tables: int = 0
    table_edits: int = 0
    held_tables: int = 0
    superseded_tables: int = 0
    refusal_marks_dropped: int = 0
    accepted_left_to_table: int = 0
    rate_limited: int = 0
    #: private messages refused by the platform, or not tried since (the player's setting)
    privates_unreachable: int = 0
    table_delays: list[float] = field(default_factory=list)
    max_queue: Counter[str] = field(default_factory=Counter)

    def note_queue(self, lane: str, length: int) -> None:
        if length > self.max_queue[lane]:
            self.max_queue[lane] = length


class Delivery:
    """The :class:`~bot.outbox.Outbox` every platform adapter puts between sessions and itself."""

    def __init__(
        self, transport: Transport, clock: Clock, *, refusal_marks: RefusalMarksFor | None = None
    ) -> None:
        self.transport = transport
        self.clock = clock
        self.pacer = Pacer(transport.limits, clock)
        self.refusal_marks = refusal_marks
        self.stats = DeliveryStats()
        self._chats: dict[ChatKey, _Chat] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        #: Called with every new live table message (a process adopting the game edits it).
        self.table_listeners: list[Callable[[MessageRef], None]] = []
        #: Asked before each call for a chat (several processes): False once the chat's game has
        #: been taken over by another process, whose table this one must not overwrite.
        self.gate: Callable[[ChatKey], Awaitable[bool]] | None = None
        #: Players whose private messages the platform refuses (their setting): see bot/reach.py.
        self.unreachable = Unreachable(clock)

    # ------------------------------------------------------------ what sessions say

    async def send(self, message: Outbound) -> MessageRef | None:
        """Take one outbound message; returns at once except for a lobby post (its reference)."""
        if isinstance(message, Private):
            if message.interaction is None and self.unreachable.closed(seat_of(message.player)):
                # refused before: not tried again (each refusal is an invalid request to the
                # platform); the player was pointed to what shows it on request (bot/reach.py)
                self.stats.privates_unreachable += 1
                return None
            state = self._chat(message.chat)
            lane = state.lanes.get("private")
            if not self.pacer.paced("private") and not state.privates and (lane is None or lane.done()):
                # an answer the platform does not limit (Discord's interaction replies) goes at
                # once, so the adapter can finish the interaction knowing it was answered
                try:
                    await self._call("private", message.chat, partial(self.transport.private, message))
                except PrivateRefused as exc:
                    await self._refused(message.chat, exc)
                except Exception:
                    log.exception("could not deliver a private note in %s", message.chat.label())
                return None
            state.privates.push(message.player.user_id, message)
            self.stats.note_queue("private", len(state.privates))
            self._run(message.chat, state, "private")
            return None
        if isinstance(message, React):
            await self._react(message)
            return None
        if isinstance(message, Edit):
            self._edit(message)
            return None
        if message.view.kind == "turn" and len(self.unreachable):
            message = replace(message, view=with_pointer(message.view, self.unreachable))
        return await self._post(message)

    async def _refused(self, chat: ChatKey, exc: PrivateRefused) -> None:
        """The platform refused a private message to a player (their own setting): remember it,
        and the first time, tell them in the chat where their private notes are instead."""
        self.stats.privates_unreachable += 1
        if self.unreachable.refused(exc.player):
            log.info(
                "%s refuses direct messages: their private notes wait for them behind My rack (%s)",
                exc.player.display_name,
                chat.label(),
            )
            await self._post(Post(chat, pointer(exc.player)))

    def saw_message(self, chat: ChatKey) -> None:
        """Someone wrote in ``chat``: the live table moves up."""
        state = self._chats.get(chat)
        if state is not None:
            state.below += 1

    def resume_table(self, ref: MessageRef) -> None:
        """A game carried on from another process: its live table is ``ref``, to be edited in
        place (or posted anew if it has gone or scrolled away)."""
        state = self._chat(ref.chat)
        if state.live is None:
            state.live, state.live_at, state.below = ref, self.clock.now(), 0

    def drop(self, chat: ChatKey) -> None:
        """The chat's game is no longer this process's: send nothing more that was queued for it."""
        state = self._chats.pop(chat, None)
        if state is not None:
            for task in state.lanes.values():
                task.cancel()
        self.transport.forget(chat)

    def closed(self, chat: ChatKey) -> None:
        """The chat's game ended: once everything queued for it is out, forget it."""
        state = self._chats.get(chat)
        if state is None:
            self.transport.forget(chat)
            return
        state.queue.append(_CloseItem())
        self._run(chat, state, "messages")

    async def _post(self, message: Post) -> MessageRef | None:
        chat, view = message.chat, message.view
        state = self._chat(chat)
        if view.kind == "table":
            self._new_table(state, view)
            self._queue_table(chat, state)
            return None
        if view.kind == "announce" and view.lines:
            if not state.outcome_open:
                state.outcome = []
                state.misses = [miss for miss in state.misses if not miss.shown]
                state.ticks = [tick for tick in state.ticks if not tick.shown]
                state.outcome_open = True
            state.outcome.extend(view.lines)
            state.dirty = True
            self._queue_table(chat, state)
            return None
        reply: asyncio.Future[MessageRef | None] | None = None
        if view.kind == "lobby":
            reply = asyncio.get_running_loop().create_future()
        state.queue.append(_PostItem(view, reply, message.receipt))
        self.stats.note_queue("messages", len(state.queue))
        self._run(chat, state, "messages")
        return await reply if reply is not None else None

    def _new_table(self, state: _Chat, view: views.View) -> None:
        if state.dirty and state.table is not None:
            self.stats.superseded_tables += 1
        state.table = view
        state.outcome_open = False
        state.dirty = True
        state.changed.set()
        key = views.picture_key(view)
        if key != state.picture_key:
            state.table_at = self.clock.now()  # when these cards appeared
            if state.changed_since is None:
                state.changed_since = state.table_at

    def _queue_table(self, chat: ChatKey, state: _Chat) -> None:
        if not state.table_queued:
            state.table_queued = True
            state.queue.append(_TableItem())
            self.stats.note_queue("messages", len(state.queue))
        self._run(chat, state, "messages")

    def _edit(self, message: Edit) -> None:
        chat = message.ref.chat
        state = self._chat(chat)
        item = state.edits.get(message.ref)
        if item is not None:
            item.view = message.view  # latest wins
            return
        # a message edited again within EDIT_SETTLE waits, so a burst (joins) becomes one edit
        last = state.edited_at.get(message.ref.message_id)
        not_before = last + EDIT_SETTLE if last is not None else 0.0
        state.edits[message.ref] = _EditItem(message.ref, message.view, not_before)
        self.stats.note_queue("edits", len(state.edits))
        self._run(chat, state, "edits")

    async def _react(self, message: React) -> None:
        chat = message.ref.chat
        state = self._chat(chat)
        if message.mark == "accepted":
            label = (
                f"{views.user(message.who)}: {views.user(message.word.upper())}"
                if message.who and message.word
                else ""
            )
            state.accepted.append((message.ref, self.clock.now(), label))
            self.stats.note_queue("marks", len(state.accepted) + len(state.refusals))
            self._run(chat, state, "marks")
            return
        marks = await self._marks_refusals(chat)
        self._add_miss(chat, state, message, reason=marks or message.mark == "late")
        if not marks or not message.seat or message.seat in state.refused:
            return
        state.refused.add(message.seat)
        state.refusals.append((message.ref, message.mark))
        while len(state.refusals) > MAX_REFUSAL_MARKS:
            state.refusals.popleft()
            self.stats.refusal_marks_dropped += 1
        self.stats.note_queue("marks", len(state.accepted) + len(state.refusals))
        self._run(chat, state, "marks")

    async def _marks_refusals(self, chat: ChatKey) -> bool:
        if self.refusal_marks is None:
            return False
        try:
            return await self.refusal_marks(chat)
        except Exception:
            log.exception("could not read the refusal-marks setting of %s", chat.label())
            return False

    def _add_miss(self, chat: ChatKey, state: _Chat, message: React, *, reason: bool) -> None:
        if not message.word or state.table is None:
            return
        sign = "⏱" if message.mark == "late" else "✗"
        who, word = views.user(message.who), views.user(message.word)
        text = f"{sign} {who}: {word.upper()}" if message.who else f"{sign} {word}"
        if message.reason and reason:
            text += f" — {message.reason}"
        state.misses.append(_Miss(text))
        if not state.miss_timer:
            state.miss_timer = True
            self._spawn(self._show_misses_later(chat, state), f"misses {chat.label()}")

    async def _show_misses_later(self, chat: ChatKey, state: _Chat) -> None:
        await self.clock.sleep_until(self.clock.now() + MISS_DELAY)
        while (quiet := state.table_delivered_at + MISS_QUIET) > self.clock.now():
            await self.clock.sleep_until(quiet)
        state.miss_timer = False
        if any(not miss.shown for miss in state.misses) and self._chats.get(chat) is state:
            state.dirty = True
            self._queue_table(chat, state)

    # ------------------------------------------------------------ lanes

    def _chat(self, chat: ChatKey) -> _Chat:
        state = self._chats.get(chat)
        if state is None:
            state = self._chats[chat] = _Chat()
        return state

    def _spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _run(self, chat: ChatKey, state: _Chat, lane: str) -> None:
        task = state.lanes.get(lane)
        if task is not None and not task.done():
            return
        work = {
            "messages": self._messages,
            "edits": self._edits,
            "marks": self._marks,
            "private": self._privates,
        }[lane]
        state.lanes[lane] = self._spawn(work(chat, state), f"deliver {lane} {chat.label()}")

    async def _messages(self, chat: ChatKey, state: _Chat) -> None:
        while state.queue:
            item = state.queue.popleft()
            try:
                if isinstance(item, _TableItem):
                    state.table_queued = False
                    await self._deliver_table(chat, state)
                elif isinstance(item, _PostItem):
                    ref = await self._call(
                        "post", chat, partial(self.transport.post, chat, item.view, picture=True)
                    )
                    if item.reply is not None and not item.reply.done():
                        item.reply.set_result(ref)
                    if item.receipt is not None:
                        item.receipt(ref)
                else:
                    edits = state.lanes.get("edits")
                    if edits is not None and not edits.done():
                        await asyncio.wait({edits})  # the game's last edits go first
                    self._close_game(chat, state)
            except asyncio.CancelledError:
                if isinstance(item, _PostItem) and item.reply is not None and not item.reply.done():
                    item.reply.set_result(None)
                raise
            except Exception as exc:
                if isinstance(item, _PostItem) and item.reply is not None and not item.reply.done():
                    item.reply.set_exception(exc)  # whoever waits for it explains (e.g. "invite me")
                else:
                    log.exception("could not deliver to %s", chat.label())

    async def _edits(self, chat: ChatKey, state: _Chat) -> None:
        """Edits of messages other than the table, each once its burst has settled."""
        while state.edits:
            item = next(iter(state.edits.values()))
            if item.not_before > self.clock.now():
                await self.clock.sleep_until(item.not_before)  # later edits join it meanwhile
            del state.edits[item.ref]
            state.edited_at[item.ref.message_id] = self.clock.now()
            try:
                await self._call(
                    "edit", chat, partial(self.transport.edit, item.ref, item.view, picture=False)
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not edit a message in %s", chat.label())

    def _close_game(self, chat: ChatKey, state: _Chat) -> None:
        """Everything queued for the game before it ended is out: forget its table."""
        self.transport.forget(chat)
        if state.queue or state.edits:  # a new game began meanwhile: it keeps the chat's state
            return
        state.table, state.live, state.outcome, state.misses, state.ticks = None, None, [], [], []
        state.dirty, state.outcome_open, state.changed_since = False, False, None
        state.picture_key, state.below = None, 0
        state.refused.clear()
        state.edited_at.clear()
        if not (state.accepted or state.refusals or state.privates) and self._chats.get(chat) is state:
            del self._chats[chat]

    async def _ours(self, chat: ChatKey) -> bool:
        return self.gate is None or await self.gate(chat)

    async def _call(self, kind: str, chat: ChatKey, make: Callable[[], Awaitable[Any]]) -> Any:
        """One paced call; a 429 holds the buckets and the call is tried once more (then dropped)."""
        if not await self._ours(chat):
            return None
        for attempt in (1, 2):
            ticket = await self.pacer.acquire(kind, chat)
            try:
                self.stats.calls[kind] += 1
                metrics.platform_call(self.transport.limits.platform, kind)
                return await make()
            except RateLimited as exc:
                self._limited(kind, chat, exc)
                if attempt == 2:
                    return None
            finally:
                self.pacer.release(ticket)
        return None

    def _limited(self, kind: str, chat: ChatKey, exc: RateLimited) -> None:
        self.stats.rate_limited += 1
        log.warning("%s in %s: rate limited for %.2f s", kind, chat.label(), exc.retry_after)
        self.pacer.penalize(kind, chat, exc.retry_after, exc.scope)

    async def _hold(self, state: _Chat) -> None:
        """Wait while the table is a state the game will replace by itself very soon."""
        while True:
            table = state.table
            settles = table.settles_at if table is not None else None
            now = self.clock.now()
            if settles is None or not now < settles <= now + HOLD_LIMIT:
                return
            if state.changed_since is not None and settles > state.changed_since + HOLD_MAX_DELAY:
                return  # these cards have waited long enough: show them now
            state.changed.clear()
            self.stats.held_tables += 1
            sleeper = asyncio.ensure_future(self.clock.sleep_until(settles + HOLD_GRACE))
            newer = asyncio.ensure_future(state.changed.wait())
            try:
                await asyncio.wait({sleeper, newer}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                sleeper.cancel()
                newer.cancel()
            if not newer.done() or newer.cancelled():
                return  # the time came and nothing newer did: show what there is

    def _compose(self, state: _Chat) -> views.View:
        assert state.table is not None
        table = state.table
        lines = [*state.outcome, *table.lines]
        if state.ticks:
            lines.append("✅ " + " · ".join(tick.text for tick in state.ticks[-MAX_MISSES:]))
        if state.misses:
            shown = [miss.text for miss in state.misses[-MAX_MISSES:]]
            more = len(state.misses) - len(shown)
            lines.append("Not taken: " + " · ".join(shown) + (f" (+{more} more)" if more else ""))
        return replace(table, lines=tuple(lines))

    async def _deliver_table(self, chat: ChatKey, state: _Chat) -> None:
        if state.table is None:
            if state.outcome:  # announcements of a game without a table: post them
                lines, state.outcome, state.dirty = tuple(state.outcome), [], False
                view = views.View(kind="announce", lines=lines)
                await self._call("post", chat, lambda: self.transport.post(chat, view, picture=False))
            return
        await self._hold(state)
        if not state.dirty:
            return
        kind = self._table_call(state)
        if kind is None:  # only the status changed and edits are backed up: don't hold up the lane
            self._table_later(chat, state, self.pacer.wait_time("edit", chat))
            return
        await self._draw_ahead(chat, state, kind)
        ticket = await self.pacer.acquire(kind, chat)
        try:
            await self._send_table(chat, state, kind)
        except RateLimited as exc:
            self._limited(kind, chat, exc)
            state.dirty = True
            self._queue_table(chat, state)
        finally:
            self.pacer.release(ticket)

    async def _draw_ahead(self, chat: ChatKey, state: _Chat, kind: str) -> None:
        """Have the transport draw the table's picture before the call takes its rate-limit slot
        (a slot is held until the answer comes back; under load, drawing takes long enough to
        matter). Transports that draw no pictures, or none ahead, have no ``draw``."""
        draw = getattr(self.transport, "draw", None)
        table = state.table
        if draw is None or table is None:
            return
        if kind == "edit" and views.picture_key(table) == state.picture_key:
            return  # the edit keeps the picture already there
        try:
            await draw(chat, table)
        except Exception:
            log.exception("could not draw the table of %s ahead", chat.label())

    def _table_later(self, chat: ChatKey, state: _Chat, delay: float) -> None:
        """Queue the table again once ``delay`` has passed (unless a newer table went meanwhile)."""
        if state.table_timer:
            return
        state.table_timer = True

        async def later() -> None:
            try:
                await self.clock.sleep_until(self.clock.now() + delay)
            finally:
                state.table_timer = False
            if state.dirty and self._chats.get(chat) is state:
                self._queue_table(chat, state)

        self._spawn(later(), f"table later {chat.label()}")

    def _table_call(self, state: _Chat) -> str | None:
        """Edit the live table, post a new one, or (None) leave a status-only change for later."""
        assert state.table is not None
        if state.live is None:
            return "post"
        max_age = self.transport.limits.max_edit_age
        if max_age is not None and self.clock.now() - state.live_at >= max_age:
            return "post"
        table = state.table
        new_look = views.picture_key(table) != state.picture_key and bool(table.cards or table.board)
        if state.below >= SCROLLED_AWAY and new_look:
            return "post"  # (a game's final table, with nothing left to show, is edited in place)
        wait_edit = self.pacer.wait_time("edit", state.live.chat)
        if wait_edit > EDIT_PATIENCE:
            if views.picture_key(table) == state.picture_key:
                return None  # same cards: not worth a fresh message, nor a wait that holds up the lane
            if self.pacer.wait_time("post", state.live.chat) < wait_edit:
                return "post"
        return "edit"

    async def _send_table(self, chat: ChatKey, state: _Chat, kind: str) -> None:
        if not await self._ours(chat):
            return
        view = self._compose(state)  # the latest state, after any wait for the budget
        key = views.picture_key(view)
        state.dirty = False
        self.stats.calls[kind] += 1
        metrics.platform_call(self.transport.limits.platform, kind)
        if kind == "edit" and state.live is not None:
            outcome = await self.transport.edit(state.live, view, picture=key != state.picture_key)
            if outcome is EditResult.OK:
                self.stats.table_edits += 1
                self._table_delivered(state, key)
                return
            log.info("the live table in %s could not be edited (%s): posting it anew", chat.label(), outcome)
            ref = await self._call("post", chat, lambda: self.transport.post(chat, view, picture=True))
        else:
            ref = await self.transport.post(chat, view, picture=True)
        if ref is None:
            return
        self.stats.fresh_tables += 1
        state.live, state.live_at, state.below = ref, self.clock.now(), 0
        self._table_delivered(state, key)
        for listener in self.table_listeners:
            listener(ref)

    def _table_delivered(self, state: _Chat, key: object) -> None:
        now = self.clock.now()
        if key != state.picture_key:
            state.generation += 1
            state.refused.clear()
        if state.changed_since is not None:
            # the channel caught up with the cards that were new since then (a state that was
            # superseded before it could be shown counts from when it appeared)
            self.stats.table_delays.append(now - state.changed_since)
            metrics.delivery_delay(self.transport.limits.platform, now - state.changed_since)
            newer = state.table is not None and views.picture_key(state.table) != key
            state.changed_since = state.table_at if newer else None
        state.picture_key = key
        state.table_delivered_at = now
        for miss in (*state.misses, *state.ticks):
            miss.shown = True

    async def _marks(self, chat: ChatKey, state: _Chat) -> None:
        while state.accepted or state.refusals:
            try:
                if state.accepted:
                    ref, at, label = state.accepted[0]
                    old = self.clock.now() - at >= MARK_MAX_AGE and state.table_delivered_at > at
                    if old or self._marks_cost_tables(chat) or self._mark_too_late(chat, at):
                        state.accepted.popleft()
                        self.stats.accepted_left_to_table += 1
                        if label and state.table is not None:  # the table shows the ✅ instead
                            state.ticks.append(_Miss(label))
                            state.dirty = True
                        continue
                    if await self._mark(chat, ref, "accepted"):
                        state.accepted.popleft()
                    continue
                if self.pacer.wait_time("react", chat) > REFUSAL_PATIENCE:
                    self.stats.refusal_marks_dropped += len(state.refusals)
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
        calls = self.transport.limits.calls
        shared = set(calls.get("react", ())) & (set(calls.get("post", ())) | set(calls.get("edit", ())))
        return bool(shared) and self.pacer.wait_time("react", chat) > MARK_PATIENCE

    def _mark_too_late(self, chat: ChatKey, accepted_at: float) -> bool:
        """True when an ✅ would reach its message more than :data:`MARK_HORIZON` seconds after
        the answer was accepted (the reactions' budget is backed up): the table shows it sooner."""
        return self.clock.now() - accepted_at + self.pacer.wait_time("react", chat) > MARK_HORIZON

    async def _mark(self, chat: ChatKey, ref: MessageRef, mark: Mark) -> bool:
        """One reaction; False when the platform refused it for its rate limit (to try again)."""
        if not await self._ours(chat):
            return True  # (the game is another process's now: nothing more to mark here)
        ticket: Ticket = await self.pacer.acquire("react", chat)
        try:
            self.stats.calls["react"] += 1
            metrics.platform_call(self.transport.limits.platform, "react")
            await self.transport.react(ref, mark)
            return True
        except RateLimited as exc:
            self._limited("react", chat, exc)
            return False
        finally:
            self.pacer.release(ticket)

    async def _privates(self, chat: ChatKey, state: _Chat) -> None:
        while state.privates:
            try:
                await self._next_private(chat, state)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not deliver a private note in %s", chat.label())

    async def _next_private(self, chat: ChatKey, state: _Chat) -> None:
        """Send the private note whose turn it is once there is room for it: chosen after the
        wait for the budget, so a note queued meanwhile by someone else can go first."""
        if not await self._ours(chat):
            state.privates.pop()
            return
        ticket = await self.pacer.acquire("private", chat)
        message = state.privates.pop()
        if message.interaction is None and self.unreachable.closed(seat_of(message.player)):
            self.pacer.release(ticket)  # (refused meanwhile: see send)
            self.stats.privates_unreachable += 1
            return
        try:
            self.stats.calls["private"] += 1
            metrics.platform_call(self.transport.limits.platform, "private")
            await self.transport.private(message)
            return
        except RateLimited as exc:
            self._limited("private", chat, exc)
        except PrivateRefused as exc:
            await self._refused(chat, exc)
            return
        finally:
            self.pacer.release(ticket)
        try:
            await self._call("private", chat, partial(self.transport.private, message))  # once more
        except PrivateRefused as exc:
            await self._refused(chat, exc)

    # ------------------------------------------------------------ life

    def marks_pending(self, chat: ChatKey) -> bool:
        """True while marks for ``chat`` wait to be sent (or are being sent)."""
        state = self._chats.get(chat)
        if state is None:
            return False
        lane = state.lanes.get("marks")
        return bool(state.accepted or state.refusals or (lane is not None and not lane.done()))

    def idle(self) -> bool:
        """True when nothing is waiting to be sent."""
        return not any(not task.done() for task in self._tasks if not task.get_name().startswith("misses"))

    async def drain(self, within: float) -> bool:
        """Wait (at most ``within`` seconds of real time) until everything queued is sent."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            busy = [t for t in self._tasks if not t.done() and not t.get_name().startswith("misses")]
            left = deadline - loop.time()
            if not busy:
                return True
            if left <= 0:
                return False
            await asyncio.wait(busy, timeout=left)

    async def close(self) -> None:
        """Stop every lane (what was not sent yet is dropped)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
