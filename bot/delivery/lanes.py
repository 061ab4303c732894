"""What every part of delivery shares: each chat's state, its lanes, and the paced call.

:class:`Lanes` keeps one :class:`ChatState` per chat and runs the chat's lanes — tasks
that exist only while they have work: ``messages`` (posts and the table), ``edits`` (of
other messages, a lobby), ``marks`` and ``private``. Each part of delivery registers the
work of its lane (:meth:`Lanes.serve`): :class:`~bot.delivery.delivery.Delivery` the messages and
edits, :class:`~bot.delivery.marks.Marks` the marks, :class:`~bot.delivery.private_notes.PrivateNotes` the
private notes; :class:`~bot.delivery.tables.Tables` decides what the messages lane does with the
table. Every call goes through the :class:`~bot.delivery.pacing.Pacer` here (:meth:`Lanes.call`),
and is counted in :class:`DeliveryStats` and the metrics (:meth:`Lanes.counted`).
"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from bot.core import metrics, views
from bot.core.clock import Clock
from bot.core.events import ChatKey, Mark, MessageRef, Private
from bot.core.fairshare import RoundRobin
from bot.delivery.pacing import Pacer, RateLimited
from bot.delivery.transport import PictureRefused, Transport

# (one logger for the whole delivery layer, as before it was split into modules)
log = logging.getLogger("bot.delivery.delivery")


@dataclass
class PostItem:
    """A message to post (a lobby's poster waits for its reference)."""

    view: views.View
    reply: asyncio.Future[MessageRef | None] | None = None
    receipt: Callable[[MessageRef | None], None] | None = None


@dataclass
class EditItem:
    """An edit of a message other than the table (a lobby), sent once its burst settled."""

    ref: MessageRef
    view: views.View
    not_before: float = 0.0


class TableItem:
    """The chat's table, as it is when the lane gets here."""


class CloseItem:
    """The chat's game ended."""


Item = PostItem | TableItem | CloseItem


@dataclass
class Miss:
    """A line the table shows until a table carrying it was delivered: an outcome ("Ann takes …"),
    a line of its "Not taken" list, or an ✅ left to the table."""

    text: str
    shown: bool = False


@dataclass
class ChatState:
    """What the delivery layer knows about one chat."""

    table: views.View | None = None
    #: The game's announcements since its last table state, and those no table has shown yet.
    outcome: list[Miss] = field(default_factory=list)
    outcome_open: bool = False  # announcements join the current outcome (no table since)
    misses: list[Miss] = field(default_factory=list)
    dirty: bool = False
    #: When the oldest change no table has shown yet was made (None: nothing waits).
    dirty_since: float | None = None
    changed_since: float | None = None  # first undelivered state whose cards changed
    table_at: float = 0.0  # when the latest table's cards appeared
    live: MessageRef | None = None
    live_at: float = 0.0
    below: int = 0
    picture_key: object = None
    generation: int = 0
    refused: set[str] = field(default_factory=set)
    table_delivered_at: float = 0.0
    queue: deque[Item] = field(default_factory=deque)
    edits: dict[MessageRef, EditItem] = field(default_factory=dict)  # other messages (a lobby)
    table_queued: bool = False
    miss_timer: bool = False
    table_timer: bool = False
    accepted: deque[tuple[MessageRef, float, str]] = field(default_factory=deque)
    ticks: list[Miss] = field(default_factory=list)  # ✅ left to the table
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
    #: messages the platform refused for a picture (each sent again without it)
    pictures_refused: int = 0
    #: private messages refused by the platform, or not tried since (the player's setting)
    privates_unreachable: int = 0
    table_delays: list[float] = field(default_factory=list)
    max_queue: Counter[str] = field(default_factory=Counter)

    def note_queue(self, lane: str, length: int) -> None:
        if length > self.max_queue[lane]:
            self.max_queue[lane] = length


#: The work of one lane: runs while the chat has work for it.
Work = Callable[[ChatKey, ChatState], Coroutine[Any, Any, None]]


class Lanes:
    """Each chat's state and lanes, the background tasks, and the paced call."""

    def __init__(self, transport: Transport, clock: Clock) -> None:
        self.transport = transport
        self.clock = clock
        self.pacer = Pacer(transport.limits, clock)
        self.stats = DeliveryStats()
        self.chats: dict[ChatKey, ChatState] = {}
        self.tasks: set[asyncio.Task[None]] = set()
        #: Asked before each call for a chat (several processes): False once the chat's game has
        #: been taken over by another process, whose table this one must not overwrite.
        self.gate: Callable[[ChatKey], Awaitable[bool]] | None = None
        self._work: dict[str, Work] = {}

    def serve(self, lane: str, work: Work) -> None:
        """Have ``work`` run the lane called ``lane`` of every chat."""
        self._work[lane] = work

    def state(self, chat: ChatKey) -> ChatState:
        """The chat's state, made on first use."""
        state = self.chats.get(chat)
        if state is None:
            state = self.chats[chat] = ChatState()
        return state

    def spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """A background task of the delivery layer (kept until it ends; see ``Delivery.idle``)."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        return task

    def run(self, chat: ChatKey, state: ChatState, lane: str) -> None:
        """Start the chat's ``lane`` unless it is running (it takes what was queued meanwhile)."""
        task = state.lanes.get(lane)
        if task is not None and not task.done():
            return
        work = self._work[lane]
        state.lanes[lane] = self.spawn(work(chat, state), f"deliver {lane} {chat.label()}")

    async def ours(self, chat: ChatKey) -> bool:
        """False once the chat's game is another process's (see :attr:`gate`)."""
        return self.gate is None or await self.gate(chat)

    def counted(self, kind: str) -> None:
        """A call of ``kind`` goes out now."""
        self.stats.calls[kind] += 1
        metrics.platform_call(self.transport.limits.platform, kind)

    def delayed(self, seconds: float) -> None:
        """A chat caught up with new cards ``seconds`` after they appeared."""
        self.stats.table_delays.append(seconds)
        metrics.delivery_delay(self.transport.limits.platform, seconds)

    async def call(self, kind: str, chat: ChatKey, make: Callable[[], Awaitable[Any]]) -> Any:
        """One paced call; a 429 holds the buckets and the call is tried once more (then dropped),
        as is a message refused for its picture (the transport sends it again without)."""
        if not await self.ours(chat):
            return None
        for attempt in (1, 2):
            ticket = await self.pacer.acquire(kind, chat)
            try:
                self.counted(kind)
                return await make()
            except RateLimited as exc:
                self.limited(kind, chat, exc)
                if attempt == 2:
                    return None
            except PictureRefused:
                self.stats.pictures_refused += 1
                if attempt == 2:
                    return None
            finally:
                self.pacer.release(ticket)
        return None

    def limited(self, kind: str, chat: ChatKey, exc: RateLimited) -> None:
        """The platform refused a call for its rate limit: hold the buckets it names."""
        self.stats.rate_limited += 1
        log.warning("%s in %s: rate limited for %.2f s", kind, chat.label(), exc.retry_after)
        self.pacer.penalize(kind, chat, exc.retry_after, exc.scope)
