"""In-memory stand-ins for the services the Slack adapter runs on.

:class:`ScoreStore` is the slice of the project's Store that
:class:`~bot.features.workspace.Workspace` uses (settings, words, leaderboard, stats),
fed by :class:`ScoringLog`, a :class:`~tests.doubles.MemoryLog` that also adds
up the scores of finished games.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from bot.core.events import ChatKey
from bot.core.outbox import GameStart
from bot.core.registry import Registry
from bot.features.workspace import Workspace
from bot.hosting.host import Recovery
from bot.hosting.leases import KEEP_ALIVE
from bot.hosting.manager import GameManager
from games.common.protocol import Result
from tests.doubles import MemoryLog


@dataclass
class Row:
    rank: int
    display_name: str
    points: int
    games: int
    wins: int
    best_word: str = ""


@dataclass
class Stats:
    display_name: str
    games: int
    wins: int
    points: int
    best_word: str = ""


@dataclass
class ScoreStore:
    """Settings, word lists and scores, per (platform, workspace)."""

    settings: dict[tuple[str, str], dict[str, str]] = field(default_factory=dict)
    words: dict[tuple[str, str], tuple[set[str], set[str]]] = field(default_factory=dict)
    names: dict[tuple[str, str], str] = field(default_factory=dict)
    scores: dict[tuple[str, str, str], Stats] = field(default_factory=dict)  # (platform, ws, user)
    #: The same per language: (platform, ws, language, user).
    languages: dict[tuple[str, str, str, str], Stats] = field(default_factory=dict)
    deletions: dict[tuple[str, str], float] = field(default_factory=dict)  # pending: when due
    deliveries: set[str] = field(default_factory=set)  # commands and button presses handled
    purged: list[tuple[str, str]] = field(default_factory=list)

    async def first_delivery(self, event_key: str, at: float, prune_before: float | None = None) -> bool:
        fresh = event_key not in self.deliveries
        self.deliveries.add(event_key)
        return fresh

    async def upsert_workspace(self, platform: str, workspace_id: str) -> None:
        self.settings.setdefault((platform, workspace_id), {})

    async def upsert_player(self, platform: str, user_id: str, name: str) -> None:
        self.names[(platform, user_id)] = name

    async def word_lists(self, platform: str, workspace_id: str) -> tuple[set[str], set[str]]:
        return self.words.get((platform, workspace_id), (set(), set()))

    async def get_settings(self, platform: str, workspace_id: str) -> dict[str, str]:
        return dict(self.settings.get((platform, workspace_id), {}))

    async def set_setting(self, platform: str, workspace_id: str, key: str, value: str, by: str) -> None:
        self.settings.setdefault((platform, workspace_id), {})[key] = value

    async def leaderboard(
        self,
        platform: str,
        workspace_id: str,
        game: str | None,
        period: str,
        now: datetime,
        limit: int,
        language: str | None = None,
    ) -> list[Row]:
        if language is None:
            mine = [s for (p, w, _), s in self.scores.items() if (p, w) == (platform, workspace_id)]
        else:
            mine = [
                s
                for (p, w, lang, _), s in self.languages.items()
                if (p, w, lang) == (platform, workspace_id, language)
            ]
        mine.sort(key=lambda s: (-s.points, s.display_name))
        return [
            Row(i, s.display_name, s.points, s.games, s.wins, s.best_word)
            for i, s in enumerate(mine[:limit], start=1)
        ]

    async def player_stats(self, platform: str, workspace_id: str, user_id: str) -> Stats | None:
        return self.scores.get((platform, workspace_id, user_id))

    # the ratings slice (bot.features.rated): nothing is rated in memory

    async def player_ratings(self, platform: str, workspace_id: str, user_id: str) -> list[Any]:
        return []

    async def rating_board(
        self,
        platform: str,
        workspace_id: str,
        game: str,
        language: str,
        limit: int = 10,
        season: int | None = None,
    ) -> list[Any]:
        return []

    async def season_rating_games(
        self, platform: str, workspace_id: str, season: int
    ) -> list[tuple[str, str]]:
        return []

    async def start_rating_seasons(self, platform: str, workspace_id: str, rater: Any) -> None:
        return None

    # the privacy slice (bot.features.privacy)

    async def forget_player(self, platform: str, workspace_id: str, user_id: str) -> None:
        self.scores.pop((platform, workspace_id, user_id), None)
        self.languages = {
            k: v for k, v in self.languages.items() if (k[:2], k[3]) != ((platform, workspace_id), user_id)
        }
        if not any((p, u) == (platform, user_id) for p, _, u in self.scores):
            self.names.pop((platform, user_id), None)

    async def purge_workspace(self, platform: str, workspace_id: str) -> None:
        key = (platform, workspace_id)
        self.purged.append(key)
        self.settings.pop(key, None)
        self.words.pop(key, None)
        self.deletions.pop(key, None)
        self.scores = {k: v for k, v in self.scores.items() if k[:2] != key}
        self.languages = {k: v for k, v in self.languages.items() if k[:2] != key}

    async def player_games(self, platform: str, workspace_id: str, seat_id: str) -> list[tuple[str, None]]:
        return []

    async def open_lobbies(self) -> list[Any]:
        return []

    async def workspace_owner(self, platform: str, workspace_id: str) -> str | None:
        return None

    async def prune_game_logs(self, platform: str, workspace_id: str, before: float) -> int:
        return 0

    async def workspaces_with_logs(self, before: float) -> list[tuple[str, str]]:
        return []

    async def schedule_deletion(self, platform: str, workspace_id: str, due_at: float, reason: str) -> None:
        self.deletions[(platform, workspace_id)] = due_at

    async def cancel_deletion(self, platform: str, workspace_id: str) -> bool:
        return self.deletions.pop((platform, workspace_id), None) is not None

    async def due_deletions(self, now: float) -> list[tuple[str, str]]:
        return [key for key, due in self.deletions.items() if due <= now]

    def record(self, game: GameStart, result: Result) -> None:
        for seat, points in result.scores.items():
            platform, _, user = seat.partition(":")
            if platform == "bot":
                continue
            lang = str(game.options.get("language", "en"))
            for stats in (
                self.scores.setdefault(
                    (platform, game.chat.workspace_id, user), Stats(game.names.get(seat, user), 0, 0, 0)
                ),
                self.languages.setdefault(
                    (platform, game.chat.workspace_id, lang, user), Stats(game.names.get(seat, user), 0, 0, 0)
                ),
            ):
                stats.games += 1
                stats.points += points
                stats.wins += seat in result.winners


@dataclass
class ScoringLog(MemoryLog):
    """A memory game log that also records scores in a :class:`ScoreStore`."""

    store: ScoreStore = field(default_factory=ScoreStore)

    async def finish(self, game: GameStart, result: Result, at: float) -> bool:
        first = await super().finish(game, result, at)
        if first:
            self.store.record(game, result)
        return first


@dataclass
class FakeServices:
    """What :class:`bot.process.app.Services` gives an adapter, in memory."""

    registry: Registry
    store: ScoreStore = field(default_factory=ScoreStore)
    game_log: ScoringLog = field(init=False)
    workspace: Workspace = field(init=False)
    on_stop: list[Any] = field(default_factory=list)
    keep_alive: float = KEEP_ALIVE

    def __post_init__(self) -> None:
        self.game_log = ScoringLog(store=self.store)
        self.workspace = Workspace(self.store, self.registry)

    def router(self, manager: GameManager, platform: str, **options: Any) -> None:
        """One process: no routing."""
        return None

    async def recover(
        self, manager: GameManager, platform: str, mine: Callable[[ChatKey], bool] = lambda chat: True
    ) -> Recovery:
        log = self.game_log
        games: list[tuple[GameStart, Any]] = [
            (start, list(log.actions.get(gid, [])))
            for gid, start in log.started.items()
            if gid not in log.results and gid not in log.voided and start.chat.platform == platform
        ]
        return await manager.recover(games)
