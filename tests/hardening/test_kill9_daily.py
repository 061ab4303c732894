"""kill -9 mid-daily, for real: ``python -m bot`` on the fake Discord and a real SQLite file.

A daily is an ordinary recorded race whose chat is the player's direct messages: killed with
SIGKILL while it runs, the next process resumes it there (its clock stood still meanwhile), the
player's next word in their DMs counts, and the day's attempt is still the one in progress.
(The terminal voids an unfinished terminal game at start, and so a daily with it: that attempt
counts as played, docs/DAILY.md.)
"""

from __future__ import annotations

import json
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from games.common.words import WordRules
from games.lexicon import load
from games.race.daily import daily_cards
from tests.adapters.discord.fakediscord import FakeDiscord
from tests.hardening.botprocess import BotProcess, poll

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

TOKEN = "fake-discord-token-" + "y" * 40
ANN = ("100000000000000001", "Ann")


def daily_game(db: Path) -> tuple[str, int, str] | None:
    """(game id, seed, status) of the daily's game, once recorded."""
    with sqlite3.connect(db) as conn:
        rows = list(conn.execute("SELECT game_id, seed, status FROM games WHERE game_id LIKE 'daily-%'"))
    return (str(rows[0][0]), int(rows[0][1]), str(rows[0][2])) if rows else None


def actions(db: Path, game_id: str) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT action FROM game_actions WHERE game_id = ? ORDER BY seq", (game_id,))
        return [json.loads(text) for (text,) in rows]


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


async def test_a_kill_9_mid_daily_resumes_it_in_the_players_dms(
    discord_bot: tuple[FakeDiscord, BotProcess], tmp_path: Path
) -> None:
    fake, bot = discord_bot
    db = tmp_path / "moji.db"
    bot.start()
    await fake.connected(within=60)
    await bot.logged("connected as")
    iid = await fake.slash(*ANN, "daily")
    [answer] = await fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$", within=30)
    assert "Your daily is in our direct messages" in answer.text
    dm = fake.dm_channels[ANN[0]]
    # dealt and recorded (its first action, the deal, in the log), then the process dies
    await poll(lambda: (game := daily_game(db)) is not None and bool(actions(db, game[0])))
    found = daily_game(db)
    assert found is not None
    game_id, seed, status = found
    assert status == "running"
    bot.kill9()

    bot.start()
    await fake.connected(within=60)
    await bot.logged(r"resumed 1 game")
    await fake.wait_for(
        "POST", rf"^/channels/{dm}/messages$", lambda r: "moji restarted" in r.text, within=60
    )
    # a word from the day's grid, typed in the DMs, counts in the resumed game
    letters = [card.letter for card in daily_cards(seed, "en")]
    words = load("casual").examples(letters, WordRules())
    assert words, letters
    mid = await fake.dm(*ANN, words[0])
    await poll(lambda: any(mid in json.dumps(a) for a in actions(db, game_id)), within=60)
    # the day's attempt is the same one: `daily` again says it is still running
    iid = await fake.slash(*ANN, "daily")
    [again] = await fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$", within=30)
    assert "Your daily is still running" in again.text
    with sqlite3.connect(db) as conn:
        [(count,)] = conn.execute("SELECT COUNT(*) FROM daily_plays")
    assert count == 1
