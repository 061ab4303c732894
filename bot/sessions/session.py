"""One game in one chat: the session, what the rest of moji holds of a chat's game.

A session takes what players do (under one lock, so a chat's events play one at a time) and
hands it to its parts, one object each, made with it and given only what they work with: its
state (:mod:`.state`), :attr:`~Session.lobby`, :attr:`~Session.settle` (real-time answers judged
in fair batches), :attr:`~Session.timers`, :attr:`~Session.announcer` and
:attr:`~Session.journal` (the game's log); every action is played by :mod:`.play` — the engine,
the log, then the announcement. Control goes one way: the session calls a part, or play, which
calls the parts; nothing calls back. The timer is the one door no player opens: when it wakes,
the session has :mod:`.play` do what is due.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from typing import Any, Unpack

from bot.core import views
from bot.core.events import MessageRef, Player, Post, Private
from bot.core.outbox import GameStart
from bot.sessions.announce import Announcer
from bot.sessions.journal import Journal
from bot.sessions.lobby import Lobby
from bot.sessions.moves import Moves
from bot.sessions.parts import SessionArgs, SpokenLock
from bot.sessions.play import Play
from bot.sessions.settle import SettleWindow
from bot.sessions.state import Phase, SessionError, SessionState, Words
from bot.sessions.timers import Timers
from games.common.engine import QUIET_SKIP, QUIET_VOTE
from games.common.options import OptionValue
from games.common.protocol import Action, Claim, Engine, Notice, Result, Seat, Snapshot
from games.common.speech import _
from games.common.words import Verdict

__all__ = ["Session"]

log = logging.getLogger("bot.sessions.session")


class Session:
    """A game lobby and, once started, the running game: what the rest of moji holds of a chat's game."""

    def __init__(self, **args: Unpack[SessionArgs]) -> None:
        chat, clock, game_log, outbox = args["chat"], args["clock"], args["game_log"], args["outbox"]
        state = SessionState(
            chat,
            args["info"],
            args["host"],
            args["options"],
            args["game_id"],
            args["seed"],
            speech=args.get("speech"),
            timestamp_precision=args.get("timestamp_precision", 0.0),
            words=args.get("words", (frozenset(), frozenset())),
        )
        self.state = state
        self.chat, self.info, self.game_id, self.seed = chat, state.info, state.game_id, state.seed
        self.speech = state.speech
        self.journal = Journal(game_log, clock, state.game_id, chat.label(), state.seed)
        self.lobby = Lobby(state, outbox, game_log, clock, args.get("lobby_timeout", 600.0))
        self.settle = SettleWindow(args.get("settle", 0.15), clock)
        self.timers = Timers(clock, args["spawn"], f"timer {chat.label()}", self._woken)
        self.announcer = Announcer(state, outbox, game_log, clock, args.get("keep_words"))
        #: Awaited (with this session) when its game has finished and is recorded, before it
        #: closes: what it returns is posted after the result (the daily's private summary,
        #: :meth:`bot.features.daily.Dailies.finished`). Awaited here, not in a task of its own, so it
        #: is done before anyone hears the game closed (a terminal quitting at once included).
        self.on_finish: Callable[[Any], Awaitable[views.View | None]] | None = None
        on_closed = args["on_closed"]
        self._play = Play(
            state,
            self.lobby,
            self.settle,
            self.timers,
            self.announcer,
            self.journal,
            outbox=outbox,
            clock=clock,
            spawn=args["spawn"],
            think_in_thread=args.get("think_in_thread", False),
            finishing=self._finishing,
            closed=lambda: on_closed(self),
        )
        self._clock = clock
        self._outbox = outbox
        self._lock = SpokenLock(state.speech)

    # ------------------------------------------------------------ the state, as read from outside

    @property
    def phase(self) -> Phase:
        """Where the session is in its life."""
        return self.state.phase

    @property
    def host(self) -> Player:
        """Who opened the lobby (or took it over)."""
        return self.state.host

    @property
    def players(self) -> list[Player]:
        """The people in the lobby, or seated in the game."""
        return self.state.players

    @property
    def options(self) -> dict[str, OptionValue]:
        """The game's options."""
        return self.state.options

    @property
    def engine(self) -> Engine | None:
        """The running game's engine (None before it starts)."""
        return self.state.engine

    @property
    def moves(self) -> Moves | None:
        """What the running game takes from a player's typing."""
        return self.state.moves

    def is_player(self, player: Player) -> bool:
        """True when ``player`` has joined."""
        return self.state.is_player(player)

    def names(self) -> dict[str, str]:
        """Seat id -> display name, for every seat."""
        return self.state.names()

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        """The engine's snapshot, its deadline on the wall clock."""
        return self.state.snapshot(viewer)

    # ------------------------------------------------------------ the lobby

    async def open_lobby(self) -> None:
        """Post the lobby message and arm the lobby timeout."""
        async with self._lock:
            await self.lobby.open()
            self._play.rearm()

    async def reopen(self) -> None:
        """Refresh a restored lobby's message and re-arm its timeout."""
        async with self._lock:
            await self.lobby.reopen()
            self._play.rearm()

    async def join(self, player: Player) -> str:
        """Add a player to the lobby; returns a confirmation."""
        async with self._lock:
            return await self.lobby.join(player)

    async def leave(self, player: Player) -> str:
        """Remove a player; in a running game their seat is given up."""
        async with self._lock:
            if not self.state.is_player(player):
                raise SessionError(_("You're not in this game."))
            if self.state.phase is Phase.LOBBY:
                left = await self.lobby.leave(player)
                if left is not None:
                    return left
                await self._play.close(views.message(_("Everyone left, so the lobby is closed."), "info"))
                with self.state.voice_for(player):
                    return _("You left; the lobby is closed.")
            await self._play.apply(Action("leave", self._clock.now(), seat=player.seat_id))
            with self.state.voice_for(player):
                return _("You left the game.")

    async def go(self, player: Player, *, admin: bool = False) -> None:
        """Start the game (the host, or an admin)."""
        async with self._lock:
            await self._play.begin(await self.lobby.ready(player, admin=admin))

    async def begin_with(self, players: Sequence[Player], seats: Sequence[Seat]) -> None:
        """Start at once with these people in these seats, in this order (a tournament's
        pairing: nobody joins, and its first seat moves first where the game lets seats decide)."""
        async with self._lock:
            if self.state.phase is not Phase.LOBBY:
                raise SessionError(_("The game is already running."))
            self.state.seat_people(list(players) or self.state.players)
            await self._play.begin(tuple(seats))

    async def change_options(self, options: Mapping[str, OptionValue], words: Words) -> None:
        """The host, alone in the lobby, takes other options for the same lobby."""
        async with self._lock:
            await self.lobby.change_options(options, words)

    async def reopen_as_new(self, by: Player) -> None:
        """The host, alone in the lobby, starts again with other options: this lobby closes."""
        async with self._lock:
            if self.state.phase is Phase.LOBBY:
                name = views.user(by.display_name)
                await self._play.close(
                    views.message(_("{name} reopened the lobby with other options.", name=name), "info")
                )

    # ------------------------------------------------------------ the settle window and the timer

    async def why_after_verdict(self, player: Player) -> str:
        """``why``: when the player's answer still waits in the settle window, its verdict first."""
        if self.settle.waits_for(player.seat_id):
            await self.settle.judged()
        return self.announcer.why(player)

    def hold(self) -> None:
        """Keep the settle window open while a platform replays what it missed
        (:meth:`SettleWindow.hold`)."""
        self.settle.hold()

    def release(self) -> None:
        """Let go of one :meth:`hold`."""
        self.settle.release()
        self._play.rearm()

    def abandon(self) -> None:
        """Drop timers without any message (the manager reports the reason)."""
        self._play.abandon()

    async def _woken(self) -> None:
        """The timer's door: what is due now, under the lock; then the timer sleeps again."""
        async with self._lock:
            self.timers.fired()
            await self._play.due(self._clock.now())
            if self.state.phase is not Phase.CLOSED and self.timers.idle:
                self._play.rearm()

    async def _finishing(self) -> views.View | None:
        return None if self.on_finish is None else await self.on_finish(self)

    # ------------------------------------------------------------ restore

    def remember_handled(self, refs: Iterable[str]) -> None:
        """Platform messages already taken (by an earlier game): never judged as answers here."""
        self.journal.taken_before(refs)

    def restore(self, start: GameStart, actions: list[Action]) -> None:
        """Rebuild a running game from its log (after a restart), without announcing anything.

        The players are the start record's seats; the engine is recreated from
        the same setup and every logged action is applied again, in order.
        """
        with self.state.voice():
            self.state.replay(start, actions)
            self.journal.replayed(actions)
            self.announcer.turns_told()  # they were told before the restart

    async def resume(self, notice: str, paused: float = 0.0) -> None:
        """Announce a restored game, show its table and re-arm its timers.

        ``paused``: seconds the bot was down. The game's clock stands still for that long
        (logged as a ``resume`` action), so every deadline moves on by it, and each player
        whose turn it is hears how long they have.
        """
        async with self._lock:
            await self._play.resume(notice, paused)

    # ------------------------------------------------------------ play

    async def text(
        self, player: Player, text: str, sent_at: float, ref: MessageRef | None, *, read: bool = False
    ) -> None:
        """A message typed in the channel: a real-time claim, or a move typed in a turn-based game.

        ``read``: ``text`` is the answer or move the inbound pipeline read in the message (its
        chatter step). Otherwise (a message handed to the manager directly) it is read here:
        only what the game reads as an answer or a move goes on (to be judged, and kept in the
        game's log); anything else is chatter, dropped unread (see :mod:`bot.sessions.moves`).
        """
        moves = self.state.moves
        move = text if read or moves is None else moves.move(text)
        if moves is None or move is None:
            return  # chatter (or no game running yet)
        if not self.info.realtime:
            if self.state.phase is Phase.RUNNING and not await self.announcer.out_of_turn(player):
                refused = await self.say(player, move, ref=ref)
                if refused is not None:
                    await self._outbox.send(Private(self.chat, player, views.error(refused)))
            return
        async with self._lock:
            if self.state.phase is not Phase.RUNNING or not self.state.is_player(player):
                return
            ref_id = None if ref is None else ref.message_id
            if ref is not None:
                if not self.journal.take(ref.message_id):
                    log.info(
                        "answer %s in %s was handled before (a redelivery): ignored",
                        ref_id,
                        self.chat.label(),
                    )
                    return
                self.announcer.expect(ref, move)
            self.settle.add([Claim(player.seat_id, move, sent_at, ref_id)])
            log.debug("answer %s in %s waits in the settle window", ref_id, self.chat.label())
            self._play.rearm()

    async def say(
        self, player: Player, text: str, *, private: bool = False, ref: MessageRef | None = None
    ) -> str | None:
        """A move (turn-based games) or a private answer (e.g. an Eagle Eyes list).

        Returns the reason when the game refused it (for the caller to show
        its author at once), else None.
        """
        async with self._lock:
            self.state.require_running(player)
            if self.state.moves is None:
                raise SessionError(_("The game hasn't started yet."))
            reading = self.state.moves.read(text, private=private)
            if reading.move is None:  # not a move at all: refused, never played nor kept
                self.announcer.refused(player.seat_id, reading.reason)
                return reading.reason
            if ref is not None:
                if not self.journal.take(ref.message_id):
                    return None  # a redelivered move, already played (or refused) once
                self.announcer.expect(ref)
            ref_id = ref.message_id if ref else None
            action = Action(
                "say", self._clock.now(), seat=player.seat_id, text=reading.move, private=private, ref=ref_id
            )
            notices = await self._play.apply(action)
            return next(
                (n.text for n in notices if n.kind == "rejected" and n.seat == player.seat_id and n.text),
                None,
            )

    async def vote(self, player: Player, choice: str) -> list[Notice]:
        """A vote: ``skip`` when stuck, ``yes``/``no`` on a disputed answer. Returns what the
        engine said about it (empty: nothing; see :meth:`quiet_vote`)."""
        async with self._lock:
            self.state.require_running(player)
            return await self._play.apply(Action("vote", self._clock.now(), seat=player.seat_id, text=choice))

    def reads_as_move(self, text: str) -> bool:
        """Whether the running game reads ``text`` as a move or an answer (it may be illegal)."""
        return self.state.moves is not None and self.state.moves.move(text) is not None

    def takes_lists(self) -> bool:
        """Whether this game takes private word lists (``list``: an Eagle Eyes race)."""
        return self.state.engine is not None and self.state.engine.takes_lists

    async def word_verdict(self, word: str) -> Verdict | None:
        """The running game's verdict on ``word`` (folded in its language) under its own word
        rules and the workspace's words (``define``); None before the game starts, after it
        ends or for a game that judges no words."""
        async with self._lock:
            if self.state.phase is not Phase.RUNNING or self.state.engine is None:
                return None
            return self.state.engine.word_verdict(word)

    def quiet_vote(self, player: Player, choice: str) -> str:
        """Why a vote the engine took in silence changed nothing visible (already counted, no
        dispute open…): the engine's own words where it has them."""
        if self.state.engine is None:
            return QUIET_SKIP if choice == "skip" else QUIET_VOTE
        return self.state.engine.quiet_vote(player.seat_id, choice)

    # ------------------------------------------------------------ the end

    async def stop(self, by: Player) -> None:
        """End the game early; a stopped game does not count."""
        async with self._lock:
            if self.state.phase is Phase.RUNNING:
                # the reason never names who stopped: it outlives forget-me
                await self.journal.stored(lambda: self.journal.log.void(self.game_id, "stopped by a player"))
            name = views.user(by.display_name)
            await self._play.close(
                views.message(_("{name} stopped the game. Scores were not recorded.", name=name), "info")
            )

    async def end_at_deadline(self, farewell: views.View) -> Result | None:
        """End the game at a deadline that is not its own (a tournament round's): the scores so
        far, for the tournament to count (None: it had not begun). The game itself is recorded
        void, so it changes no rating."""
        async with self._lock:
            state = self.state
            if state.phase is Phase.CLOSED:
                return None
            result = state.engine.result() if state.phase is Phase.RUNNING and state.engine else None
            if state.phase is Phase.RUNNING:
                reason = "ended by its tournament round's deadline"
                await self.journal.stored(lambda: self.journal.log.void(self.game_id, reason))
            await self._play.close(farewell)
            return result

    async def wind_down(self, notice: str) -> None:
        """The process is stopping: judge the answers in the settle window now, and say so
        (``notice``: English marked with ``N_()``, said in the chat's language).

        The game itself stays unfinished in the log, so the next process resumes it.
        """
        async with self._lock:
            if self.state.phase is not Phase.RUNNING or self.state.engine is None or not self.info.realtime:
                return
            if self.settle.pending:
                await self._play.judge(self._clock.now())
            if self.state.phase is Phase.RUNNING:
                await self._outbox.send(Post(self.chat, views.message(_(notice), "info")))
