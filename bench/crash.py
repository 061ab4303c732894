"""Crash probe: the real bot process killed with SIGKILL again and again while people play.

``python bench/crash.py [--races N] [--kills-per-race K] [--boards B] [--seed S]``

What runs (all on 127.0.0.1, a fresh SQLite file in a temporary folder):

* **Discord races**: ``python -m bot`` on the fake Discord (tests/adapters/discord/fakediscord.py).
  Ann races a computer player (``/moji start game:race bots:1 cards:6``) and answers every
  table with a word from the lexicon. Up to ``K`` times per race the process is killed with
  SIGKILL at a random moment (sometimes just as the race ends, between saving the result and
  posting it) and started again at once; the race resumes and is played to its end.
* **Slack races**: the same on the fake Slack (HTTP mode). After every restart, Slack
  redelivers every answer Ann sent before the kill (same ``event_id``, ``X-Slack-Retry-Num``).
* **Live MOJO games** (``live=on live-minutes=1``): killed when Ann's one-minute turn has
  just begun; the next process starts 75 s later as far as it can tell (its clock is moved
  on, see tests/hardening/botprocess.py), so the turn would have run out while it was down.

What it checks and reports (JSON): kills; races finished; every finished game announced
exactly once ("game over" posts per finished game, and ``announced_at`` set); points lost
(a finished game never announced) and doubled (an answer judged twice, a result posted
twice, a leaderboard total that is not the sum of the recorded results); SQLite's
``PRAGMA integrity_check`` after every kill; MOJO games that lost a player on time while
moji was down. ``errors`` must be empty.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

MESSAGES = r"^/channels/(\d+)/messages$"
ANN = ("100000000000000001", "Ann")
TOKEN = "fake-discord-token-" + "x" * 40
RACE_OPTIONS = {"game": "race", "bots": 1, "cards": 6, "level": "easy"}


@dataclass
class Tally:
    kills: int = 0
    kills_in_end_window: int = 0
    #: kills that landed before the race began (lobby or Start lost with the process or not): the
    #: host pressed Start again, as a person would
    starts_repeated: int = 0
    races_finished: int = 0
    races_voided: int = 0
    results_posted: int = 0
    unannounced: int = 0
    doubled_answers: int = 0
    doubled_results: int = 0
    leaderboard_mismatches: int = 0
    redeliveries: int = 0
    integrity_failures: int = 0
    boards_resumed: int = 0
    boards_lost_on_time: int = 0
    restart_seconds: list[float] = field(default_factory=list)
    platforms: dict[str, dict[str, int]] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)


def trace(*what: object) -> None:
    """A line on stderr: what the probe is doing (the JSON report goes to stdout)."""
    print(f"{time.strftime('%H:%M:%S')}", *what, file=sys.stderr, flush=True)


def db_rows(db: Path, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return list(conn.execute(sql, args))


def integrity_ok(db: Path) -> bool:
    return db_rows(db, "PRAGMA integrity_check") == [("ok",)]


def unannounced(db: Path) -> bool:
    return bool(db_rows(db, "SELECT 1 FROM games WHERE status = 'finished' AND announced_at IS NULL"))


def not_begun(db: Path, done_before: int) -> bool:
    """No race running and none ended since ``done_before`` games had: it never began."""
    running = db_rows(db, "SELECT 1 FROM games WHERE status = 'running'")
    ended = len(db_rows(db, "SELECT 1 FROM games WHERE status <> 'running'"))
    return not running and ended == done_before


def words_for(letters: list[str], rng: random.Random) -> list[str]:
    from games.common.words import WordRules
    from games.lexicon import load

    words = load("casual").examples([c.lower() for c in letters], WordRules())
    rng.shuffle(words)
    return words


def check_database(db: Path, platform: str, tally: Tally, posted: int) -> None:
    """What the database says against what the channel saw."""
    finished = db_rows(db, "SELECT game_id, announced_at FROM games WHERE status = 'finished'")
    tally.platforms[platform] = {"finished": len(finished), "result_posts": posted}
    tally.races_finished += len(finished)
    tally.races_voided += len(db_rows(db, "SELECT 1 FROM games WHERE status = 'void'"))
    tally.unannounced += sum(1 for _, at in finished if at is None)
    tally.results_posted += posted
    tally.doubled_results += max(0, posted - len(finished))
    if posted < len(finished):
        tally.errors.append(f"{platform}: {len(finished)} finished games, {posted} result posts")
    refs: dict[str, int] = {}
    for (text,) in db_rows(db, "SELECT action FROM game_actions"):
        for claim in json.loads(text).get("claims", []):
            if claim.get("ref"):
                refs[claim["ref"]] = refs.get(claim["ref"], 0) + 1
    tally.doubled_answers += sum(n - 1 for n in refs.values() if n > 1)
    recorded = dict(
        db_rows(
            db,
            "SELECT r.user_id, SUM(r.points) FROM results r JOIN games g ON g.game_id = r.game_id "
            "WHERE g.status = 'finished' AND r.user_id IS NOT NULL GROUP BY r.user_id",
        )
    )
    board = dict(db_rows(db, "SELECT user_id, points FROM scores WHERE bucket = 'all' AND game = '*'"))
    for user, points in recorded.items():
        if board.get(user) != points:
            tally.leaderboard_mismatches += 1
            tally.errors.append(
                f"{platform}: {user} has {board.get(user)} on the leaderboard, {points} recorded"
            )


async def discord_races(args: argparse.Namespace, workdir: Path, tally: Tally) -> None:
    from tests.adapters.discord.fakediscord import FakeDiscord
    from tests.hardening.botprocess import BotProcess, poll

    rng = random.Random(args.seed)
    fake = FakeDiscord()
    await fake.start()
    bot = BotProcess(
        workdir, {"DISCORD_TOKEN": TOKEN, "MOJI_TEST_DISCORD_API": fake.base, "LOG_LEVEL": args.log_level}
    )
    db = workdir / "moji.db"

    async def restart() -> None:
        started = time.monotonic()
        bot.start()
        await fake.connected(within=60)
        await bot.logged("connected as")
        trace("discord: restarted; sockets", {k: id(v) for k, v in fake.sockets.items()})
        tally.restart_seconds.append(round(time.monotonic() - started, 2))

    def results() -> int:
        # (a repeat that Discord recognised by its nonce created no message)
        return len(
            [
                r
                for r in fake.of("POST", MESSAGES)
                if r.status == 200 and not r.duplicate and "game over" in r.text
            ]
        )

    try:
        await restart()
        for _ in range(args.races):
            done_before = len(db_rows(db, "SELECT 1 FROM games WHERE status <> 'running'"))
            old = {id(r) for r in fake.requests}
            trace("discord: start a race")
            await fake.slash(*ANN, "start", RACE_OPTIONS)
            await fake.wait_for(
                "POST", MESSAGES, lambda r, old=old: id(r) not in old and "lobby" in r.text.lower(), within=30
            )
            seen = len(fake.requests)
            trace("discord: lobby open; go")
            await fake.slash(*ANN, "go")
            kills = rng.randint(0, args.kills_per_race)
            kill_at = sorted(rng.uniform(0.5, 12.0) for _ in range(kills))
            at_the_end = rng.random() < 0.5  # also kill just as it ends (result saved, not posted)
            began = time.monotonic()
            answered: set[str] = set()
            while len(db_rows(db, "SELECT 1 FROM games WHERE status <> 'running'")) == done_before or (
                at_the_end and unannounced(db)
            ):
                ending = at_the_end and unannounced(db)
                if ending or (kill_at and time.monotonic() - began >= kill_at[0]):
                    if ending:
                        at_the_end = False
                    else:
                        kill_at.pop(0)
                    ending = unannounced(db)
                    trace("discord: kill", "(the game has ended, unannounced)" if ending else "")
                    bot.kill9()
                    tally.kills += 1
                    tally.kills_in_end_window += ending
                    if not integrity_ok(db):
                        tally.integrity_failures += 1
                    await restart()
                    seen = len(fake.requests)
                    if not_begun(db, done_before):  # killed before the race began: press Start again
                        trace("discord: the race had not begun; go again")
                        tally.starts_repeated += 1
                        if not db_rows(db, "SELECT 1 FROM open_lobbies"):
                            await fake.slash(*ANN, "start", RACE_OPTIONS)
                            await poll(lambda: bool(db_rows(db, "SELECT 1 FROM open_lobbies")))
                        await fake.slash(*ANN, "go")
                tables = [
                    r
                    for r in fake.requests[seen:]
                    if r.method in ("POST", "PATCH") and "Cards: " in str((r.json or {}).get("content"))
                ]
                if tables:
                    content = str(tables[-1].json["content"])
                    if content not in answered:
                        answered.add(content)
                        letters = content.split("Cards: ", 1)[1].split("\n", 1)[0].split()
                        for word in words_for(letters, rng)[:1]:
                            await fake.say(*ANN, word)
                if time.monotonic() - began > 240:
                    tally.errors.append("discord: a race did not finish in 4 minutes")
                    break
                await asyncio.sleep(0.1)
        for _ in range(args.boards):
            await live_board(fake, bot, db, tally, restart)
        # a last restart: anything still unannounced is announced now
        bot.kill9()
        await restart()
        await asyncio.sleep(3)
        check_database(db, "discord", tally, results())
        if "Traceback" in bot.output(since_start=False):
            tally.errors.append("discord: a traceback in the bot's log")
    finally:
        await bot.close()
        await fake.close()


async def live_board(fake: Any, bot: Any, db: Path, tally: Tally, restart: Any) -> None:
    """A live MOJO game (one-minute turns) killed as Ann's turn begins, back "75 s" later."""
    from tests.adapters.discord.fakediscord import CHANNEL_ID

    seen = len(fake.requests)
    await fake.slash(*ANN, "start", {"game": "board", "bots": 1, "more": "live=on live-minutes=1"})
    [lobby] = await fake.wait_for(
        "POST", MESSAGES, lambda r: r in fake.requests[seen:] and "lobby" in r.text.lower(), within=30
    )
    thread = re.match(MESSAGES, lobby.path)
    assert thread is not None
    thread_id = thread.group(1)
    await fake.slash(*ANN, "go", channel=thread_id, thread_parent=CHANNEL_ID)
    await fake.wait_for(
        "POST", MESSAGES, lambda r: r in fake.requests[seen:] and "Ann, it's your turn" in r.text, within=60
    )
    bot.kill9()
    tally.kills += 1
    if not integrity_ok(db):
        tally.integrity_failures += 1
    seen = len(fake.requests)
    bot.env["MOJI_TEST_SKEW"] = "75"
    try:
        await restart()
        await fake.wait_for(
            "POST",
            MESSAGES,
            lambda r: r in fake.requests[seen:] and "your turn again" in r.text,
            within=60,
        )
        tally.boards_resumed += 1
        await fake.slash(*ANN, "play", {"move": "resign"}, channel=thread_id, thread_parent=CHANNEL_ID)
        await fake.wait_for(
            "POST", MESSAGES, lambda r: r in fake.requests[seen:] and "game over" in r.text, within=60
        )
        if any("ran out of time" in r.text for r in fake.requests[seen:]):
            tally.boards_lost_on_time += 1
            tally.errors.append("board: a player ran out of time while moji was down")
    except (TimeoutError, AssertionError) as exc:
        tally.errors.append(f"board: {exc!r}")
    finally:
        bot.env.pop("MOJI_TEST_SKEW", None)
        bot.kill9()
        await restart()


