"""The platform runtime: one inbound pipeline and one wiring for every front door.

An adapter parses its platform's payloads into the neutral events of :mod:`bot.core.events` and
hands each to :meth:`Runtime.ingest`, which does the rest the same way on every platform:

1. **classify**: a command, a button, a reaction, a private list, or a message; a message or
   a reaction in a chat without a game (nor one opening) is dropped at once, unread;
2. **line up**: the event takes its chat's ordering ticket (:mod:`bot.core.ordering`) the moment it
   arrives — an adapter that must await something first (a Discord defer, a Slack user
   lookup) takes it itself with :meth:`Runtime.ticket` and hands it over — and waits for every
   earlier event of its chat;
3. **de-duplicate** by the platform's id: a message or reaction delivered again (Slack's
   retries) by the ids the adapter gives, a command or button press by its delivery id
   (:mod:`bot.inbound.once`, shared by the processes on one database);
4. **admit**: its sender's fair share (:mod:`bot.inbound.admission`);
5. **authorise**: a command or button that needs an admin asks the platform
   (:meth:`bot.core.platform.Platform.is_admin`) — nothing else decides who is an admin;
6. **answer or chatter**: a message is kept only when the chat's game reads it as an answer or a
   move (:mod:`bot.sessions.moves`, the one rule for every platform); anything else is chatter, dropped
   before anything stores it (a game run by another process reads it in :mod:`bot.inbound.routing`);
7. **wait for recovery**: a chat with a game to restore after a restart waits until it is back;
8. **hand over** to :meth:`GameManager.handle <bot.hosting.manager.GameManager.handle>` (which routes it
   to the process running the chat, or dispatches it), or to the adapter's own ``answer``.

:meth:`Runtime.build` wires delivery, manager, fair share, once-only codec, router, metrics and
(with :meth:`Runtime.schedule`) the scheduler, once, explicitly: no constructor rewires another
object as a side effect.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import replace
from typing import Any, Protocol

from bot.core import metrics
from bot.core.clock import Clock
from bot.core.events import Button, ChatKey, Command, Inbound, Player, PrivateText, Reaction, Text
from bot.core.fairshare import FairShare
from bot.core.ordering import Recent, Turn
from bot.core.outbox import GameLog
from bot.core.platform import Platform
from bot.core.registry import Registry
from bot.core.wire import InteractionCodec
from bot.delivery.delivery import Delivery
from bot.delivery.marks import RefusalMarksFor
from bot.delivery.transport import Transport
from bot.features.schedule import Schedules
from bot.features.scheduler import Scheduler
from bot.features.workspace import Workspace
from bot.hosting.host import Recovery
from bot.hosting.manager import GameManager
from bot.inbound.admission import Admission, admit
from bot.inbound.rights import Rights, button_rights, rights_needed
from bot.inbound.routing import Router
from bot.sessions.session import Session
from bot.sessions.session_core import Phase

log = logging.getLogger(__name__)

#: An adapter's own answer to an event it handles itself once the runtime has admitted it
#: (Slack's own ``help`` view, a command line it could not parse).
Answer = Callable[[Inbound], Awaitable[None]]


class Services(Protocol):
    """What a runtime runs on (:class:`bot.process.app.Services` in a process; a test's own)."""

    @property
    def registry(self) -> Registry:
        """The installed games."""
        ...

    @property
    def workspace(self) -> Workspace:
        """Workspace settings, leaderboards and word lists."""
        ...

    @property
    def game_log(self) -> GameLog:
        """Where games are recorded."""
        ...

    @property
    def store(self) -> Any:
        """The database."""
        ...

    @property
    def keep_alive(self) -> float:
        """Seconds between renewals of this process's leases on its games."""
        ...

    def router(
        self,
        manager: GameManager,
        platform: str,
        *,
        codec: InteractionCodec | None = None,
        mine: Callable[[ChatKey], bool] = ...,
    ) -> Router | None:
        """A router between the processes sharing the database (None: this process is alone)."""
        ...

    async def recover(
        self, manager: GameManager, platform: str, mine: Callable[[ChatKey], bool] = ...
    ) -> Recovery:
        """Rebuild the platform's unfinished games (then start routing)."""
        ...


class Companion(Protocol):
    """A front door that shows the games of other platforms' chats (the web companion: pages of
    a Discord or Slack game). :meth:`Runtime.build` attaches each of the process's to every
    runtime it builds."""

    def attach(self, runtime: Runtime) -> None:
        """Follow ``runtime``'s games (and add to what its delivery layer sends)."""
        ...


def connect(manager: GameManager, router: Router) -> None:
    """Put ``router`` in front of ``manager``: the manager routes each event through it, and its
    delivery layer asks it before each call whether the chat's game is still this process's."""
    manager.router = router
    if isinstance(manager.outbox, Delivery):
        manager.outbox.gate = router.still_ours


class Runtime:
    """One platform's front door to the core (see the module's docs)."""

    def __init__(
        self,
        platform: Platform,
        manager: GameManager,
        *,
        services: Services | None = None,
        router: Router | None = None,
        recent: int = 10_000,
    ) -> None:
        self.platform = platform
        self.manager = manager
        self.services = services
        self.router: Router | None = None
        self.scheduler: Scheduler | None = None
        #: Platform ids of messages and reactions seen recently (a redelivery is dropped).
        self.seen = Recent(recent)
        #: Events dropped on the way in, by why (``chatter``, ``repeat``, ``refused``).
        self.dropped: dict[str, int] = {"chatter": 0, "repeat": 0, "refused": 0}
        manager.once.codec = platform.codec  # a command or button press is handled once, by its id
        manager.capabilities = platform.capabilities  # what the core may show here
        if router is not None:
            self.route(router)

    # ------------------------------------------------------------ wiring

    @classmethod
    def build(
        cls,
        platform: Platform,
        transport: Transport,
        services: Services,
        clock: Clock,
        *,
        settle: float,
        lobby_timeout: float,
        refusal_marks: RefusalMarksFor | None = None,
    ) -> Runtime:
        """A platform's whole core, wired once: its delivery layer in front of ``transport``,
        a game manager, each person's fair share, the router between the processes sharing
        the database (adopting only what :meth:`Platform.may_adopt` allows) and ``/metrics``."""
        outbox = Delivery(transport, clock, refusal_marks=refusal_marks, capabilities=platform.capabilities)
        manager = GameManager(
            services.registry,
            outbox,
            services.game_log,
            clock,
            workspace=services.workspace,
            settle=settle,
            lobby_timeout=lobby_timeout,
            keep_alive=services.keep_alive,
        )
        manager.fair = FairShare(clock, outbox)  # each person's fair share (bot/core/fairshare.py)
        # the daily's key (a test's own services may have none: every deal then uses the empty key)
        manager.dailies.secret = getattr(services, "daily_secret", b"")
        manager.preparing.defer(getattr(services, "later", ()))  # (PREPARE_AT_START)
        manager.closed_listeners.append(outbox.closed)
        outbox.table_listeners.append(manager.recovery.table_posted)
        router = services.router(manager, platform.name, codec=platform.codec, mine=platform.may_adopt)
        runtime = cls(platform, manager, services=services, router=router)  # (connects the router)
        metrics.watch(manager)
        # the process's companions (bot.process.app.Services.companions; a test's own services may have none)
        for companion in getattr(services, "companions", ()):
            companion.attach(runtime)
        return runtime

    def route(self, router: Router) -> None:
        """Route this platform's events between the processes sharing the database."""
        self.router = router
        connect(self.manager, router)

    def schedule(self, scheduler: Scheduler, schedules: Schedules) -> None:
        """Run scheduled games (a Discord game night, a Slack word break) on this platform:
        the ``schedule`` command answers with ``schedules``; :meth:`recover` starts ``scheduler``."""
        self.scheduler = scheduler
        self.manager.schedules = schedules

    @property
    def outbox(self) -> Delivery:
        """The delivery layer (a runtime built by :meth:`build` has one)."""
        outbox = self.manager.outbox
        assert isinstance(outbox, Delivery)
        return outbox

    # ------------------------------------------------------------ restart recovery

    async def expect_recovery(self) -> None:
        """Before the platform's events flow: note the chats with something to restore; their
        events wait for :meth:`recover` (Discord delivers events as soon as the gateway is up,
        while recovery waits for every server)."""
        from bot.hosting.gamelog import load_lobbies, load_unfinished

        assert self.services is not None
        store, name = self.services.store, self.platform.name
        chats = {start.chat for start, _ in await load_unfinished(store) if start.chat.platform == name}
        chats |= {lobby.chat for lobby in await load_lobbies(store) if lobby.chat.platform == name}
        self.manager.recovery.expect(chats)

    async def recover(self, mine: Callable[[ChatKey], bool] = lambda chat: True) -> Recovery:
        """Rebuild this process's unfinished games on the platform (``mine`` picks, e.g., a
        shard's), start routing, then the scheduler; events held for recovery go on."""
        assert self.services is not None
        try:
            recovery = await self.services.recover(self.manager, self.platform.name, mine)
        except BaseException:
            self.manager.recovery.expect(())  # nothing more is coming: held events go on
            raise
        if self.scheduler is not None:
            await self.scheduler.load()
            self.manager.spawn(self.scheduler.loop(), f"{self.platform.name} scheduled games")
        self.manager.spawn(
            self.manager.tournaments.loop(self.platform.name, mine), f"{self.platform.name} tournaments"
        )
        return recovery

    async def wind_down(self, drain: float = 5.0) -> None:
        """The process is stopping: judge what is settling, tell the races, and send what is
        queued (for at most ``drain`` seconds)."""
        await self.manager.wind_down()
        await self.outbox.drain(drain)

    async def close(self) -> None:
        """Stop every game's tasks, then the delivery layer."""
        await self.manager.shutdown()
        await self.outbox.close()

    # ------------------------------------------------------------ the inbound pipeline

    def listening(self, chat: ChatKey) -> bool:
        """Whether a message or reaction in ``chat`` may matter: the chat has a game or lobby
        here, an event that may open one is in its line, or another process may run it.
        (Elsewhere they are chatter, dropped unread, without even a ticket.)"""
        return self.manager.may_have_game(chat)

    def ticket(self, chat: ChatKey) -> Turn:
        """``chat``'s next place in line, taken now (takes no time): for an adapter that must
        await something (a defer, a lookup) before its event is ready for :meth:`ingest`."""
        return self.manager.turns.take(chat)

    def refused_on_arrival(self, event: Inbound) -> bool:
        """Whether ``event``'s sender is over their allowance right now: an adapter asks before
        it acknowledges or lines up a command, so a flood costs one call each (the refusal is
        sent by :meth:`refuse`)."""
        fair = self.manager.fair
        return fair is not None and not fair.room(event)

    async def refuse(self, event: Inbound) -> None:
        """Refuse ``event`` for its sender's allowance (the first of an episode is told why)."""
        fair = self.manager.fair
        if fair is not None:
            await fair.refuse(event)
        self.dropped["refused"] += 1

    async def ingest(
        self,
        event: Inbound,
        *,
        turn: Turn | None = None,
        ids: Sequence[str] = (),
        answer: Answer | None = None,
    ) -> bool:
        """Put one event through the pipeline (see the module's docs); never raises for what
        a person sent. ``turn``: the chat's ticket the adapter took on arrival (let go here);
        ``ids``: the platform's ids for this delivery of a message or reaction; ``answer``: the
        adapter answers the event itself once admitted, instead of the manager.

        False: the event repeats one handled already (its first delivery answered it)."""
        if isinstance(event, PrivateText) and not self.platform.capabilities.private_text:
            return True  # (a platform without private text sends none: never read)
        if turn is None:
            if isinstance(event, Text | Reaction) and not self.listening(event.chat):
                return True  # chatter in a chat without a game: never lined up nor read
            turn = self.ticket(event.chat)
        try:
            if ids and isinstance(event, Text | Reaction) and not self.seen.first_time(*ids):
                self.dropped["repeat"] += 1
                return False
            await turn.wait()
            verdict = await admit(event, self.manager.fair, self.manager.once)
            if verdict is not Admission.TAKEN:
                self.dropped[verdict.value] += 1
                return verdict is Admission.REFUSED
            await self.manager.wait_for_recovery(event.chat)
            event = await self._authorised(event)
            if isinstance(event, Text) and self._chatter(event):
                self.dropped["chatter"] += 1
                return True
            if answer is not None:
                await answer(event)
                return True
            return await self.manager.handle(event, admitted=True)
        finally:
            turn.done()  # handled: the chat's next event need not wait for a reply's last calls

    async def _authorised(self, event: Inbound) -> Inbound:
        """``event`` with its sender's admin right answered by the platform, where it matters."""
        if isinstance(event, Command):
            rights = rights_needed(event.name, event.args)
        elif isinstance(event, Button):
            rights = button_rights(event.action)
        else:
            return event
        if rights is Rights.NONE:
            return event
        admin = await self.platform.is_admin(
            event.player, event.chat, interaction=event.interaction, fresh=rights is Rights.FRESH
        )
        return replace(event, player=replace(event.player, is_admin=admin))

    def _chatter(self, event: Text) -> bool:
        """Whether a message is chatter, by the one rule (:mod:`bot.sessions.moves`): the game running
        here does not read it as an answer or a move (an edit never counts). A chat whose game
        another process may run is left to the router, which reads it by that game's rule."""
        if event.edited:
            return True
        session = self.manager.sessions.get(event.chat)
        if session is None:
            return self.router is None or not self.router.shared
        return session.moves is None or session.moves.move(event.text) is None

    # ------------------------------------------------------------ what adapters may ask

    def session(self, chat: ChatKey) -> Session | None:
        """The game or lobby this process runs in ``chat`` (None: none here)."""
        return self.manager.sessions.get(chat)

    def runs(self, chat: ChatKey) -> bool:
        """Whether this process runs a game or lobby in ``chat``."""
        return chat in self.manager.sessions

    def chats(self, workspace: str | None = None, channel: str | None = None) -> list[ChatKey]:
        """This process's chats with a game or lobby on the platform, in ``workspace`` and in
        ``channel`` (a channel's threads too; a thread id names just that thread)."""
        return [
            chat
            for chat in self.manager.sessions
            if chat.platform == self.platform.name
            and (workspace is None or chat.workspace_id == workspace)
            and (channel is None or channel in (chat.channel_id, chat.thread_id))
        ]

    def sessions(self, chats: Iterable[ChatKey] | None = None) -> list[tuple[ChatKey, Session]]:
        """This process's games and lobbies (in ``chats``, when given)."""
        wanted = None if chats is None else set(chats)
        return [
            (chat, session)
            for chat, session in list(self.manager.sessions.items())
            if wanted is None or chat in wanted
        ]

    async def game_of(self, workspace: str, player: Player) -> ChatKey | None:
        """The chat of a running game ``player`` plays in, in ``workspace``: run here, else (with
        other processes on the database) by another (for a private list sent by direct message).
        None where the platform takes no private text."""
        if not self.platform.capabilities.private_text:
            return None
        for chat, session in self.manager.sessions.items():
            if (
                chat.workspace_id == workspace
                and session.phase is Phase.RUNNING
                and session.is_player(player)
            ):
                return chat
        if self.router is not None and self.router.shared:
            return await self.router.game_of(workspace, player)
        return None

    def plays_here(self, chat: ChatKey, player: Player) -> bool:
        """Whether ``player`` may send ``chat``'s game private words: they play in it, or another
        process may run it (and judges there). Never where the platform takes no private text."""
        if not self.platform.capabilities.private_text:
            return False
        session = self.manager.sessions.get(chat)
        if session is None:
            return self.manager.may_have_game(chat)
        return session.is_player(player)


def turn_done(turn: Turn | None) -> None:
    """Let ``turn`` go, if there is one (an adapter's ``finally`` on a path that never ingests)."""
    if turn is not None:
        turn.done()
