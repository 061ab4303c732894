"""The game log on the database: :class:`StoreGameLog` and restart recovery's loader.

Translates between the bot's types (:class:`~bot.core.outbox.GameStart`,
:class:`~games.common.protocol.Action`, :class:`~games.common.protocol.Result`)
and storage's plain records; storage never sees a game type.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from bot.core.events import ChatKey, Player
from bot.core.outbox import GameStart, LobbyState
from bot.core.ratings import RATER
from games.common.options import OptionValue
from games.common.protocol import Action, Result, Seat
from storage.base import GameRecord, Lease, LobbyRecord, SeatRecord, SeatScore, Store
from storage.daily import DAILY_NOT_SCORED, is_daily_game
from storage.errors import StorageError
from storage.ratings import RatingChange
from storage.scores import split_seat

log = logging.getLogger(__name__)


def to_record(game: GameStart) -> GameRecord:
    """A :class:`GameStart` as storage keeps it (a game without a ``language`` option plays
    English)."""
    return GameRecord(
        game_id=game.game_id,
        game=game.game,
        platform=game.chat.platform,
        workspace_id=game.chat.workspace_id,
        channel_id=game.chat.channel_id,
        thread_id=game.chat.thread_id,
        options={
            key: list(value) if isinstance(value, tuple) else value for key, value in game.options.items()
        },
        seed=game.seed,
        seats=tuple(SeatRecord(seat.id, seat.name, seat.bot) for seat in game.seats),
        started_at=game.started_at,
        host=game.host,
        names=dict(game.names),
        added_words=game.added_words,
        banned_words=game.banned_words,
        language=str(game.options.get("language", "en")),
    )


def _option(value: Any) -> OptionValue:
    if isinstance(value, list):
        return tuple(str(item) for item in value)
    if isinstance(value, bool | int | str):
        return value
    raise ValueError(f"an option value of type {type(value).__name__} cannot be restored")


def from_record(record: GameRecord) -> GameStart:
    """Inverse of :func:`to_record`."""
    return GameStart(
        game_id=record.game_id,
        game=record.game,
        chat=ChatKey(record.platform, record.workspace_id, record.channel_id, record.thread_id),
        options={key: _option(value) for key, value in record.options.items()},
        seed=record.seed,
        seats=tuple(Seat(seat.id, seat.name, seat.bot) for seat in record.seats),
        started_at=record.started_at,
        host=record.host,
        names=dict(record.names),
        added_words=record.added_words,
        banned_words=record.banned_words,
    )


def seat_scores(game: GameStart, result: Result) -> list[SeatScore]:
    """Every seat's points, win and best word (seats without points score 0)."""
    seats = [seat.id for seat in game.seats]
    seats += [seat for seat in result.scores if seat not in seats]
    teams = {seat: number for number, team in enumerate(result.teams, start=1) for seat in team}
    return [
        SeatScore(
            seat_id=seat,
            points=int(result.scores.get(seat, 0)),
            won=seat in result.winners,
            best_word=result.best_words.get(seat, ""),
            team=teams.get(seat),
        )
        for seat in seats
    ]


