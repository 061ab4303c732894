"""A session's notices as messages: marks on answers, the table, turn pings and the result.

The engine says what happened (:class:`~games.common.protocol.Notice`); this part of a
session turns each into what the chat shows, through the outbox, after the action is logged.
It also keeps what it said that players may ask about again: why an answer was refused.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace

from bot.core import metrics, ratings, views
from bot.core.clock import Clock
from bot.core.events import Mark, MessageRef, Player, Post, Private, React
from bot.core.outbox import GameLog, GameStart, Outbox
from bot.sessions.state import SessionError, SessionState
from games.common.grammar import is_you
from games.common.protocol import Notice, Result
from games.common.speech import _, _n, duration, listing
from storage.errors import StorageError

log = logging.getLogger("bot.sessions.session")

#: Puts answers voted in on the workspace's list; returns those it kept.
KeepWords = Callable[[list[str]], Awaitable[list[str]]]


class Announcer:
    """What a session shows: it reads the session's :class:`SessionState` and sends to its outbox."""

    def __init__(
        self,
        state: SessionState,
        outbox: Outbox,
        game_log: GameLog,
        clock: Clock,
        keep_words: KeepWords | None,
    ) -> None:
        self._state = state
        self._outbox = outbox
        self._log = game_log
        self._clock = clock
        self._keep_words = keep_words
        self._marks: dict[str, tuple[MessageRef, str]] = {}  # message id -> its answer, to be marked
        self._why: dict[str, str] = {}  # seat -> the reason of its last refusal
        self._ending: list[str] = []  # the engine's closing words, shown in the result
        self._pinged: set[str] = set()  # seats told it is their turn (turn-based games)

    # ------------------------------------------------------------ answers and refusals

    def expect(self, ref: MessageRef, answer: str = "") -> None:
        """The answer (or move) in ``ref`` goes to the engine: its verdict marks that message."""
        self._marks[ref.message_id] = (ref, answer)

    def awaits_mark(self, message_id: str) -> bool:
        """Whether the answer in that message waits for its verdict's mark."""
        return message_id in self._marks

    def refused(self, seat: str, reason: str) -> None:
        """``seat``'s last try was refused for ``reason`` (what ``why`` answers)."""
        self._why[seat] = reason

    def why(self, player: Player) -> str:
        """The reason the player's last answer was refused."""
        return self._why.get(player.seat_id) or _("None of your answers has been refused in this game.")

    # ------------------------------------------------------------ notices

    async def deliver(self, notices: list[Notice]) -> None:
        """The engine's notices as messages (then whoever's turn began hears it)."""
        state, send = self._state, self._outbox.send
        # the action's announcements come with its new table (sent last): never on the old one
        follows = any(notice.kind == "table" for notice in notices)
        table_changed = False
        for notice in notices:
            ref, word = self._marks.pop(notice.ref, (None, "")) if notice.ref else (None, "")
            player = state.by_seat.get(notice.seat or "")
            who = player.display_name if player else ""
            if notice.kind == "accepted":
                metrics.answer_judged(state.info.name, accepted=True)
                if ref is not None:
                    await send(React(ref, "accepted", seat=notice.seat or "", who=who, word=word))
                if notice.text:
                    await send(Post(state.chat, views.message(notice.text), table_follows=follows))
            elif notice.kind == "rejected":
                metrics.answer_judged(state.info.name, accepted=False)
                if notice.seat:
                    self._why[notice.seat] = notice.text
                if ref is not None:
                    mark: Mark = "late" if notice.late else "rejected"
                    await send(React(ref, mark, notice.text, seat=notice.seat or "", who=who, word=word))
            elif notice.kind == "announce":
                await send(Post(state.chat, views.message(notice.text), table_follows=follows))
            elif notice.kind == "private":
                if player is not None:
                    await send(Private(state.chat, player, views.message(notice.text, "private")))
            elif notice.kind == "table":
                table_changed = True
            elif notice.kind == "end" and notice.text:
                self._ending.append(notice.text)  # said once, in the result
            elif notice.kind == "ping":
                deadline = state.snapshot(None).deadline  # the turn's end
                if notice.seat in state.by_seat:
                    view = views.turn(notice.seat or "", notice.text, deadline, state.info.name)
                    await send(Post(state.chat, view))
                else:
                    await send(Post(state.chat, views.message(notice.text), table_follows=follows))
        if table_changed:
            await send(Post(state.chat, self.table_view()))
        await self._ping_turns()

    def table_view(self) -> views.View:
        """The public table now; ``settles_at`` says when the game will change it by itself."""
        state = self._state
        assert state.engine is not None
        with state.voice():
            finished = state.engine.finished
            settles_at = None if finished else state.engine.next_deadline()
            return views.table(
                state.snapshot(None),
                state.info.name,
                realtime=state.info.realtime,
                settles_at=None if settles_at is None else settles_at + state.paused,
                final=finished,
                turn_moves=state.info.turn_moves,
            )

    # ------------------------------------------------------------ turns

    def turns_told(self) -> None:
        """Whoever's turn it is now has heard it (before a restart)."""
        self._pinged = self._state.turn_seats()

    async def _ping_turns(self) -> None:
        """Tell each player whose turn just began, with a new message that mentions them."""
        state = self._state
        if state.engine is None or state.info.realtime:
            return
        now_active = state.turn_seats()
        fresh, self._pinged = now_active - self._pinged, now_active
        if not fresh:
            return
        deadline = state.snapshot(None).deadline
        for seat in sorted(fresh):
            name = views.user(state.by_seat[seat].display_name)
            if is_you(name):
                text = _(
                    "Your turn in {game}: type your move here, or `play MOVE`.", game=_(state.info.title)
                )
            else:
                text = _(
                    "{name}, it's your turn in {game}: type your move here, or `play MOVE`.",
                    name=name,
                    game=_(state.info.title),
                )
            await self._outbox.send(Post(state.chat, views.turn(seat, text, deadline, state.info.name)))

    async def ping_again(self) -> None:
        """After an outage: each player to move hears that the clock was held for them."""
        state = self._state
        deadline = state.snapshot(None).deadline
        if deadline is None:
            return
        left = duration(deadline - self._clock.now())
        for seat in sorted(state.turn_seats()):
            name = views.user(state.by_seat[seat].display_name)
            if is_you(name):
                text = _("Your turn again in {game}: {time} left.", game=_(state.info.title), time=left)
            else:
                text = _(
                    "{name}, it's your turn again in {game}: {time} left.",
                    name=name,
                    game=_(state.info.title),
                    time=left,
                )
            await self._outbox.send(Post(state.chat, views.turn(seat, text, deadline, state.info.name)))

    async def out_of_turn(self, player: Player) -> bool:
        """A move typed in a turn-based game's chat: unless it is ``player``'s to play now, they
        hear privately why not (True), and it is not played."""
        state = self._state
        with state.voice_for(player):
            if not state.is_player(player):
                hint = _(
                    "You're not playing this {game} game; join the next one with `start`.",
                    game=_(state.info.title),
                )
            elif player.seat_id in state.turn_seats():
                return False
            else:
                hint = self._not_yet()
        await self._outbox.send(Private(state.chat, player, views.message(hint, "info")))
        return True

    def _not_yet(self) -> str:
        waiting = [s.name for s in self._state.snapshot(None).seats if s.active]
        if not waiting:
            return _("Not yet: it's not your turn. Your move will count when it's yours.")
        if len(waiting) == 1 and is_you(waiting[0]):
            return _("Not yet: wait for your turn. Your move will count when it's yours.")
        return _(
            "Not yet: it's {names}'s turn. Your move will count when it's yours.",
            names=listing(views.user(name) for name in waiting),
        )

    def private_view(self, player: Player) -> views.View:
        """The player's own hand, rack or list (in the player's own language)."""
        state = self._state
        with state.voice_for(player):
            if state.engine is None:
                if state.is_player(player):
                    host = views.user(state.host.display_name)
                    raise SessionError(
                        _("The game hasn't started yet: {name} deals it with `go`.", name=host)
                    )
                raise SessionError(_("The game hasn't started yet: `join` it to get a seat."))
            if not state.is_player(player):
                raise SessionError(_("You're not playing this game, so you have no hand here."))
            return views.private(state.snapshot(player.seat_id), state.info.name)

    # ------------------------------------------------------------ the end

    async def result(self, outcome: Result, start: GameStart, voted: list[str]) -> views.View:
        """The finished game's result (after the answers voted in, kept and said); it carries
        each person's rating change, and a name a platform recognises if it is posted again."""
        state = self._state
        if voted:
            await self._outbox.send(Post(state.chat, views.message(await self._kept(voted), "info")))
        lines = [] if outcome.voided else await self._rating_lines(start)
        view = views.result(state.info, outcome, state.names(), ending=self._ending, ratings=lines)
        return replace(view, once=f"result:{state.game_id}")

    async def _rating_lines(self, start: GameStart) -> list[str]:
        """Each person's rating change (the game is rated now if it was not yet); none when the
        database cannot say: the result is posted either way."""
        state = self._state
        try:
            changes = await self._log.rating_changes(start)
        except StorageError as exc:
            log.warning("game %s: no rating changes to show (%s)", state.game_id, exc)
            return []
        return ratings.result_lines(
            changes, [seat.id for seat in start.seats], state.names(), state.chat.platform
        )

    async def _kept(self, voted: list[str]) -> str:
        """Keep the answers voted in on the workspace's list (the theme's memory); says so."""
        shown = listing(w.upper() for w in voted)
        kept: list[str] = []
        if self._keep_words is not None:
            try:
                kept = await self._keep_words(voted)
            except StorageError as exc:  # the game is over either way: the words are only a bonus
                log.warning("game %s: could not keep the words voted in (%s)", self._state.game_id, exc)
        if not kept:
            return _("Voted in during this game: {words}.", words=shown)
        return _n(
            "Voted in during this game: {words}. Kept on this workspace's word list, so later games here "
            "accept it without a vote (an admin can take it off with `words remove {word}`).",
            "Voted in during this game: {words}. Kept on this workspace's word list, so later games here "
            "accept them without a vote (an admin can take them off with `words remove {word}`).",
            len(kept),
            words=shown,
            word=kept[0],
        )
