"""kill -9, for real: the bot as a process on the fake platforms and a real SQLite file.

Each test kills ``python -m bot`` with SIGKILL at a bad moment and starts it again:

* Slack redelivers an answer that was already judged before the kill: it counts once;
* the kill lands after a game's result was saved but before it was posted: the next
  process announces it;
* a live turn-based game is down longer than the turn: the player gets the time back.

A long outage is not waited for: the second process runs with its clock moved on
(``MOJI_TEST_SKEW``, see :mod:`tests.hardening.botprocess`).
"""

from __future__ import annotations

import json
import re
import sqlite3
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from games.common.words import WordRules
from games.lexicon import load
from tests.adapters.discord.fakediscord import CHANNEL_ID, FakeDiscord, Fault
from tests.adapters.slack.conftest import SECRET
from tests.adapters.slack.fakeslack import FakeSlack
from tests.hardening.botprocess import BotProcess, SlackClient, free_port, poll

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

TOKEN = "fake-discord-token-" + "x" * 40
ANN = ("100000000000000001", "Ann")
MESSAGES = r"^/channels/(\d+)/messages$"


def actions(db: Path) -> list[dict[str, Any]]:
    with sqlite3.connect(db) as conn:
        return [json.loads(text) for (text,) in conn.execute("SELECT action FROM game_actions ORDER BY seq")]


def games(db: Path) -> list[tuple[str, str | None, float | None]]:
    """(status, ended_at, announced_at) of every game."""
    with sqlite3.connect(db) as conn:
        return list(conn.execute("SELECT status, ended_at, announced_at FROM games"))


# ---------------------------------------------------------------------------------------------
# Discord


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


async def start_board_in_a_thread(fake: FakeDiscord, bot: BotProcess, more: str) -> str:
    """Ann opens a MOJO game against one computer player; the id of its thread."""
    bot.start()
    await fake.connected(within=60)
    await bot.logged("connected as")
    await fake.slash(*ANN, "start", {"game": "board", "bots": 1, "more": more})
    [lobby] = await fake.wait_for(
        "POST", MESSAGES, lambda r: "lobby" in r.text.lower() and CHANNEL_ID not in r.path, within=30
    )
    thread = re.match(MESSAGES, lobby.path)
    assert thread is not None
    thread_id = thread.group(1)
    await fake.slash(*ANN, "go", channel=thread_id, thread_parent=CHANNEL_ID)
    return thread_id


async def test_a_kill_between_the_result_and_its_post_is_announced_after_the_restart(
    discord_bot: tuple[FakeDiscord, BotProcess], tmp_path: Path
) -> None:
    fake, bot = discord_bot
    thread_id = await start_board_in_a_thread(fake, bot, "")
    await fake.wait_for("POST", MESSAGES, lambda r: "Ann, it's your turn" in r.text, within=60)
    # the result is saved, and then its post never arrives: the process dies in between
    fake.faults.append(Fault("POST", MESSAGES, "hang", body="game over"))
    await fake.slash(*ANN, "play", {"move": "resign"}, channel=thread_id, thread_parent=CHANNEL_ID)
    await fake.wait_for("POST", MESSAGES, lambda r: r.status == 0 and "game over" in r.text, within=30)
    bot.kill9()
    [(status, ended_at, announced_at)] = games(tmp_path / "moji.db")
    assert status == "finished" and ended_at is not None and announced_at is None

    before = len(fake.requests)
    bot.start()
    await bot.logged(r"announced 1 result")
    [result] = await fake.wait_for(
        "POST", MESSAGES, lambda r: r.status == 200 and "game over" in r.text and r in fake.requests[before:]
    )
    assert "just as your game ended" in result.text and "👑" in result.text
    assert f"/channels/{thread_id}/" in result.path
    await poll(lambda: games(tmp_path / "moji.db")[0][2] is not None)
    # a third start says nothing more
    await bot.close()
    bot.start()
    await bot.logged("connected as")
    assert not [r for r in fake.requests[before:] if "game over" in r.text and r is not result]


