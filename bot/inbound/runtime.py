"""The platform runtime: one inbound pipeline and one wiring for every front door.

An adapter parses its platform's payloads into the neutral events of :mod:`bot.core.events` and
hands each to :meth:`Runtime.ingest`, which puts it through the steps of
:mod:`bot.inbound.steps` the same way on every platform — unread, line up, redelivered, in turn,
admit, recovered, authorise, chatter — and hands what is left to the adapter's own ``answer``
or to :meth:`GameManager.handle <bot.hosting.manager.GameManager.handle>` (which routes it to the
process running the chat, or dispatches it to its command's handler).

Adapters talk to the runtime only: what they may ask of the core (the games it runs, a chat
gone, a scheduled game due) are its methods. :mod:`bot.inbound.builder` wires delivery, manager,
fair share, once-only record, router, metrics, the scheduler and what the front door adds
(:class:`~bot.inbound.wiring.FrontDoor`) once, explicitly: nothing is set on the runtime or its
parts afterwards.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from typing import Any

from bot.core.clock import Clock
from bot.core.events import ChatKey, Inbound, Player
from bot.core.fairshare import FairShare
from bot.core.ordering import Turn
from bot.core.platform import Platform
from bot.core.registry import Registry
from bot.delivery.delivery import Delivery
from bot.features.housekeeping import run_housekeeping
from bot.features.schedule import JOIN_WINDOW, start_scheduled
from bot.features.workspace import Workspace
from bot.hosting.host import Recovery
from bot.hosting.manager import GameManager
from bot.inbound.once import Once
from bot.inbound.routing import Router
from bot.inbound.steps import (
    Admit,
    Answer,
    Authorise,
    Chatter,
    Drops,
    InTurn,
    LineUp,
    Passage,
    Pipeline,
    Recovered,
    Redelivered,
    Unread,
)
from bot.inbound.wiring import FrontDoor, Services, connect
from bot.sessions.moves import Moves
from bot.sessions.session import Session
from bot.sessions.state import Phase
from storage.base import Schedule

log = logging.getLogger(__name__)

#: A front door that adds nothing (the terminal's, a test's).
NO_DOOR = FrontDoor()


class Runtime:
    """One platform's front door to the core (see the module's docs)."""

    def __init__(
        self,
        platform: Platform,
        manager: GameManager,
        *,
        services: Services | None = None,
        router: Router | None = None,
        fair: FairShare | None = None,
        door: FrontDoor = NO_DOOR,
        recent: int = 10_000,
    ) -> None:
        self.platform = platform
        self.manager = manager
        self.services = services
        self.router = router
        self.scheduler = door.scheduler
        manager.capabilities = platform.capabilities  # what the core may show here
        manager.schedules = door.schedules
        manager.closed_listeners.extend(door.on_closed)
        manager.tournaments.starter.started.extend(door.on_tournament_game)
        manager.privacy.on_forget.extend(door.on_forget)
        manager.privacy.on_purge.extend(door.on_purge)
        if router is not None:
            connect(manager, router)
        #: Events dropped on the way in, by why (``chatter``, ``repeat``, ``refused``).
        self.drops = Drops()
        #: A command or button press is handled once, by its id (shared by the processes).
        once = Once(manager.workspace.store, manager.clock, platform.codec)
        self._redelivered = Redelivered(self.drops, recent)
        self._admit = Admit(fair, once, self.drops)
        self.pipeline = Pipeline(
            [
                Unread(platform, self.listening),
                LineUp(manager.turns),
                self._redelivered,
                InTurn(),
                self._admit,
                Recovered(lambda chat: chat in manager.recovery.restoring, manager.wait_for_recovery),
                Authorise(platform),
                Chatter(self._moves_of, self.drops),
            ],
            self._hand_over,
        )

    @property
    def fair(self) -> FairShare | None:
        """Each person's inbound allowances (None: no limit, e.g. the terminal's one person)."""
        return self._admit.fair

    @fair.setter
    def fair(self, fair: FairShare | None) -> None:
        self._admit.fair = fair

    @property
    def once(self) -> Once:
        """The once-only record of commands and button presses (shared by the processes)."""
        return self._admit.once

    @property
    def dropped(self) -> dict[str, int]:
        """Events dropped on the way in, by why (``chatter``, ``repeat``, ``refused``)."""
        return self.drops.counts

    # ------------------------------------------------------------ wiring

    @property
    def outbox(self) -> Delivery:
        """The delivery layer (a runtime built by :meth:`build` has one)."""
        outbox = self.manager.outbox
        assert isinstance(outbox, Delivery)
        return outbox

    @property
    def clock(self) -> Clock:
        """The core's clock."""
        return self.manager.clock

    @property
    def registry(self) -> Registry:
        """The installed games."""
        return self.manager.registry

    # ------------------------------------------------------------ restart recovery

    async def expect_recovery(self) -> None:
        """Before the platform's events flow: note the chats with something to restore; their
        events wait for :meth:`recover` (Discord delivers events as soon as the gateway is up,
        while recovery waits for every server)."""
        from bot.sessions.gamelog import load_lobbies, load_unfinished

        assert self.services is not None
        store, name = self.services.store, self.platform.name
        chats = {start.chat for start, _ in await load_unfinished(store) if start.chat.platform == name}
        chats |= {lobby.chat for lobby in await load_lobbies(store) if lobby.chat.platform == name}
        self.manager.recovery.expect(chats)

    async def recover(self, mine: Callable[[ChatKey], bool] = lambda chat: True) -> Recovery:
        """Rebuild this process's unfinished games on the platform (``mine`` picks, e.g., a
        shard's), start routing, then the scheduler and the tournaments; events held for
        recovery go on."""
        assert self.services is not None
        try:
            recovery = await self.services.recover(self.manager, self.platform.name, mine)
        except BaseException:
            self.manager.recovery.expect(())  # nothing more is coming: held events go on
            raise
        if self.scheduler is not None:
            await self.scheduler.load()
            self.spawn(self.scheduler.loop(), f"{self.platform.name} scheduled games")
        self.run_tournaments(mine)
        return recovery

    def run_tournaments(self, mine: Callable[[ChatKey], bool] = lambda chat: True) -> None:
        """Direct this platform's tournaments (in ``mine``'s chats) for as long as the process runs."""
        name = self.platform.name
        self.spawn(self.manager.tournaments.loop(name, mine), f"{name} tournaments")

    async def in_tournament(self, chat: ChatKey) -> bool:
        """Whether a tournament is open or running in ``chat``'s channel (its games start by
        themselves); False when no tournament can be read."""
        store = self.manager.tournaments.store()
        if store is None:
            return False
        try:
            live = await store.live_tournament(chat.platform, chat.workspace_id, chat.channel_id)
        except Exception:  # (no tournament readable: the chat plays its own games)
            return False
        return live is not None

    @property
    def workspace(self) -> Workspace:
        """The workspaces' settings, leaderboards and word lists."""
        return self.manager.workspace

    async def wind_down(self, drain: float = 5.0) -> None:
        """The process is stopping: judge what is settling, tell the races, and send what is
        queued (for at most ``drain`` seconds)."""
        await self.manager.wind_down()
        if isinstance(self.manager.outbox, Delivery):
            await self.manager.outbox.drain(drain)

    async def close(self) -> None:
        """Stop every game's tasks, then the delivery layer (a local front door has none)."""
        await self.manager.shutdown()
        if isinstance(self.manager.outbox, Delivery):
            await self.manager.outbox.close()

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
        return self.fair is not None and not self.fair.room(event)

    async def refuse(self, event: Inbound) -> None:
        """Refuse ``event`` for its sender's allowance (the first of an episode is told why)."""
        if self.fair is not None:
            await self.fair.refuse(event)
        self.drops.count("refused")

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
        return await self.pipeline(Passage(event, turn, ids, answer))

    def first_delivery(self, *ids: str) -> bool:
        """Whether none of a delivery's platform ``ids`` was seen before (remembering them): the
        :class:`~bot.inbound.steps.Redelivered` step's record, for an adapter that drops a
        platform's retry before it becomes an event (a Slack retry of an App Home visit)."""
        return self._redelivered.seen.first_time(*ids)

    async def _hand_over(self, passage: Passage) -> bool:
        """The pipeline's end: the adapter's own answer, or the manager's dispatch."""
        if passage.answer is not None:
            await passage.answer(passage.event)
            return True
        return await self.manager.handle(passage.event)

    def _moves_of(self, chat: ChatKey) -> Moves | bool | None:
        """How the game in ``chat`` reads messages (the :class:`~bot.inbound.steps.Chatter`
        step): its moves when it runs here; True when another process may run it."""
        session = self.manager.sessions.get(chat)
        if session is None:
            return (self.router is not None and self.router.shared) or None
        return session.moves

    # ------------------------------------------------------------ what adapters may do

    def spawn(self, coro: Coroutine[Any, Any, None], name: str) -> asyncio.Task[None]:
        """Run ``coro`` as one of the core's supervised tasks (kept until done, failures logged)."""
        return self.manager.spawn(coro, name)

    @property
    def errors(self) -> Sequence[BaseException]:
        """Failures of the core's tasks so far, oldest first."""
        return self.manager.errors

    async def has_game(self, chat: ChatKey) -> bool:
        """Whether ``chat`` has an open lobby or a running game, here or in another process."""
        return await self.manager.has_game(chat)

    async def chat_gone(self, chat: ChatKey, why: str) -> str | None:
        """The platform says ``chat`` is gone for moji: its game ends, voided (its id; None: none)."""
        return await self.manager.chat_gone(chat, why)

    async def channel_gone(self, workspace: str, channel: str, why: str) -> list[str]:
        """A whole channel is gone for moji: every game in it and its threads ends, voided."""
        return await self.manager.chat_lost(self.platform.name, workspace, channel, why)

    async def chat_of_direct(self, user_id: str, channel_id: str) -> ChatKey | None:
        """The chat of the daily ``user_id`` plays in their direct-message channel ``channel_id``."""
        return await self.manager.dailies.chat_of_direct(self.platform.name, user_id, channel_id)

    async def start_scheduled(
        self, schedule: Schedule, when: float, notice: str, *, join_window: float = JOIN_WINDOW
    ) -> None:
        """A scheduled game is due (:func:`bot.features.schedule.start_scheduled`)."""
        await start_scheduled(self.manager, schedule, when, notice, join_window=join_window)

    async def housekeeping(
        self,
        *,
        present: Callable[[str], Awaitable[bool]] | None = None,
        mine: Callable[[str], bool] = lambda workspace_id: True,
    ) -> None:
        """Keep the platform's kept data within its retention, for as long as the process runs
        (:func:`bot.features.housekeeping.run_housekeeping`: ``present`` asks the platform whether
        moji is still in a workspace; ``mine``: the workspaces this process keeps)."""
        await run_housekeeping(self.manager, self.platform.name, self.clock, present=present, mine=mine)

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
