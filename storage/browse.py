"""Browsing a workspace on the web: its address, player pages and finished games.

A workspace that turned the web on (``config web on``) has one random token, its pages' path
(``/w/<token>/``); turning it off deletes the token, so every old address answers 404 and turning
it on again mints a new one. Leaderboards are the chat's own queries (:mod:`storage.scores`,
:mod:`storage.ratings`); this module adds what only the pages read: a player's record per game,
their best words and recent games (from ``results``), and the workspace's finished games with
their logs, for replays. Everything is read from the database at each request, so ``forget-me``
and ``purge`` take a person off every page at once.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from storage.database import Database
from storage.gamelog import stored_games
from storage.records import StoredGame
from storage.scores import ALL_GAMES

#: What a purge deletes (each statement takes platform, workspace id).
PURGE_BROWSE = ("DELETE FROM web_browse WHERE platform = ? AND workspace_id = ?",)


@dataclass(frozen=True, slots=True)
class GameTally:
    """A player's all-time record in one game of a workspace (the ``scores`` row ``stats`` reads)."""

    game: str
    games: int
    wins: int
    points: int
    best_word: str


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One finished game of a player: how they did, and whether its log can be replayed."""

    game_id: str
    game: str
    language: str
    ended_at: float
    points: int
    won: bool
    best_word: str
    replayable: bool


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """What a player's page shows (ratings come from :meth:`~storage.ratings.SQLRatings.player_ratings`)."""

    user_id: str
    display_name: str
    tallies: tuple[GameTally, ...]
    best_words: tuple[tuple[str, str], ...]  # (word, game), longest first
    recent: tuple[PlayedGame, ...]


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """A finished game in the replays' list: who sat (as recorded), its result line."""

    game_id: str
    game: str
    language: str
    ended_at: float
    seats: tuple[str, ...]
    summary: str


@runtime_checkable
class BrowseStore(Protocol):
    """A workspace's web address, and what its pages read beyond the leaderboards."""

    async def turn_on(self, platform: str, workspace_id: str, now: float) -> str:
        """The workspace's token, minted now unless it has one."""
        ...

    async def turn_off(self, platform: str, workspace_id: str) -> bool:
        """Forget the workspace's token (its pages answer 404); False if it had none."""
        ...

    async def token(self, platform: str, workspace_id: str) -> str | None:
        """The workspace's token while its web is on."""
        ...

    async def workspace(self, token: str) -> tuple[str, str] | None:
        """(platform, workspace id) whose pages ``token`` opens, or None."""
        ...

    async def player(
        self, platform: str, workspace_id: str, user_id: str, *, recent: int = 10, words: int = 10
    ) -> PlayerPage | None:
        """A player's page, or None when nothing of theirs is kept in the workspace."""
        ...

    async def finished_games(
        self, platform: str, workspace_id: str, *, limit: int = 50
    ) -> list[FinishedGame]:
        """The workspace's finished games whose logs are kept (newest first; voided ones never)."""
        ...

    async def finished_game(self, platform: str, workspace_id: str, game_id: str) -> StoredGame | None:
        """A finished game of the workspace with its log (None: unknown, voided, running, or its
        log is gone: pruned by retention, or a player asked to be forgotten)."""
        ...

    async def kept_logs(self, platform: str, workspace_id: str, game_ids: Sequence[str]) -> frozenset[str]:
        """Which of ``game_ids`` are finished games of the workspace whose logs are kept (the ones
        :meth:`finished_game` replays)."""
        ...


def browse_of(store: object) -> BrowseStore | None:
    """``store``'s :class:`BrowseStore` (``store.browse``), or None for a store without one."""
    found = getattr(store, "browse", None)
    return found if isinstance(found, BrowseStore) else None


_PLAYED = (
    "SELECT g.game_id, g.game, g.language, g.ended_at, r.points, r.won, r.best_word, "
    "EXISTS (SELECT 1 FROM game_actions a WHERE a.game_id = g.game_id) "
    "FROM results r JOIN games g ON g.game_id = r.game_id "
    "WHERE r.user_id = ? AND g.platform = ? AND g.workspace_id = ? AND g.status = 'finished' "
    "ORDER BY g.ended_at DESC, g.game_id LIMIT ?"
)
_LONGEST = (
    "SELECT r.best_word, g.game FROM results r JOIN games g ON g.game_id = r.game_id "
    "WHERE r.user_id = ? AND g.platform = ? AND g.workspace_id = ? AND g.status = 'finished' "
    "AND r.best_word <> '' ORDER BY length(r.best_word) DESC, r.best_word LIMIT ?"
)
_FINISHED = (
    "SELECT g.game_id, g.game, g.language, g.ended_at, g.seats, g.summary FROM games g "
    "WHERE g.platform = ? AND g.workspace_id = ? AND g.status = 'finished' "
    "AND EXISTS (SELECT 1 FROM game_actions a WHERE a.game_id = g.game_id) "
    "ORDER BY g.ended_at DESC, g.game_id LIMIT ?"
)
#: Game ids a query asks after at once (well under every database's limit of parameters).
_CHUNK = 200
_KEPT = (
    "SELECT g.game_id FROM games g WHERE g.platform = ? AND g.workspace_id = ? AND g.status = 'finished' "
    "AND g.game_id IN ({marks}) AND EXISTS (SELECT 1 FROM game_actions a WHERE a.game_id = g.game_id)"
)
#: One finished game, read as :data:`storage.gamelog.GAME_COLUMNS`.
_ONE_FINISHED = (
    "SELECT g.game_id, g.game, g.platform, g.workspace_id, g.channel_id, g.thread_id, g.options, "
    "g.seed, g.seats, g.host, g.names, g.added_words, g.banned_words, g.started_at, g.alive_at, g.language "
    "FROM games g WHERE g.game_id = ? AND g.platform = ? AND g.workspace_id = ? AND g.status = 'finished'"
)