async def test_a_live_turn_based_game_down_longer_than_its_turn_gives_the_time_back(
    discord_bot: tuple[FakeDiscord, BotProcess], tmp_path: Path
) -> None:
    fake, bot = discord_bot
    thread_id = await start_board_in_a_thread(fake, bot, "live=on live-minutes=1")
    await fake.wait_for("POST", MESSAGES, lambda r: "Ann, it's your turn" in r.text, within=60)
    await bot.logged("keep|table", within=30)
    bot.kill9()  # a minute-long turn has just begun

    bot.start(MOJI_TEST_SKEW="75")  # the next process starts 75 s later (as far as it can tell)
    await bot.logged(r"resumed 1 game")
    [again] = await fake.wait_for(
        "POST", MESSAGES, lambda r: "Ann, it's your turn again in MOJO" in r.text, within=60
    )
    left = re.search(r"your turn again in MOJO: (\d+ s|1 min) left", again.text)
    assert left is not None, again.text
    assert left.group(1) == "1 min" or int(left.group(1).split()[0]) >= 45
    assert any("clock stood still while moji was down (1 min" in r.text for r in fake.of("POST", MESSAGES))
    resumed = [a for a in actions(tmp_path / "moji.db") if a["kind"] == "resume"]
    assert len(resumed) == 1 and resumed[0]["paused"] >= 75
    # Ann still has her turn: she passes, and has not lost on time
    await fake.slash(*ANN, "play", {"move": "pass"}, channel=thread_id, thread_parent=CHANNEL_ID)
    await poll(lambda: any(a.get("text") == "pass" for a in actions(tmp_path / "moji.db")))
    assert not [r for r in fake.of("POST", MESSAGES) if "ran out of time" in r.text]
    assert not [r for r in fake.of("PATCH", r"/messages/") if "ran out of time" in r.text]


# ---------------------------------------------------------------------------------------------
# Slack


def cards_of(call: Any) -> list[str]:
    found = re.search(r"Cards: ([A-Z_ ]+)", str(call.args.get("text")))
    return found.group(1).split() if found else []


async def test_slack_redelivers_an_answer_after_a_kill_and_it_counts_once(tmp_path: Path) -> None:
    import time

    slack = FakeSlack()
    await slack.start()
    port = free_port()
    bot = BotProcess(
        tmp_path,
        {
            "SLACK_BOT_TOKEN": "xoxb-test",
            "SLACK_SIGNING_SECRET": SECRET,
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "MOJI_TEST_SLACK_API": slack.api_url,
        },
    )
    try:
        async with aiohttp.ClientSession() as http:
            client = SlackClient(http, f"http://127.0.0.1:{port}", slack)
            bot.start()
            await client.up()
            assert await client.command("UANN", "start race bots=1 cards=6 level=easy") == 200
            await slack.wait_for("chat.postMessage", lambda c: "lobby" in c.text().lower(), within=30)
            assert await client.command("UANN", "go") == 200
            [table] = await slack.wait_for("chat.postMessage", lambda c: bool(cards_of(c)), within=30)
            letters = [c.lower() for c in cards_of(table)]
            words = load("casual").examples(letters, WordRules())
            assert words, letters
            ts = f"{time.time():.6f}"
            assert await client.message("UANN", words[-1], ts, "EvAnn") == 200
            await bot.logged(f"answer {ts} in .* waits in the settle window")
            # judged (✅ or refused) and in the game's log, then the process dies
            await poll(
                lambda: any(ts in json.dumps(a.get("claims", [])) for a in actions(tmp_path / "moji.db"))
            )
            bot.kill9()

            bot.start()
            await client.up()
            await bot.logged(r"resumed 1 game")
            # Slack never heard our 200 for the event in time: it tries again, with the same id
            assert await client.message("UANN", words[-1], ts, "EvAnn", retry=1) == 200
            assert await client.message("UANN", words[-1], ts, "EvAnn", retry=2) == 200
            await bot.logged(f"answer {ts} in .* was handled before \\(a redelivery\\): ignored")
            assert await client.command("UANN", "help") == 200  # handled after the redeliveries, in order
            await slack.wait_for("chat.postEphemeral", lambda c: "moji commands" in c.text(), within=30)
            claimed = [a for a in actions(tmp_path / "moji.db") if ts in json.dumps(a.get("claims", []))]
            assert len(claimed) == 1, "judged once, before the kill"
            # (a mark the dying process had on the wire may reach Slack just after the kill: count
            # every mark, before and after)
            marks = [c for c in slack.calls if c.method == "reactions.add" and c.args.get("timestamp") == ts]
            assert len(marks) <= 1, "no second mark after the restart"
    finally:
        await bot.close()
        await slack.stop()
