"""kill -9 mid-tournament, for real: ``python -m bot`` on the fake Discord and a real SQLite file.

A Swiss of dice (Ann and three computer players) is opened and started; round 1 pairs Ann with a
computer player in a thread of its own and plays the computers' game at once. The process is
killed with SIGKILL while Ann's game runs: the next process resumes her game, and pairs nothing
again. It is killed once more, and the round's deadline passes while nothing runs (the real
clock can't wait out a round here, so the test moves the stored deadline into the past: what
a process finds after an outage that outlived the round): the next process ends Ann's game on
its scores so far, once, and pairs round 2, once.
"""

from __future__ import annotations

import json
import sqlite3
import sys
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.adapters.discord.fakediscord import CHANNEL_ID, FakeDiscord
from tests.hardening.botprocess import BotProcess, poll

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

TOKEN = "fake-discord-token-" + "t" * 40
ANN = ("100000000000000001", "Ann")


def rows(db: Path, sql: str, *args: object) -> list[tuple[object, ...]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute(sql, args))


def games_of_round(db: Path, round_no: int) -> list[tuple[object, ...]]:
    """(game id, state, how, thread) of the tournament's games of a round."""
    return rows(
        db,
        "SELECT game_id, state, how, thread_id FROM tournament_games WHERE round = ? ORDER BY board",
        round_no,
    )


def posted(fake: FakeDiscord, channel: str, text: str) -> int:
    """How many messages posted in ``channel`` say ``text``."""
    return sum(
        text in json.dumps(r.json, ensure_ascii=False)
        for r in fake.of("POST", rf"^/channels/{channel}/messages$")
        if r.status == 200
    )


@pytest.fixture
async def discord_bot(tmp_path: Path) -> AsyncIterator[tuple[FakeDiscord, BotProcess]]:
    fake = FakeDiscord()
    await fake.start()
    bot = BotProcess(tmp_path, {"DISCORD_TOKEN": TOKEN, "MOJI_TEST_DISCORD_API": fake.base})
    try:
        yield fake, bot
    finally:
        await bot.close()
        await fake.close()


async def test_a_kill_9_mid_round_and_at_its_deadline_pairs_and_counts_once(
    discord_bot: tuple[FakeDiscord, BotProcess], tmp_path: Path
) -> None:
    fake, bot = discord_bot
    db = tmp_path / "moji.db"
    bot.start()
    await fake.connected(within=60)
    await bot.logged("connected as")
    await fake.slash(*ANN, "tournament", {"what": "swiss dice rounds=2 round=5m bots=3 live=on"})
    await poll(lambda: posted(fake, CHANNEL_ID, "opened a Swiss tournament") == 1, within=60)
    await fake.slash(*ANN, "tournament", {"what": "start"})
    # round 1: Ann's game in its thread, running; the computers' game played at once
    await poll(lambda: len(games_of_round(db, 1)) == 2, within=60)

    def ann_running() -> bool:
        ann = [g for g in games_of_round(db, 1) if g[3] not in (None, "auto", "opening")]
        return bool(ann) and bool(
            rows(db, "SELECT 1 FROM games WHERE game_id = ? AND status = 'running'", ann[0][0])
        )

    await poll(ann_running, within=120)
    [ann_game] = [g for g in games_of_round(db, 1) if g[3] not in (None, "auto")]
    ann_id, thread = str(ann_game[0]), str(ann_game[3])
    bot.kill9()

    # restarted mid-round: Ann's game resumes in its thread; nothing is paired again
    bot.start()
    await fake.connected(within=60)
    await bot.logged(r"resumed 1 game")
    assert len(games_of_round(db, 1)) == 2 and games_of_round(db, 2) == []
    assert rows(db, "SELECT round, state FROM tournaments") == [(1, "running")]
    await poll(lambda: posted(fake, thread, "moji restarted") >= 1, within=60)
    assert posted(fake, CHANNEL_ID, "Round 1 — pairings") == 1
    bot.kill9()

    # the round's deadline passes while no process runs
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE tournaments SET round_ends_at = ?", (time.time() - 60,))
    bot.start()
    await fake.connected(within=60)
    await poll(lambda: len(games_of_round(db, 2)) == 2, within=120)
    [(state, how)] = rows(db, "SELECT state, how FROM tournament_games WHERE game_id = ?", ann_id)
    assert (state, how) == ("done", "adjudicated")
    assert all(g[1] == "done" for g in games_of_round(db, 1))
    assert rows(db, "SELECT round FROM tournaments") == [(2,)]
    await poll(lambda: posted(fake, CHANNEL_ID, "Round 2 — pairings") >= 1, within=60)
    await poll(lambda: posted(fake, thread, "Time is up for round 1") >= 1, within=60)
    assert posted(fake, thread, "Time is up for round 1") == 1
    assert posted(fake, CHANNEL_ID, "Round 2 — pairings") == 1
    assert posted(fake, CHANNEL_ID, "Round 1 — pairings") == 1
    # every result of round 1 said once in the channel
    assert posted(fake, CHANNEL_ID, "Round 1: Board") == 2
    assert "Traceback" not in bot.output(since_start=False)