class SQLBrowse:
    """:class:`BrowseStore` in SQL."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def turn_on(self, platform: str, workspace_id: str, now: float) -> str:
        """The workspace's token, minted now unless it has one (see :class:`BrowseStore`)."""
        async with self.db.write() as tx:
            await tx.execute(
                "INSERT INTO web_browse (platform, workspace_id, token, created_at) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (platform, workspace_id) DO NOTHING",
                (platform, workspace_id, secrets.token_urlsafe(24), float(now)),
            )
            rows = await tx.fetch(
                "SELECT token FROM web_browse WHERE platform = ? AND workspace_id = ?",
                (platform, workspace_id),
            )
        return str(rows[0][0])

    async def turn_off(self, platform: str, workspace_id: str) -> bool:
        """Forget the workspace's token (see :class:`BrowseStore`)."""
        async with self.db.write() as tx:
            changed = await tx.execute(PURGE_BROWSE[0], (platform, workspace_id))
        return changed > 0

    async def token(self, platform: str, workspace_id: str) -> str | None:
        """The workspace's token while its web is on."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT token FROM web_browse WHERE platform = ? AND workspace_id = ?",
                (platform, workspace_id),
            )
        return str(rows[0][0]) if rows else None

    async def workspace(self, token: str) -> tuple[str, str] | None:
        """(platform, workspace id) whose pages ``token`` opens, or None."""
        if not token or len(token) > 100:
            return None
        async with self.db.read() as tx:
            rows = await tx.fetch("SELECT platform, workspace_id FROM web_browse WHERE token = ?", (token,))
        return (str(rows[0][0]), str(rows[0][1])) if rows else None

    async def player(
        self, platform: str, workspace_id: str, user_id: str, *, recent: int = 10, words: int = 10
    ) -> PlayerPage | None:
        """A player's page: their all-time record per game (the scores ``stats`` reads), their
        longest best words and their last finished games (from ``results``)."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                "SELECT s.game, s.games, s.wins, s.points, s.best_word, COALESCE(p.display_name, s.user_id) "
                "FROM scores s LEFT JOIN players p ON p.platform = s.platform AND p.user_id = s.user_id "
                "WHERE s.platform = ? AND s.workspace_id = ? AND s.user_id = ? AND s.bucket = 'all' "
                "ORDER BY s.games DESC, s.game",
                (platform, workspace_id, user_id),
            )
            if not rows:
                return None
            played = await tx.fetch(_PLAYED, (user_id, platform, workspace_id, int(recent)))
            longest = await tx.fetch(_LONGEST, (user_id, platform, workspace_id, int(words) * 4))
        name = str(rows[0][5])
        tallies = tuple(
            GameTally(str(game), int(games), int(wins), int(points), str(best))
            for game, games, wins, points, best, _ in rows
            if game != ALL_GAMES
        )
        seen: dict[str, str] = {}
        for word, game in longest:
            seen.setdefault(str(word).lower(), str(game))
        best_words = tuple(list(seen.items())[: int(words)])
        return PlayerPage(
            user_id,
            name,
            tallies,
            best_words,
            tuple(
                PlayedGame(str(g), str(kind), str(lang), float(at), int(p), bool(won), str(w), bool(log))
                for g, kind, lang, at, p, won, w, log in played
            ),
        )

    async def finished_games(
        self, platform: str, workspace_id: str, *, limit: int = 50
    ) -> list[FinishedGame]:
        """The workspace's finished games whose logs are kept, newest first (voided ones never)."""
        async with self.db.read() as tx:
            rows = await tx.fetch(_FINISHED, (platform, workspace_id, int(limit)))
        return [
            FinishedGame(
                str(game_id),
                str(game),
                str(lang),
                float(ended),
                tuple(str(seat["name"]) for seat in json.loads(seats)),
                str(summary),
            )
            for game_id, game, lang, ended, seats, summary in rows
        ]

    async def finished_game(self, platform: str, workspace_id: str, game_id: str) -> StoredGame | None:
        """A finished game of the workspace with its log (see :class:`BrowseStore`)."""
        if len(game_id) > 100:
            return None
        async with self.db.read() as tx:
            games = await tx.fetch(_ONE_FINISHED, (game_id, platform, workspace_id))
            if not games:
                return None
            actions = await tx.fetch(
                "SELECT game_id, action FROM game_actions WHERE game_id = ? ORDER BY seq", (game_id,)
            )
        found = stored_games(games, actions)
        return found[0] if found and found[0].actions else None

    async def kept_logs(self, platform: str, workspace_id: str, game_ids: Sequence[str]) -> frozenset[str]:
        """Which of ``game_ids`` can be replayed (see :class:`BrowseStore`)."""
        wanted = [game_id for game_id in game_ids if len(game_id) <= 100]
        kept: set[str] = set()
        async with self.db.read() as tx:
            for at in range(0, len(wanted), _CHUNK):
                chunk = wanted[at : at + _CHUNK]
                marks = ", ".join("?" for _ in chunk)
                rows = await tx.fetch(self.db.sql(_KEPT, marks=marks), (platform, workspace_id, *chunk))
                kept.update(str(row[0]) for row in rows)
        return frozenset(kept)


__all__ = [
    "PURGE_BROWSE",
    "BrowseStore",
    "FinishedGame",
    "GameTally",
    "PlayedGame",
    "PlayerPage",
    "SQLBrowse",
    "browse_of",
]
