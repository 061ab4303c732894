"""The tournament director: what runs a tournament once it is entered in the store.

:class:`Director` is the game host's part for tournaments (as :class:`bot.features.daily.Dailies` is for
the daily). Its loop (:meth:`Director.loop`, one per platform and process) wakes at the next
thing due — registration closing, a round's deadline, an arena's next game or its close —
and whenever a tournament game ends, and does what is due. Everything it does that must
happen once goes through the store's guarded writes (:mod:`storage.tournaments`), so any
number of processes, and a process restarted after ``kill -9``, carry a tournament on
without pairing a round twice or counting a result twice. Its games are ordinary sessions
(recorded, rated, resumed after a restart) whose ids say which tournament they belong to;
a game of computer players only is played out at once (:mod:`bot.features.tournaments.autoplay`).
What a tournament says is :mod:`bot.features.tournaments.texts`; the rounds' games are started by
:mod:`bot.features.tournaments.games`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.core import views
from bot.core.events import ChatKey, Post
from bot.features.tournaments import texts
from bot.features.tournaments.arena import arena_results
from bot.features.tournaments.games import GameStarter
from bot.features.tournaments.hosting import PairingThreads, TournamentHost
from bot.features.tournaments.pairing import round_robin_round, round_robin_rounds, swiss_round
from bot.features.tournaments.standings import arena_standings, standings
from bot.sessions.session import Session
from games.common.protocol import Result
from games.common.speech import N_, _, duration, speaking
from storage.tournament_records import (
    ADJUDICATED,
    ARENA,
    CANCELLED,
    FINISHED,
    PLAYED,
    REGISTERING,
    ROUND_ROBIN,
    RUNNING,
    NewGame,
    SeatResult,
    Tournament,
    TournamentGame,
    TournamentStore,
    is_tournament_game,
)

log = logging.getLogger(__name__)

#: The loop looks at the store at least this often (tournaments other processes changed).
LOOK_EVERY = 60.0
#: An arena's pause between two games (time to read the standings).
ARENA_PAUSE = 20.0
#: Too few players when registration closes: the tournament is called off.
FEWEST = 2
NOT_ENOUGH = N_("Registration has closed with fewer than two players, so the tournament is called off.")


def channel_of(t: Tournament) -> ChatKey:
    """The channel a tournament is announced in."""
    return ChatKey(t.platform, t.workspace_id, t.channel_id)


def swiss_points(result: Result, seats: Sequence[str]) -> tuple[SeatResult, ...]:
    """A two-player game's seats as the tournament counts them: 1 to the winner, ½ each on a tie
    (``seats``: the seat ids, first mover first; the results keep the tournament's user ids)."""
    winners = set(result.winners)
    both = len(winners & set(seats)) != 1
    out = []
    for seat in seats:
        score = int(result.scores.get(seat, 0))
        if both:
            out.append(SeatResult(seat, score, 1, 0.5))
        else:
            won = seat in winners
            out.append(SeatResult(seat, score, 1 if won else 2, 1.0 if won else 0.0))
    return tuple(out)


class Director:
    """Tournaments on one platform of this process (see the module's doc)."""

    def __init__(self, host: TournamentHost) -> None:
        self._host = host
        #: The platform's threads for pairings (None: games play in the channel, one at a time).
        self.threads: PairingThreads | None = None
        self._wake = asyncio.Event()
        self.starter = GameStarter(host, self.count, lambda: self.threads)

    def store(self) -> TournamentStore | None:
        """The tournaments' tables (None without a database)."""
        found: TournamentStore | None = getattr(self._host.workspace.store, "tournaments", None)
        return found

    def wake(self) -> None:
        """Look at the tournaments again now (a game ended, someone joined, a chat freed)."""
        self._wake.set()

    # ------------------------------------------------------------ the loop

    async def loop(self, platform: str, mine: Callable[[ChatKey], bool] = lambda chat: True) -> None:
        """Carry on every live tournament of ``platform`` whose channel is ``mine`` (a Discord
        process: its shards' servers), for ever."""
        while True:
            self._wake.clear()
            wake_at = self._host.clock.now() + LOOK_EVERY
            try:
                wake_at = min(wake_at, await self.step(platform, mine))
            except Exception:
                log.exception("tournaments of %s: a step failed", platform)
            sleeper = asyncio.ensure_future(self._host.clock.sleep_until(wake_at))
            woken = asyncio.ensure_future(self._wake.wait())
            try:
                await asyncio.wait({sleeper, woken}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (sleeper, woken):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task

    async def step(self, platform: str, mine: Callable[[ChatKey], bool] = lambda chat: True) -> float:
        """Do what is due in each live tournament of ``platform`` (whose channel is ``mine``);
        when to look next."""
        store = self.store()
        later = self._host.clock.now() + LOOK_EVERY
        if store is None:
            return later
        for t in await store.live_tournaments(platform):
            if not mine(channel_of(t)):
                continue
            try:
                with speaking(t.speech):
                    due = await self.carry_on(store, t)
            except Exception:
                log.exception("tournament %s: could not carry on", t.tournament_id)
                continue
            if due is not None:
                later = min(later, due)
        return later

    async def carry_on(self, store: TournamentStore, t: Tournament) -> float | None:
        """Do what is due in ``t`` now; when it next needs looking at (None: when woken)."""
        now = self._host.clock.now()
        if t.state == REGISTERING:
            if t.starts_at is None or now < t.starts_at:
                return t.starts_at
            await self.begin(store, t)
            return now
        games = await store.tournament_games(t.tournament_id)
        if t.format == ARENA:
            return await self._arena(store, t, games, now)
        current = [g for g in games if g.round == t.round]
        await self.starter.settle_lost(store, t, current)
        if t.round_ends_at is not None and now >= t.round_ends_at:
            await self._adjudicate(store, t, [g for g in current if not g.done])
            current = [g for g in await store.tournament_games(t.tournament_id) if g.round == t.round]
        if current and all(g.done for g in current):
            await self._next_round(store, t, games)
            return now
        await self.starter.start_waiting(store, t, current)
        return t.round_ends_at

    # ------------------------------------------------------------ steps

    async def begin(self, store: TournamentStore, t: Tournament) -> None:
        """Registration closes: the first round (or the arena's first game), or the call-off."""
        entries = [e for e in await store.entries(t.tournament_id) if e.active]
        if len(entries) < FEWEST:
            if await store.end_tournament(t.tournament_id, CANCELLED, self._host.clock.now()):
                await self.say(t, views.message(_(NOT_ENOUGH), "info"))
            return
        if not await store.start_tournament(t.tournament_id, self._host.clock.now()):
            return  # (another process closed it)
        started = replace(t, state=RUNNING)
        if t.format != ARENA:
            await self._next_round(store, started, [])

    async def _next_round(self, store: TournamentStore, t: Tournament, games: list[TournamentGame]) -> None:
        entries = await store.entries(t.tournament_id)
        last = t.rounds if t.format != ROUND_ROBIN else round_robin_rounds(len(entries))
        active = [e for e in entries if e.active]
        if t.round >= last or len(active) < FEWEST:
            await self.finish(store, t)
            return
        round_no = t.round + 1
        if t.format == ROUND_ROBIN:
            paired = round_robin_round(entries, round_no)
        else:
            paired = swiss_round(entries, games, round_no)
        now = self._host.clock.now()
        ends_at = now + t.round_seconds
        if not await store.begin_round(t.tournament_id, round_no, ends_at, paired, now):
            return  # (paired by another process, or before a restart)
        t = replace(t, round=round_no, round_ends_at=ends_at)
        current = [g for g in await store.tournament_games(t.tournament_id) if g.round == round_no]
        await self.say(t, self.pairings_view(t, entries, current, announce=True))
        await self.starter.start_waiting(store, t, current)

    async def _adjudicate(
        self, store: TournamentStore, t: Tournament, games: Sequence[TournamentGame]
    ) -> None:
        """The round's time is up: each game still running ends on its scores so far."""
        for game in games:
            await self.starter.adjudicate(store, t, game)

    async def finish(self, store: TournamentStore, t: Tournament) -> None:
        """The last round is done (or the arena closed): the final standings, once."""
        if not await store.end_tournament(t.tournament_id, FINISHED, self._host.clock.now()):
            return
        await self.say(t, await self.standings_view(store, t, final=True))

    async def _arena(
        self, store: TournamentStore, t: Tournament, games: list[TournamentGame], now: float
    ) -> float | None:
        playing = [g for g in games if not g.done]
        await self.starter.settle_lost(store, t, playing)
        playing = [g for g in await store.tournament_games(t.tournament_id) if not g.done] if playing else []
        if playing:
            await self.starter.start_waiting(store, t, playing)
            return None  # (woken when it ends)
        closes = t.round_ends_at or now
        if now >= closes:
            await self.finish(store, t)
            return None
        last_end = max((g.ended_at or g.started_at for g in games), default=0.0)
        next_at = (last_end if games else t.created_at) + ARENA_PAUSE  # (the first: time to join)
        if now < next_at:
            return min(next_at, closes)
        entries = [e for e in await store.entries(t.tournament_id) if e.active]
        info = self._host.registry.find(t.game)
        if info is None or len(entries) < FEWEST:
            return closes
        played: dict[str, int] = {}
        for game in games:
            for seat in game.seats:
                played[seat.user_id] = played.get(seat.user_id, 0) + 1
        # more players than seats: those who have played least go first (then by joining order)
        ordered = sorted(entries, key=lambda e: played.get(e.user_id, 0))
        # a live game seats everyone it can; a turn-based one in its live mode, a pair at a time
        seats = tuple(e.user_id for e in ordered[: info.max_players if info.realtime else 2])
        if await store.begin_round(t.tournament_id, t.round + 1, closes, [NewGame(1, seats)], now):
            fresh = [g for g in await store.tournament_games(t.tournament_id) if g.round == t.round + 1]
            await self.starter.start_waiting(store, replace(t, round=t.round + 1), fresh)
        return None

    # ------------------------------------------------------------ results

    async def finished(self, session: Session) -> views.View | None:
        """A tournament game finished and is recorded: count its result, once (the session's
        ``on_finish``); what the game's own chat is told after its result."""
        engine = session.engine
        store = self.store()
        if store is None or engine is None or not is_tournament_game(session.game_id):
            return None
        counted = await self.count(store, session.game_id, engine.result(), PLAYED)
        if not counted:
            return None
        return views.message(
            _("This game counts in the tournament: `tournament standings` shows where it stands."), "info"
        )

    def closed(self, session: Session) -> None:
        """A session ended: a tournament game that did not finish (stopped, its chat gone)
        counts on its scores so far; the loop looks again either way (a chat is free)."""
        engine = session.engine
        if is_tournament_game(session.game_id) and engine is not None and not engine.finished:
            result = engine.result()
            store = self.store()
            if store is not None:
                self._host.spawn(
                    self._count_later(store, session.game_id, result), f"tournament {session.game_id}"
                )
        self.wake()

    async def _count_later(self, store: TournamentStore, game_id: str, result: Result) -> None:
        await self.count(store, game_id, result, ADJUDICATED)

    async def count(self, store: TournamentStore, game_id: str, result: Result, how: str) -> bool:
        """Keep a game's result in its tournament and say it there, once."""
        game = await store.tournament_game(game_id)
        if game is None or game.done:
            return False
        t = await store.tournament(game.tournament_id)
        if t is None or not t.live:
            return False  # (a cancelled tournament's games finish as ordinary games)
        with speaking(t.speech):
            return await self._count(store, t, game, result, how)

    async def _count(
        self, store: TournamentStore, t: Tournament, game: TournamentGame, result: Result, how: str
    ) -> bool:
        game_id = game.game_id
        users = [seat.user_id for seat in game.seats]
        seat_ids = [self.starter.seat_id(t, user) for user in users]
        if t.format == ARENA:
            earlier = [g for g in await store.tournament_games(t.tournament_id) if g.done]
            seats = arena_results(result, seat_ids, users, earlier)
        else:
            seats = tuple(
                replace(r, user_id=user)
                for r, user in zip(swiss_points(result, seat_ids), users, strict=True)
            )
        if not await store.finish_tournament_game(game_id, seats, how, self._host.clock.now()):
            return False
        done = replace(game, seats=seats, state="done", how=how)
        entries = {e.user_id: e for e in await store.entries(t.tournament_id)}
        if t.format == ARENA:
            await self.say(
                t,
                await self.standings_view(
                    store, t, heading=_("After arena game {number}:", number=game.round)
                ),
            )
        else:
            line = texts.pairing_line(done, entries)
            await self.say(
                t, views.message(_("Round {round}: {result}", round=game.round, result=line), "info")
            )
        self.wake()
        return True

    # ------------------------------------------------------------ views

    async def say(self, t: Tournament, view: views.View) -> None:
        """Post ``view`` in the tournament's channel (made in its language)."""
        await self._host.outbox.send(Post(channel_of(t), view))

    def pairings_view(
        self,
        t: Tournament,
        entries: Sequence[Any],
        games: Sequence[TournamentGame],
        *,
        announce: bool = False,
    ) -> views.View:
        """A round's pairings (``announce``: mentioning the people paired)."""
        with speaking(t.speech):
            by_id = {e.user_id: e for e in entries}
            info = self._host.registry.find(t.game)
            game_title = _(info.title) if info else t.game
            heading = (
                _("Round {round} — pairings", round=t.round)
                if t.format != ARENA
                else _("Arena game {number}", number=t.round)
            )
            lines = [texts.pairing_line(g, by_id) for g in games if g.round == t.round]
            if announce and t.round_ends_at is not None and t.format != ARENA:
                lines.append(
                    _(
                        "Play your game where moji pings you; the round ends in {time}.",
                        time=duration(int(t.round_ends_at - self._host.clock.now())),
                    )
                )
            mentions = tuple(
                self.starter.seat_id(t, seat.user_id)
                for g in games
                for seat in g.seats
                if announce and not g.done and not seat.user_id.startswith("bot:")
            )
            return views.View(
                kind="info",
                title=texts.title(t, game_title) + " · " + heading,
                lines=tuple(lines),
                mentions=mentions,
            )

    async def standings_view(
        self, store: TournamentStore, t: Tournament, *, final: bool = False, heading: str = ""
    ) -> views.View:
        """The standings, in chat (``final``: the podium)."""
        entries = await store.entries(t.tournament_id)
        games = await store.tournament_games(t.tournament_id)
        with speaking(t.speech):
            info = self._host.registry.find(t.game)
            game_title = _(info.title) if info else t.game
            if t.format == ARENA:
                lines = texts.arena_lines(arena_standings(entries, games), final=final)
            else:
                lines = texts.standing_lines(standings(entries, games), final=final)
            if final:
                heading = _("Final standings:")
            if not lines:
                lines = [_("Nobody has played a game yet.")]
            return views.View(
                kind="leaderboard",
                title=texts.title(t, game_title),
                lines=(heading, *lines) if heading else tuple(lines),
            )


__all__ = ["ARENA_PAUSE", "Director", "PairingThreads", "TournamentHost", "channel_of", "swiss_points"]
