"""Several processes benchmark: events forwarded between moji processes, and failover after kill -9.

``python bench/bench_processes.py [--processes N] [--events N] [--direct N] [--workspaces W]
[--kills N] [--leases 15,5] [--database-url URL] [--seed S] [--keep]`` (``make bench-processes``;
about 3 minutes by default; figures in docs/PERFORMANCE.md, "Several processes")

What runs (all on 127.0.0.1): ``N`` real ``python -m bot`` processes (default 2) in Slack HTTP
mode on the fake Slack (tests/adapters/slack/fakeslack.py, started through
tests/hardening/botprocess.py as in the crash probe), sharing one PostgreSQL in a schema of
their own (dropped afterwards). The database comes from ``--database-url``, else
``MOJI_TEST_POSTGRES_URL``, else ``.ci/postgres.sh`` starts a throwaway server.

1. **Forwarding** (with the first lease): process A runs a race (Ann and Bob, 52 cards each,
   long hourglass) in each of ``--workspaces`` Slack workspaces; the commands that open them go
   straight to A. Then Ann's answers, each a word for the table last delivered to that channel,
   go one at a time, in a random mix, either straight to A (``--direct``, default 100) or to
   process B (``--events``, default 200), which does not run the game and forwards the event to
   A (``inbox`` row + ``NOTIFY``). Per answer:

   - ``received_to_handled_ms``: from the moment the answer is sent to B (B receives it at
     once, on loopback) to A taking it from the inbox (``inbox.handled_at``, A's clock): what
     forwarding adds before the game sees the answer. **Budget: p99 <= 250 ms.**
   - ``forwarded_to_handled_ms``: ``inbox.created_at`` (B's clock when it forwarded) to
     ``inbox.handled_at``: the part spent in the database, ``NOTIFY`` and A's inbox read (the
     pair ``moji_forward_delay_seconds`` sees).
   - ``to_mark_ms``: from sending the answer to the fake Slack receiving A's ✅, sent to B and
     sent to A; their difference is the forwarding cost as a player sees it. Both include the
     race's 150 ms settle window.

   The answers are spread over several workspaces, at most 40 a minute each, because Slack
   allows about 50 reactions a minute per workspace (moji's pacer sends 45, then shows a late ✅
   on the table instead, which would look like an answer never marked). The fake's own rate
   limits are off for the same reason (every workspace here shares one bot token, which the fake
   would count as one workspace). ``unmarked_within_2s`` counts answers with no mark (refused:
   refusals are not marked by default).

2. **Failover**, for each lease in ``--leases`` (``LEASE_SECONDS``; fresh processes and schema
   per lease): ``--kills`` times, a race is opened on one process (straight to it), played to
   its first table, and that process is killed with SIGKILL at a random point of its lease
   renewal cycle. Measured from the kill to the fake Slack receiving the adopter's first call
   for that channel that shows the race's table (the table edited in place; ``to_table_s``),
   and to the "♻️ moji had a hiccup" notice (``to_notice_s``); ``lease_lapsed_after_s`` is
   when the killed process's lease on that game ran out (``active_games.lease_until``).
   Nobody types during the failover: an answer reaching a survivor after the lease lapsed
   would make it adopt at once, so this is the slowest case. The killed process is started
   again (a new name) before the next kill. **Budget: the median <= lease + lease/3 + 5 s,
   and every failover < 60 s** (a race may be resumed within 60 s).

   How it follows from the lease: the owner renews its leases every ``min(5, lease/3)`` s, so a
   lease lapses ``lease - renewal`` to ``lease`` seconds after the kill; the survivors look for
   orphaned games every ``min(5, lease/3)`` s (checked on a 1 s tick), then replay, edit the
   table and post the notice. ``expected_s`` in the report is that window.

Prints one JSON object (figures, ``budgets`` and ``ok``); exits 1 when a budget is missed or
something failed (``errors``). Progress goes to stderr.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import platform
import random
import re
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

FORWARD_P99_BUDGET_MS = 250.0
FAILOVER_CEILING_S = 60.0
#: Slack workspaces whose races take the forwarding phase's answers, and how many answers one
#: takes a minute at most: moji's pacer sends 45 reactions a minute per workspace and shows later
#: ✅ on the table instead, which would look like a slow answer here.
WORKSPACES = 10
PER_WORKSPACE_MINUTE = 40
#: A race that lasts: 52 cards each (the whole deck for two), nobody stuck for 5 minutes, no
#: pause before the next flip, no cooldown or claim cap on a fast player, no typing-speed flag.
RACE = "start race cards=52 hourglass=300 flip-pause=0 cooldown=0 max-claims=50 cps-limit=200"
NAMES = {"UANN": "Ann", "UBOB": "Bob"}
ADOPTED = "moji had a hiccup"
MARK_WITHIN = 2.0


def trace(*what: object) -> None:
    """A line on stderr: what the benchmark is doing (the JSON report goes to stdout)."""
    print(time.strftime("%H:%M:%S"), *what, file=sys.stderr, flush=True)


def summary_ms(values: list[float]) -> dict[str, Any]:
    """p50, p99 and max (ms) of ``values`` (seconds)."""
    if not values:
        return {"n": 0}
    ordered = sorted(values)

    def pick(q: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)

    return {"n": len(ordered), "p50": pick(0.5), "p99": pick(0.99), "max": round(1000 * ordered[-1], 1)}


# ---------------------------------------------------------------------------------------------
# PostgreSQL


def postgres_url(args: argparse.Namespace) -> str:
    """``--database-url``, ``MOJI_TEST_POSTGRES_URL``, or a server ``.ci/postgres.sh`` starts (it
    stops when this process exits)."""
    url = args.database_url or os.environ.get("MOJI_TEST_POSTGRES_URL", "")
    if url:
        return url
    trace("starting PostgreSQL with .ci/postgres.sh")
    done = subprocess.run(["bash", str(ROOT / ".ci" / "postgres.sh")], capture_output=True, text=True)
    found = re.search(r"MOJI_TEST_POSTGRES_URL=(\S+)", done.stdout)
    if done.returncode or not found:
        raise SystemExit(f".ci/postgres.sh failed ({done.returncode}):\n{done.stderr[-3000:]}")
    return found.group(1).strip("'\"")


# ---------------------------------------------------------------------------------------------
# Slack's side


class Slack:
    """Signed slash commands and message events, sent straight to one process's port."""

    def __init__(self, http: Any, fake: Any) -> None:
        self.http, self.fake = http, fake
        self.triggers = 0

    async def post(self, port: int, body: str, content_type: str) -> int:
        from tests.adapters.slack.conftest import sign

        headers = {"Content-Type": content_type, **sign(body)}
        async with self.http.post(
            f"http://127.0.0.1:{port}/slack/events", data=body.encode(), headers=headers
        ) as response:
            await response.read()
            return int(response.status)

    async def up(self, port: int, within: float = 60.0) -> None:
        """Wait until the process answers Slack's URL check."""
        import aiohttp

        deadline = time.monotonic() + within
        body = json.dumps({"type": "url_verification", "challenge": "up?", "token": "t"})
        while True:
            try:
                if await self.post(port, body, "application/json") == 200:
                    return
            except aiohttp.ClientConnectionError:
                pass
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bot on port {port} never answered")
            await asyncio.sleep(0.05)

    async def command(self, port: int, team: str, channel: str, user: str, text: str) -> int:
        self.triggers += 1
        form = {
            "team_id": team,
            "channel_id": channel,
            "user_id": user,
            "user_name": user.lower(),
            "command": "/moji",
            "text": text,
            "api_app_id": "A1",
            "response_url": f"{self.fake.url}/respond/{user}",
            "trigger_id": f"{self.triggers}.2.3",
        }
        return await self.post(port, urlencode(form), "application/x-www-form-urlencoded")

    async def message(self, port: int, team: str, channel: str, user: str, text: str, ts: str) -> int:
        body = json.dumps(
            {
                "team_id": team,
                "api_app_id": "A1",
                "type": "event_callback",
                "event_id": f"Ev{secrets.token_hex(6)}",
                "event_time": int(float(ts)),
                "event": {
                    "type": "message",
                    "channel": channel,
                    "user": user,
                    "text": text,
                    "ts": ts,
                    "channel_type": "channel",
                },
                "authorizations": [{"team_id": team, "user_id": "UBOT", "is_bot": True}],
            }
        )
        return await self.post(port, body, "application/json")


