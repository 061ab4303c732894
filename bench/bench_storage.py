"""Storage latency: game-end writes and leaderboard reads, on SQLite (and PostgreSQL if configured).

Prints JSON. Budgets: a game-end write (one transaction of UPSERTs,
four players) p99 ≤ 5 ms on SQLite; a top-10 leaderboard of one workspace
among 1,000,000 score rows p99 ≤ 10 ms.

The 1,000,000 score rows are loaded in bulk (the same rows game ends would
write: per player, game and period bucket) into 200 workspaces, so the
measured workspace holds 5,000 of them, plus 1,000 real game ends recorded
through ``finish_game``; as many rows per language go in ``language_scores``,
and one of the reads ranks one language only.

Game starts and action appends (the writes of a game in progress) are timed too.

PostgreSQL runs when ``MOJI_TEST_POSTGRES_URL`` is set (``.ci/postgres.sh``);
``--rows N`` changes the table size, ``--sqlite-only`` skips PostgreSQL,
``--synchronous normal`` measures SQLite's faster, power-cut-unsafe mode.

``--against DIR`` compares two versions of the code side by side: DIR is another checkout
(e.g. ``git worktree add /tmp/before main``); ``--rounds`` runs of each, alternating (before,
after, after, before…) so drifting load on the machine hits both alike, each in a process of
its own on a fresh database; prints the median of every figure over the runs of each side and
the ratio after/before.

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
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

# (MOJI_BENCH_CODE: another checkout's code, measured by this file's code: see --against)
sys.path.insert(0, os.environ.get("MOJI_BENCH_CODE") or str(Path(__file__).resolve().parents[1]))

from storage.base import GameRecord, SeatRecord, SeatScore
from storage.periods import buckets
from storage.sqlstore import SQLStore

ROOT = Path(__file__).resolve().parents[1]
BUDGET_WRITE_P99_MS = 5.0
BUDGET_BOARD_P99_MS = 10.0
GAME_ENDS = 1_000
BOARD_QUERIES = 500
#: Actions appended to each of the first ACTION_GAMES games (the writes of a game in progress).
ACTIONS = 10
ACTION_GAMES = 100
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
    starts: list[float] = []
    for record, _ in games:
        t0 = time.perf_counter_ns()
        await store.start_game(record)
        starts.append((time.perf_counter_ns() - t0) / 1e6)
    appends: list[float] = []
    for seq in range(ACTIONS):
        for record, _ in games[:ACTION_GAMES]:
            action = {"kind": "claims", "claims": [{"seat": record.seats[seq % 4].id, "text": "quixotic"}]}
            t0 = time.perf_counter_ns()
            await store.append_action(record.game_id, seq, action)
            appends.append((time.perf_counter_ns() - t0) / 1e6)
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
        "game_start_write": summary(starts),
        "action_append_write": summary(appends),
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
    parser.add_argument("--against", metavar="DIR", help="compare with the code checked out in DIR")
    parser.add_argument("--rounds", type=int, default=3, help="runs of each side (--against)")
    args = parser.parse_args()
    if args.against:
        print(json.dumps(compare(args)))
        return
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


def _figures(report: dict[str, Any], prefix: str = "") -> dict[str, float]:
    """Every latency of a report, flattened: ``sqlite.game_end_write.p50_ms`` → value."""
    out: dict[str, float] = {}
    for key, value in report.items():
        if isinstance(value, dict):
            out.update(_figures(value, f"{prefix}{key}."))
        elif key.endswith("_ms") and not key.startswith("budget") and isinstance(value, (int, float)):
            out[prefix + key] = float(value)
    return out


def compare(args: argparse.Namespace) -> dict[str, Any]:
    """Run the code in ``args.against`` (before) and this checkout (after) alternately."""
    before = str(Path(args.against).resolve())
    command = [sys.executable, str(Path(__file__).resolve()), "--rows", str(args.rows)]
    command += ["--synchronous", args.synchronous, "--checkpoint-every", str(args.checkpoint_every)]
    if args.sqlite_only:
        command.append("--sqlite-only")
    runs: dict[str, list[dict[str, float]]] = {"before": [], "after": []}
    for n in range(args.rounds):
        for side in ("before", "after") if n % 2 == 0 else ("after", "before"):
            env = {**os.environ, "MOJI_BENCH_CODE": before if side == "before" else str(ROOT)}
            done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
            runs[side].append(_figures(json.loads(done.stdout)))
    figures: dict[str, Any] = {}
    for name in runs["after"][0]:
        old = statistics.median(run[name] for run in runs["before"])
        new = statistics.median(run[name] for run in runs["after"])
        figures[name] = {"before": round(old, 3), "after": round(new, 3), "ratio": round(new / old, 3)}
    return {
        "benchmark": "storage, before/after",
        "before": before,
        "after": str(ROOT),
        "rounds": args.rounds,
        "rows": args.rows,
        "median_of_runs": figures,
    }


if __name__ == "__main__":
    asyncio.run(main())
