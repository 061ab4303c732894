"""SIGTERM mid-race, for real: `python -m bot` as a process on the fake Discord and a real SQLite file.

The answer waiting in the settle window is judged and marked, the channel is told, the
process exits 0 within seconds, and the next process resumes the race.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from games.common.words import WordRules
from games.lexicon import load
from tests.adapters.discord.fakediscord import FakeDiscord

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "fake-discord-token-" + "x" * 40
ANN = ("100000000000000001", "Ann")
MESSAGES = r"^/channels/\d+/messages$"


def start_bot(api: str, tmp: Path, log: Path) -> subprocess.Popen[bytes]:
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SLACK_"))},
        "DISCORD_TOKEN": TOKEN,
        "DATABASE_URL": f"sqlite:///{tmp}/moji.db",
        "SETTLE_MS": "2000",  # a long settle window: the stop lands inside it
        "PREPARE_AT_START": "race",  # (it plays races only)
        "LOG_LEVEL": "DEBUG",
        "PYTHONUNBUFFERED": "1",
    }
    with open(log, "ab") as out:
        return subprocess.Popen(
            [sys.executable, str(ROOT / "bench" / "soak.py"), "--bot", api],
            env=env,
            cwd=tmp,
            stdout=out,
            stderr=subprocess.STDOUT,
        )


def output(log: Path) -> str:
    """What the bot has written so far."""
    return log.read_text(errors="replace")


async def logged(log: Path, pattern: str, within: float = 30.0) -> None:
    """Wait until the bot's output shows ``pattern``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not re.search(pattern, output(log)):
        assert loop.time() < deadline, f"{pattern!r} never logged:\n{output(log)[-3000:]}"
        await asyncio.sleep(0.05)


def judged(db: Path, mid: str) -> bool:
    """Whether the answer ``mid`` is in the game's log: it was judged."""
    with sqlite3.connect(db) as conn:
        rows = [json.loads(text) for (text,) in conn.execute("SELECT action FROM game_actions ORDER BY seq")]
    return any(claim.get("ref") == mid for action in rows for claim in action.get("claims", []))


async def stopped(child: subprocess.Popen[bytes], within: float = 30.0) -> int:
    """Wait for ``child`` to exit (a second or two when the machine is idle; a busy 2-core machine
    running other tests can take ten times that); its exit status."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while child.poll() is None:
        assert loop.time() < deadline, "the bot did not stop"
        await asyncio.sleep(0.05)
    return child.returncode


async def test_sigterm_mid_race_judges_tells_and_resumes(tmp_path: Path) -> None:
    fake = FakeDiscord()
    await fake.start()
    log = tmp_path / "bot.log"
    child = start_bot(fake.base, tmp_path, log)
    try:
        await fake.connected(within=60)
        await fake.wait_for("PUT", r"/commands$", within=60)
        await logged(log, "connected as")
        await fake.slash(*ANN, "start", {"game": "race", "bots": 1, "cards": 4})
        await fake.wait_for("POST", MESSAGES, lambda r: "lobby" in r.text, within=30)
        await fake.slash(*ANN, "go")
        [table] = await fake.wait_for(
            "POST", MESSAGES, lambda r: "Cards: " in str((r.json or {}).get("content")), within=30
        )
        letters = str(table.json["content"]).removeprefix("Cards: ").lower().split()
        words = load("casual").examples(letters, WordRules())
        assert words, letters
        mid = await fake.say(*ANN, words[-1])
        await logged(log, f"answer {mid} in .* waits in the settle window")

        child.send_signal(signal.SIGTERM)
        assert await stopped(child) == 0
        assert judged(tmp_path / "moji.db", mid), "the answer in the settle window was judged before the exit"
        marks = [r for r in fake.of("PUT", rf"/messages/{mid}/reactions/") if r.status == 200]
        if any("Ann takes" in r.text for r in fake.requests):  # (a computer player may have been quicker)
            assert marks, "the accepted answer was marked before the exit"
        assert any("moji is restarting" in r.text for r in fake.channel_posts())
        assert "stopped" in output(log)

        child = start_bot(fake.base, tmp_path, log)
        await fake.wait_for("POST", MESSAGES, lambda r: "carries on" in r.text, within=60)
    finally:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
            try:
                await stopped(child)
            except AssertionError:
                child.kill()
        await fake.close()
