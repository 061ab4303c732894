"""Where sessions send what they want shown, and where games are recorded."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from bot.core.events import ChatKey, MessageRef, Outbound, Player
from games.common.options import OptionValue
from games.common.protocol import Action, Result, Seat
from storage.ratings import RatingChange


class Outbox(Protocol):
    """An adapter's sending side."""

    async def send(self, message: Outbound) -> MessageRef | None:
        """Deliver one message; return a reference to a posted message, if any."""
        ...


@dataclass(frozen=True, slots=True)
class GameStart:
    """Everything needed to rebuild a game from its action log."""

    game_id: str
    game: str
    chat: ChatKey
    options: Mapping[str, OptionValue]
    seed: int
    seats: tuple[Seat, ...]
    started_at: float
    host: str = ""  # seat id of the host
    names: Mapping[str, str] = field(default_factory=dict)  # seat id -> display name
    #: The workspace's word lists when the game began: a replay must judge alike.
    added_words: frozenset[str] = frozenset()
    banned_words: frozenset[str] = frozenset()
    #: When the process running it was last known alive (read back after a restart).
    alive_at: float | None = None


@dataclass(frozen=True, slots=True)
class LobbyState:
    """An open lobby, as kept so a restart can reopen it with working buttons."""

    game_id: str
    game: str
    chat: ChatKey
    host: Player
    players: tuple[Player, ...]
    options: Mapping[str, OptionValue]
    seed: int
    deadline: float  # when the lobby times out (clock seconds)
    message_id: str | None = None  # the lobby message, to edit it again


class GameLog(Protocol):
    """Durable record of games: start, every action, the end."""

    async def lobby(self, state: LobbyState) -> None:
        """Record an open lobby (again after each join or leave)."""
        ...

    async def lobby_closed(self, game_id: str) -> None:
        """Forget a lobby: its game started, or it closed."""
        ...

    async def start(self, game: GameStart) -> None:
        """Record a game that has just begun (before its first action), and forget its lobby
        in the same write."""
        ...

    async def append(self, game_id: str, seq: int, action: Action) -> None:
        """Append action number ``seq`` (0, 1, 2…) to the game's log."""
        ...

    async def finish(self, game: GameStart, result: Result, at: float) -> bool:
        """Record the end and the scores, exactly once; False if already recorded."""
        ...

    async def void(self, game_id: str, reason: str) -> None:
        """Mark a game as void (stopped, crashed): its scores never count."""
        ...

    async def claim(self, chat: ChatKey, game_id: str, at: float) -> str | None:
        """Claim ``chat`` for a new game (one active game per chat, across every process):
        None when claimed, else the id of the game that holds it."""
        ...

    async def keep_alive(self, game_ids: Sequence[str], at: float) -> Sequence[str]:
        """This process still runs the games and lobbies ``game_ids`` at ``at``: their leases are
        renewed, and the running ones recorded alive (after a crash, their clocks are held still
        from the last such time to the restart). Returns those another process has taken over:
        they must be dropped at once."""
        ...

    async def adopt(self, game_id: str) -> bool:
        """Take over an active game or lobby (after a restart, or from a dead process): False
        while another live process runs it. Every later write of the game is fenced: it fails
        with :class:`~storage.errors.Fenced` once yet another process has taken it."""
        ...

    async def release(self, game_ids: Sequence[str]) -> None:
        """This process stops: another may adopt these games at once."""
        ...

    async def table(self, game_id: str, message_id: str) -> None:
        """The game's live table is now message ``message_id`` (a process adopting the game
        edits it instead of posting another)."""
        ...

    async def announced(self, game_id: str, at: float) -> None:
        """A finished game's result was posted in its channel (a restart won't post it again)."""
        ...

    async def rating_changes(self, game: GameStart) -> Sequence[RatingChange]:
        """What the finished game did to each person's rating (rating it first if it was not yet:
        exactly once by game id); none for a game that does not count or without a database."""
        ...

    async def skills(
        self, chat: ChatKey, game: str, language: str, seat_ids: Sequence[str]
    ) -> Mapping[str, float]:
        """The rated people's skill (the model's ``mu``) in ``game`` and ``language``, by seat id."""
        ...
