"""The game host: what the parts around the manager may use of it.

:class:`~bot.hosting.manager.GameManager` keeps the sessions by chat and supervises them; recovery
(:mod:`bot.hosting.recovery`), leases (:mod:`bot.hosting.leases`),
the command handlers (:mod:`bot.hosting.handlers`),
the scheduler (:func:`bot.features.schedule.start_scheduled`) and the router (:mod:`bot.inbound.routing`) work
through this protocol instead, so that no module of bot/ imports the manager back (the import
graph is checked by tests/test_layers.py). The privacy commands and the metrics read a smaller
part of it, declared where they are
(:class:`bot.features.privacy.PrivacyHost`, :class:`bot.core.metrics.Watched`),
because modules this one imports depend on them.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.core import views
from bot.core.clock import Clock
from bot.core.events import ChatKey, Inbound, Player
from bot.core.ordering import Turns
from bot.core.outbox import GameLog, GameStart, LobbyState, Outbox
from bot.core.platform import Capabilities
from bot.core.registry import Registry
from bot.features.daily import Dailies
from bot.features.privacy import Privacy
from bot.features.tournaments.director import Director
from bot.features.workspace import Workspace
from bot.sessions.session import Session
from bot.sessions.startrules import StartRules
from games.common.options import OptionValue
from games.common.protocol import Action, GameInfo
from games.common.speech import resolve
from storage.base import ChatOwner


@dataclass
class Recovery:
    """What :meth:`GameHost.recover` or :meth:`GameHost.adopt` did with each unfinished game (ids)."""

    resumed: list[str] = field(default_factory=list)
    voided: list[str] = field(default_factory=list)
    lobbies: list[str] = field(default_factory=list)  # reopened
    announced: list[str] = field(default_factory=list)  # finished before the crash, announced now
    elsewhere: list[str] = field(default_factory=list)  # run by another live process: left alone


class Routes(Protocol):
    """Several processes on one database: what the host asks its router
    (:class:`~bot.inbound.routing.Router`)."""

    #: Another live process may share the database.
    shared: bool

    async def start(self) -> None:
        """Listen for forwarded events and keep watch."""

    async def stop(self) -> None:
        """This process stops: it no longer counts as alive."""

    async def route(self, event: Inbound) -> bool:
        """Forward ``event`` to the process running its chat (True: forwarded, not ours)."""
        ...

    async def owner_of(self, chat: ChatKey) -> ChatOwner | None:
        """Who runs ``chat``'s game or lobby (None: nobody)."""
        ...


class ScheduleBook(Protocol):
    """A platform's scheduled games, as the host's commands use them
    (:class:`~bot.features.schedule.Schedules`)."""

    def forget_workspace(self, workspace_id: str) -> None:
        """A workspace's data was purged: its scheduled games no longer run."""

    async def command(
        self, registry: Registry, chat: ChatKey, player: Player, args: Sequence[str]
    ) -> views.View:
        """Answer ``schedule …`` (privately)."""
        ...


class GameHost(Protocol):
    """Sessions by chat, their services and their supervision (the manager)."""

    registry: Registry
    outbox: Outbox
    game_log: GameLog
    clock: Clock
    workspace: Workspace
    #: The open lobby or running game of each chat this process runs.
    sessions: dict[ChatKey, Session]
    #: Per-chat lines: an event is handled in its chat's turn.
    turns: Turns
    #: Scheduled games, where the platform runs them (None: not here).
    schedules: ScheduleBook | None
    #: Several processes on one database (None: every chat is this process's).
    router: Routes | None
    #: ``privacy``, ``forget-me``, ``purge``.
    privacy: Privacy
    #: What each chat's last finished game asks of its next start (Master's Choice).
    start_rules: StartRules
    #: Turn-based computer players think in a worker thread.
    think_in_thread: bool
    #: Seeds of new games.
    rng: random.Random
    #: What the platform can show (buttons, threads, ephemeral replies, private text).
    capabilities: Capabilities
    #: The daily: its key, the platform's direct-message chats, what its end keeps.
    dailies: Dailies
    #: Tournaments: their loop, their games' starts and results.
    tournaments: Director

    def spawn(
        self, coro: Coroutine[Any, Any, None], name: str, chat: ChatKey | None = None
    ) -> asyncio.Task[None]:
        """Run ``coro`` as a supervised task (a failure under ``chat`` ends that chat's game)."""
        ...

    async def handle(self, event: Inbound, *, routed: bool = False) -> bool:
        """Handle one inbound event; never raises."""
        ...

    async def has_game(self, chat: ChatKey) -> bool:
        """Whether ``chat`` has an open lobby or a running game, here or in another process."""
        ...

    def drop(self, chat: ChatKey, why: str) -> None:
        """Another process has taken this chat's game over: forget it here, silently."""

    def keep_alive(self) -> None:
        """Make sure this process's leases on its games are renewed while it has any."""

    def new_session(
        self,
        chat: ChatKey,
        info: GameInfo,
        host: Player,
        options: Mapping[str, OptionValue],
        game_id: str,
        seed: int,
        words: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
        speech: str | None = None,
    ) -> Session:
        """A session wired to the host (its tasks supervised under ``chat``), not yet kept;
        ``speech``: the language the chat is spoken to in."""
        ...

    async def claim(self, chat: ChatKey, game_id: str) -> str | None:
        """Claim ``chat`` for a new game (one active game per chat, across every process): None
        when it is ours, else the game that holds it."""
        ...

    def prepare(self, info: GameInfo, options: Mapping[str, OptionValue]) -> None:
        """Start ``info``'s one-off work for these options in a worker thread, once."""

    async def adopt(
        self,
        games: Iterable[tuple[GameStart, list[Action]]],
        lobbies: Iterable[LobbyState] = (),
        tables: Mapping[str, str] | None = None,
    ) -> Recovery:
        """Carry on the games and lobbies of a process that stopped answering."""
        ...


async def chat_speech(host: GameHost, chat: ChatKey) -> str:
    """The language ``chat`` is spoken to in (docs/LANGUAGES.md): its game's, if one is open
    there, else the workspace's ``config language`` (English when unset or unreadable)."""
    session = host.sessions.get(chat)
    if session is not None:
        return session.speech
    try:
        chosen = (await host.workspace.settings(chat)).get("language")
    except Exception:  # (no settings readable: the chat is spoken to in English)
        return "en"
    return resolve(str(chosen) if chosen else None) or "en"
