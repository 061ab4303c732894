"""Starting a tournament's games, and ending them at a round's deadline.

A game of people is an ordinary session in a chat of its own: a thread of the tournament's
channel where the platform has threads (:class:`~bot.features.tournaments.director.PairingThreads`),
else the channel itself, one game at a time (the terminal, whose one person plays one game a
round). Starting one is claimed in the store first (:meth:`TournamentStore.claim_tournament_game`),
so only one process opens its thread; its id says its tournament, round and board, and its seed
follows from that id, so a restarted process resumes it like any game. A game of computer
players only is played out at once in a worker thread (:func:`~bot.features.tournaments.autoplay.autoplay`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
from collections.abc import Awaitable, Callable, Sequence

from bot.core import views
from bot.core.commands import CommandError, parse_start
from bot.core.events import ChatKey, Player, Post
from bot.features.tournaments import texts
from bot.features.tournaments.autoplay import autoplay
from bot.features.tournaments.hosting import PairingThreads, TournamentHost
from games.common.options import OptionValue
from games.common.protocol import GameInfo, Result, Seat
from games.common.speech import _, duration
from storage.tournament_records import (
    ADJUDICATED,
    ARENA,
    PLAYED,
    Entry,
    Tournament,
    TournamentGame,
    TournamentStore,
)

#: Keeps a game's result in its tournament and says it there, once (the director's ``count``).
Count = Callable[[TournamentStore, str, Result, str], Awaitable[bool]]

log = logging.getLogger(__name__)

#: Where a game played in the tournament's channel itself is noted (it has no thread).
IN_CHANNEL = "-"
#: A game of computer players only, played out at once.
AUTOPLAYED = "auto"


def seed_of(game_id: str) -> int:
    """A game's seed, from its id: the same on every process."""
    return int.from_bytes(hashlib.sha256(game_id.encode()).digest()[:8], "big") >> 1


def is_bot(user_id: str) -> bool:
    """A computer player of a tournament (``bot:3``)."""
    return user_id.startswith("bot:")