class Seen:
    """What the fake Slack received, indexed as it arrives (reactions by message, tables by
    channel), so waiting for one is cheap however many calls there are."""

    def __init__(self, fake: Any) -> None:
        self.fake = fake
        self.read = 0
        self.marks: dict[str, Any] = {}  # message ts -> first reactions.add call on it
        self.tables: dict[str, list[Any]] = {}  # channel -> posts and edits showing cards
        self.calls: dict[str, list[Any]] = {}  # channel -> every post and edit

    def catch_up(self) -> None:
        calls = self.fake.calls
        while self.read < len(calls):
            call = calls[self.read]
            self.read += 1
            if not call.ok:
                continue
            if call.method == "reactions.add":
                self.marks.setdefault(str(call.args.get("timestamp")), call)
            elif call.method in ("chat.postMessage", "chat.update"):
                channel = str(call.args.get("channel"))
                self.calls.setdefault(channel, []).append(call)
                if "Cards: " in str(call.args.get("text")):
                    self.tables.setdefault(channel, []).append(call)

    async def until(self, predicate: Callable[[], bool], within: float) -> bool:
        """Wait until ``predicate()`` holds (False after ``within`` seconds)."""

        def check() -> bool:
            self.catch_up()
            return predicate()

        try:
            await self.fake.wait_until(check, within=within)
        except TimeoutError:
            return False
        return True

    def table(self, channel: str) -> str:
        self.catch_up()
        found = self.tables.get(channel)
        return str(found[-1].args.get("text")) if found else ""


