"""Test doubles for the bot core: a recording outbox and an in-memory game log.

The tests of every room and the benchmarks use them; nothing in the product does.
(:class:`~bot.core.clock.FakeClock` lives in ``bot.core.clock``: the product's clock is injected.)
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, field, replace

from bot.core.events import ChatKey, Edit, MessageRef, Outbound, Post, Private, React
from bot.core.outbox import GameStart, LobbyState
from games.common.protocol import Action, Result
from storage.errors import Fenced
from storage.leases import CLAIM_FRESH
from storage.ratings import RatingChange


class FakeOutbox:
    """Records every outbound message; posts get sequential message ids."""

    def __init__(self) -> None:
        self.sent: list[Outbound] = []
        self._ids = itertools.count(1)
        self.fail_next: Exception | None = None

    async def send(self, message: Outbound) -> MessageRef | None:
        if self.fail_next is not None:
            exc, self.fail_next = self.fail_next, None
            raise exc
        self.sent.append(message)
        if isinstance(message, Post):
            ref = MessageRef(message.chat, f"m{next(self._ids)}")
            if message.receipt is not None:
                message.receipt(ref)
            return ref
        return None

    def posts(self, chat: ChatKey | None = None) -> list[Post]:
        """Public posts (optionally in one chat)."""
        return [m for m in self.sent if isinstance(m, Post) and (chat is None or m.chat == chat)]

    def texts(self, chat: ChatKey | None = None) -> list[str]:
        """The plain text of every public post."""
        return [p.view.plain() for p in self.posts(chat)]

    def privates(self) -> list[Private]:
        """Private messages."""
        return [m for m in self.sent if isinstance(m, Private)]

    def reactions(self) -> list[React]:
        """Reactions."""
        return [m for m in self.sent if isinstance(m, React)]

    def edits(self) -> list[Edit]:
        """Edits."""
        return [m for m in self.sent if isinstance(m, Edit)]

    def clear(self) -> None:
        """Forget what was sent."""
        self.sent.clear()


@dataclass
class MemoryLog:
    """An in-memory :class:`~bot.core.outbox.GameLog`, with the same exactly-once rules."""

    started: dict[str, GameStart] = field(default_factory=dict)
    actions: dict[str, list[Action]] = field(default_factory=dict)
    results: dict[str, Result] = field(default_factory=dict)
    voided: dict[str, str] = field(default_factory=dict)
    lobbies: dict[str, LobbyState] = field(default_factory=dict)
    announcements: dict[str, float] = field(default_factory=dict)
    alive: dict[str, float] = field(default_factory=dict)
    claims: dict[ChatKey, tuple[str, float]] = field(default_factory=dict)
    #: Games "another process" took over: their writes fail with Fenced, keep_alive names them.
    taken: set[str] = field(default_factory=set)
    tables: dict[str, str] = field(default_factory=dict)
    released: list[str] = field(default_factory=list)

    def _fence(self, game_id: str) -> None:
        if game_id in self.taken:
            raise Fenced(f"game {game_id} is now run by another process")

    async def lobby(self, state: LobbyState) -> None:
        self._fence(state.game_id)
        self.lobbies[state.game_id] = state

    async def lobby_closed(self, game_id: str) -> None:
        self._fence(game_id)
        self.lobbies.pop(game_id, None)
        if game_id not in self.started:
            self.claims = {chat: held for chat, held in self.claims.items() if held[0] != game_id}

    async def start(self, game: GameStart) -> None:
        self._fence(game.game_id)
        self.lobbies.pop(game.game_id, None)
        self.started[game.game_id] = game
        self.actions.setdefault(game.game_id, [])

    async def append(self, game_id: str, seq: int, action: Action) -> None:
        self._fence(game_id)
        log = self.actions.setdefault(game_id, [])
        if seq < len(log):
            return  # already recorded (idempotent)
        if seq != len(log):
            raise ValueError(f"action {seq} of {game_id} arrived before action {len(log)}")
        log.append(action)

    async def finish(self, game: GameStart, result: Result, at: float) -> bool:
        self._fence(game.game_id)
        if game.game_id in self.results:
            return False
        self.results[game.game_id] = result
        return True

    async def void(self, game_id: str, reason: str) -> None:
        self._fence(game_id)
        self.voided[game_id] = reason

    def unfinished(self) -> list[tuple[GameStart, list[Action]]]:
        """The games a restart would resume, as :func:`bot.sessions.gamelog.load_unfinished` gives them."""
        return [
            (replace(start, alive_at=self.alive.get(game_id)), list(self.actions.get(game_id, ())))
            for game_id, start in self.started.items()
            if game_id not in self.results and game_id not in self.voided
        ]

    async def claim(self, chat: ChatKey, game_id: str, at: float) -> str | None:
        held = self.claims.get(chat)
        if held is not None and held[0] != game_id:
            holder, claimed_at = held
            running = holder in self.started and holder not in self.results and holder not in self.voided
            ended = holder in self.results or holder in self.voided
            if running or holder in self.lobbies or (not ended and at - claimed_at < CLAIM_FRESH):
                return holder
        self.claims[chat] = (game_id, at)
        return None

    async def keep_alive(self, game_ids: Sequence[str], at: float) -> list[str]:
        for game_id in game_ids:
            if game_id not in self.results and game_id not in self.voided and game_id not in self.taken:
                self.alive[game_id] = at
        return [game_id for game_id in game_ids if game_id in self.taken]

    async def adopt(self, game_id: str) -> bool:
        return game_id not in self.taken

    async def release(self, game_ids: Sequence[str]) -> None:
        self.released.extend(game_ids)

    async def table(self, game_id: str, message_id: str) -> None:
        self.tables[game_id] = message_id

    async def announced(self, game_id: str, at: float) -> None:
        self.announcements.setdefault(game_id, at)

    async def rating_changes(self, game: GameStart) -> list[RatingChange]:
        return []  # (nothing is rated without a database)

    async def skills(
        self, chat: ChatKey, game: str, language: str, seat_ids: Sequence[str]
    ) -> dict[str, float]:
        return {}


class Keyboard:
    """Lines typed into the terminal adapter, one at a time (``None``: end of input)."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue()

    def type(self, line: str | None) -> None:
        """Type one line (or end the input with None)."""
        self.queue.put_nowait(line)

    async def lines(self) -> AsyncIterator[str]:
        """The lines as the adapter reads them."""
        while (line := await self.queue.get()) is not None:
            yield line
