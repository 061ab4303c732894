"""The steps of the inbound pipeline: each a small named unit, in the order events take them.

:class:`Pipeline` runs an event through its steps in order, as python-telegram-bot runs an
update through its handler groups: each step is called with the event's :class:`Passage` and
either hands it on (returns None, having maybe changed it) or drops it (returns what
:meth:`~bot.inbound.runtime.Runtime.ingest` answers) — or, when it must wait for something (the
chat's earlier events, the database, the platform), returns an awaitable of one of those. Most
events wait for nothing, and then no step costs a coroutine. Whatever happens, the pipeline lets
the event's place in its chat's line go once it is handled.

The steps every platform's events take (:meth:`bot.inbound.runtime.Runtime.ingest`), in order:

1. :class:`Unread` — text a platform sends no private text for, and a message or reaction in a
   chat without a game (nor one opening), dropped at once, unread, without a place in line;
2. :class:`LineUp` — the chat's place in line, taken on arrival and let go once handled;
3. :class:`Redelivered` — a message or reaction the platform delivers again (by its ids);
4. :class:`InTurn` — waits for every earlier event of its chat;
5. :class:`Admit` — its sender's fair share, then the shared once-only record of commands and
   button presses (:mod:`bot.inbound.once`);
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
from bot.inbound.once import Once
from bot.inbound.rights import Rights, button_rights, rights_needed
from bot.sessions.moves import Moves

#: An adapter's own answer to an event it handles itself once admitted.
Answer = Callable[[Inbound], Awaitable[None]]


@dataclass
class Passage:
    """One event on its way in: the event as the steps have made it so far, its chat's place in
    line (the adapter's, or taken by :class:`LineUp`), the platform's ids for this delivery of a
    message or reaction, and the adapter's own answer (None: the manager dispatches it)."""

    event: Inbound
    turn: Turn | None = None
    ids: Sequence[str] = ()
    answer: Answer | None = None


#: What a step says of an event: None, hand it on; True or False, drop it (and that is what the
#: pipeline returns: False for a repeat of something handled already); or an awaitable of one of
#: those, when the step must wait for something first.
Said = bool | None | Awaitable[bool | None]


class Step(Protocol):
    """One step of the pipeline."""

    #: What the step is called (in the docs, the logs and :attr:`Pipeline.names`).
    name: str

    def __call__(self, passage: Passage) -> Said:
        """What the step says of ``passage``'s event (see :data:`Said`)."""
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
        """Run ``passage`` through every step, then the end (False: a repeat, dropped). The
        event's place in its chat's line is let go once it is handled or dropped, whatever
        happened: the chat's next event need not wait for a reply's last platform calls."""
        try:
            for step in self.steps:
                said = step(passage)
                if said is not None and said is not True and said is not False:
                    said = await said
                if said is not None:
                    return said
            return await self.end(passage)
        finally:
            if passage.turn is not None:
                passage.turn.done()


class Unread:
    """Private text on a platform that sends none, and messages and reactions in a chat where
    nothing may read them, are dropped before anything else — not even a place in line."""

    name = "unread"

    def __init__(self, platform: Platform, listening: Callable[[ChatKey], bool]) -> None:
        self.platform = platform
        self.listening = listening

    def __call__(self, passage: Passage) -> Said:
        event = passage.event
        if isinstance(event, PrivateText) and not self.platform.capabilities.private_text:
            return True
        if passage.turn is None and isinstance(event, (Text, Reaction)) and not self.listening(event.chat):
            return True
        return None


class LineUp:
    """The event's place in its chat's line, taken on arrival (unless the adapter took it
    already); the pipeline lets it go once the event is handled."""

    name = "line up"

    def __init__(self, turns: Turns) -> None:
        self.turns = turns

    def __call__(self, passage: Passage) -> Said:
        if passage.turn is None:
            passage.turn = self.turns.take(passage.event.chat)
        return None


class Redelivered:
    """A message or reaction delivered again (a Slack retry) by the platform's ids, dropped
    before it waits for anything. (Commands and button presses: :class:`Admit`.)"""

    name = "redelivered"

    def __init__(self, drops: Drops, recent: int = 10_000) -> None:
        self.drops = drops
        self.seen = Recent(recent)

    def __call__(self, passage: Passage) -> Said:
        ids = passage.ids
        if ids and isinstance(passage.event, (Text, Reaction)) and not self.seen.first_time(*ids):
            self.drops.count("repeat")
            return False
        return None


class InTurn:
    """Waits until every earlier event of the chat is handled."""

    name = "in turn"

    def __call__(self, passage: Passage) -> Said:
        assert passage.turn is not None  # (LineUp comes first)
        return self._wait(passage.turn) if passage.turn.waiting() else None

    @staticmethod
    async def _wait(turn: Turn) -> None:
        await turn.wait()


class Admit:
    """Admission: its sender's fair share, then the once-only record of commands and buttons.

    An event over its sender's allowance (:mod:`bot.core.fairshare`) is refused before anything
    else, even the database's once-only record (:mod:`bot.inbound.once`), so a flood costs
    little (the first refusal of an episode tells its sender why); a repeat of a delivery
    handled before is dropped and takes nothing from its sender's allowance.
    """

    name = "admit"

    def __init__(self, fair: FairShare | None, once: Once, drops: Drops) -> None:
        self.fair = fair
        self.once = once
        self.drops = drops

    def __call__(self, passage: Passage) -> Said:
        event, fair = passage.event, self.fair
        if fair is not None and not fair.room(event):
            return self._refuse(fair, event)
        if isinstance(event, (Command, Button)):  # (only they have a delivery to record)
            return self._first(event)
        if fair is not None:
            fair.take(event)
        return None

    async def _refuse(self, fair: FairShare, event: Inbound) -> bool:
        await fair.refuse(event)
        self.drops.count("refused")
        return True

    async def _first(self, event: Inbound) -> bool | None:
        if not await self.once.first(event):
            self.drops.count("repeat")
            return False
        if self.fair is not None:
            self.fair.take(event)
        return None


class Recovered:
    """Waits while the chat's game is restored after a restart (most chats wait for nothing)."""

    name = "recovered"

    def __init__(
        self, restoring: Callable[[ChatKey], bool], wait: Callable[[ChatKey], Awaitable[None]]
    ) -> None:
        self.restoring = restoring
        self.wait = wait

    def __call__(self, passage: Passage) -> Said:
        chat = passage.event.chat
        return self._wait(chat) if self.restoring(chat) else None

    async def _wait(self, chat: ChatKey) -> None:
        await self.wait(chat)


class Authorise:
    """A command or button that needs an admin asks the platform (nothing else decides who is
    one): the event goes on with its sender's ``is_admin`` answered."""

    name = "authorise"

    def __init__(self, platform: Platform) -> None:
        self.platform = platform

    def __call__(self, passage: Passage) -> Said:
        event = passage.event
        if isinstance(event, Command):
            rights = rights_needed(event.name, event.args)
        elif isinstance(event, Button):
            rights = button_rights(event.action)
        else:
            return None
        return None if rights is Rights.NONE else self._ask(passage, event, rights)

    async def _ask(self, passage: Passage, event: Command | Button, rights: Rights) -> None:
        admin = await self.platform.is_admin(
            event.player, event.chat, interaction=event.interaction, fresh=rights is Rights.FRESH
        )
        passage.event = replace(event, player=replace(event.player, is_admin=admin))


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

    def __call__(self, passage: Passage) -> Said:
        event = passage.event
        if not isinstance(event, Text):
            return None
        moves = self.moves_of(event.chat)
        if moves is True:
            return None
        move = None if event.edited or not isinstance(moves, Moves) else moves.move(event.text)
        if move is None:
            self.drops.count("chatter")
            return True
        # (built, not dataclasses.replace'd: this runs for every answer, and replace costs more)
        passage.event = Text(event.chat, event.player, move, event.sent_at, event.message_ref, False, True)
        return None
