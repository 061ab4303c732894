"""GameManager: the sessions of every chat, and their supervision.

Dispatch is one dict lookup by :class:`~bot.core.events.ChatKey`, never a scan.
Every background task the manager or a session starts is kept and
supervised: an exception is logged, reported to its chat as a friendly
error, the game is voided and the chat is freed for a new game — never a
silent dead game.

The rest lives in modules of its own, which see the manager only as a
:class:`~bot.hosting.host.GameHost`: restart recovery and adoption (:mod:`bot.hosting.recovery`, reached as
``manager.recovery``), the leases on this process's games (:mod:`bot.hosting.leases`), what each
event is handed to and the command handlers (:mod:`bot.hosting.handlers`, a table from the command
grammar), the rule a finished game leaves for the next start (:mod:`bot.sessions.startrules`).
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable, Coroutine, Iterable, Mapping
from typing import Any

from bot.core import metrics, views
from bot.core.clock import Clock, SystemClock
from bot.core.events import ChatKey, Inbound, Player, Post
from bot.core.ordering import Turns
from bot.core.outbox import GameLog, GameStart, LobbyState, Outbox
from bot.core.platform import EVERY_CAPABILITY, Capabilities
from bot.core.registry import Registry
from bot.features.daily import Dailies
from bot.features.privacy import Privacy
from bot.features.tournaments.director import Director
from bot.features.workspace import Workspace
from bot.hosting import handlers
from bot.hosting.host import Recovery, Routes, ScheduleBook
from bot.hosting.leases import KEEP_ALIVE, Leases
from bot.hosting.preparing import Preparing
from bot.hosting.recovery import RESUME_WITHIN, Restorer
from bot.sessions.session import Session
from bot.sessions.startrules import StartRules
from bot.sessions.state import Phase
from games.common.options import OptionValue
from games.common.protocol import Action, GameInfo
from games.common.speech import N_, _, speaking
from storage.daily import is_daily_game
from storage.errors import Fenced, StorageError
from storage.tournament_records import is_tournament_game

log = logging.getLogger(__name__)

STORAGE_MESSAGE = N_(
    "Sorry — I couldn't save this game (the database is unavailable), so it had to stop. "
    "It won't count against anyone's score. Start a new one with `start` in a little while."
)
CRASH_MESSAGE = N_(
    "Sorry — something went wrong inside the game and it had to stop. "
    "It won't count against anyone's score. Start a new one with `start`."
)
STOPPING = N_("♻️ moji is restarting: this race carries on in a moment, where it is.")


class GameManager:
    """One session per chat, supervised tasks, one error handler (a :class:`~bot.hosting.host.GameHost`)."""

    def __init__(
        self,
        registry: Registry,
        outbox: Outbox,
        game_log: GameLog,
        clock: Clock,
        *,
        workspace: Workspace | None = None,
        settle: float = 0.15,
        lobby_timeout: float = 600.0,
        rng: random.Random | None = None,
        think_in_thread: bool | None = None,
        keep_alive: float = KEEP_ALIVE,
        capabilities: Capabilities = EVERY_CAPABILITY,
    ) -> None:
        self.registry = registry
        #: What the platform can show (its runtime says; see :class:`bot.core.platform.Capabilities`).
        self.capabilities = capabilities
        #: Run turn-based computer players in a worker thread (see Session). By default only
        #: on the real clock: simulated time (tests, benchmarks) keeps everything on one thread.
        self.think_in_thread = isinstance(clock, SystemClock) if think_in_thread is None else think_in_thread
        self.outbox = outbox
        self.game_log = game_log
        self.clock = clock
        self.workspace = workspace or Workspace(None)
        self.settle = settle
        self.lobby_timeout = lobby_timeout
        #: Several processes on one database: routes each event to the process running its
        #: chat (set by :class:`~bot.inbound.routing.Router`; None: every chat is this process's).
        self.router: Routes | None = None
        self.sessions: dict[ChatKey, Session] = {}
        #: Per-chat lines: an adapter takes a ticket as an event arrives and handles it in turn.
        self.turns = Turns()
        #: Scheduled games, where the platform runs them (set by the adapter).
        self.schedules: ScheduleBook | None = None
        self.tasks: set[asyncio.Task[None]] = set()
        self.errors: list[BaseException] = []
        #: Seeds and ids of new games (tests set a seeded one).
        self.rng = rng or random.SystemRandom()
        #: What each chat's last finished game asks of its next start (the race's Master's Choice).
        self.start_rules = StartRules()
        self._task_chat: dict[asyncio.Task[None], ChatKey] = {}
        #: Called with the chat whenever a session ends (finished, stopped, crashed).
        self.closed_listeners: list[Callable[[ChatKey], None]] = []
        #: The games' one-off work (word lists, tries), begun as lobbies open.
        self.preparing = Preparing(self, registry)
        #: Restart recovery and adoption of other processes' games.
        self.recovery = Restorer(self)
        #: This process's leases on its games.
        self.leases = Leases(self, keep_alive)
        #: ``privacy``, ``forget-me``, ``purge`` (adapters add their caches to its hooks).
        self.privacy = Privacy(self)
        #: The daily (bot/features/daily.py): its key and the platform's direct-message chats, set by the
        #: runtime and the adapter; what a daily's end keeps.
        self.dailies, self.tournaments = (
            Dailies(self),
            Director(self),
        )  # (bot/features/daily.py, bot/features/tournaments/)

    # ------------------------------------------------------------ tasks

    def spawn(
        self, coro: Coroutine[Any, Any, None], name: str, chat: ChatKey | None = None
    ) -> asyncio.Task[None]:
        """Run ``coro`` as a supervised task (kept until done, failures reported)."""
        task = asyncio.get_running_loop().create_task(coro, name=name)
        self.tasks.add(task)
        if chat is not None:
            self._task_chat[task] = chat
        task.add_done_callback(self._task_done)
        return task

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        chat = self._task_chat.pop(task, None)
        if task.cancelled():
            return
        exc = task.exception()
        if exc is not None:
            self.spawn(self._crashed(chat, exc), "report crash")

    async def _crashed(self, chat: ChatKey | None, exc: BaseException) -> None:
        """The one error handler: log, void, free the chat, tell the players."""
        if isinstance(exc, Fenced) and chat is not None:
            self.drop(chat, str(exc))
            return
        self.errors.append(exc)
        log.error("game task failed in %s", chat.label() if chat else "?", exc_info=exc)
        if chat is None:
            return
        session = self.sessions.pop(chat, None)
        if session is not None:
            session.abandon()
            self._notify_closed(chat)
            if session.engine is None:
                try:
                    await self.game_log.lobby_closed(session.game_id)
                except Exception:
                    log.exception("could not forget lobby %s", session.game_id)
            elif session.phase is not Phase.LOBBY:
                try:
                    await self.game_log.void(session.game_id, f"crashed: {type(exc).__name__}")
                except Exception:
                    self.leases.abandoned.add(session.game_id)  # (voided when its chat starts anew)
                    log.exception("could not void game %s", session.game_id)
        try:
            message = STORAGE_MESSAGE if isinstance(exc, StorageError) else CRASH_MESSAGE
            with speaking(session.speech if session is not None else None):
                view = views.error(_(message))
            await self.outbox.send(Post(chat, view))
        except Exception:
            log.exception("could not report the crash to %s", chat.label())

    async def chat_gone(self, chat: ChatKey, why: str) -> str | None:
        """The chat can no longer be reached — deleted, or the bot denied access to it: its game
        ends now, **voided** and recorded as such, and nothing more is sent there (the platform
        would refuse it). Returns the game's id, or None when the chat had no game here.

        Platform-neutral (the adapter calls it from its platform's events and refusals; a
        channel's threads are chats of their own)."""
        session = self.sessions.pop(chat, None)
        if session is None:
            return None
        log.warning("%s: the chat is gone (%s); game %s ends voided", chat.label(), why, session.game_id)
        session.abandon()
        drop = getattr(self.outbox, "drop", None)
        if callable(drop):
            drop(chat)  # nothing queued for it is sent
        self._notify_closed(chat)
        try:
            if session.engine is None:
                await self.game_log.lobby_closed(session.game_id)
            else:
                await self.game_log.void(session.game_id, f"chat gone: {why}")
        except Exception:
            self.leases.abandoned.add(session.game_id)  # (voided when its chat starts anew)
            log.exception("could not record game %s as voided", session.game_id)
        return session.game_id

    async def wind_down(self) -> None:
        """The process is stopping: every race judges what is settling and tells its channel.

        The running games are recorded alive until now, so their clocks stand still from
        here until the next process resumes them.
        """
        for session in list(self.sessions.values()):
            try:
                await session.wind_down(STOPPING)
            except Exception:
                log.exception("could not wind down the game in %s", session.chat.label())
        await self.leases.wind_down()
        if self.router is not None:
            await self.router.stop()

    def drop(self, chat: ChatKey, why: str) -> None:
        """Another process has taken this chat's game over: forget it here at once, silently
        (its new owner speaks for it), and send nothing more that was queued for it."""
        session = self.sessions.pop(chat, None)
        if session is None:
            return
        log.warning("%s: game %s dropped here (%s)", chat.label(), session.game_id, why)
        metrics.dropped()
        session.abandon()
        drop = getattr(self.outbox, "drop", None)
        if callable(drop):
            drop(chat)
        self._notify_closed(chat)

    async def chat_lost(self, platform: str, workspace_id: str, channel_id: str, why: str) -> list[str]:
        """A whole channel is gone for the bot: every game in it and in its threads ends, as
        :meth:`chat_gone` ends one chat's (voided, recorded, nothing more sent). Returns the games
        that ended. (Slack names channels, not threads, in its events and refusals.)"""
        ended: list[str] = []
        for chat in [
            c
            for c in self.sessions
            if (c.platform, c.workspace_id, c.channel_id) == (platform, workspace_id, channel_id)
        ]:
            self.start_rules.forget_chat(chat)
            game = await self.chat_gone(chat, why)
            if game is not None:
                ended.append(game)
        return ended

    def keep_alive(self) -> None:
        """Make sure this process's leases on its games are renewed (:mod:`bot.hosting.leases`)."""
        self.leases.keep_alive()

    async def shutdown(self) -> None:
        """Cancel every task and wait for them."""
        for session in list(self.sessions.values()):
            session.abandon()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------ recovery (bot.hosting.recovery)

    async def recover(
        self,
        games: Iterable[tuple[GameStart, list[Action]]],
        *,
        lobbies: Iterable[LobbyState] = (),
        ended: Iterable[tuple[GameStart, list[Action]]] = (),
        resume_within: float = RESUME_WITHIN,
    ) -> Recovery:
        """Rebuild every unfinished game after a restart by replaying its action log (see
        :meth:`bot.hosting.recovery.Restorer.recover`)."""
        return await self.recovery.recover(games, lobbies=lobbies, ended=ended, resume_within=resume_within)

    async def adopt(
        self,
        games: Iterable[tuple[GameStart, list[Action]]],
        lobbies: Iterable[LobbyState] = (),
        tables: Mapping[str, str] | None = None,
    ) -> Recovery:
        """Carry on the games and lobbies of a process that stopped answering (see
        :meth:`bot.hosting.recovery.Restorer.adopt`)."""
        return await self.recovery.adopt(games, lobbies, tables)

    async def wait_for_recovery(self, chat: ChatKey) -> None:
        """Until ``chat``'s game is restored, if :meth:`bot.hosting.recovery.Restorer.expect` named it."""
        if chat in self.recovery.restoring:  # (checked here: most events need no wait at all)
            await self.recovery.wait_for(chat)

    # ------------------------------------------------------------ sessions

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
        """A session wired to this manager (its tasks supervised under ``chat``); ``speech``:
        the chat's language (kept options of a restored game say it themselves)."""
        self.recovery.opened(game_id)
        session = Session(
            chat=chat,
            info=info,
            host=host,
            options=options,
            game_id=game_id,
            seed=seed,
            clock=self.clock,
            outbox=self.outbox,
            game_log=self.game_log,
            spawn=lambda coro, name: self.spawn(coro, name, chat),
            on_closed=self._closed,
            settle=self.settle,
            lobby_timeout=self.lobby_timeout,
            words=words,
            keep_words=lambda voted: self.workspace.keep_voted(chat, voted),
            think_in_thread=self.think_in_thread,
            timestamp_precision=self.capabilities.timestamp_precision,
            speech=speech,
        )
        session.remember_handled(self.recovery.handled_before.get(chat, ()))
        if is_daily_game(game_id):
            session.on_finish = self.dailies.finished
        elif is_tournament_game(game_id):
            session.on_finish = self.tournaments.finished
        return session

    async def claim(self, chat: ChatKey, game_id: str) -> str | None:
        """Claim ``chat`` for a new game in the database (:meth:`bot.hosting.leases.Leases.claim`)."""
        return await self.leases.claim(chat, game_id)

    def prepare(self, info: GameInfo, options: Mapping[str, OptionValue]) -> None:
        """Start ``info``'s one-off work for these options in a worker thread
        (:mod:`bot.hosting.preparing`)."""
        self.preparing.prepare(info, options)

    def _notify_closed(self, chat: ChatKey) -> None:
        for listener in self.closed_listeners:
            listener(chat)

    def _closed(self, session: Session) -> None:
        if self.sessions.get(session.chat) is session:
            del self.sessions[session.chat]
            self._notify_closed(session.chat)
        self.dailies.closed(session)
        self.tournaments.closed(session)
        engine = session.engine
        if engine is not None and engine.finished:
            self.start_rules.finished(
                session.chat, session.info, engine.result(), session.options, session.names()
            )

    # ------------------------------------------------------------ dispatch

    async def has_game(self, chat: ChatKey) -> bool:
        """Whether ``chat`` has an open lobby or a running game, here or in another process."""
        if chat in self.sessions:
            return True
        return self.router is not None and await self.router.owner_of(chat) is not None

    def may_have_game(self, chat: ChatKey) -> bool:
        """Whether an event in ``chat`` may matter (adapters drop chatter elsewhere unread)."""
        if chat in self.sessions or self.turns.busy(chat):
            return True
        return self.router is not None and self.router.shared

    async def handle(self, event: Inbound, *, routed: bool = False) -> bool:
        """Dispatch one event to its command's handler, or route it; never raises.

        The end of the inbound pipeline (:meth:`bot.inbound.runtime.Runtime.ingest`), which has
        put the event through every inbound step already (its line, its sender's allowance,
        once-only handling, recovery, rights, chatter). With several processes (a
        :attr:`router`), an event for a chat whose game another process runs goes to that
        process instead (``routed``: it came from one already, or from the core itself — a
        scheduled game's start). Always True (the pipeline's steps say False for repeats).
        """
        if self.router is not None and not routed:
            try:
                if await self.router.route(event):
                    return True
            except Exception:
                log.exception("could not route an event in %s; handling it here", event.chat.label())
        try:
            await handlers.handle(self, event)
        except Exception as exc:
            await self._crashed(event.chat, exc)
        return True

    # ------------------------------------------------------------ forgetting

    def forget_player(self, player: Player, workspace_id: str) -> None:
        """Forget what this process remembers of a player who asked to be forgotten here."""
        self.start_rules.forget_player(player.seat_id, workspace_id)

    def forget_workspace(self, platform: str, workspace_id: str) -> None:
        """Forget what this process remembers of a purged workspace."""
        self.start_rules.forget_workspace(platform, workspace_id)
        self.recovery.forget_workspace(platform, workspace_id)
