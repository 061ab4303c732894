"""One person floods moji with slash commands; how long does everyone else wait?

``python bench/bench_flood.py [--flood 300] [--seconds 1.0] [--others 40] [--only slack|discord]
[--without-fair-share] [--patience 30]``

What runs, on the wall clock (``SystemClock``), with a real SQLite database in a temporary folder:

* **Slack**: the real slack-bolt app (``SlackAdapter``) served on 127.0.0.1, fed signed
  ``/moji`` requests over HTTP, talking to the fake Web API of the tests
  (``tests/adapters/slack/fakeslack.py``), which enforces Slack's rate limits
  (``chat.postEphemeral``: 100 a minute per workspace) and answers 429 over them.
* **Discord**: the real discord.py client (``MojiBot``) on the fake Discord of the tests
  (``tests/adapters/discord/fakediscord.py``): slash commands arrive as gateway
  ``INTERACTION_CREATE`` events, answers go back as interaction callbacks and follow-ups.

One person sends ``--flood`` ``/moji vote yes`` evenly over ``--seconds`` (there is no game, so
each one that is handled is answered privately: "There's no game in this channel"). Meanwhile
``--others`` other people each send one ``/moji help``, evenly spread from the flood's start to
one second after its end, half of them in the flooder's channel and half in another. Each
other person's wait is measured from just before their request leaves to the moment the fake
platform receives the private answer. Budget: p99 <= 2 s. With ``--without-fair-share`` the
per-person allowance is off, for comparison; answers that do not come
within ``--patience`` seconds are counted as missing.

Prints one JSON object per platform (waits p50/p99/max in seconds, answers missing, what the
flooder got: answers, notices, commands refused), then a summary; exits 1 when a budget is missed.
Each platform runs in a process of its own. The fakes and the flooding client share the bot's
process and event loop, so on a busy machine the figures include their work too.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from bot.core.clock import SystemClock
from bot.core.registry import Registry
from bot.features.workspace import Workspace
from bot.process.app import Services
from bot.sessions.gamelog import StoreGameLog
from storage import open_store
from tests.bot.toygame import TOY

BUDGET_P99 = 2.0


def percentile(values: list[float], share: float) -> float:
    """The ``share`` quantile (nearest rank) of ``values``."""
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(share * len(ordered) + 0.5) - 1))
    return ordered[rank]


async def at_times(times: list[float], send: Callable[[int], Awaitable[None]]) -> None:
    """Call ``send(i)`` at wall time ``times[i]`` (each in its own task)."""

    async def one(i: int) -> None:
        await asyncio.sleep(max(0.0, times[i] - time.time()))
        await send(i)

    await asyncio.gather(*(one(i) for i in range(len(times))))


async def answers_or_patience(args: argparse.Namespace, done: Callable[[], bool]) -> None:
    """Poll (the fakes record calls; nothing to wait on) until ``done()`` or ``--patience`` runs out."""
    deadline = time.time() + args.patience
    while not done() and time.time() < deadline:  # noqa: ASYNC110
        await asyncio.sleep(0.05)


def schedule(args: argparse.Namespace, start: float) -> tuple[list[float], list[float]]:
    flood = [start + args.seconds * i / args.flood for i in range(args.flood)]
    span = args.seconds + 1.0
    others = [start + span * (i + 0.5) / args.others for i in range(args.others)]
    return flood, others


def summary(
    platform: str,
    args: argparse.Namespace,
    by_person: dict[str, float],
    same_channel: set[str],
    missing: int,
    flooder: dict[str, int],
    wall: float,
) -> dict[str, Any]:
    waits = list(by_person.values())
    p99 = percentile(waits, 0.99) if waits else float("inf")
    same = [w for who, w in by_person.items() if who in same_channel]
    other = [w for who, w in by_person.items() if who not in same_channel]
    return {
        "platform": platform,
        "fair_share": not args.without_fair_share,
        "flood_commands": args.flood,
        "flood_seconds": args.seconds,
        "others": args.others,
        "others_answered": len(waits),
        "others_missing": missing,
        "others_wait_p50_s": round(statistics.median(waits), 3) if waits else None,
        "others_wait_p99_s": round(p99, 3) if waits else None,
        "others_wait_max_s": round(max(waits), 3) if waits else None,
        "flooders_channel_wait_p50_max_s": [round(statistics.median(same), 3), round(max(same), 3)]
        if same
        else None,
        "another_channel_wait_p50_max_s": [round(statistics.median(other), 3), round(max(other), 3)]
        if other
        else None,
        "flooder": flooder,
        "budget_p99_s": BUDGET_P99,
        "ok": missing == 0 and p99 <= BUDGET_P99,
        "wall_s": round(wall, 1),
    }


# ------------------------------------------------------------ Slack


async def bench_slack(args: argparse.Namespace, services: Services) -> dict[str, Any]:
    from adapters.slack.app import SlackAdapter
    from adapters.slack.settings import SlackSettings
    from tests.adapters.slack.conftest import SECRET, sign
    from tests.adapters.slack.fakeslack import FakeSlack

    users = {f"U{i:04d}": f"Person{i}" for i in range(args.others)}
    slack = FakeSlack(names={"UFLOOD": "Flo", **users})  # Slack's limits, on the wall clock
    await slack.start()
    settings = SlackSettings(
        bot_token="xoxb-bench", signing_secret=SECRET, base_url=slack.api_url, settle=0.15, lobby_timeout=600
    )
    adapter = SlackAdapter(settings, services, SystemClock())
    if args.without_fair_share:
        adapter.runtime.fair = None
    await adapter.start()
    runner = web.AppRunner(adapter.web_app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    url = f"http://127.0.0.1:{port}/slack/events"
    triggers = iter(range(1, 10**9))
    sent: dict[str, float] = {}
    started = time.monotonic()

    async def command(http: aiohttp.ClientSession, user: str, text: str, channel: str) -> None:
        form = {
            "team_id": "T1",
            "channel_id": channel,
            "user_id": user,
            "user_name": slack.names.get(user, user).lower(),
            "command": "/moji",
            "text": text,
            "response_url": f"{slack.url}/respond/{user}",
            "trigger_id": f"{next(triggers)}.2.3",
        }
        body = urlencode(form)
        headers = {"Content-Type": "application/x-www-form-urlencoded", **sign(body)}
        async with http.post(url, data=body.encode(), headers=headers) as resp:
            await resp.read()

    def answered(user: str) -> float | None:
        for call in slack.of("chat.postEphemeral"):
            if call.args.get("user") == user and call.ok:
                return call.at
        return None

    try:
        async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as http:
            flood, others = schedule(args, time.time() + 0.5)
            people = list(users)

            async def flood_one(i: int) -> None:
                await command(http, "UFLOOD", "vote yes", "C1")

            async def other_one(i: int) -> None:
                sent[people[i]] = time.time()
                await command(http, people[i], "help", "C1" if i % 2 == 0 else "C2")

            await asyncio.gather(at_times(flood, flood_one), at_times(others, other_one))
            await answers_or_patience(args, lambda: all(answered(u) is not None for u in people))
        waits = {u: at - sent[u] for u in people if (at := answered(u)) is not None}
        missing = sum(answered(u) is None for u in people)
        flooded = [
            str(c.args.get("text")) for c in slack.of("chat.postEphemeral") if c.args.get("user") == "UFLOOD"
        ]
        fair = adapter.runtime.fair
        flooder = {
            "answered": sum("faster than moji" not in t for t in flooded),
            "notices": sum("faster than moji" in t for t in flooded),
            "refused": sum(fair.refused.values()) if fair is not None else 0,
            "postEphemeral_429": len([c for c in slack.rate_limited() if c.method == "chat.postEphemeral"]),
        }
        same = {u for i, u in enumerate(people) if i % 2 == 0}
        return summary("slack", args, waits, same, missing, flooder, time.monotonic() - started)
    finally:
        await adapter.close()
        await runner.cleanup()
        await slack.stop()


# ------------------------------------------------------------ Discord


async def bench_discord(args: argparse.Namespace, services: Services) -> dict[str, Any]:
    import pytest

    from adapters.discord import MojiBot
    from bot.process.config import load_config
    from tests.adapters.discord.fakediscord import GUILD_ID, FakeDiscord

    fake = FakeDiscord()  # Discord's limits, on the wall clock
    await fake.start()
    patch = pytest.MonkeyPatch()
    fake.patch(patch)
    token = "fake-discord-token-" + "x" * 40
    env = {"DISCORD_TOKEN": token, "SETTLE_MS": "150", "LOBBY_TIMEOUT": "600"}
    bot = MojiBot(load_config(env, env_file=None), services, SystemClock(), guild_ready_timeout=0.05)
    if args.without_fair_share:
        bot.runtime.fair = None
    task = asyncio.get_running_loop().create_task(bot.start(token))
    await asyncio.wait_for(bot.games_ready.wait(), 30)
    other_channel = fake.snowflake()
    sent: dict[str, float] = {}
    started = time.monotonic()

    def answered(iid: str) -> float | None:
        for request in fake.replies_to(iid):
            if request.method == "POST" and request.path.endswith(f"token-{iid}"):
                return request.at
        return None

    try:
        flood, others = schedule(args, time.time() + 0.5)
        people = [(str(200000000000000000 + i), f"Person{i}") for i in range(args.others)]
        ids: list[str] = ["" for _ in people]
        flood_ids: list[str] = []

        async def flood_one(i: int) -> None:
            flood_ids.append(await fake.slash("100000000000000009", "Flo", "vote", {"choice": "yes"}))

        async def other_one(i: int) -> None:
            uid, name = people[i]
            sent[uid] = time.time()
            channel = None if i % 2 == 0 else other_channel
            ids[i] = await fake.slash(uid, name, "help", channel=channel, guild=GUILD_ID)

        await asyncio.gather(at_times(flood, flood_one), at_times(others, other_one))
        await answers_or_patience(args, lambda: all(answered(i) is not None for i in ids))
        waits = {
            uid: at - sent[uid]
            for (uid, _), iid in zip(people, ids, strict=True)
            if (at := answered(iid)) is not None
        }
        missing = sum(answered(i) is None for i in ids)
        texts = [
            r.text
            for i in flood_ids
            for r in fake.replies_to(i)
            if r.method == "POST"
            and (r.path.startswith("/webhooks/") or (isinstance(r.json, dict) and r.json.get("type") == 4))
        ]
        fair = bot.runtime.fair
        flooder = {
            "answered": sum("faster than moji" not in t for t in texts),
            "notices": sum("faster than moji" in t for t in texts),
            "refused": sum(fair.refused.values()) if fair is not None else 0,
            "rest_429": len(fake.rate_limited()),
        }
        same = {uid for i, (uid, _) in enumerate(people) if i % 2 == 0}
        return summary("discord", args, waits, same, missing, flooder, time.monotonic() - started)
    finally:
        await bot.close()
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await task
        await fake.close()
        patch.undo()


# ------------------------------------------------------------ main


async def run(args: argparse.Namespace, platform: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        store = open_store(f"sqlite:///{Path(folder) / 'moji.db'}")
        await store.open()
        registry = Registry([TOY])
        services = Services(registry, Workspace(store, registry), StoreGameLog(store), store)
        try:
            if platform == "slack":
                return await bench_slack(args, services)
            return await bench_discord(args, services)
        finally:
            await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--flood", type=int, default=300, help="commands the flooder sends")
    parser.add_argument("--seconds", type=float, default=1.0, help="over this many seconds")
    parser.add_argument("--others", type=int, default=40, help="other people, one /moji help each")
    parser.add_argument("--only", choices=("slack", "discord"), help="one platform")
    parser.add_argument("--without-fair-share", action="store_true", help="turn the allowances off")
    parser.add_argument("--patience", type=float, default=30.0, help="seconds to wait for the answers")
    args = parser.parse_args()
    if args.only:
        results = [asyncio.run(run(args, args.only))]
        print(json.dumps(results[0]), flush=True)
    else:  # each platform in a fresh process, so neither inherits the other's leftovers
        results = []
        for platform in ("slack", "discord"):
            out = subprocess.run(
                [sys.executable, __file__, *sys.argv[1:], "--only", platform],
                capture_output=True,
                text=True,
                check=False,
            )
            lines = [line for line in out.stdout.splitlines() if line.startswith('{"platform"')]
            if not lines:
                sys.stderr.write(out.stderr)
                return 1
            print(lines[0], flush=True)
            results.append(json.loads(lines[0]))
    ok = all(r["ok"] for r in results)
    print(json.dumps({"summary": {r["platform"]: r["others_wait_p99_s"] for r in results}, "ok": ok}))
    return 0 if ok or args.without_fair_share else 1


if __name__ == "__main__":
    sys.exit(main())
