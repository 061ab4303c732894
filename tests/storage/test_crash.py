"""Crash safety: a writer killed with SIGKILL at random moments loses nothing it acknowledged.

100 runs in ``make test``, 400 under ``MOJI_FUZZ=long`` (``make fuzz``). Each run forks a
child that opens the SQLite file (the first run creates it, so some kills land inside the
first migration), finishes games in a loop and prints ``ack <game_id>`` after each committed write. The parent
kills it with SIGKILL after a random number of acknowledgements (seeded, so
every run of the test is the same plan); the kill lands wherever the child
is by then — inside a transaction, a commit, or between two. Nothing waits on
the wall clock: the parent only waits for the child's output.

Afterwards ``PRAGMA integrity_check`` is ``ok``, every acknowledged game is
finished exactly once with its results, and the added-up scores match the
finished games exactly (no half-written game end, no double count).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import random
import select
import signal
import sqlite3
from pathlib import Path

from storage.sqlite import SQLiteStore
from tests.storage.helpers import NOW, play

#: (a run costs little, but the kills and fsyncs slow down a lot on a busy disk: 200 took 130 s
#: under a parallel suite)
RUNS = 400 if os.environ.get("MOJI_FUZZ") == "long" else 100
SEED = 20250507
PLAYERS = 5


def _child(path: str, run: int, fd: int, redo: list[str]) -> None:
    """Finish games forever, acknowledging each; also re-finish earlier games (must be refused)."""

    async def write() -> None:
        store = SQLiteStore(path)
        await store.open()
        for game_id in redo:  # a retry after a crash must not count twice
            if await _finish(store, game_id):
                os.write(fd, f"late {game_id}\n".encode())
        for i in range(100_000):
            game_id = f"r{run}-{i}"
            if await _finish(store, game_id):
                os.write(fd, f"ack {game_id}\n".encode())

    asyncio.run(write())


async def _finish(store: SQLiteStore, game_id: str) -> bool:
    n = int(game_id.split("-")[1]) + int(game_id[1:].split("-")[0])
    return await play(store, game_id, {f"u{n % PLAYERS}": 1, f"u{(n + 1) % PLAYERS}": 2}, at=NOW)


def _run_once(path: str, run: int, stop_after: int, redo: list[str]) -> list[str]:
    """One child, killed after ``stop_after`` acknowledgements; the games it acknowledged."""
    read_fd, write_fd = os.pipe()
    child = multiprocessing.get_context("fork").Process(target=_child, args=(path, run, write_fd, redo))
    child.start()
    os.close(write_fd)
    acked: list[str] = []
    buffer = b""
    try:
        while len(acked) < stop_after:
            ready, _, _ = select.select([read_fd], [], [], 60)
            assert ready, "the writer stopped answering"
            chunk = os.read(read_fd, 4096)
            if not chunk:
                break  # the child died on its own: its exit code is checked below
            buffer += chunk
            *lines, buffer = buffer.split(b"\n")
            for line in lines:
                kind, game_id = line.decode().split()
                assert kind == "ack", f"game {game_id} was finished twice"
                acked.append(game_id)
    finally:
        assert child.pid is not None
        os.kill(child.pid, signal.SIGKILL)
        child.join()
        os.close(read_fd)
    assert child.exitcode == -signal.SIGKILL, f"the writer failed (exit code {child.exitcode})"
    # lines read before the kill that were already acknowledgements count too
    return acked + [line.split()[1] for line in buffer.decode().splitlines() if line.startswith("ack ")]


def test_sigkill_never_loses_an_acknowledged_game_end(tmp_path: Path) -> None:
    path = str(tmp_path / "crash.db")
    rng = random.Random(SEED)
    acknowledged: list[str] = []
    for run in range(RUNS):
        stop_after = rng.choice([0, 0, 1, 2, 3, 5, 8, rng.randint(1, 40)])
        redo = rng.sample(acknowledged, min(3, len(acknowledged)))
        acknowledged += _run_once(path, run, stop_after, redo)
    assert len(acknowledged) > RUNS, "too few writes to mean anything"

    db = sqlite3.connect(path)
    try:
        assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        finished = {row[0] for row in db.execute("SELECT game_id FROM games WHERE status = 'finished'")}
        missing = [game_id for game_id in acknowledged if game_id not in finished]
        assert not missing, f"{len(missing)} acknowledged game ends were lost: {missing[:5]}"
        assert len(set(acknowledged)) == len(acknowledged)
        counts = dict(db.execute("SELECT game_id, COUNT(*) FROM results GROUP BY game_id").fetchall())
        assert all(counts.get(game_id) == 2 for game_id in finished)
        assert db.execute("SELECT COUNT(*) FROM games WHERE status = 'running'").fetchone()[0] <= RUNS
        games, points = db.execute(
            "SELECT SUM(games), SUM(points) FROM scores WHERE game = '*' AND bucket = 'all'"
        ).fetchone()
        assert (games, points) == (2 * len(finished), 3 * len(finished))
    finally:
        db.close()