class StoreGameLog:
    """A :class:`~bot.core.outbox.GameLog` on a :class:`~storage.base.Store`.

    Actions are kept as ``Action.to_dict()`` JSON. The end of a game is one
    transaction, exactly once by game id; computer players (``bot:N`` seats)
    never reach a leaderboard.

    Every game this process claims or adopts is held by a :class:`~storage.base.Lease` in
    the name of ``owner`` (this process), and each write of that game carries it: once another
    process has taken the game, the write fails with :class:`~storage.errors.Fenced`.
    """

    def __init__(self, store: Store, owner: str = "local") -> None:
        self.store = store
        self.owner = owner
        #: game id → this process's lease on it
        self.leases: dict[str, Lease] = {}
        #: game id → when (``time.monotonic()``) its lease was last known to hold here
        self.confirmed: dict[str, float] = {}
        #: game id → the rating changes of a game just finished here, until its result is posted
        self.rated: dict[str, list[RatingChange]] = {}

    async def lobby(self, state: LobbyState) -> None:
        """Record an open lobby (again after each join or leave)."""
        await self.store.save_lobby(lobby_record(state), self.leases.get(state.game_id))

    async def lobby_closed(self, game_id: str) -> None:
        """Forget a lobby whose game started or that closed."""
        await self.store.delete_lobby(game_id, self.leases.get(game_id))
        self.leases.pop(game_id, None)
        self.confirmed.pop(game_id, None)

    async def start(self, game: GameStart) -> None:
        """Record a game that has just begun (its lobby is forgotten in the same transaction)."""
        await self.store.start_game(to_record(game), self.leases.get(game.game_id))

    async def append(self, game_id: str, seq: int, action: Action) -> None:
        """Append action number ``seq`` to the game's log (a repeat is ignored)."""
        await self.store.append_action(game_id, seq, action.to_dict(), self.leases.get(game_id))

    async def finish(self, game: GameStart, result: Result, at: float) -> bool:
        """Record the end and the scores, exactly once; False if already recorded.

        A voided result is recorded as a void game: nothing is scored.
        """
        lease = self.leases.get(game.game_id)
        if is_daily_game(game.game_id):
            # the daily has its own board (daily_plays, kept by bot.features.daily): no points, no rating
            done = await self.store.void_game(game.game_id, DAILY_NOT_SCORED, at, lease)
            result = replace(result, voided=True)
        elif result.voided:
            done = await self.store.void_game(game.game_id, result.summary or "voided", at, lease)
        else:
            done = await self.store.finish_game(
                to_record(game), seat_scores(game, result), at, result.summary, lease
            )
        self.leases.pop(game.game_id, None)
        self.confirmed.pop(game.game_id, None)
        if not result.voided:
            try:  # rated at once, also when the result is never announced; asked again when it is
                self.rated[game.game_id] = await self.store.rate_game(game.game_id, RATER)
            except StorageError as exc:
                log.warning(
                    "game %s: not rated yet (%s); rated when its result is announced", game.game_id, exc
                )
        return done

    async def void(self, game_id: str, reason: str) -> None:
        """Mark a game as void: its scores never count."""
        await self.store.void_game(game_id, reason, None, self.leases.get(game_id))
        self.leases.pop(game_id, None)
        self.confirmed.pop(game_id, None)

    async def claim(self, chat: ChatKey, game_id: str, at: float) -> str | None:
        """Claim ``chat`` for a new game; None when claimed, else the game that holds it."""
        claimed = await self.store.lease_chat(
            chat.platform, chat.workspace_id, chat.channel_id, chat.thread_id, game_id, at, self.owner
        )
        if isinstance(claimed, str):
            return claimed
        self.leases[game_id] = claimed
        self.confirmed[game_id] = time.monotonic()
        return None

    async def adopt(self, game_id: str) -> bool:
        """Take the game over (its owner's lease lapsed, or it is this process's own): False
        while another live process runs it."""
        lease = await self.store.adopt_game(game_id, self.owner)
        if lease is None:
            return False
        self.leases[game_id] = lease
        self.confirmed[game_id] = time.monotonic()
        return True

    async def keep_alive(self, game_ids: Sequence[str], at: float) -> list[str]:
        """Renew this process's leases on ``game_ids`` (and record the running ones alive at ``at``);
        the games another process has taken since (forgotten here)."""
        leases = [self.leases[g] for g in game_ids if g in self.leases]
        unleased = [g for g in game_ids if g not in self.leases]
        if unleased:
            await self.store.keep_alive(unleased, at)
        asked = time.monotonic()
        lost = await self.store.renew_leases(leases, at) if leases else []
        for game_id in lost:
            self.leases.pop(game_id, None)
            self.confirmed.pop(game_id, None)
        for lease in leases:
            if lease.game_id in self.leases:
                self.confirmed[lease.game_id] = asked
        return lost

    def unconfirmed_for(self, game_id: str) -> float:
        """Seconds since this process last knew it held ``game_id``'s lease (0: no lease to lose).

        Longer than a lease: the process stood still (a long pause), and another may have
        adopted the game meanwhile."""
        confirmed = self.confirmed.get(game_id)
        return 0.0 if confirmed is None or game_id not in self.leases else time.monotonic() - confirmed

    async def release(self, game_ids: Sequence[str]) -> None:
        """This process stops: another process may adopt these games at once."""
        leases = [self.leases[g] for g in game_ids if g in self.leases]
        await self.store.release_leases(leases)

    async def table(self, game_id: str, message_id: str) -> None:
        """The game's live table is now message ``message_id``."""
        await self.store.record_table(game_id, message_id)

    async def announced(self, game_id: str, at: float) -> None:
        """A finished game's result was posted in its channel."""
        await self.store.mark_announced(game_id, at)

    async def rating_changes(self, game: GameStart) -> list[RatingChange]:
        """What the finished game did to each person's rating: it is rated now if it was not yet
        (exactly once by game id, in the workspace's order: docs/RATINGS.md)."""
        known = self.rated.pop(game.game_id, None)
        return known if known is not None else await self.store.rate_game(game.game_id, RATER)

    async def skills(
        self, chat: ChatKey, game: str, language: str, seat_ids: Sequence[str]
    ) -> dict[str, float]:
        """The rated people's skill (``mu``) in ``game`` and ``language``, by seat id."""
        users = {split_seat(seat, chat.platform)[1]: seat for seat in seat_ids}
        found = await self.store.skills(chat.platform, chat.workspace_id, game, language, list(users))
        return {users[user]: skill.mu for user, skill in found.items() if user in users}


