"""The daily's attempts in storage: once per person per day on every process, results, streaks,
the day's board, and forget-me and purge. Every test runs on SQLite and (with
``MOJI_TEST_POSTGRES_URL``) PostgreSQL."""

from __future__ import annotations

import asyncio

from storage.daily import previous_day
from storage.sqlstore import SQLStore
from tests.storage.conftest import Factory

P, WS, OTHER = "discord", "G1", "G2"
DAY = "2026-11-27"


async def test_a_second_attempt_the_same_day_gets_the_first(store: SQLStore) -> None:
    first = await store.daily.begin_daily(P, WS, "U1", DAY, "en", "game-a", 10.0)
    assert first.game_id == "game-a" and first.playing
    # the same person, another workspace of the platform (the same deal): still the first attempt
    again = await store.daily.begin_daily(P, OTHER, "U1", DAY, "en", "game-b", 20.0)
    assert again == first
    # the next day is a new attempt; another person is too
    assert (
        await store.daily.begin_daily(P, WS, "U1", "2026-11-28", "en", "game-c", 30.0)
    ).game_id == "game-c"
    assert (await store.daily.begin_daily(P, WS, "U2", DAY, "en", "game-d", 30.0)).game_id == "game-d"


async def test_two_processes_racing_to_start_get_one_attempt(make_store: Factory) -> None:
    one, two = make_store(), make_store()
    await one.open()
    await two.open()
    try:
        plays = await asyncio.gather(
            one.daily.begin_daily(P, WS, "U1", DAY, "en", "game-1", 1.0),
            two.daily.begin_daily(P, WS, "U1", DAY, "en", "game-2", 1.0),
        )
        assert plays[0] == plays[1] and plays[0].game_id in {"game-1", "game-2"}
    finally:
        await one.close()
        await two.close()


async def test_a_result_is_kept_once_and_streaks_count_consecutive_days(store: SQLStore) -> None:
    days = ["2026-11-24", "2026-11-25", "2026-11-27", "2026-11-28"]
    for i, day in enumerate(days):
        await store.daily.begin_daily(P, WS, "U1", day, "en", f"g{i}", 0.0)
        done = await store.daily.finish_daily(f"g{i}", 5 + i, 10 + i, 60.0, 1.0)
        assert done is not None and done.finished
    streaks = [(await store.daily.daily_play(P, "U1", day)).streak for day in days]  # type: ignore[union-attr]
    assert streaks == [1, 2, 1, 2]
    assert await store.daily.finish_daily("g3", 99, 99, 1.0, 2.0) is None, "a result is kept once"
    assert await store.daily.finish_daily("not-a-daily", 1, 1, 1.0, 2.0) is None


async def test_a_voided_daily_stays_played_and_breaks_the_streak(store: SQLStore) -> None:
    await store.daily.begin_daily(P, WS, "U1", "2026-11-26", "en", "g1", 0.0)
    await store.daily.finish_daily("g1", 4, 8, 30.0, 1.0)
    await store.daily.begin_daily(P, WS, "U1", DAY, "en", "g2", 0.0)
    voided = await store.daily.void_daily("g2", 1.0)
    assert voided is not None and not voided.playing and not voided.finished
    assert (await store.daily.begin_daily(P, WS, "U1", DAY, "en", "g3", 2.0)).game_id == "g2"
    assert not await store.daily.mark_daily_shared(P, "U1", DAY, 3.0), "nothing to share"
    await store.daily.begin_daily(P, WS, "U1", "2026-11-28", "en", "g4", 0.0)
    assert (await store.daily.finish_daily("g4", 2, 3, 30.0, 1.0)).streak == 1  # type: ignore[union-attr]


async def test_the_board_and_the_streaks_of_a_workspace(store: SQLStore) -> None:
    yesterday = previous_day(DAY)
    results = [("U1", 6, 12, 90.0), ("U2", 6, 12, 45.0), ("U3", 8, 9, 30.0)]
    for user, cards, points, secs in results:
        await store.daily.begin_daily(P, WS, user, yesterday, "en", f"y-{user}", 0.0)
        await store.daily.finish_daily(f"y-{user}", 1, 1, 10.0, 0.0)
        await store.daily.begin_daily(P, WS, user, DAY, "en", f"t-{user}", 0.0)
        await store.daily.finish_daily(f"t-{user}", cards, points, secs, 1.0)
    await store.daily.begin_daily(P, WS, "U4", DAY, "en", "t-U4", 0.0)  # still playing: not ranked
    await store.daily.begin_daily(P, OTHER, "U5", DAY, "en", "t-U5", 0.0)
    await store.daily.finish_daily("t-U5", 20, 40, 10.0, 1.0)  # another workspace's
    board = await store.daily.daily_board(P, WS, DAY, 10)
    assert [p.user_id for p in board] == ["U2", "U1", "U3"], "points, then cards, then the quickest"
    assert await store.daily.daily_streaks(P, WS, DAY, 10) == [("U1", 2), ("U2", 2), ("U3", 2)]
    # tomorrow the streaks are still current; the day after, they have lapsed
    tomorrow = "2026-11-28"
    assert len(await store.daily.daily_streaks(P, WS, tomorrow, 10)) == 3
    assert await store.daily.daily_streaks(P, WS, "2026-11-29", 10) == []
    assert await store.daily.mark_daily_shared(P, "U3", DAY, 2.0)
    assert (await store.daily.daily_play(P, "U3", DAY)).shared_at == 2.0  # type: ignore[union-attr]


async def test_forget_me_and_purge_take_the_attempts(store: SQLStore) -> None:
    await store.upsert_workspace(P, WS)
    await store.upsert_workspace(P, OTHER)
    for user, ws in (("U1", WS), ("U2", WS), ("U3", OTHER)):
        await store.daily.begin_daily(P, ws, user, DAY, "en", f"g-{user}", 0.0)
    await store.forget_player(P, WS, "U1")
    assert await store.daily.daily_play(P, "U1", DAY) is None
    assert await store.daily.daily_play(P, "U2", DAY) is not None
    await store.purge_workspace(P, WS)
    assert await store.daily.daily_play(P, "U2", DAY) is None
    assert await store.daily.daily_play(P, "U3", DAY) is not None
