"""Property tests of ratings on the database: any history of games (ties, partners, computer
players, ends recorded out of order), season resets and forget-me, rated as it happens, is what a
rebuild arrives at, twice over; forget-me and purge leave no rating row."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.ratings import RATER
from storage import open_store
from storage.base import GameRecord, SeatRecord, SeatScore
from storage.sqlstore import SQLStore
from tests.storage.helpers import NOW

P, WS = "test", "w1"
PEOPLE = ("ann", "bob", "cy", "dee", "eli")


@dataclass(frozen=True)
class Played:
    people: tuple[str, ...]
    points: tuple[int, ...]
    bots: tuple[str, ...]  # computer players' levels
    teams: bool  # partners: seats 0 and 2, 1 and 3 (four seats)
    language: str
    early: bool  # its end is recorded before earlier-rated games' ends (another process was slow)


@dataclass(frozen=True)
class Reset:
    carry_now: bool  # the bot carries ratings over at once (else the next game does)


@dataclass(frozen=True)
class Forget:
    who: str


@st.composite
def played(draw: st.DrawFn) -> Played:
    teams = draw(st.booleans())
    if teams:
        people = tuple(draw(st.permutations(PEOPLE)))[: draw(st.sampled_from((2, 4)))]
        bots = tuple(draw(st.sampled_from(("easy", "normal", "hard"))) for _ in range(4 - len(people)))
        a, b = draw(st.integers(0, 5)), draw(st.integers(0, 5))
        points = (a, b, a, b)
    else:
        people = tuple(draw(st.lists(st.sampled_from(PEOPLE), min_size=1, max_size=4, unique=True)))
        bots = tuple(draw(st.lists(st.sampled_from(("easy", "normal", "hard")), max_size=2)))
        points = tuple(draw(st.integers(0, 4)) for _ in range(len(people) + len(bots)))
    return Played(people, points, bots, teams, draw(st.sampled_from(("en", "fr"))), draw(st.booleans()))


steps = st.lists(
    st.one_of(
        played(),
        played(),
        played(),
        st.builds(Reset, st.booleans()),
        st.builds(Forget, st.sampled_from(PEOPLE)),
    ),
    min_size=1,
    max_size=14,
)


async def play(store: SQLStore, n: int, game: Played) -> None:
    seats = [SeatRecord(f"{P}:{user}", user.title()) for user in game.people]
    seats += [SeatRecord(f"bot:{i + 1}", f"Bot {i + 1}", level) for i, level in enumerate(game.bots)]
    at = NOW.timestamp() + 60 * n - (3600 if game.early else 0)
    record = GameRecord(
        f"g{n:03}",
        "race",
        P,
        WS,
        "c1",
        None,
        {},
        1,
        tuple(seats),
        at - 30,
        seats[0].id,
        {},
        language=game.language,
    )
    top = max(game.points)
    scores = [
        SeatScore(seat.id, points, top > 0 and points == top, "", (i % 2) + 1 if game.teams else None)
        for i, (seat, points) in enumerate(zip(seats, game.points, strict=True))
    ]
    await store.start_game(record)
    await store.finish_game(record, scores, at, "done")


async def ratings(store: SQLStore, table: str = "ratings") -> list[tuple[object, ...]]:
    async with store.read() as tx:
        rows = await tx.fetch(f"SELECT * FROM {table}")
    return sorted((tuple(row) for row in rows), key=repr)


async def scenario(history: list[object]) -> None:
    store = open_store("sqlite:///:memory:")
    await store.open()
    try:
        for n, step in enumerate(history):
            if isinstance(step, Played):
                await play(store, n, step)
                await store.rate_game(f"g{n:03}", RATER)
            elif isinstance(step, Reset):
                await store.reset_season(P, WS, NOW)
                if step.carry_now:
                    await store.start_rating_seasons(P, WS, RATER)
            elif isinstance(step, Forget):
                await store.forget_player(P, WS, step.who)
                for table in ("ratings", "rating_changes", "season_ratings"):
                    async with store.read() as tx:
                        rows = await tx.fetch(f"SELECT 1 FROM {table} WHERE user_id = ?", (step.who,))
                    assert rows == [], f"forget-me left a row of {table}"
        await store.start_rating_seasons(P, WS, RATER)
        live = {t: await ratings(store, t) for t in ("ratings", "season_ratings")}
        live_changes = await ratings(store, "rating_changes")
        games = sum(isinstance(step, Played) for step in history)
        assert await store.rebuild_ratings(P, WS, RATER) == games
        rebuilt = {t: await ratings(store, t) for t in ("ratings", "season_ratings")}
        assert _numbers(rebuilt) == _numbers(live)  # the same numbers, bit for bit
        assert [c[:6] + c[7:] for c in await ratings(store, "rating_changes")] == [
            c[:6] + c[7:] for c in live_changes
        ]
        await store.rebuild_ratings(P, WS, RATER)
        assert _numbers({t: await ratings(store, t) for t in ("ratings", "season_ratings")}) == _numbers(live)
        await store.purge_workspace(P, WS)
        for table in ("ratings", "rating_changes", "season_ratings", "rating_events", "rating_state"):
            assert await ratings(store, table) == [], f"purge left a row of {table}"
    finally:
        await store.close()


def _numbers(tables: dict[str, list[tuple[object, ...]]]) -> dict[str, list[tuple[object, ...]]]:
    """The rows without the ratings' ``updated_at`` (when the row was written)."""
    return {t: [row[:-1] if t == "ratings" else row for row in rows] for t, rows in tables.items()}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_rating_as_games_end_is_what_a_rebuild_arrives_at(history: list[object]) -> None:
    asyncio.run(scenario(history))
