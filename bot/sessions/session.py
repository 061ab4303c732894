"""One game in one chat: its lobby, its engine, its timers.

A session turns inbound events into engine :class:`~games.common.protocol.Action`
values, appends each action to the game's log *before* announcing what it
did, and turns the engine's notices into outbound messages. Its timers (lobby
expiry, the settle window, computer players, the engine's own deadlines) run
on an injected :class:`~bot.core.clock.Clock`, in a single supervised task.

Fairness: real-time answers are not judged on arrival. The first one opens a
settle window (``settle`` seconds, default 150 ms); when it closes, every
answer received so far goes to the engine as one batch, which orders them by
the platform's own send time. An answer that arrives late but was sent first
still wins.

The session holds its parts, one object each (see :mod:`bot.sessions.session_core`): its lobby, its
settle window, its timer and its announcer. This module holds the session itself: play (answers,
moves, votes, the game's hooks), restore and resume, and the parts' doors to the rest of moji.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Unpack

from bot.core import views
from bot.core.events import MessageRef, Player, Post, Private
from bot.core.outbox import GameStart, LobbyState
from bot.sessions.announce import Announcer
from bot.sessions.lobby import Lobby
from bot.sessions.moves import Moves
from bot.sessions.parts import SessionArgs
from bot.sessions.session_core import (
    Phase,
    SessionCore,
    SessionError,
    _marked,
    _seat_player,
    log,
)
from bot.sessions.settle import SettleWindow
from bot.sessions.timers import Timers
from games.common.engine import QUIET_SKIP, QUIET_VOTE
from games.common.grammar import is_you
from games.common.options import OptionValue
from games.common.protocol import Action, Claim, Notice, Result, Seat, Setup
from games.common.speech import _, listing
from games.common.words import Verdict

__all__ = ["Session", "handled_refs"]


class Session(SessionCore):
    """A game lobby and, once started, the running game."""

    lobby: Lobby
    window: SettleWindow
    timers: Timers
    announcer: Announcer

    def __init__(self, **args: Unpack[SessionArgs]) -> None:
        super().__init__(**args)
        self.lobby = Lobby(self)
        self.window = SettleWindow(self)
        self.timers = Timers(self)
        self.announcer = Announcer(self)

    # ------------------------------------------------------------ the parts' doors

    async def open_lobby(self) -> None:
        """Post the lobby message and arm the lobby timeout (:meth:`Lobby.open_lobby`)."""
        await self.lobby.open_lobby()

    def lobby_state(self) -> LobbyState:
        """The lobby as the game log keeps it."""
        return self.lobby.lobby_state()

    def restore_lobby(self, state: LobbyState) -> None:
        """Reopen a lobby kept before a restart (its message and buttons are reused)."""
        self.lobby.restore_lobby(state)

    async def reopen(self) -> None:
        """Refresh a restored lobby's message and re-arm its timeout."""
        await self.lobby.reopen()

    async def join(self, player: Player) -> str:
        """Add a player to the lobby; returns a confirmation."""
        return await self.lobby.join(player)

    async def leave(self, player: Player) -> str:
        """Remove a player; in a running game their seat is given up."""
        return await self.lobby.leave(player)

    async def go(self, player: Player, *, admin: bool = False) -> None:
        """Start the game (the host, or an admin)."""
        await self.lobby.go(player, admin=admin)

    async def begin_with(self, players: Sequence[Player], seats: Sequence[Seat]) -> None:
        """Start at once with these people in these seats (a tournament's pairing)."""
        await self.lobby.begin_with(players, seats)

    def alone(self) -> bool:
        """True while the lobby holds only its host."""
        return self.lobby.alone()

    async def change_options(
        self, options: Mapping[str, OptionValue], words: tuple[frozenset[str], frozenset[str]]
    ) -> None:
        """The host, alone in the lobby, takes other options for the same lobby."""
        await self.lobby.change_options(options, words)

    async def reopen_as_new(self, by: Player) -> None:
        """The host, alone in the lobby, starts again with other options: this lobby closes."""
        await self.lobby.reopen_as_new(by)

    async def why_after_verdict(self, player: Player) -> str:
        """``why``: when the player's answer still waits in the settle window, its verdict first."""
        return await self.window.why_after_verdict(player)

    def hold(self) -> None:
        """Keep the settle window open while a platform replays what it missed
        (:meth:`SettleWindow.hold`)."""
        self.window.hold()

    def release(self) -> None:
        """Let go of one :meth:`hold`."""
        self.window.release()

    def next_wake(self) -> float | None:
        """When the session next has something to do on its own."""
        return self.timers.next_wake()

    def abandon(self) -> None:
        """Drop timers without any message (the manager reports the reason)."""
        self.timers.abandon()

    # ------------------------------------------------------------ restore

    def remember_handled(self, refs: Iterable[str]) -> None:
        """Platform messages already taken (by an earlier game): never judged as answers here."""
        self._handled.update(refs)

    def restore(self, start: GameStart, actions: list[Action]) -> None:
        """Rebuild a running game from its log (after a restart), without announcing anything.

        The players are the start record's seats; the engine is recreated from
        the same setup and every logged action is applied again, in order.
        """
        with self.voice():
            self._replay(start, actions)

    def _replay(self, start: GameStart, actions: list[Action]) -> None:
        seats = tuple(start.seats)
        self._words = (start.added_words, start.banned_words)
        setup = Setup(
            self.options,
            _marked(seats),
            self.seed,
            added_words=start.added_words,
            banned_words=start.banned_words,
            timestamp_precision=self.timestamp_precision,
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
        said: list[str] = []
        for action in actions:
            if action.kind == "resume":
                self._paused += action.paused or 0.0
                continue
            notices = self.engine.apply(self._on_game_clock(action))
            said += [n.text for n in notices if n.kind in ("accepted", "announce", "end") and n.text.strip()]
        self.said_before = tuple(said[-8:])
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
                await self.announcer.finish()
                return
            await self._outbox.send(Post(self.chat, self.announcer.table_view()))
            if paused > 0:
                await self.announcer.ping_again()
            self.timers.reschedule()

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
        if self.moves is None:
            return  # no game running yet
        move = text if read else self.moves.move(text)
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
            self.window.add([Claim(player.seat_id, text, sent_at, ref_id)])
            log.debug("answer %s in %s waits in the settle window", ref_id, self.chat.label())
            self.timers.reschedule()

    async def _typed_move(self, player: Player, text: str, ref: MessageRef | None) -> None:
        """A turn-based game's message that reads as a move: the player to move plays it.

        A move from someone else gets a short private hint instead.
        """
        if self.phase is not Phase.RUNNING or self.engine is None:
            return
        if not self.is_player(player):
            with self.voice_for(player):
                hint = _(
                    "You're not playing this {game} game; join the next one with `start`.",
                    game=_(self.info.title),
                )
        elif player.seat_id not in self._turn_seats():
            waiting = [s.name for s in self.snapshot(None).seats if s.active]
            with self.voice_for(player):
                if not waiting:
                    hint = _("Not yet: it's not your turn. Your move will count when it's yours.")
                elif len(waiting) == 1 and is_you(waiting[0]):
                    hint = _("Not yet: wait for your turn. Your move will count when it's yours.")
                else:
                    hint = _(
                        "Not yet: it's {names}'s turn. Your move will count when it's yours.",
                        names=listing(views.user(name) for name in waiting),
                    )
        else:
            refused = await self.say(player, text, ref=ref)
            if refused is not None:
                await self._outbox.send(Private(self.chat, player, views.error(refused)))
            return
        await self._outbox.send(Private(self.chat, player, views.message(hint, "info")))

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
                raise SessionError(_("The game hasn't started yet."))
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
        """The player's own hand, rack or list (in the player's own language)."""
        with self.voice_for(player):
            return self._private_view(player)

    def _private_view(self, player: Player) -> views.View:
        if self.engine is None:
            if self.is_player(player):
                raise SessionError(
                    _(
                        "The game hasn't started yet: {name} deals it with `go`.",
                        name=views.user(self.host.display_name),
                    )
                )
            raise SessionError(_("The game hasn't started yet: `join` it to get a seat."))
        if not self.is_player(player):
            raise SessionError(_("You're not playing this game, so you have no hand here."))
        return views.private(self.snapshot(player.seat_id), self.info.name)

    async def stop(self, by: Player) -> None:
        """End the game early; a stopped game does not count."""
        async with self._lock:
            if self.phase is Phase.RUNNING:
                # the reason never names who stopped: it outlives forget-me
                await self._stored(lambda: self._log.void(self.game_id, "stopped by a player"))
            await self._close(
                views.message(
                    _("{name} stopped the game. Scores were not recorded.", name=views.user(by.display_name)),
                    "info",
                )
            )

    async def end_at_deadline(self, farewell: views.View) -> Result | None:
        """End the game at a deadline that is not its own (a tournament round's): the scores so
        far, for the tournament to count (None: it had not begun). The game itself is recorded
        void, so it changes no rating."""
        async with self._lock:
            if self.phase is Phase.CLOSED:
                return None
            result = self.engine.result() if self.phase is Phase.RUNNING and self.engine else None
            if self.phase is Phase.RUNNING:
                await self._stored(
                    lambda: self._log.void(self.game_id, "ended by its tournament round's deadline")
                )
            await self._close(farewell)
            return result

    async def wind_down(self, notice: str) -> None:
        """The process is stopping: judge the answers in the settle window now, and say so
        (``notice``: English marked with ``N_()``, said in the chat's language).

        The game itself stays unfinished in the log, so the next process resumes it.
        """
        async with self._lock:
            if self.phase is not Phase.RUNNING or self.engine is None or not self.info.realtime:
                return
            if self._pending:
                await self.window.judge(self._clock.now())
            if self.phase is Phase.RUNNING:
                await self._outbox.send(Post(self.chat, views.message(_(notice), "info")))


def handled_refs(actions: Iterable[Action]) -> set[str]:
    """The platform messages a game's log took as answers or moves."""
    refs = {claim.ref for action in actions for claim in action.claims if claim.ref}
    return refs | {action.ref for action in actions if action.ref}
