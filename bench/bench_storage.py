"""Storage latency: game-end writes and leaderboard reads, on SQLite (and PostgreSQL if configured).

Prints JSON. Budgets (issue 5): a game-end write (one transaction of UPSERTs,
four players) p99 ≤ 5 ms on SQLite; a top-10 leaderboard of one workspace
among 1,000,000 score rows p99 ≤ 10 ms.

The 1,000,000 score rows are loaded in bulk (the same rows game ends would
write: per player, game and period bucket) into 200 workspaces, so the
measured workspace holds 5,000 of them, plus 1,000 real game ends recorded
through ``finish_game``; as many rows per language go in ``language_scores``,
and one of the reads ranks one language only.

PostgreSQL runs when ``MOJI_TEST_POSTGRES_URL`` is set (``.ci/postgres.sh``);
``--rows N`` changes the table size, ``--sqlite-only`` skips PostgreSQL,
``--synchronous normal`` measures SQLite's faster, power-cut-unsafe mode.

Run: ``.venv/bin/python bench/bench_storage.py``
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

from storage.base import GameRecord, SeatRecord, SeatScore
from storage.periods import buckets
from storage.sqlstore import SQLStore

BUDGET_WRITE_P99_MS = 5.0
BUDGET_BOARD_P99_MS = 10.0
GAME_ENDS = 1_000
BOARD_QUERIES = 500
WORKSPACES = 200
PLATFORM = "bench"
NOW = datetime(2025, 5, 7, 12, tzinfo=UTC)
GAMES = ("race", "board", "dice", "paths", "shed")
LANGUAGES = ("en", "nl", "fr", "de", "es")


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summary(samples: list[float]) -> dict[str, float]:
    return {
        "p50_ms": round(statistics.median(samples), 3),
        "p99_ms": round(percentile(samples, 0.99), 3),
        "max_ms": round(max(samples), 3),
    }


async def load_rows(store: SQLStore, rows: int, rng: random.Random) -> int:
    """Bulk-insert ``rows`` score rows (10 per player: 5 buckets × the game and '*'), and as many
    rows per language (each player plays one language)."""
    keys = buckets(NOW)
    per_player = len(keys) * 2
    players = max(1, rows // per_player)
    batch: list[tuple[Any, ...]] = []
    by_language: list[tuple[Any, ...]] = []
    written = 0
    sql = (
        "INSERT INTO scores (platform, workspace_id, game, bucket, user_id, points, games, wins, best_word) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    language_sql = (
        "INSERT INTO language_scores (platform, workspace_id, game, language, bucket, user_id, points, "
        "games, wins, best_word) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    )
    for n in range(players):
        workspace = f"w{n % WORKSPACES}"
        user = f"u{n}"
        game = GAMES[n % len(GAMES)]
        language = LANGUAGES[(n // WORKSPACES) % len(LANGUAGES)]
        games = rng.randint(1, 300)
        points = rng.randint(0, 5000)
        for key in keys:
            for which in (game, "*"):
                row = (PLATFORM, workspace, which, key, user, points, games, games // 3, "word")
                batch.append(row)
                by_language.append((*row[:3], language, *row[3:]))
        if len(batch) >= 20_000:
            async with store._write() as tx:
                await tx.executemany(sql, batch)
                await tx.executemany(language_sql, by_language)
            written += len(batch)
            batch.clear()
            by_language.clear()
    if batch:
        async with store._write() as tx:
            await tx.executemany(sql, batch)
            await tx.executemany(language_sql, by_language)
        written += len(batch)
    async with store._write() as tx:
        await tx.executemany(
            "INSERT INTO players (platform, user_id, display_name, updated_at) VALUES (?, ?, ?, ?) "
            "ON CONFLICT DO NOTHING",
            [(PLATFORM, f"u{n}", f"Player {n}", 0.0) for n in range(players)],
        )
    return written


def game(i: int, rng: random.Random) -> tuple[GameRecord, list[SeatScore]]:
    users = rng.sample(range(5_000), 4)
    seats = tuple(SeatRecord(f"{PLATFORM}:u{u * WORKSPACES}", f"Player {u}") for u in users)
    record = GameRecord(
        game_id=f"bench-{i}",
        game="race",
        platform=PLATFORM,
        workspace_id="w0",
        channel_id="c1",
        thread_id=None,
        options={"cards": 5},
        seed=i,
        seats=seats,
        started_at=NOW.timestamp() - 300,
        names={seat.id: seat.name for seat in seats},
    )
    scores = [SeatScore(seat.id, rng.randint(0, 40), n == 0, "quixotic") for n, seat in enumerate(seats)]
    return record, scores


async def measure(store: SQLStore, rows: int) -> dict[str, Any]:
    rng = random.Random(7)
    await store.open()
    start = time.perf_counter()
    loaded = await load_rows(store, rows, rng)
    load_s = time.perf_counter() - start

    games = [game(i, rng) for i in range(GAME_ENDS)]
    for record, _ in games:
        await store.start_game(record)
    writes: list[float] = []
    for record, scores in games:
        t0 = time.perf_counter_ns()
        await store.finish_game(record, scores, NOW.timestamp())
        writes.append((time.perf_counter_ns() - t0) / 1e6)

    reads: dict[str, list[float]] = {}
    for period, which, spoken in (
        ("all", None, None),
        ("week", "race", None),
        ("day", None, None),
        ("all", "race", "fr"),
    ):
        samples: list[float] = []
        for _ in range(BOARD_QUERIES):
            t0 = time.perf_counter_ns()
            top = await store.leaderboard(PLATFORM, "w0", which, period, NOW, 10, language=spoken)
            samples.append((time.perf_counter_ns() - t0) / 1e6)
        assert len(top) == 10 or (spoken is not None and top)  # (a small --rows: few players per language)
        reads[f"{period}_{which or 'all_games'}" + (f"_{spoken}" if spoken else "")] = samples
    await store.close()
    board_p99 = max(percentile(samples, 0.99) for samples in reads.values())
    return {
        "score_rows": loaded + 10 * 4 * GAME_ENDS,
        "language_score_rows": loaded + 10 * 4 * GAME_ENDS,
        "load_seconds": round(load_s, 1),
        "game_end_write": summary(writes),
        "leaderboard_top10": {name: summary(samples) for name, samples in reads.items()},
        "write_within_budget": percentile(writes, 0.99) <= BUDGET_WRITE_P99_MS,
        "leaderboard_within_budget": board_p99 <= BUDGET_BOARD_P99_MS,
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=1_000_000)
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--synchronous", default="full", choices=("off", "normal", "full"))
    parser.add_argument(
        "--checkpoint-every", type=int, default=1000, help="writes between background checkpoints"
    )
    args = parser.parse_args()
    from storage.sqlite import SQLiteStore

    report: dict[str, Any] = {
        "benchmark": "storage",
        "game_ends": GAME_ENDS,
        "budget_write_p99_ms": BUDGET_WRITE_P99_MS,
        "budget_leaderboard_p99_ms": BUDGET_BOARD_P99_MS,
    }
    with tempfile.TemporaryDirectory() as folder:
        sqlite = SQLiteStore(
            Path(folder) / "bench.db", synchronous=args.synchronous, checkpoint_every=args.checkpoint_every
        )
        report["sqlite"] = await measure(sqlite, args.rows)
        report["sqlite"]["synchronous"] = args.synchronous
    url = os.environ.get("MOJI_TEST_POSTGRES_URL", "")
    if url and not args.sqlite_only:
        import asyncpg

        from storage.postgres import PostgresStore

        schema = f"bench_{secrets.token_hex(4)}"
        conn = await asyncpg.connect(url)
        await conn.execute(f"CREATE SCHEMA {schema}")
        try:
            report["postgres"] = await measure(PostgresStore(url, schema=schema), args.rows)
        finally:
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
            await conn.close()
    else:
        report["postgres"] = "skipped: MOJI_TEST_POSTGRES_URL is not set"
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
