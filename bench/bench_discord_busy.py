"""A busy Discord token: the real bot process against the rate-limited fake Discord.

``python bench/bench_discord_busy.py [--channels 300] [--players 3] [--seconds 60] [--settle 15]
[--global-rate 50] [--seed S] [--log-level WARNING] [--dump FILE]``

What runs (all on 127.0.0.1): one real ``python -m bot`` process on one bot token (started as
bench/soak.py starts it: discord.py's REST base and gateway on the fake; SQLite; this checkout's
code) against the fake Discord (tests/adapters/discord/fakediscord.py) with **its rate limits
on**, as Discord documents them: 50 requests a second per token (the global limit; interaction
callbacks and follow-ups are exempt) and the per-channel route buckets (5 posts and 5 edits per
5 s, one reaction per 0.25 s). ``--channels`` text channels over guilds of up to 100 (soak.py's
layout). ``--global-rate`` sets the token's global limit in the fake and in the bot
(``DISCORD_GLOBAL_RATE``), for a bot whose limit Discord support raised.

Each channel gets a race (bench/bench_slack_busy.py's ``RACE``: long, no pause between flips)
opened by ``/moji start``, joined by ``--players - 1`` more people and started with ``/moji go``.
Then for ``--seconds`` every player types, every uniform(3, 6) s, a word that fits the table last
delivered to their channel (what they can see), as a gateway ``MESSAGE_CREATE``: the lively
players of the Slack bench. Afterwards the benchmark waits ``--settle`` s and reads what the fake
received, as the Slack bench does:

- ``rate_limited``: responses 429 (budget: **0**);
- ``accepted_shown_ms``: for each answer the race accepted, from sending it to the first sign of
  acceptance — its ✅ reaction or a table line naming it ("Ann takes … with WORD", "✅ Ann: WORD")
  — p50/p99/max (budget: **p99 <= 3 s**);
- ``table_ms``: from sending an accepted answer to the first table (post or edit) showing its
  outcome (budget: **p99 <= 5 s**);
- ``calls``: REST calls by kind, per accepted answer, and the token's global budget used
  (requests a second bound by the global limit);
- ``table_gap_ms``: the time between two table calls in one channel while racing (how often a
  channel is redrawn; when the token is the bottleneck, an answer waits for the next of these);
- ``bot_cpu_s``: the bot process's CPU from its start to the end of the settle; ``bot_cpu_racing``
  its CPU while the players race, and that as a share of one core (budget: under 0.6; shown, not
  counted in ``ok``).

Prints one JSON object (figures, ``budgets``, ``ok``); exits 1 when a budget is missed. Progress on
stderr. Figures: docs/PERFORMANCE.md, "A busy Discord token".
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import random
import resource
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.bench_processes import Words, summary_ms, trace  # noqa: E402
from bench.bench_slack_busy import RACE, judge, lively  # noqa: E402
from bench.soak import (  # noqa: E402
    USER_BASE,
    Channel,
    bot_env,
    bot_ready,
    cpu_seconds,
    lines_of,
    make_fake,
    spawn_bot,
    stop_bot,
)

CHECK = "✅"


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--channels", type=int, default=300)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--settle", type=float, default=15.0)
    ap.add_argument("--open-within", type=float, default=180.0, help="seconds each race gets to show a table")
    ap.add_argument(
        "--global-rate",
        type=int,
        default=50,
        help="the token's global limit, requests a second, in the fake and the bot "
        "(DISCORD_GLOBAL_RATE): Discord's 50, or what Discord support raised it to",
    )
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--log-level", default="WARNING")
    ap.add_argument("--dump", type=Path, help="write the answers, their ✅ and the tables here (JSON)")
    return ap.parse_args(argv)


def start_options() -> dict[str, Any]:
    """The slash options of ``/moji start`` for :data:`RACE` (``start race cards=52 …``)."""
    _, game, *rest = RACE.split()
    options: dict[str, Any] = {"game": game}
    more = []
    for word in rest:
        key, _, value = word.partition("=")
        if key == "cards":
            options["cards"] = int(value)
        else:
            more.append(word)
    options["more"] = " ".join(more)
    return options


class Seen:
    """What the fake Discord received, indexed as it arrives (its listener)."""

    def __init__(self) -> None:
        self.tables: dict[str, list[tuple[float, str]]] = {}  # channel -> (time, text) of each table call
        self.posted: set[str] = set()  # channels with a message from the bot (the lobby, first)
        self.marks: dict[str, float] = {}  # message id -> when its ✅ was added
        self.kinds = Counter[str]()
        self.limited: list[tuple[str, str, str]] = []  # (method, path, bucket) of each 429
        self.token_calls = Counter[int]()  # whole second -> requests bound by the global limit
        self.pictures = 0
        self.unrouted: list[str] = []

    def __call__(self, request: Any) -> None:
        parts = request.path.strip("/").split("/")
        kind = self.kind(request.method, parts)
        self.kinds[kind] += 1
        if kind not in ("interaction",):
            self.token_calls[int(request.at)] += 1
        if request.status == 429:
            self.limited.append((request.method, request.path, request.limited or "shared"))
            return
        if request.status == 404:
            self.unrouted.append(f"{request.method} {request.path}")
        if request.status != 200:
            return
        if kind == "reaction" and request.method == "PUT" and unquote(parts[5]) == CHECK:
            self.marks.setdefault(parts[3], request.at)
        elif kind in ("post", "edit"):
            self.posted.add(parts[1])
            content = str((request.json or {}).get("content") or "")
            if content.startswith("Cards: "):
                self.tables.setdefault(parts[1], []).append((request.at, "\n".join(lines_of(request.json))))
                self.pictures += bool(request.files)

    @staticmethod
    def kind(method: str, parts: list[str]) -> str:
        if parts[0] in ("interactions", "webhooks"):
            return "interaction"
        if parts[0] == "channels" and len(parts) >= 3 and parts[2] == "messages":
            if method == "POST" and len(parts) == 3:
                return "post"
            if method == "PATCH" and len(parts) == 4:
                return "edit"
            if len(parts) >= 5 and parts[4] == "reactions":
                return "reaction"
        return f"other {method}"

    def table(self, channel: str) -> str:
        found = self.tables.get(channel)
        return found[-1][1] if found else ""


async def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    rng = random.Random(args.seed)
    fake = make_fake(args.channels, global_rate=args.global_rate)
    seen = Seen()
    fake.listener = seen
    await fake.start()
    channels: list[Channel] = []
    players: dict[str, list[tuple[str, str]]] = {}
    for n, cid in enumerate(fake.guild_of):
        people = [(str(USER_BASE + 10 * n + k), f"P{n:03d}{'ABCDEFGH'[k]}") for k in range(args.players)]
        players[cid] = people
        channels.append(Channel(fake.guild_of[cid], cid, (people[0], people[1])))
    errors: list[str] = []
    workdir = Path(tempfile.mkdtemp(prefix="moji-discord-busy-"))
    log_path = workdir / "bot.log"
    words = Words(rng)
    answers: list[dict[str, Any]] = []
    env = {**bot_env(workdir, args.log_level), "DISCORD_GLOBAL_RATE": str(args.global_rate)}
    child = spawn_bot(fake.base, env, workdir, log_path)
    began = ended = 0.0
    bot_cpu = cpu_began = cpu_ended = 0.0
    try:
        await bot_ready(fake)
        trace(f"bot up; opening {len(channels)} races")
        options = start_options()

        async def open_race(channel: Channel) -> None:
            first, *rest = players[channel.id]
            await fake.slash_in(channel, first, "start", options)
            try:
                await fake.until(lambda: channel.id in seen.posted, within=args.open_within)
            except TimeoutError:
                errors.append(f"no lobby in {channel.id}")
                return
            for who in rest:
                await fake.slash_in(channel, who, "join", {})
            await fake.slash_in(channel, first, "go", {})

        await asyncio.gather(*(open_race(c) for c in channels))
        try:
            await fake.until(lambda: all(seen.table(c.id) for c in channels), within=args.open_within)
        except TimeoutError:
            errors.append(f"not every race showed a table within {args.open_within:.0f} s")
        began = time.time()
        cpu_began = cpu_seconds(child.pid)
        trace(f"racing for {args.seconds:.0f} s")
        stop = time.monotonic() + args.seconds

        async def player(channel: Channel, who: tuple[str, str]) -> None:
            async def say(word: str) -> None:
                sent = time.time()
                mid = await fake.say_in(channel, who, word)
                answer = {"channel": channel.id, "name": who[1], "word": word, "mid": mid, "sent": sent}
                answers.append(answer)

            await lively(rng, words, stop, lambda: seen.table(channel.id), say)

        await asyncio.gather(*(player(c, who) for c in channels for who in players[c.id]))
        ended = time.time()
        cpu_ended = cpu_seconds(child.pid)
        trace(f"{len(answers)} answers sent; settling {args.settle:.0f} s")
        await asyncio.sleep(args.settle)
        if child.poll() is None:
            bot_cpu = cpu_seconds(child.pid)
        else:
            errors.append(f"the bot process exited with {child.returncode}")
    finally:
        stop_bot(child)
        await fake.close()

    judged = judge(answers, lambda a: seen.marks.get(a["mid"]), seen.tables)
    if args.dump is not None:
        marks = {a["mid"]: seen.marks.get(a["mid"]) for a in answers}
        args.dump.write_text(json.dumps({"answers": answers, "marks": marks, "tables": seen.tables}))
    budgets = judged.budgets(len(seen.limited))
    accepted_n = len(judged.accepted_shown)
    racing = [n for second, n in seen.token_calls.items() if began <= second < ended]
    gaps = [
        b - a
        for calls in seen.tables.values()
        for (a, _), (b, _) in itertools.pairwise(calls)
        if began <= a and b < ended
    ]
    log_text = log_path.read_text(errors="replace")
    bad = [line for line in log_text.splitlines() if " ERROR " in line or line.startswith("Traceback")]
    errors += [f"log: {line[:200]}" for line in bad[:10]]
    errors += [f"unrouted: {r}" for r in seen.unrouted[:10]] + fake.listener_errors[:10]
    try:
        loop_lag = json.loads((workdir / "loop_lag.json").read_text())
        loop_lag.pop("worst", None)
    except (OSError, ValueError):
        loop_lag = {}
    drawn = seen.kinds["post"] + seen.kinds["edit"] + seen.kinds["reaction"]
    report = {
        "bench": "discord_busy",
        "channels": args.channels,
        "global_rate": args.global_rate,
        "players_per_channel": args.players,
        "seconds": args.seconds,
        "answers": len(answers),
        **judged.figures(),
        "table_gap_ms": summary_ms(gaps),
        "rate_limited": len(seen.limited),
        "rate_limited_by_bucket": dict(Counter(bucket for _, _, bucket in seen.limited)),
        "calls": dict(sorted(seen.kinds.items())),
        "calls_per_accepted_answer": round(drawn / max(1, accepted_n), 2),
        "tables_with_a_picture": seen.pictures,
        "token_calls_per_s_racing": {
            "mean": round(sum(racing) / len(racing), 1) if racing else 0,
            "max": max(racing, default=0),
        },
        "bot_cpu_s": round(bot_cpu, 1),
        # while the players race: CPU seconds and their share of one core (budget: under 60 %)
        "bot_cpu_racing": {
            "s": round(cpu_ended - cpu_began, 1),
            "share_of_a_core": round((cpu_ended - cpu_began) / max(1e-9, ended - began), 2),
        },
        # the fake Discord and the players share this process: a busy driver delays what it records
        "driver_cpu_s": round(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]), 1),
        "load_avg_at_end": [round(x, 2) for x in os.getloadavg()],
        "bot_event_loop_lag": loop_lag,
        "errors": errors[:20],
        "budgets": budgets,
        "ok": all(b["ok"] for b in budgets.values()) and not errors,
        "log": str(log_path),
    }
    print(json.dumps(report, ensure_ascii=False))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
