"""One game in one chat: its lobby, its engine, its timers.

A session turns inbound events into engine :class:`~games.common.protocol.Action`
values, appends each action to the game's log *before* announcing what it
did, and turns the engine's notices into outbound messages. Its timers (lobby
expiry, the settle window, computer players, the engine's own deadlines) run
on an injected :class:`~bot.clock.Clock`, in a single supervised task.

Fairness: real-time answers are not judged on arrival. The first one opens a
settle window (``settle`` seconds, default 150 ms); when it closes, every
answer received so far goes to the engine as one batch, which orders them by
the platform's own send time. An answer that arrives late but was sent first
still wins.
"""

from __future__ import annotations

import asyncio
import enum
import logging
import math
import random
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from bot import metrics, views
from bot.clock import Clock
from bot.events import ChatKey, Edit, Mark, MessageRef, Player, Post, Private, React
from bot.moves import Moves
from bot.outbox import GameLog, GameStart, LobbyState, Outbox
from games.common.engine import QUIET_SKIP, QUIET_VOTE
from games.common.options import OptionValue
from games.common.protocol import Action, Claim, Engine, GameInfo, Notice, Seat, Setup, Snapshot
from games.common.words import Verdict
from storage.errors import Fenced, StorageError

log = logging.getLogger(__name__)

T = TypeVar("T")

#: The longest a settle window is held open for answers a platform may still replay (s).
HOLD_MOST = 10.0

#: Waits (s) between tries when the database refuses a write (locked, restarting, gone):
#: about half a minute in all, during which the game pauses; then it stops with a message.
STORAGE_WAITS: tuple[float, ...] = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0)
#: A finished game's scores are worth waiting longer for (then every 15 s, 5 minutes more).
RESULT_WAITS: tuple[float, ...] = STORAGE_WAITS + (15.0,) * 20

BOT_NAMES = ("Ada", "Basil", "Cleo", "Dex", "Edie", "Fitz", "Gus", "Hana", "Ivo", "Juno", "Kit")

Spawn = Callable[[Coroutine[Any, Any, None], str], "asyncio.Task[None]"]


class Phase(enum.Enum):
    """Where a session is in its life."""

    LOBBY = "lobby"
    RUNNING = "running"
    CLOSED = "closed"


class SessionError(Exception):
    """A friendly refusal (``str(exc)`` is shown to the player)."""


def _marked(seats: tuple[Seat, ...]) -> tuple[Seat, ...]:
    """The seats as an engine gets them: people's names marked as user text, so whatever a game
    writes about them is escaped by each renderer (the stored seats keep the names as typed)."""
    return tuple(
        seat if seat.bot is not None else replace(seat, name=views.user(seat.name)) for seat in seats
    )


def _seat_player(seat: Seat) -> Player:
    platform, _, user = seat.id.partition(":")
    return Player(platform, user, seat.name)


