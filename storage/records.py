"""The values storage takes and returns, shared by every role (see :mod:`storage.base`).

Storage knows no game rules: it keeps what the bot core hands it (options,
seats, actions as JSON-ready dicts, scores) and adds scores up.

Identifiers: a *workspace* is ``(platform, workspace_id)`` (a Discord guild, a
Slack team); a *player* is ``(platform, user_id)``. Times are epoch seconds
(floats) or aware datetimes, as each method says.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar


@dataclass(frozen=True, slots=True)
class LeaderboardRow:
    """One line of a leaderboard. Players tied on points share a rank (1, 2, 2, 4)."""

    rank: int
    user_id: str
    display_name: str
    points: int
    games: int
    wins: int
    best_word: str = ""


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """A player's all-time record in one workspace (every game)."""

    user_id: str
    display_name: str
    games: int
    wins: int
    points: int
    best_word: str = ""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """A seat of a stored game (mirrors ``games.common.protocol.Seat``)."""

    id: str
    name: str
    bot: str | None = None


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game as recorded when it began: everything needed to rebuild it.

    ``options`` holds JSON values (lists where the game had tuples). ``language`` is the
    code of the language it is played in (``en`` for games recorded before languages);
    its scores add up per language as well as for every language.
    """

    game_id: str
    game: str
    platform: str
    workspace_id: str
    channel_id: str
    thread_id: str | None
    options: Mapping[str, Any]
    seed: int
    seats: tuple[SeatRecord, ...]
    started_at: float
    host: str = ""
    names: Mapping[str, str] = field(default_factory=dict)
    added_words: frozenset[str] = frozenset()
    banned_words: frozenset[str] = frozenset()
    language: str = "en"


@dataclass(frozen=True, slots=True)
class SeatScore:
    """One seat's outcome in a finished game."""

    seat_id: str
    points: int
    won: bool
    best_word: str = ""
    #: partners (race team variants) share a team number; None for a seat playing alone
    team: int | None = None


@dataclass(frozen=True, slots=True)
class StoredGame:
    """An unfinished game and its ordered action log (``Action.to_dict()`` dicts)."""

    record: GameRecord
    actions: tuple[Mapping[str, Any], ...]
    #: When the process running it was last known alive (None: never recorded).
    alive_at: float | None = None


@dataclass(frozen=True, slots=True)
class LobbyRecord:
    """An open lobby: where it is, and the bot's own JSON description of it."""

    game_id: str
    platform: str
    workspace_id: str
    channel_id: str
    thread_id: str | None
    data: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Lease:
    """A process's hold on an active game or lobby: every write of the game carries it.

    ``epoch`` grows by one each time the game changes hands; a write with an older epoch
    is refused (:class:`~storage.errors.Fenced`).
    """

    game_id: str
    owner: str
    epoch: int


@dataclass(frozen=True, slots=True)
class ChatOwner:
    """Who runs a chat's active game or lobby, and whether their lease is alive."""

    platform: str
    workspace_id: str
    channel_id: str
    thread_id: str | None
    game_id: str
    owner: str
    epoch: int
    live: bool
    #: The game's live table message (an adopter edits it instead of posting another).
    table_ref: str | None = None
    #: The running game's name, options and seed ("" and empty for an open lobby): any process
    #: can tell what the game takes as answers or moves before forwarding a message to it.
    game: str = ""
    options: Mapping[str, Any] = field(default_factory=dict, compare=False)
    seed: int = 0


@dataclass(frozen=True, slots=True)
class InboxItem:
    """An event forwarded to the process that runs its chat (``payload`` is the bot's JSON)."""

    id: int
    platform: str
    workspace_id: str
    channel_id: str
    thread_id: str | None
    payload: Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class Season:
    """A workspace's season: the current one has ``ended_at`` None."""

    number: int
    started_at: float
    ended_at: float | None = None


@dataclass(frozen=True, slots=True)
class Schedule:
    """A recurring word break in one channel (the Slack adapter's ``Schedule``).

    ``days`` are weekday numbers (Monday 0 … Sunday 6); ``at`` is ``HH:MM`` in
    the workspace's time zone; ``args`` are the ``start`` arguments.
    """

    id: int
    workspace_id: str
    channel_id: str
    days: tuple[int, ...]
    at: str
    args: tuple[str, ...] = ()
    mention: str = ""
    created_by: str = ""
    created_by_name: str = ""
    platform: str = "slack"
    last_run_at: float | None = None


class ScheduleLike(Protocol):
    """Anything shaped like a :class:`Schedule` (the Slack adapter has its own class)."""

    @property
    def workspace_id(self) -> str: ...
    @property
    def channel_id(self) -> str: ...
    @property
    def days(self) -> tuple[int, ...]: ...
    @property
    def at(self) -> str: ...
    @property
    def args(self) -> tuple[str, ...]: ...
    @property
    def mention(self) -> str: ...
    @property
    def created_by(self) -> str: ...
    @property
    def created_by_name(self) -> str: ...
    @property
    def platform(self) -> str: ...


ScheduleT = TypeVar("ScheduleT", bound=ScheduleLike)
