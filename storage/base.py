"""The :class:`Store` protocol: every role of storage in one, and the values it returns.

Each role has a protocol and an implementation in a module of its own (both backends share
the SQL):

- lifecycle (open, migrate, close, ping): :class:`~storage.database.Lifecycle`, :mod:`storage.database`;
- workspaces, players, settings, word lists: :class:`~storage.workspaces.WorkspaceStore`;
- games and their action logs: :class:`~storage.gamelog.GameStore`;
- open lobbies: :class:`~storage.lobbies.LobbyStore`;
- chat claims, leases, live processes: :class:`~storage.leases.LeaseStore`;
- forwarded events: :class:`~storage.inbox.InboxStore`;
- deliveries and one-time claims: :class:`~storage.once.OnceStore`;
- leaderboards and stats: :class:`~storage.scores.ScoreStore`;
- seasons: :class:`~storage.seasons.SeasonStore`;
- word-break schedules: :class:`~storage.schedules.ScheduleStore`;
- forget-me, purge, retention, planned deletions: :class:`~storage.privacy.PrivacyStore`;
- the web companion's links and page sessions: :class:`~storage.weblinks.WebLinkStore`
  (``store.web_links``).
- skill ratings: :class:`~storage.ratings.RatingStore`.

A module that needs one role can ask for that protocol only. Slack's OAuth installations are
the Slack adapter's own (``adapters/slack/store.py``), on the :class:`~storage.database.Database`
primitive.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from storage.daily import DailyStore
from storage.database import Lifecycle
from storage.gamelog import GameStore
from storage.inbox import InboxStore
from storage.leases import LeaseStore
from storage.lobbies import LobbyStore
from storage.once import OnceStore
from storage.privacy import PrivacyStore
from storage.ratings import RatingStore
from storage.records import (
    ChatOwner,
    GameRecord,
    InboxItem,
    LeaderboardRow,
    Lease,
    LobbyRecord,
    PlayerStats,
    Schedule,
    ScheduleLike,
    ScheduleT,
    Season,
    SeatRecord,
    SeatScore,
    StoredGame,
)
from storage.schedules import ScheduleStore
from storage.scores import ScoreStore
from storage.seasons import SeasonStore
from storage.weblinks import WebLinkStore
from storage.workspaces import WorkspaceStore

__all__ = [
    "ChatOwner",
    "GameRecord",
    "GameStore",
    "InboxItem",
    "InboxStore",
    "LeaderboardRow",
    "Lease",
    "LeaseStore",
    "Lifecycle",
    "LobbyRecord",
    "LobbyStore",
    "OnceStore",
    "PlayerStats",
    "PrivacyStore",
    "RatingStore",
    "Schedule",
    "ScheduleLike",
    "ScheduleStore",
    "ScheduleT",
    "ScoreStore",
    "Season",
    "SeasonStore",
    "SeatRecord",
    "SeatScore",
    "Store",
    "StoredGame",
    "WebLinkStore",
    "WorkspaceStore",
]


@runtime_checkable
class Store(
    Lifecycle,
    WorkspaceStore,
    GameStore,
    LobbyStore,
    LeaseStore,
    InboxStore,
    OnceStore,
    ScoreStore,
    SeasonStore,
    ScheduleStore,
    PrivacyStore,
    RatingStore,
    Protocol,
):
    """Durable state of the bot: every role. Every method is one transaction; errors are
    :class:`~storage.errors.StorageError`."""

    @property
    def web_links(self) -> WebLinkStore:
        """The web companion's links and page sessions (:mod:`storage.weblinks`)."""
        ...

    @property
    def daily(self) -> DailyStore:
        """The daily's attempts, results and streaks (:mod:`storage.daily`)."""
        ...