# ---------------------------------------------------------------------------------------------
# The processes


@dataclass
class Cluster:
    """``n`` bot processes on one schema, each reached on its own port."""

    url: str
    schema: str
    lease: int
    workdir: Path
    slack: Slack
    seen: Seen
    n: int
    log_level: str
    procs: list[Any] = field(default_factory=list)
    ports: list[int] = field(default_factory=list)
    db: Any = None

    def __post_init__(self) -> None:
        from tests.adapters.slack.conftest import SECRET
        from tests.hardening.botprocess import BotProcess, free_port

        database = self.url + ("&" if "?" in self.url else "?") + f"schema={self.schema}"
        for i in range(self.n):
            port = free_port()
            workdir = self.workdir / f"lease{self.lease}-p{i}"
            workdir.mkdir(parents=True)
            env = {
                "DATABASE_URL": database,
                "LEASE_SECONDS": str(self.lease),
                "SLACK_BOT_TOKEN": "xoxb-bench",
                "SLACK_SIGNING_SECRET": SECRET,
                "HOST": "127.0.0.1",
                "PORT": str(port),
                "MOJI_TEST_SLACK_API": self.slack.fake.api_url,
                "LOG_LEVEL": self.log_level,
            }
            self.ports.append(port)
            self.procs.append(BotProcess(workdir, env))

    @property
    def every(self) -> float:
        """Seconds between lease renewals and between looks for orphaned games."""
        return min(5.0, self.lease / 3)

    def alive(self, i: int) -> bool:
        proc = self.procs[i].proc
        return proc is not None and proc.poll() is None

    async def start(self) -> None:
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f"CREATE SCHEMA {self.schema}")
        finally:
            await conn.close()
        self.db = await asyncpg.connect(self.url, server_settings={"search_path": self.schema})
        for proc in self.procs:
            proc.start()
        await asyncio.gather(*(self.slack.up(port) for port in self.ports))
        await asyncio.gather(*(self.prepared(i) for i in range(self.n)))
        await self.settled()

    async def restart(self, i: int) -> float:
        """Start process ``i`` again (a new name); seconds until every process knows of it."""
        began = time.monotonic()
        self.procs[i].start()
        await self.slack.up(self.ports[i])
        await self.settled()
        up = time.monotonic() - began
        await self.prepared(i)
        return up

    async def prepared(self, i: int) -> None:
        """Wait until process ``i`` has prepared every game (seconds of CPU after it starts, which
        would otherwise land on whatever is measured next)."""
        from bot.core.registry import load_default

        games = sum(1 for info in load_default() if info.prepare is not None)

        async def done() -> bool:
            return bool(self.procs[i].output().count(" prepared in ") >= games)

        await until(done, 120, f"process {i} prepared its games")

    async def settled(self) -> None:
        """Every live process has looked around since the last one joined, so each knows that
        others share the database (an event for a chat it does not run is forwarded)."""
        alive = sum(1 for i in range(self.n) if self.alive(i))

        async def joined() -> bool:
            rows = await self.db.fetch(
                "SELECT 1 FROM instances WHERE seen_until >= EXTRACT(EPOCH FROM clock_timestamp())::float8"
            )
            return len(rows) == alive

        await until(joined, 60, f"{alive} live processes")
        joined_at = await self.db.fetchval("SELECT EXTRACT(EPOCH FROM clock_timestamp())::float8")

        async def looked() -> bool:
            rows = await self.db.fetch("SELECT seen_until FROM instances WHERE seen_until >= $1", joined_at)
            return len(rows) >= alive and all(r[0] - self.lease >= joined_at for r in rows)

        await until(looked, 60, "every process looked around")

    async def owner_index(self, team: str, channel: str) -> int | None:
        owner = await self.db.fetchval(
            "SELECT owner FROM active_games WHERE workspace_id = $1 AND channel_id = $2", team, channel
        )
        if owner is None:
            return None
        pid = int(str(owner).rsplit(":", 1)[1])
        found = [i for i, p in enumerate(self.procs) if p.proc is not None and p.proc.pid == pid]
        return found[0] if found else None

    async def open_race(self, i: int, team: str, channel: str) -> None:
        """Ann opens a race on process ``i``, Bob joins, Ann starts it; until its first table."""
        port = self.ports[i]
        seen = self.seen
        assert await self.slack.command(port, team, channel, "UANN", RACE) == 200
        ok = await seen.until(
            lambda: any("lobby" in c.text().lower() for c in seen.calls.get(channel, [])), 30
        )
        if not ok:
            raise TimeoutError(f"no lobby in {channel}")
        assert await self.slack.command(port, team, channel, "UBOB", "join") == 200
        # (the join and the go are handled in their order of arrival: no need to wait between)
        assert await self.slack.command(port, team, channel, "UANN", "go") == 200
        if not await seen.until(lambda: bool(seen.tables.get(channel)), 30):
            raise TimeoutError(f"the race in {channel} never showed a table")

    async def metric(self, i: int, name: str) -> float | None:
        """One series' value on process ``i``'s /metrics (summed over labels)."""
        try:
            async with self.slack.http.get(f"http://127.0.0.1:{self.ports[i]}/metrics") as response:
                text = await response.text()
        except Exception:
            return None
        values = [float(m.group(1)) for m in re.finditer(rf"^{name}(?:{{[^}}]*}})? (\S+)$", text, re.M)]
        return sum(values) if values else None

    async def close(self) -> None:
        await asyncio.gather(*(p.close() for p in self.procs))
        if self.db is not None:
            await self.db.close()
        import asyncpg

        conn = await asyncpg.connect(self.url)
        try:
            await conn.execute(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
        finally:
            await conn.close()

    def tracebacks(self) -> int:
        return sum(p.output(since_start=False).count("Traceback") for p in self.procs)


async def until(predicate: Callable[[], Awaitable[bool]], within: float, what: str) -> None:
    deadline = time.monotonic() + within
    while not await predicate():
        if time.monotonic() > deadline:
            raise TimeoutError(f"never happened: {what}")
        await asyncio.sleep(0.05)


# ---------------------------------------------------------------------------------------------
# 1. forwarding


class Words:
    """A word for a table's letters (the casual dictionary and the race's default bans)."""

    def __init__(self, rng: random.Random) -> None:
        from games.common.words import WordRules
        from games.lexicon import load
        from games.race.options import DEFAULT_BANS

        self.lexicon = load("casual")
        self.rules = WordRules(bans=frozenset(DEFAULT_BANS))
        self.rng = rng
        self.lexicon.examples(["a", "b"], self.rules)  # its letter bitmaps, before any timing

    def for_table(self, text: str) -> str | None:
        line = text.split("Cards: ", 1)[1].split("\n", 1)[0].split()
        letters = [c.lower() for c in line if len(c) == 1 and c.isalpha()]
        words = self.lexicon.examples(letters, self.rules)
        return self.rng.choice(words[:20]) if words else None


async def forwarding(c: Cluster, args: argparse.Namespace, errors: list[str]) -> dict[str, Any]:
    """Answers to A's races, sent to B (forwarded) and to A (direct), one at a time."""
    seen = c.seen
    rng = random.Random(args.seed)
    words = Words(rng)
    chats = [(f"T{k:02d}", f"CF{k:02d}") for k in range(1, args.workspaces + 1)]
    trace(f"forwarding: opening {len(chats)} races on process 0")
    await asyncio.gather(*(c.open_race(0, team, channel) for team, channel in chats))
    for team, channel in chats:
        owner = await c.owner_index(team, channel)
        if owner != 0:
            errors.append(f"forwarding: the race in {channel} runs on process {owner}, not 0")
    kinds = ["forwarded"] * args.events + ["direct"] * args.direct
    rng.shuffle(kinds)
    answered: dict[str, str] = {}  # channel -> the table text last answered
    recent: dict[str, list[float]] = {}  # channel -> when its answers were sent
    stuck: set[str] = set()
    sent: list[dict[str, Any]] = []
    unmarked = 0
    started = time.monotonic()
    trace(f"forwarding: {args.events} answers through process 1, {args.direct} straight to process 0")
    turn = 0
    for kind in kinds:
        word = None
        while word is None:
            # the next channel (in turn) whose table changed since it was last answered
            minute_ago = time.monotonic() - 60
            fresh = [
                (team, channel)
                for team, channel in chats
                if channel not in stuck
                and seen.table(channel)
                and seen.table(channel) != answered.get(channel)
            ]
            ready = [
                (team, channel)
                for team, channel in fresh
                if sum(1 for t in recent.get(channel, []) if t > minute_ago) < PER_WORKSPACE_MINUTE
            ]
            if fresh and not ready:
                await asyncio.sleep(0.1)  # each of them had its minute's answers
                continue
            if not ready:
                if len(stuck) == len(chats):
                    break
                if not await seen.until(
                    lambda: any(seen.table(ch) != answered.get(ch) for _, ch in chats if ch not in stuck), 10
                ):
                    break
                continue
            team, channel = ready[turn % len(ready)]
            turn += 1
            table = answered[channel] = seen.table(channel)
            word = None if "Game over" in table else words.for_table(table)
            if word is None:
                stuck.add(channel)  # the race ended, or no word fits: the hourglass would take 5 min
        if word is None:
            errors.append(f"forwarding: no race left to answer ({len(stuck)} stuck or over)")
            break
        target = 1 if kind == "forwarded" else 0
        recent.setdefault(channel, []).append(time.monotonic())
        ts = f"{time.time():.6f}"
        sent_at = time.time()
        status = await c.slack.message(c.ports[target], team, channel, "UANN", word, ts)
        if status != 200:
            errors.append(f"forwarding: Slack's request answered {status}")
            continue
        if await seen.until(functools.partial(seen.marks.__contains__, ts), MARK_WITHIN):
            mark = seen.marks[ts]
            sent.append(
                {"kind": kind, "ts": ts, "sent_at": sent_at, "mark": mark.at, "name": mark.args.get("name")}
            )
            if mark.args.get("name") != "white_check_mark":
                answered.pop(channel, None)  # refused: try that table again
        else:
            unmarked += 1  # refused (refusals are not marked by default): try that table again
            trace(f"forwarding: {word.upper()} was not marked in {MARK_WITHIN:g} s", table.split("\n")[:3])
            answered.pop(channel, None)
            sent.append({"kind": kind, "ts": ts, "sent_at": sent_at, "mark": None, "name": None})
    wall = time.monotonic() - started
    await asyncio.sleep(1.0)  # the last inbox rows are taken

    rows = await c.db.fetch("SELECT event_key, created_at, handled_at FROM inbox")
    by_ts: dict[str, Any] = {}
    for row in rows:
        parts = str(row["event_key"]).split(":")
        if parts[0] == "text" and len(parts) >= 3:
            by_ts[parts[-2]] = row
    received, in_database, unhandled, not_forwarded = [], [], 0, 0
    for answer in sent:
        row = by_ts.get(answer["ts"])
        if answer["kind"] == "direct":
            if row is not None:
                errors.append(f"forwarding: an answer sent to the owner was forwarded ({answer['ts']})")
            continue
        if row is None:
            not_forwarded += 1
        elif row["handled_at"] is None:
            unhandled += 1
        else:
            received.append(row["handled_at"] - answer["sent_at"])
            in_database.append(row["handled_at"] - row["created_at"])
    marks = {
        kind: [a["mark"] - a["sent_at"] for a in sent if a["kind"] == kind and a["mark"] is not None]
        for kind in ("forwarded", "direct")
    }
    accepted = sum(1 for a in sent if a["name"] == "white_check_mark")
    fwd, direct = summary_ms(marks["forwarded"]), summary_ms(marks["direct"])
    cost = {q: round(fwd[q] - direct[q], 1) for q in ("p50", "p99") if fwd.get(q) is not None and q in direct}
    delay_sum = await c.metric(0, "moji_forward_delay_seconds_sum")
    delay_count = await c.metric(0, "moji_forward_delay_seconds_count")
    if not_forwarded:
        errors.append(f"forwarding: {not_forwarded} answers sent to process 1 were not forwarded")
    if unhandled:
        errors.append(f"forwarding: {unhandled} forwarded answers were never handled")
    return {
        "workspaces": len(chats),
        "answers": len(sent),
        "accepted": accepted,
        "unmarked_within_2s": unmarked,
        "races_stuck_or_over": len(stuck),
        "wall_s": round(wall, 1),
        "received_to_handled_ms": summary_ms(received),
        "forwarded_to_handled_ms": summary_ms(in_database),
        "to_mark_ms": {"forwarded": fwd, "direct": direct},
        "forwarding_cost_ms": cost,
        "owner_metrics": {
            "forward_delay_mean_ms": round(1000 * delay_sum / delay_count, 1)
            if delay_sum is not None and delay_count
            else None,
            "forward_delay_count": delay_count,
        },
    }


# ---------------------------------------------------------------------------------------------
# 2. failover


async def failover(c: Cluster, args: argparse.Namespace, errors: list[str], round_: int) -> dict[str, Any]:
    """``--kills`` times: a race opened on one process, that process killed with SIGKILL."""
    seen = c.seen
    rng = random.Random(args.seed + 100 + c.lease)
    kills: list[dict[str, Any]] = []
    victim = 0
    for k in range(args.kills):
        team, channel = "TK", f"CK{round_}{c.lease:03d}{k:02d}"
        while not c.alive(victim):
            victim = (victim + 1) % c.n
        await c.open_race(victim, team, channel)
        owner = await c.owner_index(team, channel)
        if owner != victim:
            errors.append(f"failover: the race in {channel} runs on {owner}, not on {victim}")
            victim = owner if owner is not None else victim
        name = await name_of(c, victim)
        games = int(await c.db.fetchval("SELECT count(*) FROM active_games WHERE owner = $1", name))
        await asyncio.sleep(1.0 + rng.uniform(0, c.every))  # quiet; anywhere in the renewal cycle
        seen.catch_up()
        before = len(seen.calls.get(channel, []))
        killed_at = time.time()
        c.procs[victim].kill9()
        lapses_at = await c.db.fetchval(
            "SELECT lease_until FROM active_games WHERE workspace_id = $1 AND channel_id = $2", team, channel
        )
        trace(f"failover (lease {c.lease} s): killed process {victim}, which ran {games} game(s)")

        def adopted(channel: str = channel, before: int = before) -> bool:
            after = seen.calls.get(channel, [])[before:]
            return any("Cards: " in str(x.args.get("text")) for x in after) and any(
                ADOPTED in x.text() for x in after
            )

        done = await seen.until(adopted, FAILOVER_CEILING_S + 10)
        after = seen.calls.get(channel, [])[before:]
        tables = [x.at - killed_at for x in after if "Cards: " in str(x.args.get("text"))]
        notices = [x.at - killed_at for x in after if ADOPTED in x.text()]
        entry: dict[str, Any] = {
            "games_on_the_killed_process": games,
            "lease_lapsed_after_s": round(float(lapses_at) - killed_at, 2) if lapses_at is not None else None,
            "to_table_s": round(tables[0], 2) if tables else None,
            "table_call": next((x.method for x in after if "Cards: " in str(x.args.get("text"))), None),
            "to_notice_s": round(notices[0], 2) if notices else None,
        }
        if not done:
            errors.append(f"failover (lease {c.lease} s): the race in {channel} was not carried on in 70 s")
        adopter = await c.owner_index(team, channel)
        entry["adopted_by"] = adopter
        if k < args.kills - 1:  # (not after the last: the processes stop next)
            entry["restart_s"] = round(await c.restart(victim), 2)
        kills.append(entry)
        trace(f"failover (lease {c.lease} s): {entry}")
        victim = adopter if adopter is not None else (victim + 1) % c.n
    times = [k["to_table_s"] for k in kills if k["to_table_s"] is not None]
    budget = c.lease + c.lease / 3 + 5
    return {
        "lease_s": c.lease,
        "renew_and_look_every_s": round(c.every, 2),
        "expected_s": [round(c.lease - c.every, 1), round(c.lease + c.every + 1, 1)],
        "kills": kills,
        "to_table_median_s": round(statistics.median(times), 2) if times else None,
        "to_table_max_s": round(max(times), 2) if times else None,
        "budget_median_s": round(budget, 2),
    }


async def name_of(c: Cluster, i: int) -> str:
    rows = await c.db.fetch("SELECT instance_id FROM instances")
    pid = c.procs[i].proc.pid
    return next((str(r[0]) for r in rows if str(r[0]).endswith(f":{pid}")), "")


# ---------------------------------------------------------------------------------------------


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    import aiohttp

    from tests.adapters.slack.fakeslack import FakeSlack

    url = postgres_url(args)
    fake = FakeSlack()
    fake.names.update(NAMES)
    fake.limits = None  # many workspaces on one token here; moji's own pacer keeps Slack's limits
    await fake.start()
    errors: list[str] = []
    report: dict[str, Any] = {
        "processes": args.processes,
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
        "forwarding": None,
        "failover": [],
    }
    began = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="moji-bench-processes-"))
    tracebacks = 0
    try:
        async with aiohttp.ClientSession() as http:
            slack = Slack(http, fake)
            seen = Seen(fake)
            for round_, lease in enumerate(args.leases):
                schema = f"bench_procs_{secrets.token_hex(4)}"
                c = Cluster(url, schema, lease, scratch, slack, seen, args.processes, args.log_level)
                trace(f"lease {lease} s: starting {args.processes} processes (schema {schema})")
                try:
                    await c.start()
                    report["machine"]["postgres"] = await c.db.fetchval("SHOW server_version")
                    if round_ == 0 and args.events + args.direct > 0:
                        report["forwarding"] = await forwarding(c, args, errors)
                    if args.kills > 0:
                        report["failover"].append(await failover(c, args, errors, round_))
                finally:
                    tracebacks += c.tracebacks()
                    if args.keep:
                        trace(f"logs kept in {scratch}")
                    await c.close()
    finally:
        await fake.stop()
        if not args.keep:
            shutil.rmtree(scratch, ignore_errors=True)
    if tracebacks:
        errors.append(f"{tracebacks} traceback(s) in the bots' logs")

    budgets: dict[str, Any] = {}
    ok: dict[str, bool] = {}
    fwd = report.get("forwarding")
    if fwd is not None:
        budgets["forwarding_received_to_handled_p99_ms"] = FORWARD_P99_BUDGET_MS
        p99 = fwd["received_to_handled_ms"].get("p99")
        ok["forwarding_received_to_handled_p99_ms"] = p99 is not None and p99 <= FORWARD_P99_BUDGET_MS
    for f in report["failover"]:
        key = f"failover_lease_{f['lease_s']}"
        budgets[key] = {"median_s": f["budget_median_s"], "max_s": FAILOVER_CEILING_S}
        ok[key] = (
            f["to_table_median_s"] is not None
            and f["to_table_median_s"] <= f["budget_median_s"]
            and all(k["to_table_s"] is not None and k["to_table_s"] < FAILOVER_CEILING_S for k in f["kills"])
        )
    ok["errors"] = not errors
    report.update(budgets=budgets, ok=ok, errors=errors, wall_s=round(time.monotonic() - began, 1))
    return report


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--processes", type=int, default=2, help="bot processes sharing the database (>= 2)")
    parser.add_argument("--events", type=int, default=200, help="answers sent to a non-owner (forwarded)")
    parser.add_argument("--direct", type=int, default=100, help="answers sent straight to the owner")
    parser.add_argument("--workspaces", type=int, default=WORKSPACES, help="races taking the answers")
    parser.add_argument("--kills", type=int, default=3, help="failovers measured per lease")
    parser.add_argument(
        "--leases",
        type=lambda s: [int(x) for x in s.split(",") if x],
        default=[15, 5],
        help="LEASE_SECONDS values, comma-separated (the first also runs the forwarding part)",
    )
    parser.add_argument(
        "--database-url", help="PostgreSQL (else MOJI_TEST_POSTGRES_URL, else .ci/postgres.sh)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--log-level", default="INFO", help="the bots' LOG_LEVEL")
    parser.add_argument("--keep", action="store_true", help="keep the bots' logs (the folder goes to stderr)")
    args = parser.parse_args(argv)
    if args.processes < 2:
        parser.error("--processes must be at least 2")
    if any(lease < 3 for lease in args.leases):
        parser.error("LEASE_SECONDS is at least 3")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    report = asyncio.run(main_async(args))
    print(json.dumps(report, indent=2))
    return 0 if all(report["ok"].values()) else 1


if __name__ == "__main__":
    sys.exit(main())
