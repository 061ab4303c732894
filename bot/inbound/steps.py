"""The steps of the inbound pipeline: each a small named unit, in the order events take them.

:class:`Pipeline` runs an event through its steps in the manner of slack-bolt's middleware:
each step is called with the event's :class:`Passage` and the rest of the line (``next_``), and
either drops the event (returning without calling ``next_``) or hands it on. A step that must
do something after the rest (let the chat's next event go) wraps ``next_`` in a ``finally``.

The steps every platform's events take (:meth:`bot.inbound.runtime.Runtime.ingest`), in order:

1. :class:`Unread` — text a platform sends no private text for, and a message or reaction in a
   chat without a game (nor one opening), dropped at once, unread, without a place in line;
2. :class:`LineUp` — the chat's place in line, taken on arrival and let go once handled;
3. :class:`Redelivered` — a message or reaction the platform delivers again (by its ids);
4. :class:`InTurn` — waits for every earlier event of its chat;
5. :class:`Admit` — its sender's fair share, then the shared once-only record of commands and
   button presses (:mod:`bot.inbound.admission`);
6. :class:`Recovered` — waits while the chat's game is being restored after a restart;
7. :class:`Authorise` — the sender's admin right, asked of the platform where it matters;
8. :class:`Chatter` — a message goes on only as the answer or move the chat's game reads in
   it (:mod:`bot.sessions.moves`); anything else is chatter, dropped before anything stores it.

What is left, the pipeline's end, is the adapter's own answer or the manager's dispatch.
Every step returns what :meth:`~bot.inbound.runtime.Runtime.ingest` returns: False only for a
repeat of something handled already.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, replace
from typing import Protocol

from bot.core.events import Button, ChatKey, Command, Inbound, PrivateText, Reaction, Text
from bot.core.fairshare import FairShare
from bot.core.ordering import Recent, Turn, Turns
from bot.core.platform import Platform
from bot.inbound.admission import Admission, admit
from bot.inbound.once import Once
from bot.inbound.rights import Rights, button_rights, rights_needed
from bot.sessions.moves import Moves

#: An adapter's own answer to an event it handles itself once admitted.
Answer = Callable[[Inbound], Awaitable[None]]
#: The rest of the line after a step.
Next = Callable[[], Awaitable[bool]]


@dataclass
class Passage:
    """One event on its way in: the event as the steps have made it so far, its chat's place in
    line (the adapter's, or taken by :class:`LineUp`), the platform's ids for this delivery of a
    message or reaction, and the adapter's own answer (None: the manager dispatches it)."""

    event: Inbound
    turn: Turn | None = None
    ids: Sequence[str] = ()
    answer: Answer | None = None


class Step(Protocol):
    """One step of the pipeline."""

    #: What the step is called (in the docs, the logs and :attr:`Pipeline.names`).
    name: str

    async def __call__(self, passage: Passage, next_: Next) -> bool:
        """Drop ``passage``'s event (return without ``next_``) or hand it on (``await next_()``)."""
        ...


class Drops:
    """Events dropped on the way in, by why (``chatter``, ``repeat``, ``refused``)."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = {"chatter": 0, "repeat": 0, "refused": 0}

    def count(self, why: str) -> None:
        """One more event dropped for ``why``."""
        self.counts[why] = self.counts.get(why, 0) + 1


class Pipeline:
    """Steps in order, then ``end`` (what is left of an event that every step handed on)."""

    def __init__(self, steps: Sequence[Step], end: Callable[[Passage], Awaitable[bool]]) -> None:
        self.steps = tuple(steps)
        self.end = end

    @property
    def names(self) -> tuple[str, ...]:
        """The steps' names, in order."""
        return tuple(step.name for step in self.steps)

    async def __call__(self, passage: Passage) -> bool:
        """Run ``passage`` through every step (False: a repeat, dropped)."""

        async def run(index: int) -> bool:
            if index == len(self.steps):
                return await self.end(passage)
            return await self.steps[index](passage, lambda: run(index + 1))

        return await run(0)


class Unread:
    """Private text on a platform that sends none, and messages and reactions in a chat where
    nothing may read them, are dropped before anything else — not even a place in line."""

    name = "unread"

    def __init__(self, platform: Platform, listening: Callable[[ChatKey], bool]) -> None:
        self.platform = platform
        self.listening = listening

    async def __call__(self, passage: Passage, next_: Next) -> bool:
        event = passage.event
        if isinstance(event, PrivateText) and not self.platform.capabilities.private_text:
            return True
        if passage.turn is None and isinstance(event, Text | Reaction) and not self.listening(event.chat):
            return True
        return await next_()


class LineUp:
    """The event's place in its chat's line: taken on arrival (unless the adapter took it
    already) and let go once the event is handled — the chat's next event need not wait for a
    reply's last platform calls."""

    name = "line up"

    def __init__(self, turns: Turns) -> None:
        self.turns = turns

    async def __call__(self, passage: Passage, next_: Next) -> bool:
        if passage.turn is None:
            passage.turn = self.turns.take(passage.event.chat)
        try:
            return await next_()
        finally:
            passage.turn.done()


class Redelivered:
    """A message or reaction delivered again (a Slack retry) by the platform's ids, dropped
    before it waits for anything. (Commands and button presses: :class:`Admit`.)"""

    name = "redelivered"

    def __init__(self, drops: Drops, recent: int = 10_000) -> None:
        self.drops = drops
        self.seen = Recent(recent)

    async def __call__(self, passage: Passage, next_: Next) -> bool:
        ids = passage.ids
        if ids and isinstance(passage.event, Text | Reaction) and not self.seen.first_time(*ids):
            self.drops.count("repeat")
            return False
        return await next_()


class InTurn:
    """Waits until every earlier event of the chat is handled."""

    name = "in turn"

    async def __call__(self, passage: Passage, next_: Next) -> bool:
        assert passage.turn is not None  # (LineUp comes first)
        await passage.turn.wait()
        return await next_()


class Admit:
    """Its sender's fair share, then the once-only record (:func:`bot.inbound.admission.admit`)."""

    name = "admit"

    def __init__(self, fair: FairShare | None, once: Once, drops: Drops) -> None:
        self.fair = fair
        self.once = once
        self.drops = drops

    async def __call__(self, passage: Passage, next_: Next) -> bool:
        verdict = await admit(passage.event, self.fair, self.once)
        if verdict is not Admission.TAKEN:
            self.drops.count(verdict.value)
            return verdict is Admission.REFUSED
        return await next_()


class Recovered:
    """Waits while the chat's game is restored after a restart (most chats wait for nothing)."""

    name = "recovered"

    def __init__(self, wait: Callable[[ChatKey], Awaitable[None]]) -> None:
        self.wait = wait

    async def __call__(self, passage: Passage, next_: Next) -> bool:
        await self.wait(passage.event.chat)
        return await next_()


class Authorise:
    """A command or button that needs an admin asks the platform (nothing else decides who is
    one): the event goes on with its sender's ``is_admin`` answered."""

    name = "authorise"

    def __init__(self, platform: Platform) -> None:
        self.platform = platform

    async def __call__(self, passage: Passage, next_: Next) -> bool:
        event = passage.event
        if isinstance(event, Command):
            rights = rights_needed(event.name, event.args)
        elif isinstance(event, Button):
            rights = button_rights(event.action)
        else:
            return await next_()
        if rights is not Rights.NONE:
            admin = await self.platform.is_admin(
                event.player, event.chat, interaction=event.interaction, fresh=rights is Rights.FRESH
            )
            passage.event = replace(event, player=replace(event.player, is_admin=admin))
        return await next_()


class Chatter:
    """A message goes on only as what the chat's game reads in it (its answer or move, by the
    one rule of :mod:`bot.sessions.moves`); an edit or anything else is chatter, dropped here.
    A chat whose game another process may run is left to the router, which reads it by that
    game's rule."""

    name = "chatter"

    def __init__(self, moves_of: Callable[[ChatKey], Moves | bool | None], drops: Drops) -> None:
        #: The reading of the game in a chat: its :class:`Moves`, None while none is running
        #: here, or True when another process may run it (its router reads the message).
        self.moves_of = moves_of
        self.drops = drops

    async def __call__(self, passage: Passage, next_: Next) -> bool:
        event = passage.event
        if not isinstance(event, Text):
            return await next_()
        moves = self.moves_of(event.chat)
        if moves is True:
            return await next_()
        move = None if event.edited or not isinstance(moves, Moves) else moves.move(event.text)
        if move is None:
            self.drops.count("chatter")
            return True
        passage.event = replace(event, text=move, read=True)
        return await next_()
