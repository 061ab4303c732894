"""Restart recovery: games and lobbies carried on after a restart or adopted from a process
that stopped answering, results announced that a crash swallowed.

:class:`Restorer` works for one :class:`~bot.hosting.host.GameHost`: it replays each unfinished game's
action log into a new session, holds the game's clock still for the downtime, voids what
cannot fairly carry on, reopens lobbies on their old message, and makes a chat's events wait
(at most :data:`RECOVERY_WAIT`) while its game is being restored.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping
from dataclasses import replace
from functools import partial

from bot.core import ratings, views
from bot.core.events import ChatKey, MessageRef, Player, Post
from bot.core.outbox import GameStart, LobbyState
from bot.hosting.host import GameHost, Recovery, chat_speech
from bot.sessions.journal import handled_refs
from bot.sessions.session import Session
from bot.sessions.state import Phase
from games.common.protocol import Action, GameInfo
from games.common.speech import N_, _, speaking
from storage.errors import StorageError

log = logging.getLogger(__name__)

#: A real-time game idle for longer than this when the bot restarts is voided, not resumed.
RESUME_WITHIN = 60.0
#: Longest (s) an event for a chat whose game is being restored waits for the restoration.
RECOVERY_WAIT = 30.0
#: After a restart, the answers of games that ended this long ago (s) are still remembered:
#: Slack retries an event for several minutes.
REDELIVERY_WINDOW = 600.0

RESUMED = N_("♻️ moji restarted; your {title} game carries on where it was.")
#: A game adopted from a process that stopped answering (several processes share the database).
ADOPTED = N_("♻️ moji had a hiccup; your {title} game carries on where it was.")
PAUSED = N_("The clock stood still while moji was down ({gap}).")
VOIDED = N_(
    "♻️ moji restarted while your {title} game was running, and too much time has passed to "
    "carry on fairly, so that game won't count. Start a new one with `start`."
)
BROKEN = N_("♻️ moji restarted but couldn't restore your {title} game, so it won't count. Sorry!")

__all__ = ["RECOVERY_WAIT", "REDELIVERY_WINDOW", "RESUME_WITHIN", "Recovery", "Restorer", "seat_player"]


def seat_player(seat_id: str, name: str) -> Player:
    """A Player from a seat id (``platform:user``)."""
    platform, _, user = seat_id.partition(":")
    return Player(platform, user, name)


class Restorer:
    """Recovery and adoption for one host."""

    def __init__(self, host: GameHost) -> None:
        self.host = host
        #: Games opened here before :meth:`recover` ran (None once it has).
        self.opened_early: set[str] | None = set()
        #: chat → platform messages that games ended before a restart took (see :meth:`recover`)
        self.handled_before: dict[ChatKey, set[str]] = {}
        #: Chats with a game or lobby that :meth:`recover` will restore: their events wait for it.
        self.restoring: set[ChatKey] = set()
        self._recovered = asyncio.Event()

    # ------------------------------------------------------------ waiting

    def expect(self, chats: Iterable[ChatKey]) -> None:
        """Before the platform delivers events: these chats have a game or lobby to restore.

        Their events (a Start press on the old lobby, an answer) wait until :meth:`recover`
        has run, instead of meeting "there's no game here" a second before it is back. Other
        chats play at once.
        """
        self.restoring = set(chats)
        self._recovered.clear()

    async def wait_for(self, chat: ChatKey) -> None:
        """Until ``chat``'s game is restored, if it is being restored (at most :data:`RECOVERY_WAIT`)."""
        if chat in self.restoring and not self._recovered.is_set():
            try:
                await asyncio.wait_for(self._recovered.wait(), RECOVERY_WAIT)
            except TimeoutError:
                self.restoring.discard(chat)  # (once: later events do not wait again)
                log.warning("%s: recovery is slow; handling events without it", chat.label())

    def opened(self, game_id: str) -> None:
        """A game or lobby opened here (before :meth:`recover` ran, it is not a leftover)."""
        if self.opened_early is not None:
            self.opened_early.add(game_id)

    def forget_workspace(self, platform: str, workspace_id: str) -> None:
        """Forget the purged workspace's remembered answers."""
        self.handled_before = {
            chat: handled
            for chat, handled in self.handled_before.items()
            if (chat.platform, chat.workspace_id) != (platform, workspace_id)
        }

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
            self.restoring = set()

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
        sessions = self.host.sessions
        games = [(start, actions) for start, actions in games if start.chat not in sessions]
        lobbies = [state for state in lobbies if state.chat not in sessions]
        return await self._recover(games, lobbies, (), RESUME_WITHIN, ADOPTED, tables or {})

    def _resume_table(self, chat: ChatKey, message_id: str) -> None:
        resume = getattr(self.host.outbox, "resume_table", None)
        if callable(resume):
            resume(MessageRef(chat, message_id))

    def table_posted(self, ref: MessageRef) -> None:
        """The delivery layer posted a new live table in a chat: an adopter will edit it."""
        session = self.host.sessions.get(ref.chat)
        if session is not None and session.phase is Phase.RUNNING:
            self.host.spawn(self._record_table(session.game_id, ref.message_id), f"table {session.game_id}")

    async def _record_table(self, game_id: str, message_id: str) -> None:
        try:
            await self.host.game_log.table(game_id, message_id)
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
        host = self.host
        tables = tables or {}
        report = Recovery()
        for start, actions in ended:
            self.handled_before.setdefault(start.chat, set()).update(handled_refs(actions))
        # A game or lobby opened in this process before recovery ran (events can arrive
        # before the platform says it is ready) is not a leftover, even if it has ended
        # since the unfinished games were read: leave it alone.
        live = {session.game_id for session in host.sessions.values()} | (self.opened_early or set())
        self.opened_early = None
        lobbies = [state for state in lobbies if state.game_id not in live]
        games = [(start, actions) for start, actions in games if start.game_id not in live]
        await self._reopen_lobbies(lobbies, report)
        now = host.clock.now()
        for start, actions in sorted(games, key=lambda item: item[0].started_at):
            if not await host.game_log.adopt(start.game_id):
                report.elsewhere.append(start.game_id)  # another live process runs it
                continue
            info = host.registry.find(start.game)
            title = info.title if info else start.game  # (a title, marked for the catalogue)
            # the game was last known to be running at its last action or keep-alive
            down_since = max([start.started_at, start.alive_at or 0.0, *(a.now for a in actions)])
            downtime = max(0.0, now - down_since)
            reason = ""
            if info is None:
                reason = BROKEN
            elif start.chat in host.sessions:
                reason = BROKEN  # two unfinished games in one chat: keep the first
            elif info.realtime and downtime > resume_within:
                reason = VOIDED
            session: Session | None = None
            if not reason and info is not None:
                try:
                    session = self.restored(info, start, actions)
                except Exception:
                    log.exception("could not replay game %s", start.game_id)
                    reason = BROKEN
            if session is None:
                with speaking(await chat_speech(host, start.chat)):
                    said = _(reason, title=_(title))
                await self._void_recovered(start, said)
                report.voided.append(start.game_id)
                continue
            host.sessions[start.chat] = session
            host.keep_alive()
            if start.game_id in tables:
                self._resume_table(start.chat, tables[start.game_id])
            with speaking(session.speech):
                notice = _(notice_text, title=_(title))
                if downtime >= 1:
                    notice += " " + _(PAUSED, gap=views.duration(downtime))
            # downtime is not the players' fault: the game's clock stands still for it
            host.spawn(session.resume(notice, downtime), f"resume {start.game_id}", start.chat)
            report.resumed.append(start.game_id)
        return report

    async def announce_finished(self, games: Iterable[tuple[GameStart, list[Action]]]) -> list[str]:
        """Post the result of each game that finished just before a crash but was never announced.

        The result comes from replaying the game's log, exactly as it was recorded; each is
        posted once (the post is recorded). Returns the game ids announced.
        """
        host = self.host
        done: list[str] = []
        for start, actions in sorted(games, key=lambda item: item[0].started_at):
            info = host.registry.find(start.game)
            if info is None or not await host.game_log.adopt(start.game_id):
                continue  # (a live process that finished it announces it)
            try:
                engine = self.restored(info, start, actions).engine  # the log, replayed
                assert engine is not None
                outcome = engine.result()
            except Exception:
                log.exception("could not replay finished game %s to announce it", start.game_id)
                continue
            names = {**{s.id: s.name for s in start.seats}, **start.names}
            speech = await chat_speech(host, start.chat)
            with speaking(speech):
                ending = (_("♻️ moji restarted just as your game ended, so here is how it ended."),)
            # named like the result the crashed process may have posted after all (Discord then
            # recognises the repeat by its nonce and shows nothing new)
            lines: list[str] = []
            if not outcome.voided:
                try:
                    changes = await host.game_log.rating_changes(start)
                    with speaking(speech):
                        lines = ratings.result_lines(
                            changes, [s.id for s in start.seats], names, start.chat.platform
                        )
                except StorageError:
                    log.warning("game %s: no rating changes to show", start.game_id)
            with speaking(speech):
                view = replace(
                    views.result(info, outcome, names, ending=ending, ratings=lines),
                    once=f"result:{start.game_id}",
                )
            try:
                await host.outbox.send(Post(start.chat, view, partial(self._announced, start.game_id)))
                done.append(start.game_id)
            except Exception:
                log.exception("could not announce the result of game %s", start.game_id)
        return done

    def _announced(self, game_id: str, ref: MessageRef | None) -> None:
        if ref is not None:
            self.host.spawn(self._mark_announced(game_id), f"announced {game_id}")

    async def _mark_announced(self, game_id: str) -> None:
        try:
            await self.host.game_log.announced(game_id, self.host.clock.now())
        except Exception:
            log.exception("could not record that game %s was announced", game_id)

    async def _reopen_lobbies(self, lobbies: Iterable[LobbyState], report: Recovery) -> None:
        host = self.host
        for state in sorted(lobbies, key=lambda lobby: lobby.deadline):
            if not await host.game_log.adopt(state.game_id):
                report.elsewhere.append(state.game_id)  # another live process runs it
                continue
            info = host.registry.find(state.game)
            if info is None or state.chat in host.sessions:
                await host.game_log.lobby_closed(state.game_id)
                continue
            chat = state.chat
            words = await host.workspace.word_lists(chat, str(state.options.get("language", "en")))
            session = host.new_session(
                chat, info, state.host, state.options, state.game_id, state.seed, words
            )
            session.lobby.restore(state)
            host.sessions[chat] = session
            host.keep_alive()
            host.spawn(session.reopen(), f"reopen {state.game_id}", chat)
            report.lobbies.append(state.game_id)

    def restored(self, info: GameInfo, start: GameStart, actions: list[Action]) -> Session:
        """A session for ``start``'s game, its log replayed (not kept by the host)."""
        host = seat_player(start.host, start.names.get(start.host, start.host)) if start.host else None
        if host is None:
            first = next(s for s in start.seats if s.bot is None)
            host = seat_player(first.id, first.name)
        session = self.host.new_session(start.chat, info, host, start.options, start.game_id, start.seed)
        session.restore(start, actions)
        return session

    async def _void_recovered(self, start: GameStart, notice: str) -> None:
        try:
            await self.host.game_log.void(start.game_id, "restart")
        except Exception:
            log.exception("could not void game %s", start.game_id)
        try:
            await self.host.outbox.send(Post(start.chat, views.message(notice, "info")))
        except Exception:
            log.exception("could not tell %s about the restart", start.chat.label())
