"""Ratings on the database (storage/ratings.py), on SQLite and PostgreSQL."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest

from bot.core.ratings import RATER, shown
from storage.base import SeatScore
from storage.ratings import Skill
from storage.sqlstore import SQLStore
from tests.storage.conftest import Factory
from tests.storage.helpers import NOW, PLATFORM, WS, play, record

pytestmark = pytest.mark.asyncio


async def ratings_of(
    store: SQLStore, workspace: str = WS
) -> dict[tuple[str, str, str], tuple[float, float, int]]:
    async with store.read() as tx:
        rows = await tx.fetch(
            "SELECT game, language, user_id, mu, sigma, games FROM ratings WHERE workspace_id = ?",
            (workspace,),
        )
    return {(r[0], r[1], r[2]): (float(r[3]), float(r[4]), int(r[5])) for r in rows}


async def test_a_finished_game_is_rated_once_and_says_what_changed(store: SQLStore) -> None:
    await play(store, "g1", {"ann": 9, "bob": 3}, winners=["ann"])
    changes = await store.rate_game("g1", RATER)
    assert [(c.user_id, round(c.before), c.won) for c in changes] == [
        ("ann", 1000, True),
        ("bob", 1000, False),
    ]
    assert changes[0].after > 1000 > changes[1].after
    assert changes[0].beaten == pytest.approx(1000.0) and changes[1].beaten is None
    first = await ratings_of(store)
    assert await store.rate_game("g1", RATER) == changes  # exactly once: the same answer
    assert await ratings_of(store) == first
    assert await store.game_rating_changes("g1") == changes
    board = await store.rating_board(PLATFORM, WS, "race", "en")
    assert [(row.rank, row.user_id, row.games, row.wins) for row in board] == [
        (1, "ann", 1, 1),
        (2, "bob", 1, 0),
    ]


async def test_a_voided_or_running_game_never_counts(store: SQLStore) -> None:
    rec = record("g1", ["ann", "bob"])
    await store.start_game(rec)
    assert await store.rate_game("g1", RATER) == []
    await store.void_game("g1", "stopped by a player")
    assert await store.rate_game("g1", RATER) == []
    assert await store.rate_game("nope", RATER) == []
    assert await ratings_of(store) == {}
    assert await store.rebuild_ratings(PLATFORM, WS, RATER) == 0
    assert await ratings_of(store) == {}


async def test_ratings_are_per_game_and_language_and_computers_stay_fixed(store: SQLStore) -> None:
    await play(store, "g1", {"ann": 9, "bot:1": 3}, winners=["ann"])
    await play(
        store, "g2", {"ann": 9, "bob": 3}, winners=["ann"], language="fr", at=NOW + timedelta(minutes=5)
    )
    await play(store, "g3", {"ann": 1, "bob": 3}, winners=["bob"], game="dice", at=NOW + timedelta(minutes=9))
    for game_id in ("g1", "g2", "g3"):
        await store.rate_game(game_id, RATER)
    found = await ratings_of(store)
    assert set(found) == {
        ("race", "en", "ann"),
        ("race", "fr", "ann"),
        ("race", "fr", "bob"),
        ("dice", "en", "ann"),
        ("dice", "en", "bob"),
    }
    mine = await store.player_ratings(PLATFORM, WS, "ann")
    assert {(r.game, r.language) for r in mine} == {("race", "en"), ("race", "fr"), ("dice", "en")}
    race_en = next(r for r in mine if (r.game, r.language) == ("race", "en"))
    assert race_en.best_wins == (pytest.approx(shown(Skill(25.0, 1.0))),)  # the normal computer
    assert len(race_en.trend) == 1


async def test_partners_are_stored_and_rated_as_a_team(store: SQLStore) -> None:
    rec = record("g1", ["a", "b", "c", "d"])
    await store.start_game(rec)
    seats = [
        SeatScore(f"{PLATFORM}:{u}", p, w, "", t)
        for u, p, w, t in (("a", 8, True, 1), ("b", 3, False, 2), ("c", 8, True, 1), ("d", 3, False, 2))
    ]
    await store.finish_game(rec, seats, NOW.timestamp(), "done")
    changes = {c.user_id: c for c in await store.rate_game("g1", RATER)}
    assert changes["a"].after == changes["c"].after > changes["b"].after == changes["d"].after


async def test_rebuild_arrives_at_the_same_numbers_with_seasons(store: SQLStore) -> None:
    players = ["ann", "bob", "cy", "dee"]
    for n in range(12):
        at = NOW + timedelta(minutes=n)
        a, b = players[n % 4], players[(n * 3 + 1) % 4]
        if a == b:
            b = players[(n + 1) % 4]
        await play(store, f"g{n}", {a: 5 + n % 3, b: 4, "bot:1": 2}, winners=[a], at=at)
        await store.rate_game(f"g{n}", RATER)
        if n in (4, 8):
            await store.reset_season(PLATFORM, WS, at + timedelta(seconds=1))
            if n == 4:  # the bot carries ratings over at once; after 8, the next game does
                await store.start_rating_seasons(PLATFORM, WS, RATER)
    live = await ratings_of(store)
    live_seasons = await store.rating_board(PLATFORM, WS, "race", "en", season=1)
    changes = await store.game_rating_changes("g11")
    assert await store.rebuild_ratings(PLATFORM, WS, RATER) == 12
    assert await ratings_of(store) == live
    assert await store.rating_board(PLATFORM, WS, "race", "en", season=1) == live_seasons
    assert await store.season_rating_games(PLATFORM, WS, 2) == [("race", "en")]
    assert await store.game_rating_changes("g11") == changes


async def test_a_season_reset_is_soft_and_archived(store: SQLStore) -> None:
    await play(store, "g1", {"ann": 9, "bob": 3}, winners=["ann"])
    await store.rate_game("g1", RATER)
    before = await ratings_of(store)
    await store.reset_season(PLATFORM, WS, NOW + timedelta(minutes=1))
    await store.start_rating_seasons(PLATFORM, WS, RATER)
    after = await ratings_of(store)
    archived = await store.rating_board(PLATFORM, WS, "race", "en", season=1)
    assert [row.user_id for row in archived] == ["ann", "bob"]
    for key, (mu, sigma, games) in before.items():
        new_mu, new_sigma, new_games = after[key]
        assert new_mu - 25.0 == pytest.approx((mu - 25.0) / 2)
        assert new_sigma >= sigma and new_games == games  # not from zero, and not provisional again


async def test_forget_me_removes_a_players_ratings_and_a_rebuild_leaves_the_others(store: SQLStore) -> None:
    for n, (a, b) in enumerate((("ann", "bob"), ("bob", "cy"), ("ann", "cy"), ("cy", "bob"))):
        await play(store, f"g{n}", {a: 9, b: 2}, winners=[a], at=NOW + timedelta(minutes=n))
        await store.rate_game(f"g{n}", RATER)
    before = await ratings_of(store)
    await store.forget_player(PLATFORM, WS, "ann")
    for table in ("ratings", "rating_changes", "season_ratings"):
        async with store.read() as tx:
            assert await tx.fetch(f"SELECT 1 FROM {table} WHERE user_id = 'ann'") == []
    others = {k: v for k, v in before.items() if k[2] != "ann"}
    assert await ratings_of(store) == others
    await store.rebuild_ratings(PLATFORM, WS, RATER)
    assert await ratings_of(store) == others


async def test_purge_removes_every_rating_row(store: SQLStore) -> None:
    await play(store, "g1", {"ann": 9, "bob": 3}, winners=["ann"])
    await play(store, "g2", {"ann": 9, "bob": 3}, winners=["ann"], workspace="w2")
    for game_id in ("g1", "g2"):
        await store.rate_game(game_id, RATER)
    await store.reset_season(PLATFORM, WS, NOW + timedelta(minutes=1))
    await store.start_rating_seasons(PLATFORM, WS, RATER)
    await store.purge_workspace(PLATFORM, WS)
    for table in ("ratings", "rating_changes", "season_ratings", "rating_events", "rating_state"):
        async with store.read() as tx:
            assert await tx.fetch(f"SELECT 1 FROM {table} WHERE workspace_id = ?", (WS,)) == []
    assert set(await ratings_of(store, "w2")) == {("race", "en", "ann"), ("race", "en", "bob")}


async def test_two_processes_rating_at_once_take_turns(make_store: Factory) -> None:
    """Two stores on one database (two processes): games of one workspace rated at the same time
    get one order, and a game rated by both at once is rated once."""
    first, second = make_store(), make_store()
    await first.open()
    await second.open()
    for n in range(4):
        await play(first, f"g{n}", {"ann": 9, "bob": 3 + n}, winners=["ann"], at=NOW + timedelta(minutes=n))
    results = await asyncio.gather(
        first.rate_game("g0", RATER),
        second.rate_game("g1", RATER),
        first.rate_game("g2", RATER),
        second.rate_game("g2", RATER),
        second.rate_game("g3", RATER),
    )
    assert results[2] == results[3] and len(results[2]) == 2
    async with first.read() as tx:
        seqs = await tx.fetch(
            "SELECT seq, game_id FROM rating_events WHERE workspace_id = ? ORDER BY seq", (WS,)
        )
    assert [int(r[0]) for r in seqs] == [1, 2, 3, 4] and {r[1] for r in seqs} == {"g0", "g1", "g2", "g3"}
    live = await ratings_of(first)
    assert live[("race", "en", "ann")][2] == 4
    await first.rebuild_ratings(PLATFORM, WS, RATER)
    assert await ratings_of(first) == live


async def test_migration_0013_records_the_history_in_order_for_a_rebuild(store: SQLStore) -> None:
    """A database from before ratings: 0013 records its finished games (by their end) and its
    seasons (by their start) in order, rates nothing, and one rebuild rates that history."""
    await play(store, "late", {"ann": 9, "bob": 3}, winners=["ann"], at=NOW + timedelta(minutes=9))
    await play(store, "early", {"ann": 2, "bob": 8}, winners=["bob"], at=NOW)
    await store.start_game(record("void", ["ann", "bob"]))
    await store.void_game("void", "restart")
    await store.reset_season(PLATFORM, WS, NOW + timedelta(minutes=5))
    async with store.write() as tx:
        for table in ("ratings", "rating_changes", "season_ratings", "rating_events", "rating_state"):
            await tx.execute(f"DROP TABLE {table}")
        await tx.execute("ALTER TABLE results DROP COLUMN team")
        await tx.execute("DELETE FROM schema_version WHERE version = 13")
    assert await store.migrate() == [13]
    async with store.read() as tx:
        events = await tx.fetch(
            "SELECT seq, game_id, season FROM rating_events WHERE workspace_id = ? ORDER BY seq", (WS,)
        )
        state = await tx.fetch("SELECT seq, season FROM rating_state WHERE workspace_id = ?", (WS,))
    assert [tuple(r) for r in events] == [(1, "early", None), (2, None, 2), (3, "late", None)]
    assert [tuple(r) for r in state] == [(3, 2)]
    assert await ratings_of(store) == {}
    assert await store.rebuild_ratings(PLATFORM, WS, RATER) == 2
    assert [row.user_id for row in await store.rating_board(PLATFORM, WS, "race", "en", season=1)] == [
        "bob",
        "ann",
    ]
    assert set(await ratings_of(store)) == {("race", "en", "ann"), ("race", "en", "bob")}
