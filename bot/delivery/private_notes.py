"""Private notes: shown to one player only, taken one person at a time, in turn.

A note the platform does not limit (Discord's interaction replies) goes at once, so the
adapter can finish the interaction knowing it was answered. The others wait in the chat's
``private`` lane (:mod:`bot.delivery.lanes`), which takes one person's note at a time
(:class:`~bot.core.fairshare.RoundRobin`), each person's in their order, chosen once the
budget has room, so many replies owed to one person never hold up another's. A player
whose private messages the platform refuses (their setting) is remembered in
:class:`~bot.delivery.reach.Unreachable` and pointed once, in the chat, to what shows their notes
(:mod:`bot.delivery.reach`). Only where the platform has ephemeral replies is an answer to the
player's own command or button sure to reach them (it is shown in the channel, to them
alone); elsewhere it is a direct message like any other note.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from functools import partial

from bot.core.clock import Clock
from bot.core.events import ChatKey, MessageRef, Post, Private
from bot.core.platform import EVERY_CAPABILITY, Capabilities
from bot.delivery.lanes import ChatState, Lanes
from bot.delivery.pacing import RateLimited
from bot.delivery.reach import PrivateRefused, Unreachable, pointer, seat_of
from games.common.speech import speaking

# (one logger for the whole delivery layer, as before it was split into modules)
log = logging.getLogger("bot.delivery.delivery")

#: How a note to the chat is posted (the pointer for a player who refuses private messages).
PostTo = Callable[[Post], Awaitable[MessageRef | None]]


class PrivateNotes:
    """Each chat's private notes, and the players the platform refuses them to."""

    def __init__(
        self, lanes: Lanes, clock: Clock, post: PostTo, capabilities: Capabilities = EVERY_CAPABILITY
    ) -> None:
        self.lanes = lanes
        self.post = post
        self.capabilities = capabilities
        #: Players whose private messages the platform refuses (their setting): see bot/delivery/reach.py.
        self.unreachable = Unreachable(clock)
        lanes.serve("private", self._privates)

    async def send(self, message: Private) -> None:
        """Send a private note now (an answer the platform does not limit) or queue it in turn."""
        lanes = self.lanes
        if not self._in_place(message) and self.unreachable.closed(seat_of(message.player)):
            # refused before: not tried again (each refusal is an invalid request to the
            # platform); the player was pointed to what shows it on request (bot/delivery/reach.py)
            lanes.stats.privates_unreachable += 1
            return
        state = lanes.state(message.chat)
        lane = state.lanes.get("private")
        if not lanes.pacer.paced("private") and not state.privates and (lane is None or lane.done()):
            # an answer the platform does not limit (Discord's interaction replies) goes at
            # once, so the adapter can finish the interaction knowing it was answered
            try:
                await lanes.call("private", message.chat, partial(lanes.transport.private, message))
            except PrivateRefused as exc:
                await self._refused(message.chat, exc, message.view.locale)
            except Exception:
                log.exception("could not deliver a private note in %s", message.chat.label())
            return
        state.privates.push(message.player.user_id, message)
        lanes.stats.note_queue("private", len(state.privates))
        lanes.run(message.chat, state, "private")

    def _in_place(self, message: Private) -> bool:
        """Whether ``message`` answers its player's own command or button where they are (an
        ephemeral reply), which no privacy setting refuses."""
        return message.interaction is not None and self.capabilities.ephemeral

    async def _refused(self, chat: ChatKey, exc: PrivateRefused, locale: str) -> None:
        """The platform refused a private message to a player (their own setting): remember it,
        and the first time, tell them in the chat where their private notes are instead."""
        self.lanes.stats.privates_unreachable += 1
        if self.unreachable.refused(exc.player):
            log.info(
                "%s refuses direct messages: their private notes wait for them behind My rack (%s)",
                exc.player.display_name,
                chat.label(),
            )
            with speaking(locale):  # (the language the refused note spoke)
                note = pointer(exc.player, buttons=self.capabilities.buttons)
            await self.post(Post(chat, note))

    async def _privates(self, chat: ChatKey, state: ChatState) -> None:
        while state.privates:
            try:
                await self._next_private(chat, state)
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not deliver a private note in %s", chat.label())

    async def _next_private(self, chat: ChatKey, state: ChatState) -> None:
        """Send the private note whose turn it is once there is room for it: chosen after the
        wait for the budget, so a note queued meanwhile by someone else can go first."""
        lanes = self.lanes
        if not await lanes.ours(chat):
            state.privates.pop()
            return
        ticket = await lanes.pacer.acquire("private", chat)
        message = state.privates.pop()
        if not self._in_place(message) and self.unreachable.closed(seat_of(message.player)):
            lanes.pacer.release(ticket)  # (refused meanwhile: see send)
            lanes.stats.privates_unreachable += 1
            return
        try:
            lanes.counted("private")
            await lanes.transport.private(message)
            return
        except RateLimited as exc:
            lanes.limited("private", chat, exc)
        except PrivateRefused as exc:
            await self._refused(chat, exc, message.view.locale)
            return
        finally:
            lanes.pacer.release(ticket)
        try:
            await lanes.call("private", chat, partial(lanes.transport.private, message))  # once more
        except PrivateRefused as exc:
            await self._refused(chat, exc, message.view.locale)