def _actions(raw: tuple[Mapping[str, Any], ...]) -> list[Action]:
    return [Action.from_dict(item) for item in raw]


async def load_unfinished(
    store: Store, game_ids: Sequence[str] | None = None
) -> list[tuple[GameStart, list[Action]]]:
    """Every unfinished game (or those named ``game_ids``) with its action log, oldest first,
    ready to replay.

    A game whose record or log cannot be read back (written by a newer moji,
    say) is voided with a log line rather than stopping the others' recovery.
    """
    games: list[tuple[GameStart, list[Action]]] = []
    for stored in await store.unfinished_games(game_ids):
        try:
            start = replace(from_record(stored.record), alive_at=stored.alive_at)
            games.append((start, _actions(stored.actions)))
        except (KeyError, TypeError, ValueError):
            log.exception("cannot read back game %s; voiding it", stored.record.game_id)
            await store.void_game(stored.record.game_id, "unreadable after restart")
    return games


async def load_unannounced(store: Store) -> list[tuple[GameStart, list[Action]]]:
    """Every game that finished but whose result was never posted, with its log (to replay)."""
    games: list[tuple[GameStart, list[Action]]] = []
    for stored in await store.unannounced_games():
        try:
            games.append((from_record(stored.record), _actions(stored.actions)))
        except (KeyError, TypeError, ValueError):
            log.exception("cannot read back finished game %s; it stays unannounced", stored.record.game_id)
    return games


async def load_recently_ended(store: Store, since: float) -> list[tuple[GameStart, list[Action]]]:
    """Every game that ended at ``since`` or later, with its log (the messages it took as answers)."""
    games: list[tuple[GameStart, list[Action]]] = []
    for stored in await store.ended_games(since):
        try:
            games.append((from_record(stored.record), _actions(stored.actions)))
        except (KeyError, TypeError, ValueError):
            log.warning("cannot read back ended game %s; skipped", stored.record.game_id)
    return games


def _player(player: Player) -> dict[str, str]:
    return {"platform": player.platform, "user_id": player.user_id, "name": player.display_name}


def lobby_record(state: LobbyState) -> LobbyRecord:
    """A :class:`LobbyState` as storage keeps it."""
    chat = state.chat
    data = {
        "game": state.game,
        "host": _player(state.host),
        "players": [_player(p) for p in state.players],
        "options": {k: list(v) if isinstance(v, tuple) else v for k, v in state.options.items()},
        "seed": state.seed,
        "deadline": state.deadline,
        "message_id": state.message_id,
    }
    return LobbyRecord(state.game_id, chat.platform, chat.workspace_id, chat.channel_id, chat.thread_id, data)


def lobby_state(record: LobbyRecord) -> LobbyState:
    """Inverse of :func:`lobby_record`."""
    data = record.data

    def player(raw: Mapping[str, Any]) -> Player:
        return Player(str(raw["platform"]), str(raw["user_id"]), str(raw["name"]))

    message_id = data.get("message_id")
    return LobbyState(
        game_id=record.game_id,
        game=str(data["game"]),
        chat=ChatKey(record.platform, record.workspace_id, record.channel_id, record.thread_id),
        host=player(data["host"]),
        players=tuple(player(p) for p in data["players"]),
        options={key: _option(value) for key, value in data["options"].items()},
        seed=int(data["seed"]),
        deadline=float(data["deadline"]),
        message_id=None if message_id is None else str(message_id),
    )


async def load_lobbies(store: Store) -> list[LobbyState]:
    """Every open lobby, ready to reopen (an unreadable one is dropped with a log line)."""
    lobbies: list[LobbyState] = []
    for record in await store.open_lobbies():
        try:
            lobbies.append(lobby_state(record))
        except (KeyError, TypeError, ValueError):
            log.exception("cannot read back lobby %s; dropping it", record.game_id)
            await store.delete_lobby(record.game_id)
    return lobbies
