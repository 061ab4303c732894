"""The :class:`Store` protocol every backend implements, and the values it returns.

Storage knows no game rules: it keeps what the bot core hands it (options,
seats, actions as JSON-ready dicts, scores) and adds scores up.

Identifiers: a *workspace* is ``(platform, workspace_id)`` (a Discord guild, a
Slack team); a *player* is ``(platform, user_id)``. Times are epoch seconds
(floats) or aware datetimes, as each method says.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol, TypeVar, runtime_checkable


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


class InstallKey(Protocol):
    """Who a Slack installation belongs to (Enterprise Grid org, team, installing user)."""

    @property
    def enterprise_id(self) -> str | None: ...
    @property
    def team_id(self) -> str | None: ...
    @property
    def user_id(self) -> str | None: ...


@runtime_checkable
class Store(Protocol):
    """Durable state of the bot. Every method is one transaction; errors are :class:`StorageError`."""

    # ------------------------------------------------------------ lifecycle

    async def open(self) -> None:
        """Connect (creating a SQLite file's folder) and apply pending migrations."""
        ...

    async def migrate(self) -> list[int]:
        """Apply pending migrations; the versions applied now ([] when up to date)."""
        ...

    async def close(self) -> None:
        """Close every connection (safe to call twice, or before :meth:`open`)."""
        ...

    async def ping(self) -> None:
        """A trivial query: returns once the database answers; :class:`StorageError` if it cannot."""
        ...

    # ------------------------------------------------------------ workspaces and players

    async def upsert_workspace(self, platform: str, workspace_id: str) -> None:
        """Make sure the workspace exists."""
        ...

    async def upsert_player(self, platform: str, user_id: str, display_name: str) -> None:
        """Create the player or refresh their display name."""
        ...

    async def get_settings(self, platform: str, workspace_id: str) -> Mapping[str, str]:
        """The workspace's stored settings (defaults are declared by the bot, not here)."""
        ...

    async def set_setting(self, platform: str, workspace_id: str, key: str, value: str, by_user: str) -> None:
        """Set one setting (who changed it is kept)."""
        ...

    async def word_lists(self, platform: str, workspace_id: str) -> tuple[set[str], set[str]]:
        """The workspace's (added, banned) words."""
        ...

    async def add_word(
        self, platform: str, workspace_id: str, word: str, by_user: str, now: datetime
    ) -> None:
        """Allow ``word`` in this workspace (replacing a ban)."""
        ...

    async def ban_word(
        self, platform: str, workspace_id: str, word: str, by_user: str, now: datetime
    ) -> None:
        """Ban ``word`` in this workspace (replacing an addition)."""
        ...

    async def remove_word(
        self, platform: str, workspace_id: str, word: str, by_user: str, now: datetime
    ) -> None:
        """Forget ``word``'s addition or ban: the dictionary decides again."""
        ...

    # ------------------------------------------------------------ games

    async def start_game(self, record: GameRecord, lease: Lease | None = None) -> None:
        """Record a game that has begun and forget its open lobby, in one transaction
        (idempotent by game id)."""
        ...

    async def append_action(
        self, game_id: str, seq: int, action: Mapping[str, Any], lease: Lease | None = None
    ) -> None:
        """Append action ``seq`` to a started game's log (idempotent by ``(game_id, seq)``).

        Every write of a game may carry its ``lease``: the write is refused
        (:class:`~storage.errors.Fenced`) when another process has taken the game.
        """
        ...

    async def finish_game(
        self,
        record: GameRecord,
        scores: Sequence[SeatScore],
        ended_at: float,
        summary: str = "",
        lease: Lease | None = None,
    ) -> bool:
        """Record a game's end and add its scores up, exactly once; False if it had already ended."""
        ...

    async def void_game(
        self, game_id: str, reason: str, at: float | None = None, lease: Lease | None = None
    ) -> bool:
        """Mark an unfinished game void (its scores never count); False if it had already ended."""
        ...

    async def unfinished_games(self, game_ids: Sequence[str] | None = None) -> list[StoredGame]:
        """Every game that began and has neither finished nor been voided (or those of them
        named ``game_ids``), oldest first."""
        ...

    async def unannounced_games(self) -> list[StoredGame]:
        """Every game that finished but whose result was never posted (a crash in between)."""
        ...

    async def claim_chat(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        thread_id: str | None,
        game_id: str,
        at: float,
        owner: str = "",
    ) -> str | None:
        """Claim a chat for a new game: None when claimed, else the id of the active game holding it."""
        ...

    async def lease_chat(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        thread_id: str | None,
        game_id: str,
        at: float,
        owner: str,
    ) -> Lease | str:
        """Claim a chat for a new game run by ``owner``: its lease, else the id of the game holding it."""
        ...

    async def adopt_game(self, game_id: str, owner: str) -> Lease | None:
        """Take over an active game or lobby whose lease lapsed (or is ``owner``'s): its new lease,
        or None while another process's lease is alive."""
        ...

    async def renew_leases(self, leases: Sequence[Lease], at: float) -> list[str]:
        """Renew one owner's leases (and record its running games alive at ``at``); the games
        another process has taken."""
        ...

    async def release_leases(self, leases: Sequence[Lease]) -> None:
        """Let another process adopt these games at once (a graceful stop)."""
        ...

    async def chat_owner(
        self, platform: str, workspace_id: str, channel_id: str, thread_id: str | None
    ) -> ChatOwner | None:
        """Who runs the chat's active game or open lobby (None: the chat is free)."""
        ...

    async def orphaned_games(self, platform: str) -> list[ChatOwner]:
        """Active games and lobbies on ``platform`` whose owner's lease has lapsed."""
        ...

    async def player_games(
        self, platform: str, workspace_id: str, seat_id: str
    ) -> list[tuple[str, str | None]]:
        """The chats (channel, thread) of the running games in a workspace where ``seat_id`` plays."""
        ...

    async def workspace_owner(self, platform: str, workspace_id: str) -> str | None:
        """A live process running a game or lobby in the workspace, if any."""
        ...

    async def record_table(self, game_id: str, message_id: str) -> None:
        """The game's live table is now message ``message_id``."""
        ...

    async def join_instances(self, instance_id: str, announce: bool = False) -> None:
        """Process ``instance_id`` is alive (said every few seconds; ``announce``: it is starting,
        tell the others at once)."""
        ...

    async def leave_instances(self, instance_id: str) -> None:
        """Process ``instance_id`` stops."""
        ...

    async def live_instances(self) -> list[str]:
        """Every process whose last word is fresh."""
        ...

    async def forward_event(
        self,
        platform: str,
        workspace_id: str,
        channel_id: str,
        thread_id: str | None,
        event_key: str,
        payload: Mapping[str, Any],
        at: float,
        target: str = "",
    ) -> bool:
        """Queue an event for process ``target`` (once it is gone: whichever runs the chat); False
        for a repeat of ``event_key``."""
        ...

    async def first_delivery(self, event_key: str, at: float, prune_before: float | None = None) -> bool:
        """Record that the delivery ``event_key`` (a command's or button press's platform id) is
        handled at ``at``: True for exactly one caller, False for a repeat. ``prune_before``: also
        forget the deliveries recorded before then."""
        ...

    async def inbox(self, owner: str, limit: int = 500) -> list[InboxItem]:
        """Unhandled events forwarded to ``owner`` (or to a process that is gone, for a chat
        ``owner`` runs now), oldest first."""
        ...

    async def take_inbox(self, item_id: int, at: float) -> bool:
        """Mark a forwarded event handled: True for exactly one caller."""
        ...

    async def listen(self, channel: str, callback: Callable[[str], None]) -> bool:
        """Call ``callback`` on each notification of ``channel``; False where unsupported (poll)."""
        ...

    async def ended_games(self, since: float) -> list[StoredGame]:
        """Every game that finished or was voided at ``since`` or later, with its action log."""
        ...

    async def keep_alive(self, game_ids: Sequence[str], at: float) -> None:
        """Record that the running games ``game_ids`` were alive at ``at``."""
        ...

    async def mark_announced(self, game_id: str, at: float) -> None:
        """Record that a finished game's result was posted in its channel."""
        ...

    async def save_lobby(self, lobby: LobbyRecord, lease: Lease | None = None) -> None:
        """Record (or update) an open lobby."""
        ...

    async def delete_lobby(self, game_id: str, lease: Lease | None = None) -> None:
        """Forget a lobby that started or closed (no error if unknown)."""
        ...

    async def open_lobbies(self) -> list[LobbyRecord]:
        """Every open lobby, oldest first."""
        ...

    # ------------------------------------------------------------ privacy

    async def forget_player(self, platform: str, workspace_id: str, user_id: str) -> None:
        """Forget a player in one workspace: stats rows and name deleted, their seats in finished
        games anonymised ("a former player") with those games' action logs dropped, their
        authorship anonymised. Other players' results and totals stay."""
        ...

    async def purge_workspace(self, platform: str, workspace_id: str) -> int:
        """Delete everything kept about a workspace; how many rows went (0: nothing was kept)."""
        ...

    async def prune_game_logs(self, platform: str, workspace_id: str, before: float) -> int:
        """Drop the action logs of the workspace's games that ended (and were announced) before
        ``before``; how many games."""
        ...

    async def workspaces_with_logs(self, before: float) -> list[tuple[str, str]]:
        """Workspaces with a game that ended before ``before`` and still has its log."""
        ...

    async def schedule_deletion(self, platform: str, workspace_id: str, due_at: float, reason: str) -> None:
        """Delete the workspace's data at ``due_at``."""
        ...

    async def cancel_deletion(self, platform: str, workspace_id: str) -> bool:
        """Keep the workspace's data after all; False if no deletion was pending."""
        ...

    async def due_deletions(self, now: float) -> list[tuple[str, str]]:
        """Workspaces whose deletion is due at ``now``."""
        ...

    # ------------------------------------------------------------ scores

    async def leaderboard(
        self,
        platform: str,
        workspace_id: str,
        game: str | None,
        period: str,
        now: datetime,
        limit: int = 10,
        language: str | None = None,
    ) -> list[LeaderboardRow]:
        """The top ``limit`` players of ``game`` (None: every game) in the period containing ``now``.

        ``period`` is one of :data:`storage.periods.PERIODS` (``day``, ``week``,
        ``month``, ``season``, ``all``). Day, week and month are calendar periods in
        the workspace's ``timezone`` setting (UTC by default) as it was when each
        game ended. ``language`` (a code such as ``fr``) counts only the games played
        in that language; None counts every language together.
        """
        ...

    async def season_leaderboard(
        self,
        platform: str,
        workspace_id: str,
        game: str | None,
        season: int,
        limit: int = 10,
        language: str | None = None,
    ) -> list[LeaderboardRow]:
        """The top players of a season (the current one or an archived one); ``language`` as in
        :meth:`leaderboard`."""
        ...

    async def player_stats(self, platform: str, workspace_id: str, user_id: str) -> PlayerStats | None:
        """A player's all-time record in the workspace, or None before their first finished game."""
        ...

    async def reset_season(self, platform: str, workspace_id: str, now: datetime) -> Season:
        """Archive the current season and start the next one; returns the new season."""
        ...

    async def seasons(self, platform: str, workspace_id: str) -> list[Season]:
        """Every season of the workspace, oldest first (the last one is current)."""
        ...

    # ------------------------------------------------------------ word breaks

    async def add_schedule(self, schedule: ScheduleT) -> ScheduleT:
        """Save a new schedule (its ``id`` is ignored); returns a copy with its id."""
        ...

    async def list_schedules(self, platform: str, workspace_id: str | None = None) -> list[Schedule]:
        """Every schedule on ``platform`` (optionally of one workspace), oldest first."""
        ...

    async def remove_schedule(self, platform: str, workspace_id: str, schedule_id: int) -> bool:
        """Delete a workspace's schedule; False when it has no such schedule."""
        ...

    async def claim_schedule_run(self, schedule_id: int, run_at: float) -> bool:
        """Atomically claim the run of a schedule at ``run_at``: True for exactly one caller."""
        ...

    async def claim_once(self, kind: str, key: str, expires_at: float, now: float) -> bool:
        """Atomically claim ``key`` of ``kind`` until ``expires_at``: True for exactly one caller
        (of any process) while the claim lasts. Expired claims are forgotten."""
        ...

    # ------------------------------------------------------------ Slack installations

    async def save_installation(self, key: InstallKey, data: Mapping[str, Any]) -> None:
        """Save an OAuth installation (JSON-ready) for its user and as the team's latest."""
        ...

    async def find_installation(self, key: InstallKey) -> dict[str, Any] | None:
        """The installation for ``key`` (user_id None: the team's latest), or None."""
        ...

    async def delete_installation(self, key: InstallKey) -> None:
        """Forget installations matching ``key`` (user_id None: all of the team's)."""
        ...
