"""Delivery: what sessions want visible → the fewest platform calls, inside the platform's limits.

Sessions say what should be visible — a game's table, announcements, marks on
answers, private notes — through the :class:`~bot.core.outbox.Outbox` protocol;
:class:`Delivery` decides which calls make it so, and paces them with a
:class:`~bot.delivery.pacing.Pacer` over the limits the adapter declares. Every platform
shares these rules:

- **One live table per game, edited in place.** A game's announcements ("Ann
  takes V K with INVOKE…", "The hourglass ran out…") become the table's outcome
  lines instead of posts of their own; those of an action that also changed the table
  (``Post.table_follows``) wait for its new table, never going out on the old one. A new
  table message is posted only when the old one has scrolled away (:data:`SCROLLED_AWAY`
  messages were written below it and the cards changed; unless the channel's posts are spent
  and an edit is sooner: new cards never wait a post window), is too old to edit
  (``PlatformLimits.max_edit_age``; Discord), was deleted, or when waiting for the edit
  budget would take longer than posting.
- **Latest state wins.** A table state superseded before it was sent is never
  sent; what the game announced with it is not lost: outcome lines, refusals and ✅ left to
  the table stay until a table carrying them went out. A state the game will replace by itself
  within :data:`HOLD_LIMIT` seconds
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
- **No change waits a whole window**: a change of the table's status only (a vote, refusals
  listed, an ✅) is an edit; while the edit budget is spent it waits, at most
  :data:`~bot.delivery.tables.STATUS_PATIENCE` seconds — then the table is posted anew if that
  is sooner (Slack's edit budget is the whole workspace's: a window is 13 s).
- **Per chat, in order**: each chat has a lane for messages (posts and its table),
  one for edits of other messages (a lobby), one for marks and one for private
  notes, so a slow reaction or edit budget never holds up a table. Lanes are tasks
  that exist only while they have work.
- **Private notes by turns**: the private lane takes one person's note at a time, in
  turn (:class:`~bot.core.fairshare.RoundRobin`), each person's in their order, so many
  replies owed to one person never hold up another's.

:meth:`Delivery.send` returns at once (a lobby post waits for its message id; a post's
``receipt`` is called once it is out), so a game never waits on the platform.

The layer is split by what each part decides, around one shared :class:`~bot.delivery.lanes.Lanes`
(each chat's state and lanes, and the paced call): :mod:`bot.delivery.tables` (the live table:
what it shows, and whether it is edited or posted anew), :mod:`bot.delivery.marks` (✅ and refusal
reactions, and their fallback to the table), :mod:`bot.delivery.private_notes` (private notes in
turn, and players who refuse them), and this module, which takes what sessions say, runs
the messages and edits lanes and says when everything is out. :mod:`bot.delivery.transport` is what
an adapter implements.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from functools import partial

from bot.core.clock import Clock
from bot.core.events import ChatKey, Edit, MessageRef, Outbound, Post, Private, React
from bot.core.platform import EVERY_CAPABILITY, Capabilities
from bot.delivery.lanes import ChatState, CloseItem, DeliveryStats, EditItem, Lanes, PostItem, TableItem
from bot.delivery.marks import (
    Marks,
    RefusalMarksFor,
)
from bot.delivery.private_notes import PrivateNotes
from bot.delivery.reach import Unreachable, with_pointer
from bot.delivery.tables import (
    Tables,
)
from bot.delivery.transport import Transport

# (the names other modules import from here, from before the split)
__all__ = ["EDIT_SETTLE", "Delivery", "Tap"]

log = logging.getLogger(__name__)

#: What :attr:`Delivery.taps` holds: a message in, the message to deliver out (None: answered).
Tap = Callable[[Outbound], Awaitable[Outbound | None]]

#: A message (a lobby) edited again within this many seconds waits, and its edits coalesce.
EDIT_SETTLE = 3.0


class Delivery:
    """The :class:`~bot.core.outbox.Outbox` every platform adapter puts between sessions and itself."""

    def __init__(
        self,
        transport: Transport,
        clock: Clock,
        *,
        refusal_marks: RefusalMarksFor | None = None,
        capabilities: Capabilities = EVERY_CAPABILITY,
    ) -> None:
        #: What the platform can show: every view is fitted to it (:meth:`Capabilities.fit`).
        self.capabilities = capabilities
        self.lanes = Lanes(transport, clock)
        self.transport = transport
        self.clock = clock
        self.pacer = self.lanes.pacer
        self.stats: DeliveryStats = self.lanes.stats
        self._chats = self.lanes.chats
        self._tasks = self.lanes.tasks
        self.tables = Tables(self.lanes)
        self.marks = Marks(self.lanes, self.tables, refusal_marks)
        self.private_notes = PrivateNotes(self.lanes, clock, self._post, capabilities)
        self.lanes.serve("messages", self._messages)
        self.lanes.serve("edits", self._edits)
        #: Shown every message first, in order (the web companion's pages follow their games by
        #: it): each returns the message to deliver (the same, or with more on it: a link button
        #: on a player's private note), or None when it answered the message itself (a reply
        #: owed to a web page), which the platform then never sees.
        self.taps: list[Tap] = []

    @property
    def gate(self) -> Callable[[ChatKey], Awaitable[bool]] | None:
        """Asked before each call for a chat (several processes): False once the chat's game has
        been taken over by another process, whose table this one must not overwrite."""
        return self.lanes.gate

    @gate.setter
    def gate(self, gate: Callable[[ChatKey], Awaitable[bool]] | None) -> None:
        self.lanes.gate = gate

    @property
    def refusal_marks(self) -> RefusalMarksFor | None:
        """The workspace's choice to mark refused answers with reactions (None: never)."""
        return self.marks.refusal_marks

    @refusal_marks.setter
    def refusal_marks(self, refusal_marks: RefusalMarksFor | None) -> None:
        self.marks.refusal_marks = refusal_marks

    @property
    def table_listeners(self) -> list[Callable[[MessageRef], None]]:
        """Called with every new live table message (a process adopting the game edits it)."""
        return self.tables.listeners

    @property
    def unreachable(self) -> Unreachable:
        """Players whose private messages the platform refuses (their setting): see bot/delivery/reach.py."""
        return self.private_notes.unreachable

    # ------------------------------------------------------------ what sessions say

    async def send(self, message: Outbound) -> MessageRef | None:
        """Take one outbound message; returns at once except for a lobby post (its reference)."""
        if not isinstance(message, React):
            message = replace(message, view=self.capabilities.fit(message.view))
        # (after fitting: a tap may add a link to a private note, which every platform shows)
        for tap in self.taps:
            shown = await tap(message)
            if shown is None:
                return None
            message = shown
        if isinstance(message, Private):
            await self.private_notes.send(message)
            return None
        if isinstance(message, React):
            await self.marks.react(message)
            return None
        if isinstance(message, Edit):
            self._edit(message)
            return None
        if message.view.kind == "turn" and len(self.unreachable):
            message = replace(
                message, view=with_pointer(message.view, self.unreachable, buttons=self.capabilities.buttons)
            )
        return await self._post(message)

    def saw_message(self, chat: ChatKey) -> None:
        """Someone wrote in ``chat``: the live table moves up."""
        state = self._chats.get(chat)
        if state is not None:
            state.below += 1

    def resume_table(self, ref: MessageRef) -> None:
        """A game carried on from another process: its live table is ``ref``, to be edited in
        place (or posted anew if it has gone or scrolled away)."""
        state = self.lanes.state(ref.chat)
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
        state.queue.append(CloseItem())
        self.lanes.run(chat, state, "messages")

    async def _post(self, message: Post) -> MessageRef | None:
        chat, view = message.chat, message.view
        state = self.lanes.state(chat)
        if view.kind == "table":
            self.tables.new_table(state, view)
            self.tables.queue(chat, state)
            return None
        if view.kind == "announce" and view.lines:
            self.tables.announce(chat, state, view.lines, show=not message.table_follows)
            return None
        reply: asyncio.Future[MessageRef | None] | None = None
        if view.kind == "lobby":
            reply = asyncio.get_running_loop().create_future()
        state.queue.append(PostItem(view, reply, message.receipt))
        self.stats.note_queue("messages", len(state.queue))
        self.lanes.run(chat, state, "messages")
        return await reply if reply is not None else None

    def _edit(self, message: Edit) -> None:
        chat = message.ref.chat
        state = self.lanes.state(chat)
        item = state.edits.get(message.ref)
        if item is not None:
            item.view = message.view  # latest wins
            return
        # a message edited again within EDIT_SETTLE waits, so a burst (joins) becomes one edit
        last = state.edited_at.get(message.ref.message_id)
        not_before = last + EDIT_SETTLE if last is not None else 0.0
        state.edits[message.ref] = EditItem(message.ref, message.view, not_before)
        self.stats.note_queue("edits", len(state.edits))
        self.lanes.run(chat, state, "edits")

    # ------------------------------------------------------------ lanes

    async def _messages(self, chat: ChatKey, state: ChatState) -> None:
        while state.queue:
            item = state.queue.popleft()
            try:
                if isinstance(item, TableItem):
                    state.table_queued = False
                    await self.tables.deliver(chat, state)
                elif isinstance(item, PostItem):
                    ref = await self.lanes.call(
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
                if isinstance(item, PostItem) and item.reply is not None and not item.reply.done():
                    item.reply.set_result(None)
                raise
            except Exception as exc:
                if isinstance(item, PostItem) and item.reply is not None and not item.reply.done():
                    item.reply.set_exception(exc)  # whoever waits for it explains (e.g. "invite me")
                else:
                    log.exception("could not deliver to %s", chat.label())

    async def _edits(self, chat: ChatKey, state: ChatState) -> None:
        """Edits of messages other than the table, each once its burst has settled."""
        while state.edits:
            item = next(iter(state.edits.values()))
            if item.not_before > self.clock.now():
                await self.clock.sleep_until(item.not_before)  # later edits join it meanwhile
            del state.edits[item.ref]
            state.edited_at[item.ref.message_id] = self.clock.now()
            try:
                await self.lanes.call(
                    "edit", chat, partial(self.transport.edit, item.ref, item.view, picture=False)
                )
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not edit a message in %s", chat.label())

    def _close_game(self, chat: ChatKey, state: ChatState) -> None:
        """Everything queued for the game before it ended is out: forget its table."""
        self.transport.forget(chat)
        if state.queue or state.edits:  # a new game began meanwhile: it keeps the chat's state
            return
        self.tables.reset(state)
        state.edited_at.clear()
        if not (state.accepted or state.refusals or state.privates) and self._chats.get(chat) is state:
            del self._chats[chat]

    # ------------------------------------------------------------ life

    def marks_pending(self, chat: ChatKey) -> bool:
        """True while marks for ``chat`` wait to be sent (or are being sent)."""
        return self.marks.pending(chat)

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
