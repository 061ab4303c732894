"""GameManager: routes every inbound event to the session of its chat.

Dispatch is one dict lookup by :class:`~bot.events.ChatKey`, never a scan.
Every background task the manager or a session starts is kept and
supervised: an exception is logged, reported to its chat as a friendly
error, the game is voided and the chat is freed for a new game — never a
silent dead game.
"""

from __future__ import annotations

import asyncio
import logging
import random
import uuid
from collections.abc import Callable, Coroutine, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING, Any

from bot import metrics, views
from bot.admission import Admission, admit
from bot.clock import Clock, SystemClock
from bot.commands import CommandError, command_of, help_lines, option_names, parse_start
from bot.define import answer as define_answer
from bot.define import fold as define_word
from bot.define import parse_define
from bot.events import (
    Button,
    ChatKey,
    Command,
    Inbound,
    MessageRef,
    Player,
    Post,
    Private,
    PrivateText,
    Reaction,
    Text,
)
from bot.fairshare import FairShare
from bot.once import Once
from bot.ordering import Turns
from bot.outbox import GameLog, GameStart, LobbyState, Outbox
from bot.privacy import FORGET_ME, PURGE, Privacy
from bot.registry import Registry
from bot.schedule import Schedules
from bot.session import Phase, Session, SessionError, handled_refs
from bot.workspace import Workspace
from games.common.grammar import excerpt
from games.common.languages import language
from games.common.options import OptionValue
from games.common.protocol import Action, GameInfo
from storage.errors import Fenced, StorageError

if TYPE_CHECKING:
    from bot.routing import Router

log = logging.getLogger(__name__)

STORAGE_MESSAGE = (
    "Sorry — I couldn't save this game (the database is unavailable), so it had to stop. "
    "It won't count against anyone's score. Start a new one with `start` in a little while."
)
CRASH_MESSAGE = (
    "Sorry — something went wrong inside the game and it had to stop. "
    "It won't count against anyone's score. Start a new one with `start`."
)

#: Buttons and the commands they stand for.
BUTTONS: dict[str, tuple[str, tuple[str, ...]]] = {
    views.JOIN: ("join", ()),
    views.LEAVE: ("leave", ()),
    views.GO: ("go", ()),
    views.SKIP: ("skip", ()),
    "moji:vote:yes": ("vote", ("yes",)),
    "moji:vote:no": ("vote", ("no",)),
    FORGET_ME: ("forget-me", ("confirm",)),
    PURGE: ("purge", ("confirm",)),
}

#: Reactions that vote on a disputed answer.
REACTION_VOTES = {"👍": "yes", "+1": "yes", "thumbsup": "yes", "👎": "no", "-1": "no", "thumbsdown": "no"}

#: A real-time game idle for longer than this when the bot restarts is voided, not resumed.
RESUME_WITHIN = 60.0
#: Longest (s) an event for a chat whose game is being restored waits for the restoration.
RECOVERY_WAIT = 30.0
#: After a restart, the answers of games that ended this long ago (s) are still remembered:
#: Slack retries an event for several minutes.
REDELIVERY_WINDOW = 600.0
#: Seconds between records that this process's games are alive (the downtime after a crash
#: is counted from the last one, so a player gets back at most this much more than they lost).
KEEP_ALIVE = 5.0

RESUMED = "♻️ moji restarted; your {title} game carries on where it was."
#: A game adopted from a process that stopped answering (several processes share the database).
ADOPTED = "♻️ moji had a hiccup; your {title} game carries on where it was."
PAUSED = " The clock stood still while moji was down ({gap})."
VOIDED = (
    "♻️ moji restarted while your {title} game was running, and too much time has passed to "
    "carry on fairly, so that game won't count. Start a new one with `start`."
)
BROKEN = "♻️ moji restarted but couldn't restore your {title} game, so it won't count. Sorry!"
STOPPING = "♻️ moji is restarting: this race carries on in a moment, where it is."


@dataclass
class Recovery:
    """What :meth:`GameManager.recover` did with each unfinished game (game ids)."""

    resumed: list[str] = field(default_factory=list)
    voided: list[str] = field(default_factory=list)
    lobbies: list[str] = field(default_factory=list)  # reopened
    announced: list[str] = field(default_factory=list)  # finished before the crash, announced now
    elsewhere: list[str] = field(default_factory=list)  # run by another live process: left alone


#: Options a Master's Choice game reserves for the last moji Master.
CHALLENGE_OPTIONS = ("min", "placement", "themes", "bans", "challenge-of-round")