class Session:
    """A game lobby and, once started, the running game."""

    def __init__(
        self,
        *,
        chat: ChatKey,
        info: GameInfo,
        host: Player,
        options: Mapping[str, OptionValue],
        game_id: str,
        seed: int,
        clock: Clock,
        outbox: Outbox,
        game_log: GameLog,
        spawn: Spawn,
        on_closed: Callable[[Session], None],
        settle: float = 0.15,
        lobby_timeout: float = 600.0,
        words: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset()),
        keep_words: Callable[[list[str]], Awaitable[list[str]]] | None = None,
        think_in_thread: bool = False,
    ) -> None:
        self.chat = chat
        self._think_in_thread = think_in_thread
        self.info = info
        self.host = host
        self.options = dict(options)
        self.game_id = game_id
        self.seed = seed
        self.players: list[Player] = [host]
        self.phase = Phase.LOBBY
        self.engine: Engine | None = None
        #: What the running game takes from a player's typing (see :mod:`bot.moves`).
        self.moves: Moves | None = None
        self.seats: tuple[Seat, ...] = ()
        self.start_record: GameStart | None = None
        self._clock = clock
        self._outbox = outbox
        self._log = game_log
        self._spawn = spawn
        self._on_closed = on_closed
        self._settle = settle
        self._lobby_deadline: float | None = clock.now() + lobby_timeout
        self._words = words
        self._keep_words = keep_words  # puts answers voted in on the workspace's list
        self._lock = asyncio.Lock()
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

    def why(self, player: Player) -> str:
        """The reason the player's last answer was refused."""
        return self._why.get(player.seat_id, "None of your answers has been refused in this game.")

    async def why_after_verdict(self, player: Player) -> str:
        """``why``: when the player's answer still waits in the settle window, its verdict first."""
        if any(claim.seat == player.seat_id for claim in self._pending):
            await self._judged.wait()
        return self.why(player)

    # ------------------------------------------------------------ lobby

    async def open_lobby(self) -> None:
        """Post the lobby message and arm the lobby timeout."""
        async with self._lock:
            # recorded before it is shown, so a crash right after the post never loses it (the
            # next process reopens it); recorded again with its message, whose buttons then work
            await self._keep_lobby()
            self._lobby_ref = await self._outbox.send(Post(self.chat, self._lobby_view()))
            if self._lobby_ref is not None:
                await self._keep_lobby()
            self._reschedule()

    def lobby_state(self) -> LobbyState:
        """The lobby as the game log keeps it."""
        return LobbyState(
            game_id=self.game_id,
            game=self.info.name,
            chat=self.chat,
            host=self.host,
            players=tuple(self.players),
            options=dict(self.options),
            seed=self.seed,
            deadline=self._lobby_deadline if self._lobby_deadline is not None else self._clock.now(),
            message_id=self._lobby_ref.message_id if self._lobby_ref else None,
        )

    async def _keep_lobby(self) -> None:
        await self._log.lobby(self.lobby_state())

    def restore_lobby(self, state: LobbyState) -> None:
        """Reopen a lobby kept before a restart (its message and buttons are reused)."""
        self.players = list(state.players) or [state.host]
        self._by_seat = {p.seat_id: p for p in self.players}
        self._lobby_deadline = state.deadline
        if state.message_id is not None:
            self._lobby_ref = MessageRef(self.chat, state.message_id)

    async def reopen(self) -> None:
        """Refresh a restored lobby's message and re-arm its timeout."""
        async with self._lock:
            if self._lobby_ref is None:  # the process died before its message was posted
                self._lobby_ref = await self._outbox.send(Post(self.chat, self._lobby_view()))
                if self._lobby_ref is not None:
                    await self._keep_lobby()
            else:
                await self._refresh_lobby()
            self._reschedule()

    def _lobby_view(self, open_: bool = True) -> views.View:
        names = [p.display_name for p in self.players]
        return views.lobby(self.info, self.host.display_name, names, self.bots, self.options, open_=open_)

    async def join(self, player: Player) -> str:
        """Add a player to the lobby; returns a confirmation."""
        async with self._lock:
            if self.phase is not Phase.LOBBY:
                raise SessionError("This game has already started; join the next one!")
            if self.is_player(player):
                raise SessionError("You're already in this game.")
            if len(self.players) + self.bots >= self.info.max_players:
                raise SessionError(f"{self.info.title} seats at most {self.info.max_players} players.")
            self.players.append(player)
            self._by_seat[player.seat_id] = player
            await self._keep_lobby()
            await self._refresh_lobby()
            return f"{views.user(player.display_name)} joined."

    async def leave(self, player: Player) -> str:
        """Remove a player; in a running game their seat is given up."""
        async with self._lock:
            if not self.is_player(player):
                raise SessionError("You're not in this game.")
            if self.phase is Phase.LOBBY:
                self.players.remove(self._by_seat.pop(player.seat_id))
                if not self.players:
                    await self._close(views.message("Everyone left, so the lobby is closed.", "info"))
                    return "You left; the lobby is closed."
                if player.seat_id == self.host.seat_id:
                    self.host = self.players[0]
                await self._keep_lobby()
                await self._refresh_lobby()
                return "You left the lobby."
            await self._apply(Action("leave", self._clock.now(), seat=player.seat_id))
            return "You left the game."

    async def _refresh_lobby(self) -> None:
        if self._lobby_ref is not None:
            await self._outbox.send(Edit(self._lobby_ref, self._lobby_view()))

    async def go(self, player: Player, *, admin: bool = False) -> None:
        """Start the game (the host, or an admin)."""
        async with self._lock:
            if self.phase is not Phase.LOBBY:
                raise SessionError("The game is already running.")
            if player.seat_id != self.host.seat_id and not admin:
                raise SessionError(
                    f"Only the host, {views.user(self.host.display_name)}, can start the game."
                )
            seats = self._seat()
            if len(seats) < self.info.min_players:
                need = self.info.min_players - len(seats)
                again = f"`start {self.info.name} bots={need}`"
                way = f"{again} reopens this lobby with them" if self.alone() else f"`stop`, then {again}"
                raise SessionError(
                    f"{self.info.title} needs at least {self.info.min_players} players: {need} more "
                    f"must `join`, or seat computer players: {way}."
                )
            await self._begin(seats)

    def alone(self) -> bool:
        """True while the lobby holds only its host (who may then reopen it with other options)."""
        return self.phase is Phase.LOBBY and [p.seat_id for p in self.players] == [self.host.seat_id]

    async def change_options(
        self, options: Mapping[str, OptionValue], words: tuple[frozenset[str], frozenset[str]]
    ) -> None:
        """The host, alone in the lobby, starts the same game again with other options: this
        lobby takes them (its message and seed stay)."""
        async with self._lock:
            if self.phase is not Phase.LOBBY:
                raise SessionError("The game has already started.")
            self.options = dict(options)
            self._words = words
            await self._keep_lobby()
            await self._refresh_lobby()

    async def reopen_as_new(self, by: Player) -> None:
        """The host, alone in the lobby, starts again with other options: this lobby closes."""
        async with self._lock:
            if self.phase is Phase.LOBBY:
                await self._close(
                    views.message(
                        f"{views.user(by.display_name)} reopened the lobby with other options.", "info"
                    )
                )

    def _seat(self) -> tuple[Seat, ...]:
        level = self.options.get("level", "normal")
        humans = [Seat(p.seat_id, p.display_name) for p in self.players]
        bots = [
            Seat(f"bot:{i + 1}", f"{BOT_NAMES[i % len(BOT_NAMES)]} (bot)", str(level))
            for i in range(self.bots)
        ]
        return (*humans, *bots)

    async def _begin(self, seats: tuple[Seat, ...]) -> None:
        now = self._clock.now()
        setup = Setup(
            self.options, _marked(seats), self.seed, added_words=self._words[0], banned_words=self._words[1]
        )
        self.engine = self.info.create(setup)
        self.moves = Moves(self.info, self.options, self.seed)
        self.seats = seats
        self.phase = Phase.RUNNING
        self._lobby_deadline = None
        self.start_record = GameStart(
            game_id=self.game_id,
            game=self.info.name,
            chat=self.chat,
            options=dict(self.options),
            seed=self.seed,
            seats=seats,
            started_at=now,
            host=self.host.seat_id,
            names=self.names(),
            added_words=self._words[0],
            banned_words=self._words[1],
        )
        start = self.start_record
        # one write: the game is recorded and its lobby forgotten together (a crash in between
        # would otherwise lose both, or restore both)
        await self._stored(lambda: self._log.start(start))
        if self._lobby_ref is not None:
            await self._outbox.send(Edit(self._lobby_ref, self._lobby_view(open_=False)))
        await self._apply(Action("begin", now))

    def remember_handled(self, refs: Iterable[str]) -> None:
        """Platform messages already taken (by an earlier game): never judged as answers here."""
        self._handled.update(refs)

    def restore(self, start: GameStart, actions: list[Action]) -> None:
        """Rebuild a running game from its log (after a restart), without announcing anything.

        The players are the start record's seats; the engine is recreated from
        the same setup and every logged action is applied again, in order.
        """
        seats = tuple(start.seats)
        self._words = (start.added_words, start.banned_words)
        setup = Setup(
            self.options,
            _marked(seats),
            self.seed,
            added_words=start.added_words,
            banned_words=start.banned_words,
        )
        self.engine = self.info.create(setup)
        self.moves = Moves(self.info, self.options, self.seed)
        self.seats = seats
        self.players = [self._by_seat.get(s.id) or _seat_player(s) for s in seats if s.bot is None]
        self._by_seat = {p.seat_id: p for p in self.players}
        self.start_record = start
        self.phase = Phase.RUNNING
        self._lobby_deadline = None
        self._begun = any(action.kind == "begin" for action in actions)
        for action in actions:
            if action.kind == "resume":
                self._paused += action.paused or 0.0
                continue
            self.engine.apply(self._on_game_clock(action))
        self._handled.update(handled_refs(actions))
        self._seq = len(actions)
        self._pinged = self._turn_seats()  # they were told before the restart

    async def resume(self, notice: str, paused: float = 0.0) -> None:
        """Announce a restored game, show its table and re-arm its timers.

        ``paused``: seconds the bot was down. The game's clock stands still for that long
        (logged as a ``resume`` action), so every deadline moves on by it, and each player
        whose turn it is hears how long they have.
        """
        async with self._lock:
            assert self.engine is not None
            if not self._begun:  # the process died between recording the start and the first deal
                self._begun = True
                await self._outbox.send(Post(self.chat, views.message(notice, "info")))
                await self._apply(Action("begin", self._clock.now()))
                return
            if paused > 0 and not self.engine.finished:
                resumed = Action("resume", self._clock.now(), paused=round(paused, 3))
                seq = self._seq
                await self._stored(lambda: self._log.append(self.game_id, seq, resumed))
                self._seq += 1
                self._paused += resumed.paused or 0.0
            await self._outbox.send(Post(self.chat, views.message(notice, "info")))
            if self.engine.finished:
                await self._finish()
                return
            await self._outbox.send(Post(self.chat, self._table_view()))
            if paused > 0:
                await self._ping_again()
            self._reschedule()

    async def _ping_again(self) -> None:
        """After an outage: each player to move hears that the clock was held for them."""
        deadline = self.snapshot(None).deadline
        if deadline is None:
            return
        left = views.duration(deadline - self._clock.now())
        for seat in sorted(self._turn_seats()):
            name = views.user(self._by_seat[seat].display_name)
            text = f"{name}, it's your turn again in {self.info.title}: {left} left."
            await self._outbox.send(Post(self.chat, views.turn(seat, text, deadline, self.info.name)))

    # ------------------------------------------------------------ play

    async def text(self, player: Player, text: str, sent_at: float, ref: MessageRef | None) -> None:
        """A message typed in the channel: a real-time claim, or a move typed in a turn-based game.

        Only what the game reads as an answer or a move goes on (to be judged, and kept in the
        game's log); anything else is chatter, dropped here unread (see :mod:`bot.moves`).
        """
        move = self.moves.move(text) if self.moves is not None else None
        if move is None:
            return  # chatter (or no game running yet)
        if not self.info.realtime:
            await self._typed_move(player, move, ref)
            return
        text = move
        async with self._lock:
            if self.phase is not Phase.RUNNING or not self.is_player(player):
                return
            ref_id = None
            if ref is not None:
                ref_id = ref.message_id
                if ref_id in self._handled:
                    log.info(
                        "answer %s in %s was handled before (a redelivery): ignored",
                        ref_id,
                        self.chat.label(),
                    )
                    return
                self._handled.add(ref_id)
                self._refs[ref_id] = ref
                self._answers[ref_id] = text
            self._add_claims([Claim(player.seat_id, text, sent_at, ref_id)])
            log.debug("answer %s in %s waits in the settle window", ref_id, self.chat.label())
            self._reschedule()

    async def _typed_move(self, player: Player, text: str, ref: MessageRef | None) -> None:
        """A turn-based game's message that reads as a move: the player to move plays it.

        A move from someone else gets a short private hint instead.
        """
        if self.phase is not Phase.RUNNING or self.engine is None:
            return
        if not self.is_player(player):
            hint = f"You're not playing this {self.info.title} game; join the next one with `start`."
        elif player.seat_id not in self._turn_seats():
            waiting = [s.name for s in self.snapshot(None).seats if s.active]
            whose = f"it's {' and '.join(waiting)}'s turn" if waiting else "it's not your turn"
            hint = f"Not yet: {whose}. Your move will count when it's yours."
        else:
            refused = await self.say(player, text, ref=ref)
            if refused is not None:
                await self._outbox.send(Private(self.chat, player, views.error(refused)))
            return
        await self._outbox.send(Private(self.chat, player, views.message(hint, "info")))

    def _turn_seats(self) -> set[str]:
        """The human seats whose turn it is now (turn-based games)."""
        if self.engine is None or self.info.realtime or self.engine.finished:
            return set()
        return {s.seat for s in self.engine.snapshot(None).seats if s.active and s.seat in self._by_seat}

    async def _ping_turns(self) -> None:
        """Tell each player whose turn just began, with a new message that mentions them."""
        if self.engine is None or self.info.realtime:
            return
        now_active = self._turn_seats()
        fresh, self._pinged = now_active - self._pinged, now_active
        if not fresh:
            return
        snapshot = self.snapshot(None)
        for seat in sorted(fresh):
            name = views.user(self._by_seat[seat].display_name)
            text = f"{name}, it's your turn in {self.info.title}: type your move here, or `play MOVE`."
            await self._outbox.send(
                Post(self.chat, views.turn(seat, text, snapshot.deadline, self.info.name))
            )

    async def say(
        self, player: Player, text: str, *, private: bool = False, ref: MessageRef | None = None
    ) -> str | None:
        """A move (turn-based games) or a private answer (e.g. an Eagle Eyes list).

        Returns the reason when the game refused it (for the caller to show
        its author at once), else None.
        """
        async with self._lock:
            self._require_running(player)
            if self.moves is None:
                raise SessionError("The game hasn't started yet.")
            reading = self.moves.read(text, private=private)
            if reading.move is None:  # not a move at all: refused, never played nor kept
                self._why[player.seat_id] = reading.reason
                return reading.reason
            text = reading.move
            ref_id = ref.message_id if ref else None
            if ref_id is not None and ref_id in self._handled:
                return None  # a redelivered move, already played (or refused) once
            if ref is not None and ref_id is not None:
                self._handled.add(ref_id)
                self._refs[ref_id] = ref
            notices = await self._apply(
                Action("say", self._clock.now(), seat=player.seat_id, text=text, private=private, ref=ref_id)
            )
            return next(
                (n.text for n in notices if n.kind == "rejected" and n.seat == player.seat_id and n.text),
                None,
            )

    async def vote(self, player: Player, choice: str) -> list[Notice]:
        """A vote: ``skip`` when stuck, ``yes``/``no`` on a disputed answer. Returns what the
        engine said about it (empty: nothing; see :meth:`quiet_vote`)."""
        async with self._lock:
            self._require_running(player)
            return await self._apply(Action("vote", self._clock.now(), seat=player.seat_id, text=choice))

    def reads_as_move(self, text: str) -> bool:
        """Whether the running game reads ``text`` as a move or an answer (it may be illegal)."""
        return self.moves is not None and self.moves.move(text) is not None

    def takes_lists(self) -> bool:
        """Whether this game takes private word lists (``list``: an Eagle Eyes race)."""
        return self.engine is not None and self.engine.takes_lists

    @property
    def language(self) -> str:
        """The code of the language this game plays in (``en`` for a game without the option)."""
        return str(self.options.get("language", "en"))

    async def word_verdict(self, word: str) -> Verdict | None:
        """The running game's verdict on ``word`` (folded in its language) under its own word
        rules and the workspace's words (``define``); None before the game starts, after it
        ends or for a game that judges no words."""
        async with self._lock:
            if self.phase is not Phase.RUNNING or self.engine is None:
                return None
            return self.engine.word_verdict(word)

    def quiet_vote(self, player: Player, choice: str) -> str:
        """Why a vote the engine took in silence changed nothing visible (already counted, no
        dispute open…): the engine's own words where it has them."""
        if self.engine is None:
            return QUIET_SKIP if choice == "skip" else QUIET_VOTE
        return self.engine.quiet_vote(player.seat_id, choice)

    def private_view(self, player: Player) -> views.View:
        """The player's own hand, rack or list."""
        if self.engine is None:
            if self.is_player(player):
                raise SessionError(
                    f"The game hasn't started yet: {views.user(self.host.display_name)} deals it with `go`."
                )
            raise SessionError("The game hasn't started yet: `join` it to get a seat.")
        if not self.is_player(player):
            raise SessionError("You're not playing this game, so you have no hand here.")
        return views.private(self.snapshot(player.seat_id), self.info.name)

    def _require_running(self, player: Player) -> None:
        if self.phase is not Phase.RUNNING:
            raise SessionError("The game hasn't started yet.")
        if not self.is_player(player):
            raise SessionError("You're not in this game.")

    def _add_claims(self, claims: list[Claim]) -> None:
        if not claims:
            return
        if not self._pending:
            self._settle_deadline = self._clock.now() + self._settle
            self._judged.clear()
        self._pending.extend(claims)

    async def stop(self, by: Player) -> None:
        """End the game early; a stopped game does not count."""
        async with self._lock:
            if self.phase is Phase.RUNNING:
                # the reason never names who stopped: it outlives forget-me (#29)
                await self._stored(lambda: self._log.void(self.game_id, "stopped by a player"))
            await self._close(
                views.message(
                    f"{views.user(by.display_name)} stopped the game. Scores were not recorded.", "info"
                )
            )

    # ------------------------------------------------------------ engine

    async def _apply(self, action: Action) -> list[Notice]:
        assert self.engine is not None
        notices = self.engine.apply(self._on_game_clock(action))
        seq = self._seq
        await self._stored(lambda: self._log.append(self.game_id, seq, action))
        self._seq += 1
        await self._deliver(notices)
        if self.engine.finished and self.phase is Phase.RUNNING:
            if not any(n.kind == "table" for n in notices):
                await self._outbox.send(Post(self.chat, self._table_view()))  # the final state, no buttons
            await self._finish()
        else:
            self._reschedule()
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

    async def _deliver(self, notices: list[Notice]) -> None:
        assert self.engine is not None
        table_changed = False
        for notice in notices:
            ref = self._refs.pop(notice.ref, None) if notice.ref else None
            word = self._answers.pop(notice.ref, "") if notice.ref else ""
            if notice.kind == "accepted":
                metrics.answer_judged(self.info.name, accepted=True)
                if ref is not None:
                    player = self._by_seat.get(notice.seat or "")
                    who = player.display_name if player else ""
                    await self._outbox.send(
                        React(ref, "accepted", seat=notice.seat or "", who=who, word=word)
                    )
                if notice.text:
                    await self._outbox.send(Post(self.chat, views.message(notice.text)))
            elif notice.kind == "rejected":
                metrics.answer_judged(self.info.name, accepted=False)
                if notice.seat:
                    self._why[notice.seat] = notice.text
                if ref is not None:
                    player = self._by_seat.get(notice.seat or "")
                    mark: Mark = "late" if notice.late else "rejected"
                    who = player.display_name if player else ""
                    await self._outbox.send(
                        React(ref, mark, notice.text, seat=notice.seat or "", who=who, word=word)
                    )
            elif notice.kind == "announce":
                await self._outbox.send(Post(self.chat, views.message(notice.text)))
            elif notice.kind == "private":
                player = self._by_seat.get(notice.seat or "")
                if player is not None:
                    await self._outbox.send(Private(self.chat, player, views.message(notice.text, "private")))
            elif notice.kind == "table":
                table_changed = True
            elif notice.kind == "end" and notice.text:
                self._ending.append(notice.text)  # said once, in the result
            elif notice.kind == "ping":
                deadline = self.snapshot(None).deadline  # the turn's end
                if notice.seat in self._by_seat:
                    await self._outbox.send(
                        Post(self.chat, views.turn(notice.seat or "", notice.text, deadline, self.info.name))
                    )
                else:
                    await self._outbox.send(Post(self.chat, views.message(notice.text)))
        if table_changed:
            await self._outbox.send(Post(self.chat, self._table_view()))
        await self._ping_turns()

    def _table_view(self) -> views.View:
        """The public table now; ``settles_at`` says when the game will change it by itself."""
        assert self.engine is not None
        finished = self.engine.finished
        settles_at = None if finished else self.engine.next_deadline()
        return views.table(
            self.snapshot(None),
            self.info.name,
            realtime=self.info.realtime,
            settles_at=None if settles_at is None else settles_at + self._paused,
            final=finished,
            turn_moves=self.info.turn_moves,
        )

    async def _finish(self) -> None:
        assert self.engine is not None and self.start_record is not None
        outcome = self.engine.result()
        start, at = self.start_record, self._clock.now()
        # exactly once by game id, so a try that reached the database before failing is harmless
        await self._stored(lambda: self._log.finish(start, outcome, at), RESULT_WAITS)
        voted = list(self.engine.voted_words)
        if voted:
            await self._outbox.send(Post(self.chat, views.message(await self._kept(voted), "info")))
        view = replace(
            views.result(self.info, outcome, self.names(), ending=self._ending), once=self._result_key()
        )
        await self._close(view, receipt=None if outcome.voided else self._result_posted)

    async def _kept(self, voted: list[str]) -> str:
        """Keep the answers voted in on the workspace's list (the theme's memory); says so."""
        shown = ", ".join(w.upper() for w in voted)
        kept: list[str] = []
        if self._keep_words is not None:
            try:
                kept = await self._keep_words(voted)
            except StorageError as exc:  # the game is over either way: the words are only a bonus
                log.warning("game %s: could not keep the words voted in (%s)", self.game_id, exc)
        if not kept:
            return f"Voted in during this game: {shown}."
        them = "it" if len(kept) == 1 else "them"
        return (
            f"Voted in during this game: {shown}. Kept on this workspace's word list, so later "
            f"games here accept {them} without a vote (an admin can take {them} off with "
            f"`words remove {kept[0]}`)."
        )

    def _result_key(self) -> str:
        """The result's name: posting it again after a restart is recognised where a platform can."""
        return f"result:{self.game_id}"

    def _result_posted(self, ref: MessageRef | None) -> None:
        """The result is in the channel: a restart need not announce it again."""
        if ref is not None:
            self._spawn(self._record_announced(), f"announced {self.game_id}")

    async def _record_announced(self) -> None:
        try:
            await self._stored(lambda: self._log.announced(self.game_id, self._clock.now()))
        except StorageError:
            log.warning("game %s: could not record that its result was posted", self.game_id)

    async def _close(
        self, farewell: views.View, receipt: Callable[[MessageRef | None], None] | None = None
    ) -> None:
        if self.phase is Phase.CLOSED:
            return
        self.phase = Phase.CLOSED
        self._cancel_timer()
        self._judged.set()
        if self.engine is None:
            await self._log.lobby_closed(self.game_id)
        if self._lobby_ref is not None and self.engine is None:
            await self._outbox.send(Edit(self._lobby_ref, self._lobby_view(open_=False)))
        await self._outbox.send(Post(self.chat, farewell, receipt))
        self._on_closed(self)

    async def wind_down(self, notice: str) -> None:
        """The process is stopping: judge the answers in the settle window now, and say so.

        The game itself stays unfinished in the log, so the next process resumes it.
        """
        async with self._lock:
            if self.phase is not Phase.RUNNING or self.engine is None or not self.info.realtime:
                return
            if self._pending:
                await self._judge_pending(self._clock.now())
            if self.phase is Phase.RUNNING:
                await self._outbox.send(Post(self.chat, views.message(notice, "info")))

    async def _judge_pending(self, now: float) -> None:
        """Close the settle window: every answer in it goes to the engine as one batch."""
        batch, self._pending, self._settle_deadline = tuple(self._pending), [], None
        batch_now = max([now, *(c.sent_at for c in batch)])
        try:
            await self._apply(Action("claims", batch_now, claims=batch))
        finally:
            self._judged.set()

    def abandon(self) -> None:
        """Drop timers without any message (the manager reports the reason)."""
        self.phase = Phase.CLOSED
        self._cancel_timer()
        self._judged.set()

    # ------------------------------------------------------------ timers

    def next_wake(self) -> float | None:
        """When the session next has something to do on its own."""
        candidates: list[float] = []
        if self.phase is Phase.LOBBY and self._lobby_deadline is not None:
            candidates.append(self._lobby_deadline)
        elif self.phase is Phase.RUNNING and self.engine is not None:
            closes = self._settle_closes_at()
            if closes is not None:
                candidates.append(closes)
            deadline = self.engine.next_deadline()
            if deadline is not None:  # the game's clock → the wall clock (a held tick waits too)
                candidates.append(max(deadline + self._paused, self._hold_ends()))
            bot_time = self.engine.next_bot_time()
            if bot_time is not None:
                candidates.append(bot_time + self._paused)
        return min(candidates) if candidates else None

    def _hold_ends(self) -> float:
        """When the holds stop holding anything (0: no hold)."""
        return self._held_since + HOLD_MOST if self._holds else 0.0

    def hold(self) -> None:
        """Keep the settle window open: answers sent earlier may still be on their way (the
        platform's connection dropped and will replay what it missed). Answers are judged once
        every hold is released — by their send times, as always — or :data:`HOLD_MOST` seconds
        after the first hold was taken, whichever comes first; the game's own deadline (a
        card's hourglass) waits as long, so a missed answer cannot lose to it either."""
        if not self._holds:
            self._held_since = self._clock.now()
        self._holds += 1

    def release(self) -> None:
        """Let go of one :meth:`hold` (the replay is over)."""
        self._holds = max(0, self._holds - 1)
        self._reschedule()

    def _settle_closes_at(self) -> float | None:
        if self._settle_deadline is None:
            return None
        return max(self._settle_deadline, self._hold_ends())

    def _reschedule(self) -> None:
        wake = self.next_wake()
        if wake == self._timer_at and self._timer is not None and not self._timer.done():
            return
        self._cancel_timer()
        if wake is not None:
            self._timer_at = wake
            self._timer = self._spawn(self._sleep_then_wake(wake), f"timer {self.chat.label()}")

    def _cancel_timer(self) -> None:
        timer, self._timer, self._timer_at = self._timer, None, None
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()

    async def _sleep_then_wake(self, when: float) -> None:
        await self._clock.sleep_until(when)
        async with self._lock:
            if self._timer is asyncio.current_task():
                self._timer, self._timer_at = None, None
            await self._wake()
            if self.phase is not Phase.CLOSED and self._timer is None:
                self._reschedule()

    async def _wake(self) -> None:
        now = self._clock.now()
        if self.phase is Phase.LOBBY:
            if self._lobby_deadline is not None and now >= self._lobby_deadline:
                minutes = "the lobby timed out"
                await self._close(
                    views.message(f"Nobody started the {self.info.title} game, so {minutes}.", "info")
                )
            return
        if self.phase is not Phase.RUNNING or self.engine is None:
            return
        # The engine's times are on the game's clock: the wall clock less the outages.
        bot_time = self.engine.next_bot_time()
        if bot_time is not None and bot_time + self._paused <= now:
            game_now = max(now - self._paused, bot_time)
            if self.info.realtime:
                claims = self.engine.bot_claims(game_now)
                self._add_claims([replace(c, sent_at=c.sent_at + self._paused) for c in claims])
            else:
                # A turn-based computer player may search for a while (a board move generator):
                # on the real clock it thinks in a worker thread, so other channels' games keep
                # their pace. The session's lock is held meanwhile: nothing else touches the engine.
                if self._think_in_thread:
                    due = await asyncio.to_thread(self.engine.bot_claims, game_now)
                else:
                    due = self.engine.bot_claims(game_now)
                # a computer player's turn-based move is logged like anyone's
                for claim in due:
                    await self._apply(Action("say", now, seat=claim.seat, text=claim.text))
                    if self.phase is not Phase.RUNNING:
                        return
        closes = self._settle_closes_at()
        if closes is not None and now >= closes:
            await self._judge_pending(now)
            if self.phase is not Phase.RUNNING:
                return
        deadline = self.engine.next_deadline()
        if deadline is not None and max(deadline + self._paused, self._hold_ends()) <= now:
            # (while held, the game's own deadline waits too: an answer on its way may beat it)
            tick = Action("tick", self._wall_for(deadline, now))
            await self._apply(tick)
            again = self.engine.next_deadline()
            if self.phase is Phase.RUNNING and again is not None and again + self._paused <= tick.now:
                # An engine whose deadline never moves would spin this timer forever.
                raise RuntimeError(f"{self.info.name} engine kept its deadline {again} after a tick at {now}")


def handled_refs(actions: Iterable[Action]) -> set[str]:
    """The platform messages a game's log took as answers or moves."""
    refs = {claim.ref for action in actions for claim in action.claims if claim.ref}
    return refs | {action.ref for action in actions if action.ref}
