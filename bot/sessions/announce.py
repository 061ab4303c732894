"""A session's notices as messages: marks on answers, the table, turn pings and the result.

The engine says what happened (:class:`~games.common.protocol.Notice`); this part of a
session turns each into what the chat shows, through the outbox, after the action is logged.
"""

from __future__ import annotations

from dataclasses import replace

from bot.core import metrics, ratings, views
from bot.core.events import Mark, MessageRef, Post, Private, React
from bot.core.outbox import GameStart
from bot.sessions.session_core import RESULT_WAITS, SessionCore, log
from games.common.grammar import is_you
from games.common.protocol import Notice
from games.common.speech import _, _n, duration, listing
from storage.errors import StorageError


class Announcer:
    """What a session shows (a part of :class:`bot.sessions.session.Session`)."""

    def __init__(self, session: SessionCore) -> None:
        self.session = session

    async def deliver(self, notices: list[Notice]) -> None:
        assert self.session.engine is not None
        table_changed = False
        for notice in notices:
            ref = self.session._refs.pop(notice.ref, None) if notice.ref else None
            word = self.session._answers.pop(notice.ref, "") if notice.ref else ""
            if notice.kind == "accepted":
                metrics.answer_judged(self.session.info.name, accepted=True)
                if ref is not None:
                    player = self.session._by_seat.get(notice.seat or "")
                    who = player.display_name if player else ""
                    await self.session._outbox.send(
                        React(ref, "accepted", seat=notice.seat or "", who=who, word=word)
                    )
                if notice.text:
                    await self.session._outbox.send(Post(self.session.chat, views.message(notice.text)))
            elif notice.kind == "rejected":
                metrics.answer_judged(self.session.info.name, accepted=False)
                if notice.seat:
                    self.session._why[notice.seat] = notice.text
                if ref is not None:
                    player = self.session._by_seat.get(notice.seat or "")
                    mark: Mark = "late" if notice.late else "rejected"
                    who = player.display_name if player else ""
                    await self.session._outbox.send(
                        React(ref, mark, notice.text, seat=notice.seat or "", who=who, word=word)
                    )
            elif notice.kind == "announce":
                await self.session._outbox.send(Post(self.session.chat, views.message(notice.text)))
            elif notice.kind == "private":
                player = self.session._by_seat.get(notice.seat or "")
                if player is not None:
                    await self.session._outbox.send(
                        Private(self.session.chat, player, views.message(notice.text, "private"))
                    )
            elif notice.kind == "table":
                table_changed = True
            elif notice.kind == "end" and notice.text:
                self.session._ending.append(notice.text)  # said once, in the result
            elif notice.kind == "ping":
                deadline = self.session.snapshot(None).deadline  # the turn's end
                if notice.seat in self.session._by_seat:
                    await self.session._outbox.send(
                        Post(
                            self.session.chat,
                            views.turn(notice.seat or "", notice.text, deadline, self.session.info.name),
                        )
                    )
                else:
                    await self.session._outbox.send(Post(self.session.chat, views.message(notice.text)))
        if table_changed:
            await self.session._outbox.send(Post(self.session.chat, self.table_view()))
        await self._ping_turns()

    def table_view(self) -> views.View:
        """The public table now; ``settles_at`` says when the game will change it by itself."""
        with self.session.voice():
            return self._table_view_now()

    def _table_view_now(self) -> views.View:
        assert self.session.engine is not None
        finished = self.session.engine.finished
        settles_at = None if finished else self.session.engine.next_deadline()
        return views.table(
            self.session.snapshot(None),
            self.session.info.name,
            realtime=self.session.info.realtime,
            settles_at=None if settles_at is None else settles_at + self.session._paused,
            final=finished,
            turn_moves=self.session.info.turn_moves,
        )

    async def _ping_turns(self) -> None:
        """Tell each player whose turn just began, with a new message that mentions them."""
        if self.session.engine is None or self.session.info.realtime:
            return
        now_active = self.session._turn_seats()
        fresh, self.session._pinged = now_active - self.session._pinged, now_active
        if not fresh:
            return
        snapshot = self.session.snapshot(None)
        for seat in sorted(fresh):
            name = views.user(self.session._by_seat[seat].display_name)
            if is_you(name):
                text = _(
                    "Your turn in {game}: type your move here, or `play MOVE`.",
                    game=_(self.session.info.title),
                )
            else:
                text = _(
                    "{name}, it's your turn in {game}: type your move here, or `play MOVE`.",
                    name=name,
                    game=_(self.session.info.title),
                )
            await self.session._outbox.send(
                Post(self.session.chat, views.turn(seat, text, snapshot.deadline, self.session.info.name))
            )

    async def ping_again(self) -> None:
        """After an outage: each player to move hears that the clock was held for them."""
        deadline = self.session.snapshot(None).deadline
        if deadline is None:
            return
        left = duration(deadline - self.session._clock.now())
        for seat in sorted(self.session._turn_seats()):
            name = views.user(self.session._by_seat[seat].display_name)
            if is_you(name):
                text = _(
                    "Your turn again in {game}: {time} left.", game=_(self.session.info.title), time=left
                )
            else:
                text = _(
                    "{name}, it's your turn again in {game}: {time} left.",
                    name=name,
                    game=_(self.session.info.title),
                    time=left,
                )
            await self.session._outbox.send(
                Post(self.session.chat, views.turn(seat, text, deadline, self.session.info.name))
            )

    async def finish(self) -> None:
        assert self.session.engine is not None and self.session.start_record is not None
        outcome = self.session.engine.result()
        start, at = self.session.start_record, self.session._clock.now()
        # exactly once by game id, so a try that reached the database before failing is harmless
        await self.session._stored(lambda: self.session._log.finish(start, outcome, at), RESULT_WAITS)
        voted = list(self.session.engine.voted_words)
        if voted:
            await self.session._outbox.send(
                Post(self.session.chat, views.message(await self._kept(voted), "info"))
            )
        lines = [] if outcome.voided else await self._rating_lines(start)
        view = replace(
            views.result(
                self.session.info, outcome, self.session.names(), ending=self.session._ending, ratings=lines
            ),
            once=self._result_key(),
        )
        after = None
        if self.session.on_finish is not None and not outcome.voided:
            try:
                after = await self.session.on_finish(self.session)
            except StorageError as exc:  # the result is posted either way
                log.warning("game %s: what follows its end failed (%s)", self.session.game_id, exc)
        await self.session._close(view, receipt=None if outcome.voided else self._result_posted)
        if after is not None:
            await self.session._outbox.send(Post(self.session.chat, after))

    async def _rating_lines(self, start: GameStart) -> list[str]:
        """Each person's rating change (the game is rated now if it was not yet); none when the
        database cannot say: the result is posted either way."""
        try:
            changes = await self.session._log.rating_changes(start)
        except StorageError as exc:
            log.warning("game %s: no rating changes to show (%s)", self.session.game_id, exc)
            return []
        return ratings.result_lines(
            changes, [seat.id for seat in start.seats], self.session.names(), self.session.chat.platform
        )

    async def _kept(self, voted: list[str]) -> str:
        """Keep the answers voted in on the workspace's list (the theme's memory); says so."""
        shown = listing(w.upper() for w in voted)
        kept: list[str] = []
        if self.session._keep_words is not None:
            try:
                kept = await self.session._keep_words(voted)
            except StorageError as exc:  # the game is over either way: the words are only a bonus
                log.warning("game %s: could not keep the words voted in (%s)", self.session.game_id, exc)
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

    def _result_key(self) -> str:
        """The result's name: posting it again after a restart is recognised where a platform can."""
        return f"result:{self.session.game_id}"

    def _result_posted(self, ref: MessageRef | None) -> None:
        """The result is in the channel: a restart need not announce it again."""
        if ref is not None:
            self.session._spawn(self._record_announced(), f"announced {self.session.game_id}")

    async def _record_announced(self) -> None:
        try:
            await self.session._stored(
                lambda: self.session._log.announced(self.session.game_id, self.session._clock.now())
            )
        except StorageError:
            log.warning("game %s: could not record that its result was posted", self.session.game_id)