class GameManager:
    """One session per chat, supervised tasks, one error handler."""

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
    ) -> None:
        self.registry = registry
        #: Run turn-based computer players in a worker thread (see Session). By default only
        #: on the real clock: simulated time (tests, benchmarks) keeps everything on one thread.
        self.think_in_thread = isinstance(clock, SystemClock) if think_in_thread is None else think_in_thread
        self.outbox = outbox
        self.game_log = game_log
        self.clock = clock
        self.workspace = workspace or Workspace(None)
        #: Each command and button press handled once (the adapter sets its codec: see bot.once).
        self.once = Once(self.workspace.store, clock)
        #: Per-person inbound allowances (bot.fairshare); None: no limit (the terminal's one person).
        self.fair: FairShare | None = None
        self.settle = settle
        self.lobby_timeout = lobby_timeout
        #: Seconds between renewals of this process's leases on its games (see :meth:`_beat`).
        self.keep_alive_every = keep_alive
        #: Several processes on one database: routes each event to the process running its
        #: chat (set by :class:`~bot.routing.Router`; None: every chat is this process's).
        self.router: Router | None = None
        self.sessions: dict[ChatKey, Session] = {}
        #: Per-chat lines: an adapter takes a ticket as an event arrives and handles it in turn.
        self.turns = Turns()
        #: Scheduled games, where the platform runs them (set by the adapter).
        self.schedules: Schedules | None = None
        #: Games opened here before :meth:`recover` ran (None once it has).
        self._opened_early: set[str] | None = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.errors: list[BaseException] = []
        self._rng = rng or random.SystemRandom()
        self._masters: dict[ChatKey, tuple[str, str]] = {}  # chat -> (seat id, name)
        self._task_chat: dict[asyncio.Task[None], ChatKey] = {}
        #: Called with the chat whenever a session ends (finished, stopped, crashed).
        self.closed_listeners: list[Callable[[ChatKey], None]] = []
        self._heartbeat: asyncio.Task[None] | None = None
        #: chat → platform messages that games ended before a restart took (see :meth:`recover`)
        self._handled_before: dict[ChatKey, set[str]] = {}
        #: Chats with a game or lobby that :meth:`recover` will restore: their events wait for it.
        self._restoring: set[ChatKey] = set()
        #: Games this process stopped but could not void (the database was gone).
        self._abandoned: set[str] = set()
        self._recovered = asyncio.Event()
        #: :meth:`GameInfo.preparation` keys (game, language, options' key) whose one-off work
        #: (:attr:`GameInfo.prepare`) this process has begun: English with default options at start-up.
        self._prepared: set[tuple[Hashable, ...]] = {info.preparation("en", {}) for info in registry}
        #: ``privacy``, ``forget-me``, ``purge`` (adapters add their caches to its hooks).
        self.privacy = Privacy(self)

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
                    self._abandoned.add(session.game_id)  # (voided when its chat starts anew)
                    log.exception("could not void game %s", session.game_id)
        try:
            message = STORAGE_MESSAGE if isinstance(exc, StorageError) else CRASH_MESSAGE
            await self.outbox.send(Post(chat, views.error(message)))
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
            self._abandoned.add(session.game_id)  # (voided when its chat starts anew)
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
        try:
            await self.game_log.keep_alive(self._running(), self.clock.now())
            # another process may carry them on at once (a rolling restart)
            await self.game_log.release([s.game_id for s in self.sessions.values()])
        except Exception:
            log.exception("could not record the games as alive until the stop")
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
            self._masters.pop(chat, None)
            game = await self.chat_gone(chat, why)
            if game is not None:
                ended.append(game)
        return ended

    # ------------------------------------------------------------ keep-alive

    def _running(self) -> list[str]:
        return [s.game_id for s in self.sessions.values() if s.phase is Phase.RUNNING]

    def _held(self) -> list[str]:
        """Every game and lobby this process runs (its leases)."""
        return [s.game_id for s in self.sessions.values() if s.phase is not Phase.CLOSED]

    def _keep_alive(self) -> None:
        """Make sure the running games are recorded alive every :data:`KEEP_ALIVE` seconds."""
        if self._heartbeat is None or self._heartbeat.done():
            self._heartbeat = self.spawn(self._beat(), "keep games alive")

    async def _beat(self) -> None:
        """While this manager has games: renew its leases on them every few seconds.

        The running games are recorded alive too: after a crash, a game's clock is held still
        from its last beat to the restart (see :meth:`recover`), so nobody runs out of time
        while moji was down. A game another process has taken over is dropped at once.
        """
        while self.sessions:
            await self.clock.sleep_until(self.clock.now() + self.keep_alive_every)
            held = self._held()
            if not held:
                continue
            try:
                lost = await self.game_log.keep_alive(held, self.clock.now())
            except Exception as exc:  # a database outage: the games' own writes report it
                log.warning("could not renew %d game(s): %s", len(held), exc)
                continue
            gone = set(lost)
            for chat, session in list(self.sessions.items()):
                if session.game_id in gone:
                    self.drop(chat, "another process has taken it over")

    async def shutdown(self) -> None:
        """Cancel every task and wait for them."""
        for session in list(self.sessions.values()):
            session.abandon()
        tasks = list(self.tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    # ------------------------------------------------------------ recovery

    async def recover(
        self,
        games: Iterable[tuple[GameStart, list[Action]]],
        *,
        lobbies: Iterable[LobbyState] = (),
        ended: Iterable[tuple[GameStart, list[Action]]] = (),
        resume_within: float = RESUME_WITHIN,
    ) -> Recovery:
        """Rebuild every unfinished game after a restart by replaying its action log.

        Turn-based games always carry on (their deadlines are absolute times).
        A real-time game resumes only if it was active within ``resume_within``
        seconds; otherwise it is voided, with a notice in its channel. Open
        lobbies reopen on their old message, so its buttons keep working (one
        whose time ran out while the bot was down closes with the usual notice).

        ``ended``: games that ended shortly before the restart. The messages they took as
        answers or moves are remembered, so a platform's late redelivery of one (Slack
        retries for minutes) is not taken as an answer in the chat's next game.
        """
        try:
            return await self._recover(games, lobbies, ended, resume_within)
        finally:
            self._recovered.set()
            self._restoring = set()

    async def adopt(
        self,
        games: Iterable[tuple[GameStart, list[Action]]],
        lobbies: Iterable[LobbyState] = (),
        tables: Mapping[str, str] | None = None,
    ) -> Recovery:
        """Carry on games and lobbies whose process stopped answering (another process's, whose
        lease lapsed): replayed from their logs as after a restart, their tables edited in
        place (``tables``: game id → its live table message), their clocks held still for the
        gap. A game this process cannot adopt (a live process runs it) is left alone."""
        games = [(start, actions) for start, actions in games if start.chat not in self.sessions]
        lobbies = [state for state in lobbies if state.chat not in self.sessions]
        return await self._recover(games, lobbies, (), RESUME_WITHIN, ADOPTED, tables or {})

    def _resume_table(self, chat: ChatKey, message_id: str) -> None:
        resume = getattr(self.outbox, "resume_table", None)
        if callable(resume):
            resume(MessageRef(chat, message_id))

    def table_posted(self, ref: MessageRef) -> None:
        """The delivery layer posted a new live table in a chat: an adopter will edit it."""
        session = self.sessions.get(ref.chat)
        if session is not None and session.phase is Phase.RUNNING:
            self.spawn(self._record_table(session.game_id, ref.message_id), f"table {session.game_id}")

    async def _record_table(self, game_id: str, message_id: str) -> None:
        try:
            await self.game_log.table(game_id, message_id)
        except Exception as exc:  # only an adopter's nicety is lost
            log.warning("could not record the table of game %s: %s", game_id, exc)

    async def _recover(
        self,
        games: Iterable[tuple[GameStart, list[Action]]],
        lobbies: Iterable[LobbyState],
        ended: Iterable[tuple[GameStart, list[Action]]],
        resume_within: float,
        notice_text: str = RESUMED,
        tables: Mapping[str, str] | None = None,
    ) -> Recovery:
        tables = tables or {}
        report = Recovery()
        for start, actions in ended:
            self._handled_before.setdefault(start.chat, set()).update(handled_refs(actions))
        # A game or lobby opened in this process before recovery ran (events can arrive
        # before the platform says it is ready) is not a leftover, even if it has ended
        # since the unfinished games were read: leave it alone.
        live = {session.game_id for session in self.sessions.values()} | (self._opened_early or set())
        self._opened_early = None
        lobbies = [state for state in lobbies if state.game_id not in live]
        games = [(start, actions) for start, actions in games if start.game_id not in live]
        await self._reopen_lobbies(lobbies, report)
        now = self.clock.now()
        for start, actions in sorted(games, key=lambda item: item[0].started_at):
            if not await self.game_log.adopt(start.game_id):
                report.elsewhere.append(start.game_id)  # another live process runs it
                continue
            info = self.registry.find(start.game)
            title = info.title if info else start.game
            # the game was last known to be running at its last action or keep-alive
            down_since = max([start.started_at, start.alive_at or 0.0, *(a.now for a in actions)])
            downtime = max(0.0, now - down_since)
            reason = ""
            if info is None:
                reason = BROKEN
            elif start.chat in self.sessions:
                reason = BROKEN  # two unfinished games in one chat: keep the first
            elif info.realtime and downtime > resume_within:
                reason = VOIDED
            session: Session | None = None
            if not reason and info is not None:
                try:
                    session = self._restored(info, start, actions)
                except Exception:
                    log.exception("could not replay game %s", start.game_id)
                    reason = BROKEN
            if session is None:
                await self._void_recovered(start, reason.format(title=title))
                report.voided.append(start.game_id)
                continue
            self.sessions[start.chat] = session
            self._keep_alive()
            if start.game_id in tables:
                self._resume_table(start.chat, tables[start.game_id])
            notice = notice_text.format(title=title)
            if downtime >= 1:
                notice += PAUSED.format(gap=views.duration(downtime))
            # downtime is not the players' fault: the game's clock stands still for it
            self.spawn(session.resume(notice, downtime), f"resume {start.game_id}", start.chat)
            report.resumed.append(start.game_id)
        return report

    async def announce_finished(self, games: Iterable[tuple[GameStart, list[Action]]]) -> list[str]:
        """Post the result of each game that finished just before a crash but was never announced.

        The result comes from replaying the game's log, exactly as it was recorded; each is
        posted once (the post is recorded). Returns the game ids announced.
        """
        done: list[str] = []
        for start, actions in sorted(games, key=lambda item: item[0].started_at):
            info = self.registry.find(start.game)
            if info is None or not await self.game_log.adopt(start.game_id):
                continue  # (a live process that finished it announces it)
            try:
                engine = self._restored(info, start, actions).engine  # the log, replayed
                assert engine is not None
                outcome = engine.result()
            except Exception:
                log.exception("could not replay finished game %s to announce it", start.game_id)
                continue
            names = {**{s.id: s.name for s in start.seats}, **start.names}
            ending = ("♻️ moji restarted just as your game ended, so here is how it ended.",)
            # named like the result the crashed process may have posted after all (Discord then
            # recognises the repeat by its nonce and shows nothing new)
            view = replace(views.result(info, outcome, names, ending=ending), once=f"result:{start.game_id}")
            try:
                await self.outbox.send(Post(start.chat, view, partial(self._announced, start.game_id)))
                done.append(start.game_id)
            except Exception:
                log.exception("could not announce the result of game %s", start.game_id)
        return done

    def _announced(self, game_id: str, ref: MessageRef | None) -> None:
        if ref is not None:
            self.spawn(self._mark_announced(game_id), f"announced {game_id}")

    async def _mark_announced(self, game_id: str) -> None:
        try:
            await self.game_log.announced(game_id, self.clock.now())
        except Exception:
            log.exception("could not record that game %s was announced", game_id)

    async def _reopen_lobbies(self, lobbies: Iterable[LobbyState], report: Recovery) -> None:
        for state in sorted(lobbies, key=lambda lobby: lobby.deadline):
            if not await self.game_log.adopt(state.game_id):
                report.elsewhere.append(state.game_id)  # another live process runs it
                continue
            info = self.registry.find(state.game)
            if info is None or state.chat in self.sessions:
                await self.game_log.lobby_closed(state.game_id)
                continue
            chat = state.chat
            words = await self.workspace.word_lists(chat, str(state.options.get("language", "en")))
            session = self._new_session(
                chat, info, state.host, state.options, state.game_id, state.seed, words
            )
            session.restore_lobby(state)
            self.sessions[chat] = session
            self._keep_alive()
            self.spawn(session.reopen(), f"reopen {state.game_id}", chat)
            report.lobbies.append(state.game_id)

    def _new_session(
        self,
        chat: ChatKey,
        info: GameInfo,
        host: Player,
        options: Mapping[str, OptionValue],
        game_id: str,
        seed: int,
        words: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
    ) -> Session:
        """A session wired to this manager (its tasks supervised under ``chat``)."""
        if self._opened_early is not None:
            self._opened_early.add(game_id)
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
        )
        session.remember_handled(self._handled_before.get(chat, ()))
        return session

    def _restored(self, info: GameInfo, start: GameStart, actions: list[Action]) -> Session:
        host = seat_player(start.host, start.names.get(start.host, start.host)) if start.host else None
        if host is None:
            first = next(s for s in start.seats if s.bot is None)
            host = seat_player(first.id, first.name)
        session = self._new_session(start.chat, info, host, start.options, start.game_id, start.seed)
        session.restore(start, actions)
        return session

    async def _void_recovered(self, start: GameStart, notice: str) -> None:
        try:
            await self.game_log.void(start.game_id, "restart")
        except Exception:
            log.exception("could not void game %s", start.game_id)
        try:
            await self.outbox.send(Post(start.chat, views.message(notice, "info")))
        except Exception:
            log.exception("could not tell %s about the restart", start.chat.label())

    # ------------------------------------------------------------ dispatch

    def expect_recovery(self, chats: Iterable[ChatKey]) -> None:
        """Before the platform delivers events: these chats have a game or lobby to restore.

        Their events (a Start press on the old lobby, an answer) wait until :meth:`recover`
        has run, instead of meeting "there's no game here" a second before it is back. Other
        chats play at once.
        """
        self._restoring = set(chats)
        self._recovered.clear()

    async def _after_recovery(self, chat: ChatKey) -> None:
        if chat in self._restoring and not self._recovered.is_set():
            try:
                await asyncio.wait_for(self._recovered.wait(), RECOVERY_WAIT)
            except TimeoutError:
                self._restoring.discard(chat)  # (once: later events do not wait again)
                log.warning("%s: recovery is slow; handling events without it", chat.label())

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

    async def handle(self, event: Inbound, *, routed: bool = False, admitted: bool = False) -> bool:
        """Handle one inbound event; never raises. False: it repeats a command or button press
        handled already (a replay, a redelivery), and is dropped (see :mod:`bot.once`).

        Every platform's events come through its :class:`~bot.runtime.Runtime`, which puts
        them through the inbound pipeline first (its sender's allowance, once-only handling,
        its chat's line, restart recovery) and says so with ``admitted``: only routing and
        dispatch are left here. Called directly (tests, tools), this admits the event itself
        (:func:`bot.admission.admit`: an event over its sender's allowance is refused before
        anything else, even the database's once-only record) and waits for recovery.

        With several processes (a :attr:`router`), an event for a chat whose game another
        process runs goes to that process instead (``routed``: it came from one already, which
        made sure it is not a repeat).
        """
        if not routed and not admitted:
            verdict = await admit(event, self.fair, self.once)
            if verdict is Admission.REPEAT:
                return False  # (a repeat takes nothing from its sender's allowance)
            if verdict is Admission.REFUSED:
                return True  # its sender is over their allowance: not handled
        if not admitted:
            await self._after_recovery(event.chat)
        if self.router is not None and not routed:
            try:
                if await self.router.route(event):
                    return True
            except Exception:
                log.exception("could not route an event in %s; handling it here", event.chat.label())
        try:
            if isinstance(event, Text):
                session = self.sessions.get(event.chat)
                if session is not None and not event.edited:
                    await session.text(event.player, event.text, event.sent_at, event.message_ref)
            elif isinstance(event, Command):
                await self._command(event)
            elif isinstance(event, Button):
                name, args = button_command(event.action) or ("", ())
                if name:
                    await self._command(Command(name, args, event.chat, event.player, event.interaction))
            elif isinstance(event, Reaction):
                choice = REACTION_VOTES.get(event.emoji)
                session = self.sessions.get(event.chat)
                if choice and session is not None and session.phase is Phase.RUNNING:
                    await session.vote(event.player, choice)
            elif isinstance(event, PrivateText):
                await self._private_text(event)
        except SessionError as exc:
            if isinstance(event, Command | Button | PrivateText):
                await self._reply_to(event, views.error(str(exc)))
        except Exception as exc:
            await self._crashed(getattr(event, "chat", None), exc)
        return True

    async def admit(self, event: Inbound) -> bool:
        """Whether ``event``'s sender is within their allowance (:mod:`bot.fairshare`). (Adapters
        no longer ask: an event they answer themselves goes through :meth:`Runtime.ingest
        <bot.runtime.Runtime.ingest>` with its own answer, admitted like every other.)"""
        return self.fair is None or await self.fair.admit(event)

    async def _private_text(self, event: PrivateText) -> None:
        """Words sent privately (a DM or a form): an Eagle Eyes list; anything else is explained."""
        session = self.sessions.get(event.chat)
        if session is None:
            raise SessionError("There's no game in this channel. Start one with `start`.")
        if session.phase is Phase.RUNNING and not session.takes_lists():
            raise SessionError(
                f"Private words hand in an Eagle Eyes list; this {session.info.title} game takes none. "
                + ("Type your words in the channel." if session.info.realtime else MOVE_HINT)
            )
        refused = await session.say(event.player, event.text, private=True)
        if refused is not None:
            await self._reply_to(event, views.error(refused))

    async def _reply_to(self, event: Command | Button | PrivateText, view: views.View) -> None:
        interaction = getattr(event, "interaction", None)
        await self.outbox.send(Private(event.chat, event.player, view, interaction))

    async def _command(self, cmd: Command) -> None:
        try:
            name, args = command_of(cmd.name, cmd.args)
            handler = getattr(self, "_cmd_" + name.replace("-", "_"))
            await handler(cmd, args)
        except CommandError as exc:
            await self._reply_to(cmd, views.error(str(exc)))

    # ------------------------------------------------------------ commands

    async def _cmd_help(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._reply_to(
            cmd, views.View(kind="help", title="moji commands", lines=tuple(help_lines(self.registry)))
        )

    async def _cmd_rules(self, cmd: Command, args: tuple[str, ...]) -> None:
        if args:
            info = self.registry.find(args[0])
            if info is None:
                raise CommandError(
                    f"There is no game called {excerpt(args[0])}. Games: {', '.join(self.registry.names())}."
                )
        else:
            session = self.sessions.get(cmd.chat)
            info = session.info if session else self.registry.default
        await self._reply_to(cmd, views.rules(info))

    async def _cmd_start(self, cmd: Command, args: tuple[str, ...]) -> None:
        existing = self.sessions.get(cmd.chat)
        mine = existing is not None and existing.alone() and existing.host.seat_id == cmd.player.seat_id
        if existing is not None and not mine:
            title = existing.info.title
            if existing.phase is Phase.LOBBY and existing.host.seat_id == cmd.player.seat_id:
                raise CommandError(
                    f"Your {title} lobby is still open, with other players in it: `go` starts it, or "
                    "`stop` closes it so you can `start` again with other options — one game per channel."
                )
            if existing.phase is Phase.LOBBY:
                raise CommandError(
                    f"There's already a {title} game here (its lobby is open): `join` it, or wait until "
                    "it closes — "
                    "one game per channel."
                )
            raise CommandError(
                f"There's already a {title} game here (it's running): wait until it ends (or its host "
                "can `stop` it) — one game per channel."
            )
        info, options = parse_start(args, self.registry)
        # the workspace's defaults (its language, its `config race.cards 5`…) for what was not given
        user_args = args[1:] if args and self.registry.find(args[0]) is info else args
        given = option_names(info, user_args)
        ours = await self.workspace.game_defaults(cmd.chat, info)
        defaults = [t for t in ours if not option_names(info, [t]) & given]
        if defaults:
            info, options = parse_start((info.name, *defaults, *user_args), self.registry)
        self._check_masters_choice(cmd, info.name, args, options)
        await self.workspace.seen(cmd.chat, cmd.player)
        words = await self.workspace.word_lists(cmd.chat, str(options.get("language", "en")))
        if existing is not None and existing.info is info:
            # the host alone in their lobby starts the same game again: the lobby takes the options
            await existing.change_options(options, words)
            self._prepare(info, options)
            await self._reply_to(
                cmd, views.message(f"Your {info.title} lobby takes the new options: `go` starts it.", "info")
            )
            return
        if existing is not None:  # … or another game: this lobby closes and the new one opens
            await existing.reopen_as_new(cmd.player)
        game_id, seed = uuid.uuid4().hex, self._rng.getrandbits(63)
        # one active game per chat is the database's rule, across every moji process
        holder = await self.game_log.claim(cmd.chat, game_id, self.clock.now())
        if holder is not None and holder in self._abandoned:  # stopped here when the database was gone
            await self.game_log.void(holder, "stopped: the database was unavailable")
            self._abandoned.discard(holder)
            holder = await self.game_log.claim(cmd.chat, game_id, self.clock.now())
        if holder is not None:
            raise CommandError(
                "There's already a game in this channel. Join it, or wait until it ends — "
                "one game per channel."
            )
        if cmd.chat in self.sessions:  # (opened here meanwhile)
            raise CommandError("There's already a game here. Join it — one game per channel.")
        session = self._new_session(cmd.chat, info, cmd.player, options, game_id, seed, words)
        self.sessions[cmd.chat] = session
        self._keep_alive()
        await session.open_lobby()
        self._prepare(info, options)

    def _prepare(self, info: GameInfo, options: Mapping[str, OptionValue]) -> None:
        """Start ``info``'s one-off work for the lobby's language and options (its word lists, its
        computer players' tries) in a worker thread as a lobby opens, so that the first computer
        move, which would otherwise do it on the spot, finds it done: once per
        :meth:`GameInfo.preparation` key in this process, and only where players think in threads
        (the real clock). English with the default options is prepared at start-up."""
        language = str(options.get("language", "en"))
        key = info.preparation(language, options)
        if info.prepare is None or not self.think_in_thread or key in self._prepared:
            return
        self._prepared.add(key)
        prepare = info.prepare

        async def in_a_thread() -> None:
            try:
                await asyncio.to_thread(prepare, language, options)
            except Exception:
                log.exception(
                    "preparing %s in %s failed; its game will do the work instead", info.name, language
                )

        self.spawn(in_a_thread(), f"prepare {info.name} {language}")

    def _check_masters_choice(
        self, cmd: Command, game: str, args: tuple[str, ...], options: dict[str, Any]
    ) -> None:
        master = self._masters.get(cmd.chat)
        if master is None or game != "race" or master[0] == cmd.player.seat_id:
            return
        chosen = [a.split("=", 1)[0].lower() for a in args if "=" in a]
        if any(key in CHALLENGE_OPTIONS for key in chosen):
            raise CommandError(
                f"Master's Choice: {master[1]}, the last moji Master, picks this round's challenges. "
                "Start without challenge options, or ask them to start it."
            )

    def _notify_closed(self, chat: ChatKey) -> None:
        for listener in self.closed_listeners:
            listener(chat)

    def _closed(self, session: Session) -> None:
        if self.sessions.get(session.chat) is session:
            del self.sessions[session.chat]
            self._notify_closed(session.chat)
        if session.engine is not None and session.engine.finished and session.options.get("masters-choice"):
            winners = session.engine.result().winners
            if winners:
                self._masters[session.chat] = (winners[0], session.names().get(winners[0], winners[0]))
        elif session.engine is not None and session.engine.finished:
            self._masters.pop(session.chat, None)

    def _session(self, cmd: Command) -> Session:
        session = self.sessions.get(cmd.chat)
        if session is None:
            raise SessionError("There's no game in this channel. Start one with `start`.")
        return session

    async def _cmd_join(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self.workspace.seen(cmd.chat, cmd.player)
        await self._reply_to(cmd, views.message(await self._session(cmd).join(cmd.player), "info"))

    async def _cmd_leave(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._reply_to(cmd, views.message(await self._session(cmd).leave(cmd.player), "info"))

    async def _cmd_go(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._session(cmd).go(cmd.player, admin=cmd.player.is_admin)

    async def _cmd_stop(self, cmd: Command, args: tuple[str, ...]) -> None:
        session = self._session(cmd)
        if cmd.player.seat_id != session.host.seat_id and not cmd.player.is_admin:
            raise SessionError(
                f"Only the host, {views.user(session.host.display_name)}, or an admin can stop this game."
            )
        await session.stop(cmd.player)

    async def _cmd_skip(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._vote(cmd, "skip", args)

    async def _cmd_vote(self, cmd: Command, args: tuple[str, ...]) -> None:
        choice = args[0].lower() if args else ""
        if choice not in {"yes", "no", "y", "n"}:
            raise CommandError("Vote `yes` or `no`.")
        await self._vote(cmd, "yes" if choice.startswith("y") else "no")

    async def _vote(self, cmd: Command, choice: str, args: tuple[str, ...] = ()) -> None:
        """``skip`` or ``vote``: the voter always hears something (a turn-based game has no votes;
        a vote the engine counted in silence is confirmed, one it ignored is explained)."""
        session = self._session(cmd)
        if session.phase is Phase.RUNNING and not session.info.realtime:
            move = " ".join((choice, *args))
            if choice == "skip" and args and session.reads_as_move(move):  # shed's Skip card: `skip Bob`
                await self._cmd_play(cmd, tuple(move.split()))
                return
            reason = no_votes(session.info, choice)
            if choice == "skip" and session.reads_as_move("skip X"):
                reason += " To play a Skip card, name who skips: `skip NAME`."
            raise SessionError(reason)
        notices = await session.vote(cmd.player, choice)
        mine = [n for n in notices if n.seat == cmd.player.seat_id and n.kind in {"rejected", "private"}]
        if any(n.kind == "rejected" and n.text for n in mine):
            refused = next(n.text for n in mine if n.kind == "rejected" and n.text)
            await self._reply_to(cmd, views.error(refused))
        elif not mine and not any(n.kind == "announce" or n.kind == "end" for n in notices):
            await self._reply_to(cmd, views.message(session.quiet_vote(cmd.player, choice), "info"))

    async def _cmd_why(self, cmd: Command, args: tuple[str, ...]) -> None:
        session = self.sessions.get(cmd.chat)
        if session is None:
            text = "There's no game in this channel, so nothing of yours was refused."
        elif session.engine is None:
            text = "The game hasn't started yet, so nothing of yours was refused."
        else:
            text = await session.why_after_verdict(cmd.player)
        await self._reply_to(cmd, views.message(text, "info"))

    async def _cmd_hand(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._reply_to(cmd, self._session(cmd).private_view(cmd.player))

    async def _cmd_board(self, cmd: Command, args: tuple[str, ...]) -> None:
        session = self._session(cmd)
        if session.engine is None:
            raise SessionError("The game hasn't started yet.")
        await self._reply_to(cmd, views.board_text(session.snapshot(None), session.info.name))

    async def _cmd_play(self, cmd: Command, args: tuple[str, ...]) -> None:
        if not args:
            raise CommandError("Say what to play, e.g. `play H8 across WORD`.")
        refused = await self._session(cmd).say(cmd.player, " ".join(args))
        if refused is not None:
            await self._reply_to(cmd, views.error(refused))

    async def _cmd_list(self, cmd: Command, args: tuple[str, ...]) -> None:
        session = self._session(cmd)
        if session.phase is Phase.RUNNING and not session.takes_lists():
            raise SessionError(
                f"`list` hands in an Eagle Eyes word list; this {session.info.title} game takes none. "
                + ("Type your words in the channel." if session.info.realtime else MOVE_HINT)
            )
        if not args:
            raise CommandError("Give your words, like `list cat act tact`.")
        refused = await session.say(cmd.player, " ".join(args), private=True)
        if refused is not None:
            await self._reply_to(cmd, views.error(refused))

    async def _cmd_define(self, cmd: Command, args: tuple[str, ...]) -> None:
        typed, code = parse_define(args)
        session = self.sessions.get(cmd.chat)
        if code is None:
            # the game's language here, else this workspace's
            code = (
                session.language
                if session is not None
                else str((await self.workspace.settings(cmd.chat))["language"])
            )
        lang = language(code)
        word = define_word(typed, lang)
        verdict = None
        if session is not None and session.language == lang.code:
            verdict = await session.word_verdict(word)
        await self._reply_to(cmd, define_answer(word, lang, verdict))

    async def _cmd_leaderboard(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._reply_to(cmd, await self.workspace.leaderboard(cmd, args, self.registry))

    async def _cmd_stats(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._reply_to(cmd, await self.workspace.stats(cmd, args))

    async def _cmd_season(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._reply_to(cmd, await self.workspace.season(cmd, args))

    async def _cmd_schedule(self, cmd: Command, args: tuple[str, ...]) -> None:
        if self.schedules is None:
            raise CommandError("Scheduled games run on Discord and Slack, where moji stays online.")
        await self._reply_to(cmd, await self.schedules.command(self.registry, cmd.chat, cmd.player, args))

    async def _cmd_config(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._reply_to(cmd, await self.workspace.config(cmd, args))

    async def _cmd_words(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._reply_to(cmd, await self.workspace.words(cmd, args))

    async def _cmd_privacy(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._reply_to(cmd, await self.privacy.privacy(cmd))

    async def _cmd_forget_me(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._reply_to(cmd, await self.privacy.forget_me(cmd, args))

    async def _cmd_purge(self, cmd: Command, args: tuple[str, ...]) -> None:
        await self._reply_to(cmd, await self.privacy.purge(cmd, args))

    # ------------------------------------------------------------ forgetting

    def forget_player(self, player: Player, workspace_id: str) -> None:
        """Forget what this process remembers of a player who asked to be forgotten here."""
        for chat, (seat, _) in list(self._masters.items()):
            if seat == player.seat_id and chat.workspace_id == workspace_id:
                del self._masters[chat]

    def forget_workspace(self, platform: str, workspace_id: str) -> None:
        """Forget what this process remembers of a purged workspace."""

        def here(chat: ChatKey) -> bool:
            return chat.platform == platform and chat.workspace_id == workspace_id

        self._masters = {chat: m for chat, m in self._masters.items() if not here(chat)}
        self._handled_before = {chat: h for chat, h in self._handled_before.items() if not here(chat)}


MOVE_HINT = "On your turn, type your move here or `play MOVE`."


def no_votes(info: GameInfo, choice: str) -> str:
    """Why ``skip`` or ``vote`` does nothing in a turn-based game, and what to do instead."""
    moves = " or ".join(f"`{move}` ({label.lower()})" for label, move in info.turn_moves)
    instead = f"On your turn you can type {moves}, or your move." if moves else MOVE_HINT
    if choice == "skip":
        what = f"`skip` votes to discard stuck cards in a race; {info.title} has no skip vote."
    else:
        what = f"There's nothing to vote on in {info.title}: votes settle race answers."
    return f"{what} {instead} `rules {info.name}` explains the moves."


def button_command(action: str) -> tuple[str, tuple[str, ...]] | None:
    """The command a button stands for (None: not one of moji's buttons)."""
    if action in BUTTONS:
        return BUTTONS[action]
    if action == views.HAND:
        return "hand", ()
    if action.startswith(views.MOVE) and len(action) > len(views.MOVE):
        return "play", (action[len(views.MOVE) :],)
    return None


def seat_player(seat_id: str, name: str) -> Player:
    """A Player from a seat id (``platform:user``)."""
    platform, _, user = seat_id.partition(":")
    return Player(platform, user, name)
