"""A tournament's records as storage keeps them (the tournament, its entries, games and seats),
and what the tournaments' store does with them (:class:`TournamentStore`).

(The tables are :mod:`storage.tournaments`; the migration ``0018_tournaments.sql`` says what
each column holds.)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

#: Every tournament game's id starts with this: its end is told to the tournament.
TOURNAMENT_GAME_PREFIX = "tour-"

#: The formats.
ARENA, SWISS, ROUND_ROBIN = "arena", "swiss", "roundrobin"
#: A tournament's states.
REGISTERING, RUNNING, FINISHED, CANCELLED = "registering", "running", "finished", "cancelled"
#: How a game of a tournament ended.
PLAYED, ADJUDICATED, BYE, FORFEIT, VOID = "played", "adjudicated", "bye", "forfeit", "void"


def is_tournament_game(game_id: str) -> bool:
    """Whether ``game_id`` is a tournament's game."""
    return game_id.startswith(TOURNAMENT_GAME_PREFIX)


def tournament_game_id(tournament_id: str, round_no: int, board: int) -> str:
    """The id of a tournament's game: the same on every process (a round is paired once, so its
    games are started once: the game log refuses a second start of the same id)."""
    return f"{TOURNAMENT_GAME_PREFIX}{tournament_id}-{round_no}-{board}"


@dataclass(frozen=True, slots=True)
class Tournament:
    """One tournament (see the migration ``0018_tournaments.sql`` for each field)."""

    tournament_id: str
    platform: str
    workspace_id: str
    channel_id: str
    format: str
    game: str
    options: tuple[str, ...]  # the game's options as typed (``cards=5``)
    rounds: int  # planned rounds (an arena: 0)
    round_seconds: float  # a round's time (an arena: its window)
    speech: str  # the language it is announced in
    created_by: str
    created_by_name: str
    created_at: float
    starts_at: float | None = None  # registration closes (an arena opens) by itself then
    state: str = REGISTERING
    round: int = 0
    round_ends_at: float | None = None
    ended_at: float | None = None

    @property
    def live(self) -> bool:
        """Open for registration or running."""
        return self.state in (REGISTERING, RUNNING)


@dataclass(frozen=True, slots=True)
class Entry:
    """A player of a tournament."""

    user_id: str
    name: str
    rating: float
    joined_at: float
    left_at: float | None = None

    @property
    def is_bot(self) -> bool:
        """A computer player (``bot:1``)."""
        return self.user_id.startswith("bot:")

    @property
    def active(self) -> bool:
        """Still in (not withdrawn)."""
        return self.left_at is None


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a tournament game: who, and once done what they scored and earned."""

    user_id: str
    score: int | None = None  # points in the game itself
    place: int | None = None  # 1 = won (ties share a place)
    points: float | None = None  # tournament points (Swiss: 1, 0.5, 0; arena: arena points)


@dataclass(frozen=True, slots=True)
class TournamentGame:
    """One game of a tournament (a bye is a game of one seat, done when paired)."""

    tournament_id: str
    round: int
    board: int
    game_id: str
    seats: tuple[SeatResult, ...]
    state: str = "playing"
    how: str = ""
    thread_id: str | None = None
    started_at: float = 0.0
    ended_at: float | None = None

    @property
    def done(self) -> bool:
        """Its result is kept."""
        return self.state == "done"

    @property
    def is_bye(self) -> bool:
        """A round's bye (one seat)."""
        return len(self.seats) == 1 and self.how == BYE


@dataclass(frozen=True, slots=True)
class NewGame:
    """A game to insert with its round: its board, seats (first mover first) and, for a game
    decided when paired (a bye), its result."""

    board: int
    seats: tuple[str, ...]
    done: tuple[SeatResult, ...] = field(default_factory=tuple)
    how: str = ""


@runtime_checkable
class TournamentStore(Protocol):
    """Tournaments, their players, games and results."""

    async def create_tournament(self, tournament: Tournament) -> Tournament:
        """Save a new tournament, unless its channel has a live one already: that one then."""
        ...

    async def tournament(self, tournament_id: str) -> Tournament | None:
        """A tournament by id."""
        ...

    async def live_tournament(self, platform: str, workspace_id: str, channel_id: str) -> Tournament | None:
        """The tournament open or running in a channel."""
        ...

    async def live_tournaments(self, platform: str) -> list[Tournament]:
        """Every tournament open or running on a platform (a restarted process carries them on)."""
        ...

    async def recent_tournaments(self, platform: str, workspace_id: str, limit: int) -> list[Tournament]:
        """A workspace's tournaments, newest first."""
        ...

    async def start_tournament(self, tournament_id: str, now: float) -> bool:
        """Close registration (True once: the caller starts the first round)."""
        ...

    async def end_tournament(self, tournament_id: str, state: str, now: float) -> bool:
        """End a live tournament as ``state`` (finished or cancelled): True once."""
        ...

    async def join_tournament(
        self, tournament_id: str, user_id: str, name: str, rating: float, now: float
    ) -> bool:
        """Enter a player (again, after withdrawing); False when they are in already."""
        ...

    async def leave_tournament(self, tournament_id: str, user_id: str, now: float) -> bool:
        """Withdraw a player (their games and points stay); False when not in."""
        ...

    async def entries(self, tournament_id: str) -> list[Entry]:
        """Everyone who entered, in the order they joined."""
        ...

    async def begin_round(
        self, tournament_id: str, round_no: int, ends_at: float | None, games: Sequence[NewGame], now: float
    ) -> bool:
        """Pair round ``round_no`` with ``games`` (True once: False when it was paired already)."""
        ...

    async def claim_tournament_game(self, game_id: str, where: str) -> bool:
        """Claim the start of a game nobody has started (True once), noting ``where`` for now."""
        ...

    async def release_tournament_game(self, game_id: str) -> None:
        """Give a claimed start back (it could not start: the next look tries again)."""
        ...

    async def set_game_thread(self, game_id: str, thread_id: str) -> None:
        """Note where a game is played."""
        ...

    async def finish_tournament_game(
        self, game_id: str, seats: Sequence[SeatResult], how: str, now: float
    ) -> bool:
        """Keep a game's result (True once)."""
        ...

    async def tournament_games(self, tournament_id: str) -> list[TournamentGame]:
        """Every game of a tournament, by round and board."""
        ...

    async def tournament_game(self, game_id: str) -> TournamentGame | None:
        """One game by its game id."""
        ...


__all__ = [
    "ADJUDICATED",
    "ARENA",
    "BYE",
    "CANCELLED",
    "FINISHED",
    "FORFEIT",
    "PLAYED",
    "REGISTERING",
    "ROUND_ROBIN",
    "RUNNING",
    "SWISS",
    "TOURNAMENT_GAME_PREFIX",
    "VOID",
    "Entry",
    "NewGame",
    "SeatResult",
    "Tournament",
    "TournamentGame",
    "TournamentStore",
    "is_tournament_game",
    "tournament_game_id",
]
