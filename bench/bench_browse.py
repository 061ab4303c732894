"""Browsing a big workspace on the web: how long its pages take, on SQLite (and
PostgreSQL if configured), served by a real aiohttp server on 127.0.0.1 and fetched over HTTP.

Data (bench/bench_ratings.py's generators, loaded in bulk):

- ``results``: 1,000,000 result rows (250,000 finished four-seat games among 60 players) in the
  measured workspace ``w0``, with its players' all-time scores, and logs kept for its last
  ``--logged`` games (retention prunes older ones);
- ``boards``: 1,000,000 all-time score rows and 1,000,000 rating rows over 200 workspaces (5,000
  players each): the leaderboard pages are of one of them.

Measured, each ``--requests`` times (ms: median, p95, max): the leaderboard page by points (top
50) and by rating, a player's page (record per game, ratings, best words, recent games among
their ~16,700 results), and the finished games' list.

Run: ``PYTHONPATH=. python bench/bench_browse.py [--results N] [--rows N] [--sqlite-only]``
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
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
from aiohttp import web

from adapters.web.browse import BrowseServer
from bench.bench_ratings import NOW, PLAYERS, WS, P, bulk_boards, bulk_history
from bot.core.clock import SystemClock
from bot.core.registry import load_default
from storage.sqlstore import SQLStore


def ms(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "median": round(statistics.median(ordered) * 1000, 2),
        "p95": round(ordered[int(len(ordered) * 0.95) - 1] * 1000, 2),
        "max": round(ordered[-1] * 1000, 2),
    }


async def load(store: SQLStore, results: int, rows: int, logged: int) -> dict[str, Any]:
    started = time.perf_counter()
    games = await bulk_history(store, results, random.Random(5))
    async with store.write() as tx:
        # the measured workspace's players' all-time scores, as finish_game adds them up
        totals = await tx.fetch(
            "SELECT r.user_id, SUM(r.points), COUNT(*), SUM(r.won) FROM results r "
            "JOIN games g ON g.game_id = r.game_id WHERE g.platform = ? AND g.workspace_id = ? "
            "GROUP BY r.user_id",
            (P, WS),
        )
        await tx.executemany(
            "INSERT INTO scores (platform, workspace_id, game, bucket, user_id, points, games, wins, "
            "best_word) VALUES (?, ?, ?, 'all', ?, ?, ?, ?, '')",
            [(P, WS, game, u, int(p), int(n), int(w)) for u, p, n, w in totals for game in ("race", "*")],
        )
        await tx.executemany(
            "INSERT INTO players (platform, user_id, display_name, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            [(P, f"p{u}", f"Player {u}", NOW) for u in range(PLAYERS)],
        )
        await tx.executemany(
            'INSERT INTO game_actions (game_id, seq, action) VALUES (?, 0, \'{"kind":"begin","now":1}\')',
            [(f"h{n:06}",) for n in range(games - logged, games)],
        )
    await bulk_boards(store, rows)
    return {
        "games": games,
        "results": results,
        "score_and_rating_rows": rows,
        "load_s": round(time.perf_counter() - started, 1),
    }


async def measure(store: SQLStore, args: argparse.Namespace) -> dict[str, Any]:
    await store.open()
    try:
        out: dict[str, Any] = {"data": await load(store, args.results, args.rows, args.logged)}
        big = await store.browse.turn_on(P, "b0", NOW)  # 5,000 players among 1,000,000 score rows
        history = await store.browse.turn_on(P, WS, NOW)  # 1,000,000 results
        app = web.Application()
        server = BrowseServer(store, load_default(), SystemClock())
        server.rate = 1e9  # (one address asks for every page, one after another)
        server.add_routes(app)
        runner = web.AppRunner(app, access_log=None)
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        port = runner.addresses[0][1]
        pages = {
            "leaderboard_points_top50": f"/w/{big}/?game=race&period=all",
            "leaderboard_rating_top50": f"/w/{big}/?by=rating&game=race&lang=en",
            "leaderboard_all_games_of_1M_results": f"/w/{history}/",
            "player_page_16k_results": f"/w/{history}/p/p1",
            "finished_games_list": f"/w/{history}/games",
        }
        try:
            async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as client:
                for name, path in pages.items():
                    samples = []
                    for _ in range(args.requests):
                        started = time.perf_counter()
                        async with client.get(path) as response:
                            body = await response.read()
                        samples.append(time.perf_counter() - started)
                        assert response.status == 200, (name, response.status, body[:200])
                    out[name] = {**ms(samples), "bytes": len(body)}
        finally:
            await runner.cleanup()
        return out
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--results", type=int, default=1_000_000, help="result rows in the measured workspace"
    )
    parser.add_argument("--rows", type=int, default=1_000_000, help="score rows and rating rows")
    parser.add_argument("--logged", type=int, default=2_000, help="latest games whose logs are kept")
    parser.add_argument("--requests", type=int, default=25, help="requests per page")
    parser.add_argument("--sqlite-only", action="store_true")
    args = parser.parse_args()
    from storage.sqlite import SQLiteStore

    report: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        report["sqlite"] = await measure(SQLiteStore(Path(tmp) / "bench.db"), args)
    url = os.environ.get("MOJI_TEST_POSTGRES_URL", "")
    if url and not args.sqlite_only:
        import asyncpg

        from storage.postgres import PostgresStore

        schema = f"bench_{secrets.token_hex(4)}"
        conn = await asyncpg.connect(url)
        try:
            await conn.execute(f"CREATE SCHEMA {schema}")
            report["postgres"] = await measure(PostgresStore(url, schema=schema), args)
        finally:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
            await conn.close()
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    asyncio.run(main())
