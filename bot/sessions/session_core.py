"""What every part of a game session shares: its state, its clocks, and how an action is played.

A session (:class:`bot.sessions.session.Session`) is one game in one chat. It holds its parts,
each an object in a module of its own, made with the session (whose state they read and
change) and asked for by name — ``session.lobby``, ``session.window``, ``session.timers``,
``session.announcer``; :mod:`bot.sessions.parts` says what each part is asked for:

- :mod:`bot.sessions.lobby`: the lobby, until the game starts (``join``, ``go``, options, seats);
- :mod:`bot.sessions.settle`: the settle window that makes real-time answers fair;
- :mod:`bot.sessions.timers`: the one timer task (lobby expiry, the settle window, computer
  players, the engine's deadlines);
- :mod:`bot.sessions.announce`: the engine's notices as messages (marks, the table, turn pings, the result);
- :mod:`bot.sessions.session`: the session itself, made of them: play, restore and resume.

This module holds the state they share and the steps they all take: an action is applied
to the engine, appended to the game's log *before* anything is announced (with retries while
the database refuses), and its notices delivered.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import math
import random
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, TypeVar, Unpack

from bot.core import metrics, views
from bot.core.events import Edit, MessageRef, Player, Post
from bot.core.outbox import GameStart
from bot.sessions.moves import Moves
from bot.sessions.parts import AnnouncerPart, LobbyPart, SessionArgs, SettlePart, TimerPart
from games.common.options import OptionValue
from games.common.protocol import Action, Claim, Engine, Notice, Seat, Snapshot
from games.common.speech import _, resolve, speaking, spoken_from
from storage.errors import Fenced, StorageError

log = logging.getLogger("bot.sessions.session")

T = TypeVar("T")

#: Waits (s) between tries when the database refuses a write (locked, restarting, gone):
#: about half a minute in all, during which the game pauses; then it stops with a message.
STORAGE_WAITS: tuple[float, ...] = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0)
#: A finished game's scores are worth waiting longer for (then every 15 s, 5 minutes more).
RESULT_WAITS: tuple[float, ...] = STORAGE_WAITS + (15.0,) * 20


class Phase(enum.Enum):
    """Where a session is in its life."""

    LOBBY = "lobby"
    RUNNING = "running"
    CLOSED = "closed"


#: The option key under which a game's start record and lobby keep the language its chat is
#: spoken to in (docs/LANGUAGES.md "Which language speaks"): a restarted game speaks the same.
#: Never an option of a game (no engine sees it); a record without it speaks English.
SPEECH = "_speech"


class SpokenLock:
    """A session's lock: whoever holds it speaks the session's chat language, so every engine
    call and every view made under it (start, apply, tick, the table, the result) speaks it."""

    def __init__(self, speech: Callable[[], str]) -> None:
        self._lock = asyncio.Lock()
        self._speech = speech
        self._voices: list[Any] = []

    async def __aenter__(self) -> None:
        await self._lock.acquire()
        voice = speaking(self._speech())
        voice.__enter__()
        self._voices.append(voice)

    async def __aexit__(self, *exc: object) -> None:
        try:
            self._voices.pop().__exit__(None, None, None)
        finally:
            self._lock.release()

    def locked(self) -> bool:
        """Whether someone holds it."""
        return self._lock.locked()


class SessionError(Exception):
    """A friendly refusal (``str(exc)`` is shown to the player)."""


def _marked(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """The seats as an engine gets them: people's names marked as user text, so whatever a game
    writes about them is escaped by each renderer (the stored seats keep the names as typed)."""
    return tuple(
        seat if seat.bot is not None else replace(seat, name=views.user(seat.name)) for seat in seats
    )


def _seat_player(seat: Seat) -> Player:
    platform, __, user = seat.id.partition(":")
    return Player(platform, user, seat.name)


class SessionCore:
    """A game lobby and, once started, the running game: the state every part shares, and the
    steps every part takes (an action applied, logged, announced; the session closed). The
    parts themselves (:attr:`lobby`, :attr:`window`, :attr:`timers`, :attr:`announcer`) are
    made by :class:`bot.sessions.session.Session`."""

    lobby: LobbyPart
    window: SettlePart
    timers: TimerPart
    announcer: AnnouncerPart

    def __init__(self, **args: Unpack[SessionArgs]) -> None:
        chat, info, host, clock = args["chat"], args["info"], args["host"], args["clock"]
        game_id, seed, speech = args["game_id"], args["seed"], args.get("speech")
        settle, lobby_timeout = args.get("settle", 0.15), args.get("lobby_timeout", 600.0)
        words = args.get("words", (frozenset(), frozenset()))
        keep_words, think_in_thread = args.get("keep_words"), args.get("think_in_thread", False)
        timestamp_precision = args.get("timestamp_precision", 0.0)
        outbox, game_log, spawn, on_closed = (
            args["outbox"],
            args["game_log"],
            args["spawn"],
            args["on_closed"],
        )
        options: dict[str, OptionValue] = dict(args["options"])
        self.chat = chat
        kept = options.pop(SPEECH, None)
        #: The language the chat is spoken to in (the workspace's ``config language`` when the
        #: game opened; kept in its records under :data:`SPEECH`): never the game's ``language=``.
        self.speech: str = resolve(str(kept) if kept else speech) or "en"
        #: The platform's (:attr:`bot.core.platform.Capabilities.timestamp_precision`), for the game's Setup.
        self.timestamp_precision = timestamp_precision
        self._think_in_thread = think_in_thread
        self.info = info
        self.host = host
        self.options = dict(options)
        self.game_id = game_id
        self.seed = seed
        self.players: list[Player] = [host]
        self.phase = Phase.LOBBY
        self.engine: Engine | None = None
        #: What the running game takes from a player's typing (see :mod:`bot.sessions.moves`).
        self.moves: Moves | None = None
        self.seats: tuple[Seat, ...] = ()
        self.start_record: GameStart | None = None
        #: What the channel read of the game before this process took it on (a restart or an
        #: adoption: its log replayed): the last few public lines, for pages' "last moves".
        self.said_before: tuple[str, ...] = ()
        self._clock = clock
        self._outbox = outbox
        self._log = game_log
        self._spawn = spawn
        self._on_closed: Callable[[Any], None] = on_closed  # (called with this session)
        #: Awaited (with this session) when its game has finished and is recorded, before it
        #: closes: what it returns is posted after the result (the daily's private summary,
        #: :meth:`bot.features.daily.Dailies.finished`). Awaited here, not in a task of its own, so it
        #: is done before anyone hears the game closed (a terminal quitting at once included).
        self.on_finish: Callable[[Any], Awaitable[views.View | None]] | None = None
        self._settle = settle
        self._lobby_deadline: float | None = clock.now() + lobby_timeout
        self._words = words
        self._keep_words = keep_words  # puts answers voted in on the workspace's list
        self._lock = SpokenLock(lambda: self.speech)
        self._jitter = random.Random(seed)  # (not the game's own randomness)
        self._seq = 0
        self._pending: list[Claim] = []
        self._settle_deadline: float | None = None
        self._timer: asyncio.Task[None] | None = None
        self._timer_at: float | None = None
        self._lobby_ref: MessageRef | None = None
        self._refs: dict[str, MessageRef] = {}
        self._why: dict[str, str] = {}
        self._answers: dict[str, str] = {}  # message id -> the answer it carried (to list refusals)
        self._ending: list[str] = []  # the engine's closing words, shown in the result
        self._pinged: set[str] = set()  # seats told it is their turn (turn-based games)
        self._judged = asyncio.Event()  # set while no answer waits in the settle window
        #: Holds on the settle window (see :meth:`hold`), and since when the first was taken.
        self._holds = 0
        self._held_since = 0.0
        #: Platform messages already taken as answers or moves (also those in the log before a
        #: restart): a redelivery of one is never judged twice.
        self._handled: set[str] = set()
        #: Seconds the game's clock stood still while the bot was down (``resume`` actions):
        #: the engine runs on the wall clock less this, so no deadline fell in the outage.
        self._paused = 0.0
        self._begun = True  # (False only for a restored game whose log has no ``begin``)
        self._judged.set()
        self._by_seat: dict[str, Player] = {host.seat_id: host}

    # ------------------------------------------------------------ speech

    def voice(self) -> Any:
        """``with session.voice():`` speaks the chat's language (what the whole chat reads)."""
        return speaking(self.speech)

    def voice_for(self, player: Player) -> Any:
        """``with session.voice_for(player):`` speaks what ``player`` alone reads: their own
        locale where a catalogue speaks it, else the chat's."""
        return speaking(spoken_from(player.locale, self.speech))

    def kept_options(self) -> dict[str, OptionValue]:
        """The options as the game's records keep them: the game's own, and the chat's language."""
        return {**self.options, SPEECH: self.speech}

    # ------------------------------------------------------------ queries

    @property
    def bots(self) -> int:
        """Computer players this game will seat."""
        value = self.options.get("bots", 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def is_player(self, player: Player) -> bool:
        """True when ``player`` has joined."""
        return player.seat_id in self._by_seat

    def names(self) -> dict[str, str]:
        """Seat id -> display name, for every seat."""
        names = {p.seat_id: p.display_name for p in self.players}
        names.update({s.id: s.name for s in self.seats})
        return names

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        """The engine's snapshot, its deadline on the wall clock."""
        assert self.engine is not None
        snapshot = self.engine.snapshot(viewer)
        if self._paused and snapshot.deadline is not None:
            return replace(snapshot, deadline=snapshot.deadline + self._paused)
        return snapshot

    def _on_game_clock(self, action: Action) -> Action:
        """``action`` as the engine sees it: its times on the game's clock."""
        if not self._paused:
            return action
        claims = tuple(replace(c, sent_at=c.sent_at - self._paused) for c in action.claims)
        return replace(action, now=action.now - self._paused, claims=claims)

    def _wall_for(self, game_time: float, now: float) -> float:
        """``now``, nudged up by a float rounding at most, so that it is not before ``game_time``
        on the game's clock (a timer due on the wall clock is then due for the engine too)."""
        wall = now
        while wall - self._paused < game_time:
            wall = math.nextafter(wall, math.inf)
        return wall

    @property
    def paused(self) -> float:
        """Seconds the game's clock stood still (the bot was down) since it began."""
        return self._paused

    def why(self, player: Player) -> str:
        """The reason the player's last answer was refused."""
        return self._why.get(player.seat_id) or _("None of your answers has been refused in this game.")

    @property
    def language(self) -> str:
        """The code of the language this game plays in (``en`` for a game without the option)."""
        return str(self.options.get("language", "en"))

    def _require_running(self, player: Player) -> None:
        if self.phase is not Phase.RUNNING:
            raise SessionError(_("The game hasn't started yet."))
        if not self.is_player(player):
            raise SessionError(_("You're not in this game."))

    def _turn_seats(self) -> set[str]:
        """The human seats whose turn it is now (turn-based games)."""
        if self.engine is None or self.info.realtime or self.engine.finished:
            return set()
        return {s.seat for s in self.engine.snapshot(None).seats if s.active and s.seat in self._by_seat}

    # ------------------------------------------------------------ engine

    async def _apply(self, action: Action) -> list[Notice]:
        assert self.engine is not None
        notices = self.engine.apply(self._on_game_clock(action))
        seq = self._seq
        await self._stored(lambda: self._log.append(self.game_id, seq, action))
        self._seq += 1
        await self.announcer.deliver(notices)
        if self.engine.finished and self.phase is Phase.RUNNING:
            if not any(n.kind == "table" for n in notices):
                await self._outbox.send(
                    Post(self.chat, self.announcer.table_view())
                )  # the final state, no buttons
            await self.announcer.finish()
        else:
            self.timers.reschedule()
        return notices

    async def _stored(self, write: Callable[[], Awaitable[T]], waits: tuple[float, ...] = STORAGE_WAITS) -> T:
        """Run a game-log write, trying again (on the session's clock) while the database refuses it.

        Every write is idempotent (actions by sequence number, results by game id). When the
        tries run out the error goes on to the manager, which stops the game with a message.
        """
        for wait in waits:
            try:
                return await write()
            except Fenced:
                raise  # another process runs the game now: nothing to retry
            except StorageError as exc:
                metrics.storage_retry()
                log.warning(
                    "game %s in %s: the database refused a write (%s); trying again in %g s",
                    self.game_id,
                    self.chat.label(),
                    exc,
                    wait,
                )
                # a little jitter, so sessions that met the same outage don't retry in lockstep
                await self._clock.sleep_until(self._clock.now() + wait * self._jitter.uniform(0.8, 1.2))
        return await write()

    async def _close(
        self, farewell: views.View, receipt: Callable[[MessageRef | None], None] | None = None
    ) -> None:
        if self.phase is Phase.CLOSED:
            return
        self.phase = Phase.CLOSED
        self.timers.cancel()
        self._judged.set()
        if self.engine is None:
            await self._log.lobby_closed(self.game_id)
        if self._lobby_ref is not None and self.engine is None:
            await self._outbox.send(Edit(self._lobby_ref, self.lobby.view(open_=False)))
        await self._outbox.send(Post(self.chat, farewell, receipt))
        self._on_closed(self)