async def slack_races(args: argparse.Namespace, workdir: Path, tally: Tally) -> None:
    import aiohttp

    from tests.adapters.slack.conftest import SECRET
    from tests.adapters.slack.fakeslack import FakeSlack
    from tests.hardening.botprocess import BotProcess, SlackClient, free_port, poll

    rng = random.Random(args.seed + 1)
    slack = FakeSlack()
    await slack.start()
    port = free_port()
    env = {
        "SLACK_BOT_TOKEN": "xoxb-crash",
        "SLACK_SIGNING_SECRET": SECRET,
        "HOST": "127.0.0.1",
        "PORT": str(port),
        "MOJI_TEST_SLACK_API": slack.api_url,
        "LOG_LEVEL": args.log_level,
    }
    bot = BotProcess(workdir, env)
    db = workdir / "moji.db"
    sent: list[tuple[str, str, str]] = []  # (word, ts, event id) of every answer
    try:
        async with aiohttp.ClientSession() as http:
            client = SlackClient(http, f"http://127.0.0.1:{port}", slack)

            async def restart() -> None:
                started = time.monotonic()
                bot.start()
                await client.up()
                tally.restart_seconds.append(round(time.monotonic() - started, 2))
                for word, ts, event_id in list(sent):  # Slack tries again what it never heard back on
                    await client.message("UANN", word, ts, event_id, retry=1)
                    tally.redeliveries += 1

            await restart()
            for _ in range(args.races):
                done_before = len(db_rows(db, "SELECT 1 FROM games WHERE status <> 'running'"))
                old = {id(c) for c in slack.calls}
                await client.command("UANN", "start race bots=1 cards=6 level=easy")
                await slack.wait_for(
                    "chat.postMessage",
                    lambda c, old=old: id(c) not in old and "lobby" in c.text().lower(),
                    within=30,
                )
                seen = len(slack.calls)
                await client.command("UANN", "go")
                kill_at = sorted(rng.uniform(0.5, 12.0) for _ in range(rng.randint(0, args.kills_per_race)))
                began = time.monotonic()
                answered: set[str] = set()
                while len(db_rows(db, "SELECT 1 FROM games WHERE status <> 'running'")) == done_before:
                    if kill_at and time.monotonic() - began >= kill_at[0]:
                        kill_at.pop(0)
                        trace("slack: kill")
                        bot.kill9()
                        tally.kills += 1
                        if not integrity_ok(db):
                            tally.integrity_failures += 1
                        await restart()
                        if not_begun(db, done_before):  # killed before the race began: Start again
                            trace("slack: the race had not begun; go again")
                            tally.starts_repeated += 1
                            if not db_rows(db, "SELECT 1 FROM open_lobbies"):
                                await client.command("UANN", "start race bots=1 cards=6 level=easy")
                                await poll(lambda: bool(db_rows(db, "SELECT 1 FROM open_lobbies")))
                            await client.command("UANN", "go")
                    tables = [
                        c
                        for c in slack.calls[seen:]
                        if c.method in ("chat.postMessage", "chat.update")
                        and "Cards: " in str(c.args.get("text"))
                    ]
                    if tables:
                        text = str(tables[-1].args.get("text"))
                        if text not in answered:
                            answered.add(text)
                            letters = text.split("Cards: ", 1)[1].split("\n", 1)[0].split()
                            letters = [c for c in letters if len(c) == 1 and c.isalpha()]
                            for word in words_for(letters, rng)[:1]:
                                ts = f"{time.time():.6f}"
                                event_id = f"Ev{len(sent)}"
                                sent.append((word, ts, event_id))
                                await client.message("UANN", word, ts, event_id)
                    if time.monotonic() - began > 240:
                        tally.errors.append("slack: a race did not finish in 4 minutes")
                        break
                    await asyncio.sleep(0.1)
            bot.kill9()
            await restart()
            await asyncio.sleep(3)
            posted = len([c for c in slack.of("chat.postMessage") if c.ok and "game over" in c.text()])
            check_database(db, "slack", tally, posted)
            if "Traceback" in bot.output(since_start=False):
                tally.errors.append("slack: a traceback in the bot's log")
    finally:
        await bot.close()
        await slack.stop()


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="moji-crash-") as scratch:
        tmp = args.workdir or scratch
        for name, run in (("discord", discord_races), ("slack", slack_races)):
            workdir = Path(tmp) / name
            workdir.mkdir(parents=True)
            await run(args, workdir, tally)
    report = {
        "races_per_platform": args.races,
        "boards": args.boards,
        **{k: v for k, v in tally.__dict__.items() if k != "restart_seconds"},
        "restart_seconds_median": sorted(tally.restart_seconds)[len(tally.restart_seconds) // 2]
        if tally.restart_seconds
        else None,
    }
    return report


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--races", type=int, default=10, help="races per platform")
    parser.add_argument("--kills-per-race", type=int, default=2, help="at most this many kills in one race")
    parser.add_argument("--boards", type=int, default=3, help="live MOJO games killed mid-turn (Discord)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-level", default="INFO", help="the bot's LOG_LEVEL")
    parser.add_argument("--workdir", help="keep the databases and logs here (default: a temporary folder)")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = asyncio.run(main_async(args))
    print(json.dumps(report, indent=2))
    return 1 if report["errors"] or report["integrity_failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
