"""Several moji processes on one database: each chat's events reach the process running its game.

The database says who runs what. Every active game and open lobby has an owner (a process),
an epoch and a lease on the database's clock (``active_games``); the owner renews its leases
every few seconds and every write of a game is fenced by them (:mod:`bot.sessions.gamelog`).

:class:`Router` sits in front of a :class:`~bot.hosting.manager.GameManager` (put there by
:func:`bot.inbound.runtime.connect`, which also has the manager's delivery layer ask :meth:`Router.still_ours`
before each call):

- An event for a chat this process runs is handled here, as always.
- An event for a chat another live process runs is **forwarded** to it — a message only when
  the game reads it as an answer or a move (:mod:`bot.sessions.moves`: chatter is dropped here, never
  stored), and then only that answer or move — stored in the
  ``inbox`` table (named by the platform's own id, so a redelivery that reached yet another
  process is dropped) and announced with PostgreSQL's ``NOTIFY``; the owner handles its inbox
  in ``id`` order, each chat's events in line behind those that reached it directly. The
  platform was acknowledged by the process it reached, before any of this.
- An event for a chat whose owner's lease has lapsed (the process died) makes this process
  **adopt** the game — replayed from its log, its table edited in place, its clock held still
  for the gap — and handle the event. Every few seconds each process also adopts such orphans
  on its own (``mine`` limits which: a Discord process only its own shards' guilds unless
  ``SHARD_TAKEOVER`` is set).
- An event for a chat with no active game is handled here: a ``start`` claims the chat in the
  database, so two processes starting a game in one chat at once end with one.

With one process the router costs one small read per command in a chat without a game, and
none per message: it knows (from the ``instances`` table) that no other process is alive.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from bot.core import metrics, wire
from bot.core.commands import CommandError, command_of
from bot.core.events import Button, ChatKey, Command, Inbound, Player, PrivateText, Text
from bot.core.ordering import Turn
from bot.sessions.gamelog import load_lobbies, load_unfinished
from bot.sessions.moves import Moves
from storage.base import ChatOwner, Store
from storage.inbox import INBOX_CHANNEL
from storage.leases import INSTANCES_CHANNEL

if TYPE_CHECKING:
    from bot.hosting.host import GameHost
    from bot.sessions.gamelog import StoreGameLog

log = logging.getLogger(__name__)

#: Seconds between inbox reads when no notification woke this process (SQLite, or a lost one).
POLL = 1.0


class Router:
    """Routes one platform's events between the processes sharing a database."""

    def __init__(
        self,
        manager: GameHost,
        store: Store,
        game_log: StoreGameLog,
        platform: str,
        *,
        codec: wire.InteractionCodec | None = None,
        mine: Callable[[ChatKey], bool] = lambda chat: True,
        every: float = 5.0,
    ) -> None:
        self.manager = manager
        self.store = store
        self.game_log = game_log
        self.owner = game_log.owner
        self.platform = platform
        self.codec = codec
        self.mine = mine
        self.every = every
        #: Another live process shares the database (until the first look: assume so).
        self.shared = True
        self.forwarded = 0
        self.received = 0
        self._wake = asyncio.Event()
        self._in_flight: set[int] = set()
        self._adopting = asyncio.Lock()
        self._task: asyncio.Task[None] | None = None
        self._notified = False
        #: game id → what that game (run by another process) takes from a player's typing
        self._moves: dict[str, Moves] = {}
        # (the manager routes through it and its delivery layer asks :meth:`still_ours` once
        # the runtime connects them: :func:`bot.inbound.runtime.connect`; nothing is rewired here)

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Listen for forwarded events and for other processes starting, say this process is
        alive, and keep watch."""
        try:
            self._notified = await self.store.listen(INBOX_CHANNEL, self._on_notify)
            await self.store.listen(INSTANCES_CHANNEL, self._on_instance)
        except Exception as exc:
            log.warning("cannot listen for forwarded events (%s): polling every %g s", exc, POLL)
        # the others learn of this process at once: a game it opens in a moment may get events
        # through them (without notifications they learn at their next look)
        await self.store.join_instances(self.owner, announce=True)
        await self._look()
        self._task = self.manager.spawn(self._watch(), f"{self.platform} routing")

    async def stop(self) -> None:
        """This process stops: it no longer counts as alive."""
        if self._task is not None:
            self._task.cancel()
        try:
            await self.store.leave_instances(self.owner)
        except Exception as exc:
            log.warning("could not say that this process stops: %s", exc)

    def _on_instance(self, payload: str) -> None:
        if payload != self.owner:
            self.shared = True  # (until the next look says otherwise)
            self._wake.set()

    def _on_notify(self, payload: str) -> None:
        if payload == self.platform:
            self._wake.set()

    async def _watch(self) -> None:
        """Every few seconds (and whenever an event is forwarded here): look around."""
        last_look = self.manager.clock.now()
        while True:
            wait = POLL if self.shared or not self._notified else self.every
            waker = asyncio.ensure_future(self._wake.wait())
            sleeper = asyncio.ensure_future(self.manager.clock.sleep_until(self.manager.clock.now() + wait))
            try:
                await asyncio.wait({waker, sleeper}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                waker.cancel()
                sleeper.cancel()
            # woken: an event was forwarded here, or this process has just adopted games (the
            # events forwarded to their dead owner are ours now, even when no other process is
            # left alive: that owner and its lease lapse together, so ``shared`` is False then)
            woken = self._wake.is_set()
            self._wake.clear()
            try:
                if self.manager.clock.now() - last_look >= self.every:
                    last_look = self.manager.clock.now()
                    await self._look()
                if self.shared or woken:
                    await self._drain()
            except Exception as exc:  # a database outage: try again at the next turn
                log.warning("routing: %s", exc)

    async def _look(self) -> None:
        """Renew this process's word, see who else is alive, adopt orphaned games."""
        await self.store.join_instances(self.owner)
        self.shared = len(await self.store.live_instances()) > 1
        orphans = [
            owner
            for owner in await self.store.orphaned_games(self.platform)
            if self.mine(_chat(owner)) and _chat(owner) not in self.manager.sessions
        ]
        if orphans:
            await self._adopt(orphans)

    # ------------------------------------------------------------ routing

    async def route(self, event: Inbound) -> bool:
        """True when ``event`` is another process's to handle (it was forwarded there).

        False: handle it here (this process runs the chat, nobody does, or it has just
        adopted the chat's game from a process that died).
        """
        chat = event.chat
        if chat in self.manager.sessions and await self.still_ours(chat):
            return False
        if not self.shared and not isinstance(event, Command | Button):
            return False
        owner = await self.owner_of(chat)
        if owner is None:
            if self.shared and isinstance(event, Command) and _is_start(event):
                # a workspace's games live in one process, which paces its calls to the
                # workspace within the platform's limits (two processes would each spend them)
                target = await self.store.workspace_owner(chat.platform, chat.workspace_id)
                if target is not None and target != self.owner:
                    await self._forward(event, target)
                    return True
            return False
        if owner.live and owner.owner != self.owner:
            taken = self._taken(event, owner)
            if taken is not None:
                await self._forward(taken, owner.owner)
            return True
        if not owner.live and self.mine(chat):
            await self._adopt([owner])  # its process died: carry the game on here
        return False

    def _taken(self, event: Inbound, owner: ChatOwner) -> Inbound | None:
        """What of ``event`` goes to the process running its chat's game: a message only when
        that game reads it as an answer or a move, and then only that (None: chatter, dropped).
        A private list that is no list still goes, empty, so that its sender hears why."""
        if not isinstance(event, Text | PrivateText):
            return event
        moves = self._moves_of(owner)
        if isinstance(event, PrivateText):
            move = moves.read(event.text, private=True).move if moves is not None else None
            return replace(event, text=move or "")
        move = moves.move(event.text) if moves is not None else None
        return None if move is None else replace(event, text=move, read=True)

    def _moves_of(self, owner: ChatOwner) -> Moves | None:
        """The reading of the game ``owner`` runs (None: an open lobby, or a game unknown here)."""
        found = self._moves.get(owner.game_id)
        if found is None:
            info = self.manager.registry.find(owner.game) if owner.game else None
            if info is None or info.name != owner.game:
                return None
            if len(self._moves) >= 1000:
                self._moves.clear()
            found = self._moves[owner.game_id] = Moves(info, owner.options, owner.seed)
        return found

    async def _forward(self, event: Inbound, target: str) -> None:
        chat = event.chat
        payload = wire.encode(event, self.codec)
        payload["forwarded_at"] = self.manager.clock.now()
        await self.store.forward_event(
            chat.platform,
            chat.workspace_id,
            chat.channel_id,
            chat.thread_id,
            wire.event_key(event, self.codec),
            payload,
            self.manager.clock.now(),
            target,
        )
        self.forwarded += 1
        metrics.forwarded(self.platform)

    async def still_ours(self, chat: ChatKey) -> bool:
        """False once ``chat``'s game, run here, has been taken over by another process (it is
        dropped here then). Asked before each event is handled and each platform call is made.

        Costs nothing while this process renews its leases on time. After it stood still for
        longer than that (a long pause), another may have adopted the game meanwhile: handled
        here, an event would be lost with the game at its next write, and a table sent would
        overwrite the new owner's, so it makes sure first.
        """
        session = self.manager.sessions.get(chat)
        if session is None or self.game_log.unconfirmed_for(session.game_id) < 2 * self.every:
            return True
        try:
            lost = await self.game_log.keep_alive([session.game_id], self.manager.clock.now())
        except Exception as exc:  # (the database cannot tell now; the game's writes stay fenced)
            log.warning("could not check that %s is still run here: %s", chat.label(), exc)
            return True
        if not lost:
            return True
        self.manager.drop(chat, "another process has taken it over")
        return False

    async def owner_of(self, chat: ChatKey) -> ChatOwner | None:
        """Who runs ``chat``'s game or lobby (None: nobody)."""
        return await self.store.chat_owner(chat.platform, chat.workspace_id, chat.channel_id, chat.thread_id)

    async def game_of(self, workspace_id: str, player: Player) -> ChatKey | None:
        """The chat of a running game ``player`` plays in, whichever process runs it (for a
        private answer sent where no chat is named: a direct message)."""
        found = await self.store.player_games(self.platform, workspace_id, player.seat_id)
        return ChatKey(self.platform, workspace_id, found[0][0], found[0][1]) if found else None

    async def _adopt(self, owners: Sequence[ChatOwner]) -> None:
        # One adoption at a time: an event's (route) and the watch's (_look) could otherwise
        # both take one game, and the second would find its chat taken and void the game.
        async with self._adopting:
            owners = [owner for owner in owners if _chat(owner) not in self.manager.sessions]
            if owners:
                await self._adopt_now(owners)

    async def _adopt_now(self, owners: Sequence[ChatOwner]) -> None:
        ids = [owner.game_id for owner in owners]
        games = await load_unfinished(self.store, ids)
        lobbies = [lobby for lobby in await load_lobbies(self.store) if lobby.game_id in set(ids)]
        tables = {owner.game_id: owner.table_ref for owner in owners if owner.table_ref}
        report = await self.manager.adopt(games, lobbies, tables)
        metrics.adopted(self.platform, len(report.resumed) + len(report.lobbies))
        if report.resumed or report.lobbies or report.voided:
            log.info(
                "adopted %d game(s) and %d lobby(ies) whose process stopped answering (%d voided)",
                len(report.resumed),
                len(report.lobbies),
                len(report.voided),
            )
        if report.resumed or report.lobbies:
            self._wake.set()  # events forwarded to the dead process are ours now

    # ------------------------------------------------------------ the inbox

    async def _drain(self) -> None:
        """Handle the events forwarded to this process's chats, in order."""
        for item in await self.store.inbox(self.owner):
            if item.id in self._in_flight:
                continue
            try:
                event = wire.decode(item.payload, self.codec)
            except (KeyError, TypeError, ValueError):
                log.warning("routing: dropped a malformed forwarded event (%s)", item.id)
                await self.store.take_inbox(item.id, self.manager.clock.now())
                continue
            self._in_flight.add(item.id)
            turn = self.manager.turns.take(event.chat)  # in line now, in the inbox's order
            sent = item.payload.get("forwarded_at")
            self.manager.spawn(self._handle(item.id, event, turn, sent), f"forwarded {item.id}")

    async def _handle(self, item_id: int, event: Inbound, turn: Turn, sent: object) -> None:
        try:
            await turn.wait()
            if event.chat in self.manager.sessions and not await self.still_ours(event.chat):
                return  # (the game changed hands: its new owner takes the event from the inbox)
            if await self.store.take_inbox(item_id, self.manager.clock.now()):
                self.received += 1
                if isinstance(sent, int | float):
                    metrics.forward_delay(self.platform, self.manager.clock.now() - float(sent))
                await self.manager.handle(event, routed=True)
        finally:
            turn.done()
            self._in_flight.discard(item_id)


def _chat(owner: ChatOwner) -> ChatKey:
    return ChatKey(owner.platform, owner.workspace_id, owner.channel_id, owner.thread_id)


def _is_start(command: Command) -> bool:
    try:
        return command_of(command.name, command.args)[0] == "start"
    except CommandError:
        return False
