"""Ratings: rating a finished game, rebuilding a workspace's ratings, and the leaderboard by
rating against the one by points, on SQLite (and PostgreSQL if configured).

Prints JSON. Figures (docs/PERFORMANCE.md):

- ``rate_game``: one finished four-seat game rated (its own transaction, after ``finish_game``),
  in a workspace whose players are already rated; and the model alone (``RATER.rate``);
- ``rebuild``: every rating of a workspace recomputed from 100,000 stored results (25,000 games
  of four seats among 60 players, with a season reset half-way), one transaction;
- ``boards``: a top-10 of one workspace by rating (``ratings``) and by points (``scores``, all
  time), each table holding 1,000,000 rows over 200 workspaces, loaded in bulk.

PostgreSQL runs when ``MOJI_TEST_POSTGRES_URL`` is set and ``--sqlite-only`` is not given;
``--rows``, ``--results`` and ``--games`` change the sizes.

Run: ``.venv/bin/python bench/bench_ratings.py``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.core.ratings import RATER
from storage.base import GameRecord, SeatRecord, SeatScore
from storage.rating_records import RatedGame, RatedSeat, Skill
from storage.sqlstore import SQLStore

P = "bench"
WS = "w0"
PLAYERS = 60
WORKSPACES = 200
BOARD_QUERIES = 300
NOW = datetime(2026, 5, 7, 12, 0, tzinfo=UTC).timestamp()


def ms(samples: list[float]) -> dict[str, float]:
    """p50 and p99 of samples in seconds, as milliseconds."""
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return {"p50_ms": round(statistics.median(ordered) * 1000, 3), "p99_ms": round(p99 * 1000, 3)}


def record(game_id: str, people: list[str], at: float, workspace: str = WS) -> GameRecord:
    seats = tuple(SeatRecord(f"{P}:{user}", user) for user in people)
    return GameRecord(game_id, "race", P, workspace, "c1", None, {}, 1, seats, at - 60, seats[0].id, {})


def scores(people: list[str], rng: random.Random) -> list[SeatScore]:
    points = [rng.randint(0, 12) for _ in people]
    top = max(points)
    return [SeatScore(f"{P}:{u}", p, p == top and top > 0) for u, p in zip(people, points, strict=True)]


async def bulk_history(store: SQLStore, results: int, rng: random.Random) -> int:
    """Finished games of four seats (``results`` result rows) in the measured workspace, with their
    rating order, written in bulk as ``finish_game`` and ``rate_game`` would leave them."""
    games = results // 4
    await store.upsert_workspace(P, WS)
    game_rows, result_rows, events = [], [], []
    for n in range(games):
        people = rng.sample(range(PLAYERS), 4)
        game_id = f"h{n:06}"
        seats = json.dumps([{"id": f"{P}:p{u}", "name": f"p{u}", "bot": None} for u in people])
        at = NOW - 86400 * 30 + n
        game_rows.append(
            (game_id, "race", P, WS, "c1", "{}", "1", seats, f"{P}:p{people[0]}", "{}", at - 60, at)
        )
        points = [rng.randint(0, 12) for _ in people]
        top = max(points)
        for u, p in zip(people, points, strict=True):
            result_rows.append((game_id, f"{P}:p{u}", f"p{u}", p, int(p == top and top > 0)))
        events.append((P, WS, n + 1, game_id, None))
    async with store.write() as tx:
        await tx.executemany(
            "INSERT INTO games (game_id, game, platform, workspace_id, channel_id, options, seed, seats, "
            "host, names, added_words, banned_words, status, started_at, ended_at, language) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, '[]', '[]', 'finished', ?, ?, 'en')",
            game_rows,
        )
        await tx.executemany(
            "INSERT INTO results (game_id, seat_id, user_id, points, won, best_word) "
            "VALUES (?, ?, ?, ?, ?, '')",
            result_rows,
        )
        await tx.executemany(
            "INSERT INTO rating_events (platform, workspace_id, seq, game_id, season) VALUES (?, ?, ?, ?, ?)",
            events,
        )
    return games


async def bench_rebuild(store: SQLStore, results: int) -> dict[str, Any]:
    rng = random.Random(3)
    games = await bulk_history(store, results, rng)
    started = time.perf_counter()
    rated = await store.rebuild_ratings(P, WS, RATER)
    first = time.perf_counter() - started
    await store.reset_season(P, WS, datetime.fromtimestamp(NOW, UTC))
    started = time.perf_counter()
    await store.rebuild_ratings(P, WS, RATER)
    second = time.perf_counter() - started
    assert rated == games
    return {
        "results": games * 4,
        "games": games,
        "seconds": round(first, 2),
        "with_a_season_s": round(second, 2),
    }


async def bench_rate(store: SQLStore, games: int) -> dict[str, Any]:
    """Rate ``games`` four-seat games as they end, in the (already rated) workspace."""
    rng = random.Random(5)
    finish: list[float] = []
    rate: list[float] = []
    for n in range(games):
        people = [f"p{u}" for u in rng.sample(range(PLAYERS), 4)]
        rec = record(f"live{n:05}", people, NOW + n)
        await store.start_game(rec)
        started = time.perf_counter()
        await store.finish_game(rec, scores(people, rng), NOW + n, "done")
        finish.append(time.perf_counter() - started)
        started = time.perf_counter()
        changes = await store.rate_game(rec.game_id, RATER)
        rate.append(time.perf_counter() - started)
        assert len(changes) == 4
    return {"games": games, "finish_game": ms(finish), "rate_game": ms(rate)}


def bench_model(rounds: int = 5_000) -> dict[str, Any]:
    rng = random.Random(7)
    samples = []
    for _ in range(rounds):
        seats = tuple(RatedSeat(f"t:{i}", str(i), None, rng.randint(0, 9), i == 0) for i in range(4))
        before = {s.seat_id: Skill(rng.uniform(15, 35), rng.uniform(1, 8)) for s in seats}
        started = time.perf_counter()
        RATER.rate(RatedGame("g", "race", "en", seats), before)
        samples.append(time.perf_counter() - started)
    return {"four_seats": ms(samples)}


async def bulk_boards(store: SQLStore, rows: int) -> None:
    """``rows`` rating rows and ``rows`` all-time score rows over :data:`WORKSPACES` workspaces."""
    rng = random.Random(11)
    per = rows // WORKSPACES
    for w in range(WORKSPACES):
        workspace = f"b{w}"
        ratings = [
            (
                P,
                workspace,
                "race",
                "en",
                f"u{i}",
                25.0,
                5.0,
                rng.uniform(600, 2000),
                rng.randint(1, 90),
                1,
                NOW,
            )
            for i in range(per)
        ]
        points = [(P, workspace, "race", "all", f"u{i}", rng.randint(0, 5000), 10, 3, "") for i in range(per)]
        async with store.write() as tx:
            await tx.execute(
                "INSERT INTO workspaces (platform, workspace_id, created_at, season, season_started_at) "
                "VALUES (?, ?, ?, 1, ?) ON CONFLICT DO NOTHING",
                (P, workspace, NOW, NOW),
            )
            await tx.executemany(
                "INSERT INTO ratings (platform, workspace_id, game, language, user_id, mu, sigma, rating, "
                "games, wins, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                ratings,
            )
            await tx.executemany(
                "INSERT INTO scores (platform, workspace_id, game, bucket, user_id, points, games, wins, "
                "best_word) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                points,
            )


async def bench_boards(store: SQLStore, rows: int) -> dict[str, Any]:
    await bulk_boards(store, rows)
    by_rating: list[float] = []
    by_points: list[float] = []
    now = datetime.fromtimestamp(NOW, UTC)
    for n in range(BOARD_QUERIES):
        workspace = f"b{n % WORKSPACES}"
        started = time.perf_counter()
        top = await store.rating_board(P, workspace, "race", "en", 10)
        by_rating.append(time.perf_counter() - started)
        started = time.perf_counter()
        board = await store.leaderboard(P, workspace, "race", "all", now, 10)
        by_points.append(time.perf_counter() - started)
        assert len(top) == 10 and len(board) == 10
    return {"rows_each": rows, "top10_by_rating": ms(by_rating), "top10_by_points": ms(by_points)}


async def run(store: SQLStore, args: argparse.Namespace) -> dict[str, Any]:
    await store.open()
    try:
        out: dict[str, Any] = {"rebuild": await bench_rebuild(store, args.results)}
        out["rating"] = await bench_rate(store, args.games)
        out["boards"] = await bench_boards(store, args.rows)
        return out
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000, help="rows in ratings and in scores")
    parser.add_argument("--results", type=int, default=100_000, help="stored results to rebuild from")
    parser.add_argument("--games", type=int, default=300, help="games rated as they end")
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    report: dict[str, Any] = {"model": bench_model()}
    from storage.sqlite import SQLiteStore

    with tempfile.TemporaryDirectory() as tmp:
        report["sqlite"] = await run(SQLiteStore(Path(tmp) / "bench.db"), args)
    url = os.environ.get("MOJI_TEST_POSTGRES_URL", "")
    if url and not args.sqlite_only:
        import asyncpg

        from storage.postgres import PostgresStore

        schema = f"bench_{secrets.token_hex(4)}"
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f"CREATE SCHEMA {schema}")
            report["postgres"] = await run(PostgresStore(url, schema=schema), args)
        finally:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
            await conn.close()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