class GameStarter:
    """Starts and ends the games of the director's tournaments."""

    def __init__(
        self, host: TournamentHost, count: Count, threads: Callable[[], PairingThreads | None]
    ) -> None:
        self._host = host
        self._count = count
        self._threads = threads
        #: Called with a game's chat once it has begun (the terminal plays it).
        self.started: list[Callable[[ChatKey], None]] = []
        #: The games of computer players this process is playing out right now.
        self._autoplaying: set[str] = set()

    def seat_id(self, t: Tournament, user_id: str) -> str:
        """A player's seat id in the tournament's games (``discord:123``, ``bot:2``)."""
        return user_id if is_bot(user_id) else f"{t.platform}:{user_id}"

    def game_of(self, t: Tournament) -> tuple[GameInfo, dict[str, OptionValue]] | None:
        """The tournament's game and its options (defaults filled in; no computer player added)."""
        try:
            info, options = parse_start((t.game, *t.options), self._host.registry)
        except CommandError:
            log.warning("tournament %s: its game %s can't be played here", t.tournament_id, t.game)
            return None
        if "bots" in options:
            options["bots"] = 0
        return info, options

    async def start_waiting(
        self, store: TournamentStore, t: Tournament, games: Sequence[TournamentGame]
    ) -> None:
        """Start each game of ``games`` that nobody has started yet, and play out again each game
        of computer players claimed but never counted (see :meth:`replayable`)."""
        for game in games:
            if not game.done and (game.thread_id is None or self.replayable(game)):
                try:
                    await self._start(store, t, game)
                except Exception:
                    log.exception("tournament %s: could not start %s", t.tournament_id, game.game_id)

    async def _start(self, store: TournamentStore, t: Tournament, game: TournamentGame) -> None:
        found = self.game_of(t)
        if found is None:
            return
        info, options = found
        entries = {e.user_id: e for e in await store.entries(t.tournament_id)}
        users = [seat.user_id for seat in game.seats]
        level = str(options.get("level", "normal"))
        level = "normal" if level == "auto" else level
        seats = tuple(
            Seat(self.seat_id(t, u), entries[u].name if u in entries else u, level if is_bot(u) else None)
            for u in users
        )
        if all(is_bot(u) for u in users):
            if self.replayable(game) or await store.claim_tournament_game(game.game_id, AUTOPLAYED):
                await self._autoplay(store, info, options, seats, game)
            return
        channel = ChatKey(t.platform, t.workspace_id, t.channel_id)
        threads = self._threads()
        if threads is not None and self._host.capabilities.threads and t.format != ARENA:
            if not await store.claim_tournament_game(game.game_id, "opening"):
                return
            names = " – ".join(entries[u].name if u in entries else u for u in users)
            title = _(
                "Round {round}, board {board}: {players}", round=game.round, board=game.board, players=names
            )
            try:
                chat = await threads.open(channel, title[:100])
            except Exception:  # (no thread: the game plays in the channel when it is free)
                log.warning("tournament %s: no thread for %s", t.tournament_id, game.game_id, exc_info=True)
                chat = channel
                if chat in self._host.sessions:
                    await store.release_tournament_game(game.game_id)
                    return
        else:
            chat = channel
            if chat in self._host.sessions:
                return  # the channel's game first: this one starts when it ends
            if not await store.claim_tournament_game(game.game_id, IN_CHANNEL):
                return
        await store.set_game_thread(game.game_id, chat.thread_id or IN_CHANNEL)
        if await self._host.claim(chat, game.game_id) is not None:
            log.warning("tournament %s: %s is busy; %s waits", t.tournament_id, chat.label(), game.game_id)
            return
        if self._host.think_in_thread:  # the game's word lists, built (once) off the event loop
            await asyncio.to_thread(info.prepare, str(options.get("language", "en")), options)
        people = [
            Player(t.platform, u, entries[u].name if u in entries else u) for u in users if not is_bot(u)
        ]
        words = await self._host.workspace.word_lists(channel, str(options.get("language", "en")))
        session = self._host.new_session(
            chat, info, people[0], options, game.game_id, seed_of(game.game_id), words, t.speech
        )
        self._host.sessions[chat] = session
        self._host.keep_alive()
        await self._host.outbox.send(Post(chat, self._intro(t, game, entries, people)))
        await session.begin_with(people, seats)
        for listener in self.started:
            listener(chat)

    def _intro(
        self, t: Tournament, game: TournamentGame, entries: dict[str, Entry], people: list[Player]
    ) -> views.View:
        names = [texts.name_of(entries, seat.user_id) for seat in game.seats]
        if t.format == ARENA:
            text = _(
                "Arena game {number}: {players}. Good luck!", number=game.round, players=", ".join(names)
            )
        else:
            left = int((t.round_ends_at or self._host.clock.now()) - self._host.clock.now())
            text = _(
                "Round {round}: {first} against {second}; {first} plays first. The round ends in {time}: a "
                "game still running then ends on its scores so far.",
                round=game.round,
                first=names[0],
                second=names[1] if len(names) > 1 else "",
                time=duration(max(60, left)),
            )
        return views.View(kind="info", lines=(text,), mentions=tuple(p.seat_id for p in people))

    async def _autoplay(
        self,
        store: TournamentStore,
        info: GameInfo,
        options: dict[str, OptionValue],
        seats: tuple[Seat, ...],
        game: TournamentGame,
    ) -> None:
        self._autoplaying.add(game.game_id)
        try:
            if getattr(self._host, "think_in_thread", False):
                result = await asyncio.to_thread(autoplay, info, options, seats, seed_of(game.game_id))
            else:
                result = autoplay(info, options, seats, seed_of(game.game_id))
            await self._count(store, game.game_id, result, PLAYED)
        finally:
            self._autoplaying.discard(game.game_id)

    def replayable(self, game: TournamentGame) -> bool:
        """Whether ``game``, a game of computer players claimed for playing out but not counted,
        is not being played out here: its process may have died mid-game (``kill -9``), so it is
        played out again. The same seats, options and seed play the same game, and its result is
        kept once, so a process that plays out a game another is still playing counts nothing
        twice (it only repeats the work)."""
        return not game.done and game.thread_id == AUTOPLAYED and game.game_id not in self._autoplaying

    async def adjudicate(self, store: TournamentStore, t: Tournament, game: TournamentGame) -> None:
        """A round's deadline: ``game`` ends on its scores so far (a game nobody began: a draw; a
        game of computer players is played out, its result known in full at once)."""
        if all(is_bot(seat.user_id) for seat in game.seats):
            await self.start_waiting(store, t, [game])  # (claimed, or played out again)
            return  # (or being played out here: counted when it ends)
        session = next((s for s in self._host.sessions.values() if s.game_id == game.game_id), None)
        if session is not None:
            farewell = views.message(
                _(
                    "Time is up for round {round}: this game ends on its scores so far, and counts that "
                    "way in the tournament (the game itself changes no rating).",
                    round=game.round,
                ),
                "info",
            )
            result = await session.end_at_deadline(farewell)
            if result is not None:
                await self._count(store, game.game_id, result, ADJUDICATED)
            return
        if game.thread_id is None or await self._status(game.game_id) != "running":
            await self.count_lost(store, t, game)

    async def settle_lost(
        self, store: TournamentStore, t: Tournament, games: Sequence[TournamentGame]
    ) -> None:
        """Count each of ``games`` that ended without a result (its game crashed, or its chat
        was deleted: the game log says void) and runs nowhere: see :meth:`count_lost`."""
        for game in games:
            here = any(s.game_id == game.game_id for s in self._host.sessions.values())
            lost = not game.done and game.thread_id not in (None, AUTOPLAYED) and not here
            if lost and await self._status(game.game_id) == "void":
                await self.count_lost(store, t, game)

    async def count_lost(self, store: TournamentStore, t: Tournament, game: TournamentGame) -> None:
        """A game with no result to count (never begun, or void): a draw, ½ each; an arena's
        game, a tie for first (1 point each, nobody's win)."""
        users = tuple(self.seat_id(t, seat.user_id) for seat in game.seats)
        await self._count(store, game.game_id, Result({}, users, ""), ADJUDICATED)

    async def _status(self, game_id: str) -> str | None:
        """The game log's ``running``, ``finished`` or ``void`` (None: unknown, or unreadable)."""
        status = getattr(self._host.workspace.store, "game_status", None)
        try:
            return None if status is None else await status(game_id)
        except Exception:  # (unreadable: treated as unknown, so nothing is counted on a guess)
            log.warning("tournament game %s: its status could not be read", game_id)
            return "running"


__all__ = ["AUTOPLAYED", "IN_CHANNEL", "GameStarter", "is_bot", "seed_of"]
