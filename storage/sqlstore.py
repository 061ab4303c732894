"""The :class:`~storage.base.Store`: every role's SQL implementation, composed on one database.

Backends (:mod:`storage.sqlite`, :mod:`storage.postgres`) subclass :class:`SQLStore` and only
supply connections and transactions (:class:`~storage.database.Database`); each role's
queries live in its own module and run through them.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from storage.browse import SQLBrowse
from storage.daily import SQLDaily
from storage.database import Database
from storage.gamelog import SQLGames
from storage.inbox import SQLInbox
from storage.leases import SQLLeases
from storage.lobbies import SQLLobbies
from storage.once import SQLOnce
from storage.privacy import PURGE, Eraser, SQLPrivacy
from storage.ratings import SQLRatings
from storage.schedules import SQLSchedules
from storage.scores import SQLScores
from storage.seasons import SQLSeasons
from storage.tournaments import SQLTournaments
from storage.weblinks import SQLWebLinks
from storage.workspaces import Known, SQLWorkspaces

if TYPE_CHECKING:
    from storage.base import Store

#: (the name of :data:`storage.privacy.PURGE` before storage was split by role)
_PURGE = PURGE

__all__ = ["SQLStore"]


@dataclass(frozen=True, slots=True)
class Roles:
    """The role implementations a :class:`SQLStore` is made of."""

    workspaces: SQLWorkspaces
    games: SQLGames
    lobbies: SQLLobbies
    leases: SQLLeases
    inbox: SQLInbox
    once: SQLOnce
    scores: SQLScores
    seasons: SQLSeasons
    schedules: SQLSchedules
    privacy: SQLPrivacy
    ratings: SQLRatings


class SQLStore(Database):
    """Every role of :class:`~storage.base.Store` on this database (subclasses are the backends).

    The roles are plain objects (``store.roles.games``, ``store.roles.leases``…) sharing the
    database and the cache of known workspaces and names; the store's methods are theirs.
    """

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock)
        self.known = Known(self)
        leases = SQLLeases(self)
        #: Each role's implementation, on this database.
        self.roles = Roles(
            workspaces=SQLWorkspaces(self, self.known),
            games=SQLGames(self, self.known, leases.fence),
            lobbies=SQLLobbies(self, leases.fence),
            leases=leases,
            inbox=SQLInbox(self),
            once=SQLOnce(self),
            scores=SQLScores(self),
            seasons=SQLSeasons(self, self.known),
            schedules=SQLSchedules(self, self.known),
            privacy=SQLPrivacy(self, self.known),
            ratings=SQLRatings(self),
        )
        roles = self.roles
        #: The web companion's links and sessions (storage/weblinks.py).
        self.web_links = SQLWebLinks(self)
        #: The daily's attempts (storage/daily.py).
        self.daily = SQLDaily(self)
        #: Tournaments: their players, rounds, games and results (storage/tournaments.py).
        self.tournaments = SQLTournaments(self)
        #: Browsing a workspace on the web: its address, player pages, replays (storage/browse.py).
        self.browse = SQLBrowse(self)

        # workspaces and players
        self.upsert_workspace = roles.workspaces.upsert_workspace
        self.upsert_player = roles.workspaces.upsert_player
        self.get_settings = roles.workspaces.get_settings
        self.set_setting = roles.workspaces.set_setting
        self.word_lists = roles.workspaces.word_lists
        self.add_word = roles.workspaces.add_word
        self.ban_word = roles.workspaces.ban_word
        self.remove_word = roles.workspaces.remove_word
        # games
        self.start_game = roles.games.start_game
        self.append_action = roles.games.append_action
        self.finish_game = roles.games.finish_game
        self.void_game = roles.games.void_game
        self.game_status = roles.games.game_status
        self.unfinished_games = roles.games.unfinished_games
        self.unannounced_games = roles.games.unannounced_games
        self.ended_games = roles.games.ended_games
        self.keep_alive = roles.games.keep_alive
        self.mark_announced = roles.games.mark_announced
        # lobbies
        self.save_lobby = roles.lobbies.save_lobby
        self.delete_lobby = roles.lobbies.delete_lobby
        self.open_lobbies = roles.lobbies.open_lobbies
        # leases
        self.claim_chat = roles.leases.claim_chat
        self.lease_chat = roles.leases.lease_chat
        self.adopt_game = roles.leases.adopt_game
        self.renew_leases = roles.leases.renew_leases
        self.release_leases = roles.leases.release_leases
        self.chat_owner = roles.leases.chat_owner
        self.orphaned_games = roles.leases.orphaned_games
        self.player_games = roles.leases.player_games
        self.workspace_owner = roles.leases.workspace_owner
        self.record_table = roles.leases.record_table
        self.join_instances = roles.leases.join_instances
        self.leave_instances = roles.leases.leave_instances
        self.live_instances = roles.leases.live_instances
        self.set_instance_web = roles.leases.set_instance_web
        self.instance_web = roles.leases.instance_web
        # forwarded events
        self.forward_event = roles.inbox.forward_event
        self.inbox = roles.inbox.inbox
        self.take_inbox = roles.inbox.take_inbox
        # once
        self.first_delivery = roles.once.first_delivery
        self.claim_once = roles.once.claim_once
        # scores and seasons
        self.leaderboard = roles.scores.leaderboard
        self.season_leaderboard = roles.scores.season_leaderboard
        self.player_stats = roles.scores.player_stats
        self.reset_season = roles.seasons.reset_season
        self.seasons = roles.seasons.seasons
        # word breaks
        self.add_schedule = roles.schedules.add_schedule
        self.list_schedules = roles.schedules.list_schedules
        self.remove_schedule = roles.schedules.remove_schedule
        self.claim_schedule_run = roles.schedules.claim_schedule_run
        # privacy
        self.forget_player = roles.privacy.forget_player
        self.purge_workspace = roles.privacy.purge_workspace
        self.prune_game_logs = roles.privacy.prune_game_logs
        self.workspaces_with_logs = roles.privacy.workspaces_with_logs
        self.schedule_deletion = roles.privacy.schedule_deletion
        self.cancel_deletion = roles.privacy.cancel_deletion
        self.due_deletions = roles.privacy.due_deletions
        # ratings
        self.rate_game = roles.ratings.rate_game
        self.start_rating_seasons = roles.ratings.start_rating_seasons
        self.rebuild_ratings = roles.ratings.rebuild_ratings
        self.game_rating_changes = roles.ratings.game_rating_changes
        self.rating_board = roles.ratings.rating_board
        self.season_rating_games = roles.ratings.season_rating_games
        self.player_ratings = roles.ratings.player_ratings
        self.skills = roles.ratings.skills

    @property
    def lease_ttl(self) -> float:
        """Seconds a game's lease lasts unless renewed (see :class:`~storage.records.Lease`)."""
        return self.roles.leases.ttl

    @lease_ttl.setter
    def lease_ttl(self, seconds: float) -> None:
        self.roles.leases.ttl = seconds

    def add_eraser(self, eraser: Eraser) -> None:
        """Have ``forget_player`` and ``purge_workspace`` reach a table kept outside storage."""
        self.roles.privacy.add_eraser(eraser)


if TYPE_CHECKING:

    def _whole(store: SQLStore) -> Store:
        """(mypy checks here that the composed store is every role of :class:`Store`)"""
        return store
