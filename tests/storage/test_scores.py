"""Game ends, leaderboards, stats and seasons, on every backend."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from storage.sqlstore import SQLStore
from tests.storage.helpers import NOW, PLATFORM, WS, play, record, scores


async def test_a_game_end_is_recorded_exactly_once(store: SQLStore) -> None:
    rec = record("g1", ["u1", "u2"])
    await store.start_game(rec)
    result = scores({"u1": 10, "u2": 4}, winners=["u1"])
    assert await store.finish_game(rec, result, NOW.timestamp()) is True
    assert await store.finish_game(rec, result, NOW.timestamp()) is False
    assert await store.void_game("g1", "too late") is False
    rows = await store.leaderboard(PLATFORM, WS, "race", "all", NOW)
    assert [(r.user_id, r.points, r.games, r.wins) for r in rows] == [("u1", 10, 1, 1), ("u2", 4, 1, 0)]
    assert await store.game_status("g1") == "finished"


async def test_concurrent_finishes_of_one_game_count_once(store: SQLStore) -> None:
    rec = record("g1", ["u1"])
    await store.start_game(rec)
    outcomes = await asyncio.gather(
        *(store.finish_game(rec, scores({"u1": 7}), NOW.timestamp()) for _ in range(8))
    )
    assert sorted(outcomes) == [False] * 7 + [True]
    stats = await store.player_stats(PLATFORM, WS, "u1")
    assert stats is not None and (stats.games, stats.points) == (1, 7)


async def test_finish_without_a_recorded_start_still_counts(store: SQLStore) -> None:
    rec = record("g1", ["u1"])
    assert await store.finish_game(rec, scores({"u1": 2}), NOW.timestamp()) is True
    assert await store.finish_game(rec, scores({"u1": 2}), NOW.timestamp()) is False


async def test_a_voided_game_never_counts(store: SQLStore) -> None:
    rec = record("g1", ["u1"])
    await store.start_game(rec)
    assert await store.void_game("g1", "stopped by Ann", NOW.timestamp()) is True
    assert await store.void_game("g1", "again") is False
    assert await store.finish_game(rec, scores({"u1": 9}), NOW.timestamp()) is False
    assert await store.leaderboard(PLATFORM, WS, None, "all", NOW) == []
    assert await store.game_status("g1") == "void"


async def test_computer_players_never_reach_the_leaderboard(store: SQLStore) -> None:
    await play(store, "g1", {"u1": 3, "bot:1": 50, "bot:2": 40}, winners=["bot:1"])
    rows = await store.leaderboard(PLATFORM, WS, None, "all", NOW)
    assert [(r.user_id, r.points, r.wins) for r in rows] == [("u1", 3, 0)]


async def test_leaderboard_periods_follow_the_injected_now(store: SQLStore) -> None:
    # NOW is Wednesday 2025-05-07 12:00 UTC
    await play(store, "today", {"u1": 1}, at=NOW - timedelta(hours=2))
    await play(store, "monday", {"u2": 2}, at=datetime(2025, 5, 5, 0, 0, 1, tzinfo=UTC))
    await play(store, "last-sunday", {"u3": 4}, at=datetime(2025, 5, 4, 23, 59, tzinfo=UTC))
    await play(store, "april", {"u4": 8}, at=datetime(2025, 4, 30, 23, 59, tzinfo=UTC))
    await play(store, "last-year", {"u5": 16}, at=datetime(2024, 5, 7, 12, tzinfo=UTC))

    async def board(period: str, now: datetime = NOW) -> list[str]:
        return [r.user_id for r in await store.leaderboard(PLATFORM, WS, None, period, now, 10)]

    assert await board("day") == ["u1"]
    assert await board("week") == ["u2", "u1"]
    assert await board("month") == ["u3", "u2", "u1"]
    assert await board("season") == ["u5", "u4", "u3", "u2", "u1"]
    assert await board("all") == ["u5", "u4", "u3", "u2", "u1"]
    assert await board("month", datetime(2025, 4, 15, tzinfo=UTC)) == ["u4"]
    assert await board("day", datetime(2025, 6, 1, tzinfo=UTC)) == []


async def test_periods_use_the_workspace_time_zone(store: SQLStore) -> None:
    await store.set_setting(PLATFORM, WS, "timezone", "Asia/Tokyo", "admin")
    # 2025-05-06 20:00 UTC is already 05:00 on the 7th in Tokyo
    await play(store, "g1", {"u1": 1}, at=datetime(2025, 5, 6, 20, tzinfo=UTC))
    assert [r.user_id for r in await store.leaderboard(PLATFORM, WS, None, "day", NOW)] == ["u1"]
    await play(store, "g2", {"u1": 1}, at=datetime(2025, 5, 6, 20, tzinfo=UTC), workspace="utc")
    assert await store.leaderboard(PLATFORM, "utc", None, "day", NOW) == []


async def test_leaderboard_per_game_ranks_and_best_words(store: SQLStore) -> None:
    await play(
        store, "g1", {"u1": 10, "u2": 10, "u3": 5}, winners=["u1"], best={"u1": "quiz", "u2": "zebras"}
    )
    await play(store, "g2", {"u3": 5}, best={"u3": "abc"})
    await play(store, "g3", {"u1": 1, "u4": 30}, game="dice", best={"u1": "longest", "u4": "ox"})
    race = await store.leaderboard(PLATFORM, WS, "race", "all", NOW)
    assert [(r.rank, r.user_id, r.points) for r in race] == [(1, "u1", 10), (1, "u2", 10), (1, "u3", 10)]
    assert [r.best_word for r in race] == ["quiz", "zebras", "abc"]
    assert [r.games for r in race] == [1, 1, 2]
    every = await store.leaderboard(PLATFORM, WS, None, "all", NOW)
    assert [(r.rank, r.user_id, r.points) for r in every] == [
        (1, "u4", 30),
        (2, "u1", 11),
        (3, "u2", 10),
        (3, "u3", 10),
    ]
    assert every[1].best_word == "longest"
    assert [r.user_id for r in await store.leaderboard(PLATFORM, WS, None, "all", NOW, limit=2)] == [
        "u4",
        "u1",
    ]
    assert await store.leaderboard(PLATFORM, "other", None, "all", NOW) == []
    assert await store.leaderboard(PLATFORM, WS, "shed", "all", NOW) == []


async def test_best_word_is_the_longest_and_the_first_found_on_a_tie(store: SQLStore) -> None:
    await play(store, "g1", {"u1": 1}, best={"u1": "cat"})
    await play(store, "g2", {"u1": 1}, best={"u1": "dog"})
    await play(store, "g3", {"u1": 1}, best={"u1": "horse"})
    await play(store, "g4", {"u1": 1}, best={"u1": ""})
    stats = await store.player_stats(PLATFORM, WS, "u1")
    assert stats is not None and stats.best_word == "horse"


async def test_player_stats(store: SQLStore) -> None:
    assert await store.player_stats(PLATFORM, WS, "u1") is None
    await play(store, "g1", {"u1": 10, "u2": 3}, winners=["u1"])
    await play(store, "g2", {"u1": 2, "u2": 8}, winners=["u2"], game="dice")
    await play(store, "g3", {"u1": 5}, winners=["u1"], workspace="elsewhere")
    stats = await store.player_stats(PLATFORM, WS, "u1")
    assert stats is not None
    assert (stats.games, stats.wins, stats.points, stats.display_name) == (2, 1, 12, "U1")


async def test_season_reset_archives_the_season(store: SQLStore) -> None:
    await play(store, "g1", {"u1": 10, "u2": 3})
    first = await store.seasons(PLATFORM, WS)
    assert [(s.number, s.ended_at) for s in first] == [(1, None)]
    new = await store.reset_season(PLATFORM, WS, NOW)
    assert (new.number, new.started_at) == (2, NOW.timestamp())
    assert await store.leaderboard(PLATFORM, WS, None, "season", NOW) == []
    await play(store, "g2", {"u2": 1})
    assert [r.user_id for r in await store.leaderboard(PLATFORM, WS, None, "season", NOW)] == ["u2"]
    assert [r.user_id for r in await store.leaderboard(PLATFORM, WS, None, "all", NOW)] == ["u1", "u2"]
    archived = await store.season_leaderboard(PLATFORM, WS, None, 1)
    assert [(r.user_id, r.points) for r in archived] == [("u1", 10), ("u2", 3)]
    seasons = await store.seasons(PLATFORM, WS)
    assert [(s.number, s.ended_at) for s in seasons] == [(1, NOW.timestamp()), (2, None)]


async def test_many_concurrent_game_ends_all_land(store: SQLStore) -> None:
    ends = [play(store, f"g{i}", {f"u{i % 7}": 1, f"u{(i + 1) % 7}": 2}) for i in range(120)]
    assert all(await asyncio.gather(*ends))
    rows = await store.leaderboard(PLATFORM, WS, None, "all", NOW, 20)
    assert sum(r.games for r in rows) == 240
    assert sum(r.points for r in rows) == 360
