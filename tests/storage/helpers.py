"""Small builders shared by the storage tests."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import UTC, datetime

from storage.base import GameRecord, SeatRecord, SeatScore
from storage.sqlstore import SQLStore

PLATFORM = "test"
WS = "w1"
#: Wednesday 7 May 2025, noon UTC: the injected "now" of the period tests.
NOW = datetime(2025, 5, 7, 12, 0, tzinfo=UTC)


def record(
    game_id: str,
    players: Sequence[str] = ("u1", "u2"),
    *,
    game: str = "race",
    workspace: str = WS,
    bots: int = 0,
    started_at: float | None = None,
    names: Mapping[str, str] | None = None,
    language: str = "en",
) -> GameRecord:
    """A game record with people ``players`` (user ids) and ``bots`` computer players."""
    seats = [SeatRecord(f"{PLATFORM}:{user}", (names or {}).get(user, user.upper())) for user in players]
    seats += [SeatRecord(f"bot:{i + 1}", f"Bot {i + 1}", "normal") for i in range(bots)]
    return GameRecord(
        game_id=game_id,
        game=game,
        platform=PLATFORM,
        workspace_id=workspace,
        channel_id="c1",
        thread_id=None,
        options={"cards": 5},
        seed=42,
        seats=tuple(seats),
        started_at=NOW.timestamp() if started_at is None else started_at,
        host=seats[0].id if seats else "",
        names={seat.id: seat.name for seat in seats},
        language=language,
    )


def scores(
    points: Mapping[str, int], winners: Sequence[str] = (), best: Mapping[str, str] | None = None
) -> list[SeatScore]:
    """Seat scores keyed by user id (``bot:N`` stays as it is)."""
    out = []
    for user, value in points.items():
        seat = user if user.startswith("bot:") else f"{PLATFORM}:{user}"
        out.append(SeatScore(seat, value, user in winners, (best or {}).get(user, "")))
    return out


async def play(
    store: SQLStore,
    game_id: str,
    points: Mapping[str, int],
    *,
    at: datetime = NOW,
    game: str = "race",
    winners: Sequence[str] = (),
    best: Mapping[str, str] | None = None,
    workspace: str = WS,
    language: str = "en",
) -> bool:
    """Start and finish a game in one go (played in ``language``)."""
    people = [user for user in points if not user.startswith("bot:")]
    bots = sum(1 for user in points if user.startswith("bot:"))
    rec = record(
        game_id,
        people,
        game=game,
        workspace=workspace,
        bots=bots,
        started_at=at.timestamp() - 60,
        language=language,
    )
    await store.start_game(rec)
    return await store.finish_game(rec, scores(points, winners, best), at.timestamp(), "done")
