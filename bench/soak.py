"""Soak: the real bot process, driven by the fake Discord, with many channels racing at once.

``python bench/soak.py [--channels N] [--seconds S | --games G] [--log-level L]``

What runs:

* the fake Discord server (tests/adapters/discord/fakediscord.py: REST v10 and the
  gateway, on 127.0.0.1) with ``--channels`` text channels spread over guilds of
  at most 100 channels;
* ``python -m bot`` in a child process (the real entry point, a fresh SQLite file,
  ``DISCORD_TOKEN`` set), whose discord.py is pointed at the fake server;
* two simulated players per channel: one starts a race (``/moji start game:race
  cards:5``), the other joins, the host presses on; at every new table one of them
  types an answer drawn from the lexicon after a short think (sometimes both, sometimes
  a wrong word, sometimes hostile text); when the game is over the next one starts.

What it reports (JSON, one object): claims/s, p50/p99 from a player's message
reaching the gateway to the bot's ✅ reaction request reaching the server (this
includes the 150 ms settle window, the fairness rule), the answers the table names
instead (refused ones, "Not taken: ✗ Bob3: QXZJV · ⏱ Ann3: TAKE", which get no
reaction unless the workspace's ``reasons`` setting asks for one, and ✅ the delivery
layer left to the table when reactions were backed up), the bot's event-loop lag
(how late its loop runs a callback asked of it from another thread, every 0.2 s), the
bot's RSS sampled over time, games finished, and errors: tracebacks or ERROR lines in
the bot's log, REST requests the fake could not route, the bot process dying, the
token in the log, an answer to a running game that was neither marked nor named on
the table, and hidden information (any text the bot sent privately: ephemeral
replies, DMs) showing up in a channel message. ``errors`` must be 0.

``--games G`` stops once every channel has finished G games (the short, deterministic
smoke run that ``make test`` runs through tests/hardening/test_soak_smoke.py; its
asserts never depend on timing); ``--seconds S`` runs for S seconds (``make soak``:
1,000 channels for 600 s).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

#: Budgets the run is judged against.
ERRORS_BUDGET = 0
#: RSS may not grow by more than this between the end of warm-up and the end of the run.
RSS_GROWTH_BUDGET_MB = 64.0
#: p99 from a player's message to the bot's reaction, settle window included (150 ms).
REACTION_BUDGET_P99_MS = 1000.0

TOKEN = "soak-discord-token." + "S3cr3t" * 8
GUILD_BASE = 810000000000000000
CHANNELS_PER_GUILD = 100
USER_BASE = 300000000000000000
#: Private lines at least this long are watched for in every channel message.
PRIVATE_MIN = 16
#: The end of a result post's title (bot/core/views.py).
RESULT_TITLES = ("— game over", "— game void")
#: How a table lists refused answers, and how it counts those it has no room for.
NOT_TAKEN = "Not taken: "
MORE = re.compile(r" \(\+(\d+) more\)$")
HOSTILE = (
    "а" * 4,  # Cyrillic a: not a word in any English list
    "z\u0351\u0352\u0353ebra",
    "wo\u200brd",
    "**bold**",
    "<@100000000000000001>",
    "@everyone",
    "x" * 4000,
    "",
)


def lines_of(body: Any) -> list[str]:
    """Every line a reader sees in a message body (content, embed titles, descriptions, fields)."""
    if not isinstance(body, dict):
        return []
    body = body.get("data", body) if isinstance(body.get("data"), dict) else body
    parts = [str(body.get("content") or "")]
    for embed in body.get("embeds") or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        parts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields") or []]
    return [line.strip() for part in parts for line in part.splitlines() if line.strip()]


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


# ---------------------------------------------------------------------------------------------
# the child: the real bot, pointed at the fake server


def run_bot(api: str) -> int:
    """``python -m bot`` with discord.py's REST base and gateway on the fake server."""
    import discord
    import yarl
    from discord.gateway import DiscordWebSocket

    import bot.__main__

    os.environ.setdefault("PORT", "0")  # the bot's HTTP server (/healthz…): any free port, not 3000
    discord.http.Route.BASE = api + "/api/v10"
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(api.replace("http://", "ws://") + "/gateway")
    fix_heartbeat_latency(DiscordWebSocket)
    lag_file = os.environ.get("SOAK_LAG_FILE")
    if lag_file:
        watch_the_loop(Path(lag_file))
    profile = os.environ.get("SOAK_PROFILE")
    if profile:  # where the bot's time goes: SOAK_PROFILE=/tmp/bot.prof python bench/soak.py …
        import atexit
        import cProfile
        import signal

        profiler = cProfile.Profile()

        def save() -> None:
            profiler.disable()
            profiler.dump_stats(profile)

        def dump(*_: Any) -> None:
            save()
            os._exit(0)

        signal.signal(signal.SIGTERM, dump)
        atexit.register(save)  # the bot's own SIGTERM handler (a graceful stop) ends in an exit
        profiler.enable()
    return bot.__main__.main(["run", "--env-file", os.devnull])


def fix_heartbeat_latency(websocket: Any) -> None:
    """discord.py 2.7.1 measures a heartbeat's latency from a time its keep-alive thread sets only
    once the send has finished; a gateway on loopback acks before that thread runs again, and the
    latency then reads as a whole heartbeat interval ("Can't keep up, shard ID 0 websocket is
    45.0s behind") although the loop was not behind. The time is set before the send here, as
    discord.py's fix does (Rapptz/discord.py#10448, not yet released), so a warning left in the
    log means what it says."""
    send_heartbeat = websocket.send_heartbeat
    if getattr(send_heartbeat, "soak_fixed", False):
        return

    async def fixed(self: Any, data: Any) -> None:
        keep_alive = getattr(self, "_keep_alive", None)
        if keep_alive is not None:
            keep_alive._last_send = time.perf_counter()
        await send_heartbeat(self, data)

    fixed.soak_fixed = True  # type: ignore[attr-defined]
    websocket.send_heartbeat = fixed


#: How often the loop probe asks the bot's event loop to run a callback.
LAG_PROBE_EVERY = 0.2


def watch_the_loop(path: Path) -> None:
    """Measure how late the bot's event loop runs a callback asked of it from another thread, every
    :data:`LAG_PROBE_EVERY` seconds, and keep a summary in ``path`` (JSON, rewritten every 5 s).

    This is the loop's responsiveness as the gateway sees it: a loop blocked by a long callback,
    or starved of the GIL by worker threads, runs the probe late."""
    import threading

    lags: list[float] = []
    worst: list[tuple[float, float]] = []  # (seconds since start, lag) of each lag over 0.5 s
    started = time.perf_counter()

    def write() -> None:
        ordered = sorted(lags)
        summary = {
            "probes": len(lags),
            "p50_ms": round(percentile(ordered, 0.5) * 1000, 1),
            "p99_ms": round(percentile(ordered, 0.99) * 1000, 1),
            "max_ms": round(ordered[-1] * 1000, 1) if ordered else 0.0,
            "over_100_ms": sum(1 for lag in lags if lag > 0.1),
            "over_1_s": sum(1 for lag in lags if lag > 1.0),
            "worst": [[round(at, 1), round(lag, 2)] for at, lag in worst[-20:]],
        }
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(summary))
        tmp.replace(path)

    def probe(loop: asyncio.AbstractEventLoop) -> None:
        last_write = time.perf_counter()
        while not loop.is_closed():
            asked = time.perf_counter()
            ran = threading.Event()

            def answer(asked: float = asked, ran: threading.Event = ran) -> None:
                lag = time.perf_counter() - asked
                lags.append(lag)
                if lag > 0.5:
                    worst.append((asked - started, lag))
                ran.set()

            try:
                loop.call_soon_threadsafe(answer)
            except RuntimeError:  # the loop closed
                break
            while not ran.wait(1.0) and not loop.is_closed():
                pass
            if time.perf_counter() - last_write >= 5.0:
                write()
                last_write = time.perf_counter()
            time.sleep(LAG_PROBE_EVERY)
        write()

    class Policy(asyncio.DefaultEventLoopPolicy):
        watching = False

        def new_event_loop(self) -> asyncio.AbstractEventLoop:
            loop = super().new_event_loop()
            if not Policy.watching:  # the bot's one loop (asyncio.run in bot.__main__)
                Policy.watching = True
                threading.Thread(target=probe, args=(loop,), name="soak-loop-probe", daemon=True).start()
            return loop

    asyncio.set_event_loop_policy(Policy())


# ---------------------------------------------------------------------------------------------
# the parent: the fake server and the players


@dataclass
class Channel:
    """One channel's game, seen by its two players."""

    guild: str
    id: str
    players: tuple[tuple[str, str], tuple[str, str]]
    state: str = "idle"  # idle | lobby | playing
    lobby_id: str = ""
    table: str = ""
    games: int = 0
    tables: int = 0
    rng: random.Random = field(default_factory=random.Random)


@dataclass
class Stats:
    claims: int = 0
    hostile: int = 0
    reactions: dict[str, int] = field(default_factory=dict)
    latencies_ms: list[float] = field(default_factory=list)
    latency_at: list[float] = field(default_factory=list)
    #: answers the table named instead of a reaction: ✅ (left to the table), ✗ refused, ⏱ late
    table_marks: dict[str, int] = field(default_factory=dict)
    table_ms: list[float] = field(default_factory=list)
    table_at: list[float] = field(default_factory=list)
    more_refusals: int = 0  # "(+N more)": refusals a table counted without naming them
    rss_mb: list[tuple[float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    requests: int = 0
    private_texts: int = 0
    stop_attempts: int = 0
    public_messages: int = 0


def make_fake(channels: int, *, global_rate: int = 50) -> Any:
    """A fake Discord with ``channels`` channels over guilds of up to 100, whose token may make
    ``global_rate`` requests a second (Discord's 50 unless support raised it)."""
    from tests.adapters.discord.fakediscord import (
        GUILD_ID,
        DiscordLimits,
        FakeDiscord,
        RouteLimit,
        message_payload,
    )

    class SoakDiscord(FakeDiscord):
        """The fake Discord with many guilds and channels; requests go to a listener, not a list."""

        def __init__(self) -> None:
            count = (channels + CHANNELS_PER_GUILD - 1) // CHANNELS_PER_GUILD
            guilds = tuple(str(GUILD_BASE + (g << 22)) for g in range(count))
            super().__init__(guilds=guilds, limits=DiscordLimits(global_limit=RouteLimit(global_rate, 1.0)))
            self.channels: dict[str, list[str]] = {g: [] for g in guilds}
            self.guild_of: dict[str, str] = {}
            for i in range(channels):
                guild = guilds[i // CHANNELS_PER_GUILD]
                cid = str(int(guild) + 1 + i % CHANNELS_PER_GUILD)
                self.channels[guild].append(cid)
                self.guild_of[cid] = guild
            self.listener: Any = None
            self.listener_errors: list[str] = []

        def guild_payload(self, guild_id: str) -> dict[str, Any]:
            payload = super().guild_payload(guild_id)
            [template, *_] = payload["channels"]
            payload["channels"] = [
                {**template, "id": cid, "name": f"race-{n}", "position": n}
                for n, cid in enumerate(self.channels.get(guild_id, []))
            ]
            return payload

        async def _record(self, request: Any) -> None:
            if len(self.messages) > 20000:  # the fake keeps what PATCH needs, not the whole run
                for key in list(self.messages)[:10000]:
                    del self.messages[key]
            if self.listener is not None:
                try:
                    self.listener(request)
                except Exception as exc:  # a driver bug is reported, never hidden in the server
                    self.listener_errors.append(f"driver: {exc!r} on {request.method} {request.path}")

        def _message(self, channel_id: str, body: Any, *, ephemeral: bool = False) -> dict[str, Any]:
            message: dict[str, Any] = super()._message(channel_id, body, ephemeral=ephemeral)
            if channel_id in self.guild_of:
                message["guild_id"] = self.guild_of[channel_id]
            return message

        async def say_in(self, channel: Channel, who: tuple[str, str], content: str) -> str:
            mid = self.snowflake()
            member = self.member(*who)
            payload = message_payload(mid, channel.id, channel.guild, member, content)
            await self.send("MESSAGE_CREATE", payload, shard=0)
            return mid

        async def slash_in(
            self, channel: Channel, who: tuple[str, str], sub: str, options: dict[str, Any]
        ) -> None:
            opts = [
                {"name": k, "type": 4 if isinstance(v, int) else 3, "value": v} for k, v in options.items()
            ]
            data = {
                "id": "500000000000000001",
                "name": "moji",
                "type": 1,
                "options": [{"name": sub, "type": 1, "options": opts}],
            }
            payload = self._interaction(2, *who, data, channel=channel.id)
            payload["guild_id"] = channel.guild
            payload["channel"]["guild_id"] = channel.guild
            payload["authorizing_integration_owners"] = {"0": channel.guild}
            await self.send("INTERACTION_CREATE", payload, shard=0)

    assert GUILD_ID  # the module's own guild is not used here
    return SoakDiscord()


class Players:
    """Every channel's simulated players, reacting to what the bot sends."""

    def __init__(
        self,
        fake: Any,
        channels: int,
        seed: int,
        games: int | None,
        think: tuple[float, float],
        more: str = "",
    ) -> None:
        from games.common.placement import Placement
        from games.common.words import WordRules
        from games.lexicon import load
        from games.race.options import DEFAULT_BANS

        self.fake = fake
        self.lexicon = load("casual")
        self.rules = WordRules(min_length=2, bans=frozenset(DEFAULT_BANS))
        self.placement = Placement.ANYWHERE
        self.rng = random.Random(seed)
        self.target_games = games
        self.think = think
        self.more = more
        self.stats = Stats()
        self.channels: dict[str, Channel] = {}
        for cid in fake.guild_of:
            n = len(self.channels)
            players = (
                (str(USER_BASE + 2 * n), f"Ann{n}"),
                (str(USER_BASE + 2 * n + 1), f"Bob{n}"),
            )
            self.channels[cid] = Channel(fake.guild_of[cid], cid, players, rng=random.Random(seed * 7919 + n))
        #: message id → (sent at, channel, games the channel had finished by then, player, word)
        self.sent: dict[str, tuple[float, str, int, str, str]] = {}
        #: (channel, player's name, word as the table writes it) → ids of such answers
        self.named: dict[tuple[str, str, str], list[str]] = {}
        self.private: deque[str] = deque(maxlen=5000)
        self.private_set: set[str] = set()
        self.tasks: set[asyncio.Task[None]] = set()
        self.done = asyncio.Event()
        self.stopping = False
        assert len(self.channels) == channels

    # ----- scheduling --------------------------------------------------------------------
    def later(self, delay: float, coro: Any) -> None:
        async def run() -> None:
            try:
                await asyncio.sleep(delay)
            except asyncio.CancelledError:
                coro.close()  # never started: no "never awaited" warning at the end of a run
                raise
            if self.stopping:
                coro.close()
                return
            await coro

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self._task_done)

    def _task_done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None and not self.stopping:
            self.stats.errors.append(f"driver: {task.exception()!r}")

    def start_all(self, ramp: float) -> None:
        """Every channel opens its first game, spread evenly over ``ramp`` seconds."""
        count = len(self.channels)
        for n, channel in enumerate(self.channels.values()):
            self.later(ramp * n / count, self.start_game(channel))

    async def start_game(self, channel: Channel) -> None:
        channel.state = "lobby"
        options: dict[str, Any] = {"game": "race", "cards": 5}
        if self.more:
            options["more"] = self.more
        await self.fake.slash_in(channel, channel.players[0], "start", options)

    # ----- what the bot sent -------------------------------------------------------------
    def on_request(self, request: Any) -> None:
        self.stats.requests += 1
        if os.environ.get("SOAK_TRACE"):
            trace = (request.method, request.path, request.status, request.text[:200])
            print(f"{time.perf_counter():.2f}", *trace)
        if request.status == 404:
            self.stats.errors.append(f"unrouted request {request.method} {request.path}")
            return
        if request.status != 200:
            return
        parts = request.path.strip("/").split("/")
        if request.method == "PUT" and "reactions" in parts:
            self.on_reaction(parts)
        elif parts[0] == "webhooks" and not request.ephemeral and request.method == "POST":
            self.check_public("interaction follow-up", request)  # a follow-up everyone sees
        elif parts[0] == "webhooks" or (parts[0] == "channels" and parts[1] in self.dm_channels()):
            self.on_private(request)
        elif parts[0] == "channels" and parts[-1] == "messages" and request.method == "POST":
            self.on_post(parts[1], request)
        elif parts[0] == "channels" and len(parts) == 4 and request.method == "PATCH":
            self.on_edit(parts[1], parts[3], request)
        elif parts[0] == "interactions" and request.ephemeral:
            self.on_private(request)
        elif parts[0] == "interactions":
            self.check_public("interaction reply", request)

    def dm_channels(self) -> set[str]:
        return set(self.fake.dm_channels.values())

    def on_private(self, request: Any) -> None:
        for line in lines_of(request.json):
            if len(line) >= PRIVATE_MIN and line not in self.private_set:
                if len(self.private) == self.private.maxlen:
                    self.private_set.discard(self.private[0])
                self.private.append(line)
                self.private_set.add(line)
                self.stats.private_texts += 1

    def check_public(self, channel_id: str, request: Any) -> str:
        text: str = request.text
        self.stats.public_messages += 1
        if TOKEN in text:
            self.stats.errors.append(f"the token in a message in {channel_id}")
        for line in lines_of(request.json):
            if line in self.private_set:
                self.stats.errors.append(f"private text in channel {channel_id}: {line[:80]!r}")
            if "stopped by" in line.lower() and "Bob" in line:
                self.stats.errors.append(f"a player who is not the host stopped a game: {line[:80]!r}")
        return text

    def on_post(self, channel_id: str, request: Any) -> None:
        channel = self.channels.get(channel_id)
        text = self.check_public(channel_id, request)
        if channel is None:
            return
        content = str((request.json or {}).get("content") or "")
        self.on_table_lines(channel_id, request)
        if channel.state == "lobby" and "lobby" in text:
            channel.lobby_id = "?"
            self.later(channel.rng.uniform(0.05, 0.3), self.join(channel))
        elif content.startswith("Cards: "):
            channel.state = "playing"
            self.on_table(channel, content)
        elif any(line.lower().endswith(RESULT_TITLES) for line in lines_of(request.json)):
            # the result post, titled "… — game over" (the final table's own "Game over" line may
            # come in a fresh table post too, and is not a second game)
            channel.state = "idle"
            channel.table = ""
            channel.games += 1
            if self.target_games is not None and all(
                c.games >= self.target_games for c in self.channels.values()
            ):
                self.done.set()
            if self.target_games is None or channel.games < self.target_games:
                self.later(channel.rng.uniform(0.5, 1.5), self.start_game(channel))

    def on_edit(self, channel_id: str, message_id: str, request: Any) -> None:
        channel = self.channels.get(channel_id)
        self.check_public(channel_id, request)
        self.on_table_lines(channel_id, request)
        content = str((request.json or {}).get("content") or "")
        if channel is not None and channel.state == "playing" and content.startswith("Cards: "):
            self.on_table(channel, content)  # the table message is edited as cards flip
        if channel is None or channel.state != "lobby":
            return
        if channel.players[1][1] in request.text and channel.lobby_id != message_id:
            channel.lobby_id = message_id
            self.later(channel.rng.uniform(0.05, 0.2), self.go(channel))

    async def join(self, channel: Channel) -> None:
        await self.fake.slash_in(channel, channel.players[1], "join", {})

    async def go(self, channel: Channel) -> None:
        await self.fake.slash_in(channel, channel.players[0], "go", {})

    def on_table(self, channel: Channel, content: str) -> None:
        if content == channel.table:
            return
        channel.table = content
        channel.tables += 1
        face_up = [x for x in content.removeprefix("Cards: ").split() if len(x) == 1 and x.isalpha()]
        words = self.lexicon.examples(face_up, self.rules, self.placement, 6)
        rng = channel.rng
        if not words:
            return
        who = rng.randrange(2)
        roll = rng.random()
        low, high = self.think
        other = channel.players[1 - who]
        if roll < 0.1:
            word = rng.choice(HOSTILE)
            self.later(rng.uniform(low / 2, high / 2), self.say(channel, other, word, False))
        elif roll < 0.2:
            word = "".join(rng.choice("qxzjv") for _ in range(5))  # a wrong answer: ❌
            self.later(rng.uniform(low / 2, high / 2), self.say(channel, other, word, True))
            # ... whose author asks why, privately
            self.later(high, self.fake.slash_in(channel, other, "why", {}))
        elif roll < 0.22:
            # the player who is not the host tries to stop the game: refused (host or admin only)
            self.stats.stop_attempts += 1
            self.later(rng.uniform(low, high), self.fake.slash_in(channel, channel.players[1], "stop", {}))
        think = rng.uniform(low, high)
        if roll > 0.8 and len(words) > 1:  # both answer within moments of each other
            self.later(think + rng.uniform(0.0, 0.1), self.say(channel, other, words[1], True))
        self.later(think, self.say(channel, channel.players[who], rng.choice(words), True))

    async def say(self, channel: Channel, who: tuple[str, str], word: str, counted: bool) -> None:
        if channel.state != "playing":
            return
        mid = await self.fake.say_in(channel, who, word)
        if os.environ.get("SOAK_TRACE"):
            print(f"{time.perf_counter():.2f}", "SAY", channel.id, mid, who[1], repr(word[:20]))
        if counted:
            self.stats.claims += 1
            self.sent[mid] = (time.perf_counter(), channel.id, channel.games, who[1], word)
            self.named.setdefault((channel.id, who[1], word.upper()), []).append(mid)
        else:
            self.stats.hostile += 1

    def on_reaction(self, parts: list[str]) -> None:
        mid = parts[3]
        emoji = unquote(parts[5])
        sent = self.sent.pop(mid, None)
        self.stats.reactions[emoji] = self.stats.reactions.get(emoji, 0) + 1
        if sent is not None:
            now = time.perf_counter()
            self.stats.latencies_ms.append((now - sent[0]) * 1000)
            self.stats.latency_at.append(now)

    def on_table_lines(self, channel_id: str, request: Any) -> None:
        """Answers a table names: "✅ Ann3: WORD · …" (an ✅ left to the table) and "Not taken: ✗ Bob3:
        WORD · ⏱ Ann3: WORD — reason (+2 more)" (refusals, which get no reaction by default)."""
        for line in lines_of(request.json):
            if line.startswith("✅ "):
                sign: str | None = "✅"
                body = line.removeprefix("✅ ")
            elif line.startswith(NOT_TAKEN):
                sign = None
                body = line.removeprefix(NOT_TAKEN)
            else:
                continue
            more = MORE.search(body)
            if more:
                body = body[: more.start()]
                self.stats.more_refusals = max(self.stats.more_refusals, int(more.group(1)))
            for part in body.split(" · "):
                mark = sign
                if mark is None:
                    mark, _, part = part.partition(" ")
                name, _, word = part.split(" — ")[0].partition(": ")
                self.on_named(channel_id, mark, name.strip(), word.strip())

    def on_named(self, channel_id: str, mark: str, name: str, word: str) -> None:
        """Every answer of ``name`` with ``word`` in the channel still unmarked is marked by the table."""
        mids = self.named.pop((channel_id, name, word), None)
        now = time.perf_counter()
        for mid in mids or ():
            sent = self.sent.pop(mid, None)
            if sent is None:
                continue  # a reaction marked it first
            self.stats.table_marks[mark] = self.stats.table_marks.get(mark, 0) + 1
            self.stats.table_ms.append((now - sent[0]) * 1000)
            self.stats.table_at.append(now)

    def waiting(self) -> int:
        """Answers to games still running that are neither marked nor named on a table yet."""
        return sum(1 for _, cid, games, _, _ in self.sent.values() if self.channels[cid].games == games)

    def unanswered(self, end: float) -> tuple[dict[str, int], list[str]]:
        """Claims the bot never marked nor named: after their game had ended, and the rest (with
        a description of the first few of the rest: channel, message id, player, word)."""
        ended = lost = 0
        samples: list[str] = []
        for mid, (sent_at, cid, games, who, word) in self.sent.items():
            if self.channels[cid].games > games:
                ended += 1  # the game ended first (its last cards went to an earlier answer)
            else:
                lost += 1
                if len(samples) < 10:
                    ago = end - sent_at
                    samples.append(f"sent {ago:.1f} s before the players stopped: {cid} {mid} {who} {word!r}")
        return {"game_ended_first": ended, "otherwise": lost}, samples

    async def stop(self) -> None:
        self.stopping = True
        for task in list(self.tasks):
            task.cancel()
        await asyncio.gather(*self.tasks, return_exceptions=True)


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def spawn_bot(api: str, env: dict[str, str], workdir: Path, log_path: Path) -> subprocess.Popen[bytes]:
    """Start ``python -m bot`` (through :func:`run_bot`) with its output in ``log_path``."""
    with open(log_path, "wb") as log_file:
        return subprocess.Popen(
            [sys.executable, __file__, "--bot", api],
            env=env,
            cwd=workdir,
            stdout=log_file,
            stderr=subprocess.STDOUT,
        )


def bot_env(workdir: Path, log_level: str) -> dict[str, str]:
    """The bot child's environment: this checkout's code, the soak token, a fresh SQLite file in
    ``workdir`` and the loop probe's file there (``loop_lag.json``)."""
    return {
        **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SLACK_"))},
        "DISCORD_TOKEN": TOKEN,
        "DATABASE_URL": f"sqlite:///{workdir}/soak.db",
        "LOG_LEVEL": log_level,
        "PYTHONUNBUFFERED": "1",
        "PYTHONPATH": str(ROOT),  # this checkout's code, whatever the venv has installed
        "SOAK_LAG_FILE": str(workdir / "loop_lag.json"),
        "PREPARE_AT_START": "race",  # (a soak plays races only)
    }


async def bot_ready(fake: Any) -> None:
    """Wait until the bot's gateway session is up and its guilds are in."""
    await fake.connected(within=60)
    # every guild's channels exist once commands are synced and the bot is ready
    await fake.until(lambda: len(fake.sockets) > 0, within=60)
    await asyncio.sleep(1.0)  # guild_ready_timeout: discord.py waits for GUILD_CREATEs


def stop_bot(child: subprocess.Popen[bytes]) -> None:
    """SIGTERM the bot child, SIGKILL after 15 s."""
    if child.poll() is None:
        child.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            child.wait(timeout=15)
        if child.poll() is None:
            child.kill()
            child.wait()


async def soak(args: argparse.Namespace) -> dict[str, Any]:
    fake = make_fake(args.channels)
    await fake.start()
    players = Players(fake, args.channels, args.seed, args.games, args.think, args.options)
    fake.listener = players.on_request
    workdir = Path(tempfile.mkdtemp(prefix="moji-soak-"))
    log_path = workdir / "bot.log"
    child = spawn_bot(fake.base, bot_env(workdir, args.log_level), workdir, log_path)
    stats = players.stats
    timed_out = False
    bot_cpu = 0.0
    drained = 0.0
    try:
        await bot_ready(fake)
        players.start_all(args.ramp)
        begun = time.perf_counter()
        warmup = min(60.0, args.seconds / 5) if args.seconds else 10.0
        next_sample = begun
        while True:
            now = time.perf_counter()
            if child.poll() is not None:
                stats.errors.append(f"the bot process exited with {child.returncode}")
                break
            if now >= next_sample:
                stats.rss_mb.append((round(now - begun, 1), round(rss_mb(child.pid), 1)))
                next_sample += args.sample
            if args.games is not None and players.done.is_set():
                break
            if args.seconds is not None and now - begun >= args.seconds:
                break
            if now - begun > args.timeout:
                timed_out = True
                stats.errors.append(f"timed out after {args.timeout:.0f} s")
                break
            await asyncio.sleep(0.1)
        elapsed = time.perf_counter() - begun
        bot_cpu = cpu_seconds(child.pid) if child.poll() is None else 0.0
        await players.stop()
        # the players stop typing; the bot gets --drain seconds to mark (or list) what they sent
        drain_until = time.perf_counter() + args.drain
        while time.perf_counter() < drain_until:
            if not players.waiting() or child.poll() is not None:
                break
            await asyncio.sleep(0.2)  # (marks arrive through the fake's requests: nothing to wait on)
        drained = time.perf_counter() - begun - elapsed
        stats.errors.extend(fake.listener_errors)
    finally:
        stop_bot(child)
        await fake.close()
    log_text = log_path.read_text(errors="replace")
    bad_lines = [
        line
        for line in log_text.splitlines()
        if " ERROR " in line or line.startswith("Traceback") or " CRITICAL " in line
    ]
    stats.errors.extend(f"log: {line[:200]}" for line in bad_lines[:20])
    if len(bad_lines) > 20:
        stats.errors.append(f"log: {len(bad_lines) - 20} more error lines")
    if TOKEN in log_text:
        stats.errors.append("the token appears in the bot's log")
    behind = log_text.count("Can't keep up")
    blocked = log_text.count("heartbeat blocked for more than")
    try:
        loop_lag: dict[str, Any] = json.loads((workdir / "loop_lag.json").read_text())
    except (OSError, ValueError):
        loop_lag = {}
    after_warmup = [mb for t, mb in stats.rss_mb if t >= warmup]
    growth = (after_warmup[-1] - min(after_warmup)) if len(after_warmup) > 1 else 0.0
    lat = stats.latencies_ms
    unanswered, lost = players.unanswered(begun + elapsed)
    if unanswered["otherwise"]:
        stats.errors.append(
            f"{unanswered['otherwise']} answers to running games neither marked nor listed on the table"
            f" within {args.drain:.0f} s of the players stopping"
        )
        stats.errors.extend(f"never marked: {line}" for line in lost)
    steady = [ms for ms, at in zip(lat, stats.latency_at, strict=True) if at - begun >= warmup]
    on_table = stats.table_ms
    games = sum(c.games for c in players.channels.values())
    result = {
        "bench": "soak",
        "machine": {"cpus": os.cpu_count(), "load_avg_at_end": [round(x, 2) for x in os.getloadavg()]},
        "channels": args.channels,
        "think_s": list(args.think),
        "race_options": f"cards=5 {args.options}".strip(),
        "seconds": round(elapsed, 1),
        "games_finished": games,
        "channels_with_a_finished_game": sum(1 for c in players.channels.values() if c.games),
        "tables": sum(c.tables for c in players.channels.values()),
        "claims": stats.claims,
        "claims_per_s": round(stats.claims / elapsed, 1) if elapsed else 0.0,
        "hostile_messages": stats.hostile,
        "reactions": stats.reactions,
        "shown_on_the_table": {
            "marks": stats.table_marks,
            "p50_ms": round(percentile(on_table, 0.5), 1),
            "p99_ms": round(percentile(on_table, 0.99), 1),
            "counted_not_named_max": stats.more_refusals,
        },
        "unanswered_claims": unanswered,
        "drain_s": round(drained, 1),
        "reaction_ms": {
            "p50": round(percentile(lat, 0.5), 1),
            "p99": round(percentile(lat, 0.99), 1),
            "max": round(max(lat), 1) if lat else 0.0,
            "mean": round(statistics.fmean(lat), 1) if lat else 0.0,
            "samples": len(lat),
            "after_warmup": {
                "p50": round(percentile(steady, 0.5), 1),
                "p99": round(percentile(steady, 0.99), 1),
                "samples": len(steady),
            },
            "budget_p99": REACTION_BUDGET_P99_MS,
        },
        "rss_mb": {
            "samples": stats.rss_mb,
            "warmup_s": warmup,
            "growth_after_warmup": round(growth, 1),
            "budget_growth": RSS_GROWTH_BUDGET_MB,
        },
        "event_loop_lag": loop_lag,
        "gateway_warnings": {"cant_keep_up": behind, "heartbeat_blocked": blocked},
        "requests_to_fake_discord": stats.requests,
        "public_messages_checked": stats.public_messages,
        "private_texts_watched": stats.private_texts,
        "stop_attempts_by_non_hosts": stats.stop_attempts,
        "driver_max_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "cpu_s": {
            "bot": round(bot_cpu, 1),
            "driver": round(sum(resource.getrusage(resource.RUSAGE_SELF)[:2]), 1),
        },
        "errors": len(stats.errors),
        "error_samples": stats.errors[:20],
        "budget_errors": ERRORS_BUDGET,
        "timed_out": timed_out,
        "log": str(log_path),
    }
    result["budget_met"] = bool(
        not stats.errors
        and growth <= RSS_GROWTH_BUDGET_MB
        and percentile(steady, 0.99) <= REACTION_BUDGET_P99_MS
        and games > 0
    )
    return result


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    env = os.environ.get
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--channels", type=int, default=int(env("SOAK_CHANNELS", "20")))
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--seconds", type=float, default=None, help="run this long (env SOAK_SECONDS)")
    group.add_argument("--games", type=int, default=None, help="stop when every channel finished G games")
    parser.add_argument("--timeout", type=float, default=None, help="give up (an error) after this long")
    parser.add_argument("--sample", type=float, default=5.0, help="seconds between RSS samples")
    parser.add_argument(
        "--drain",
        type=float,
        default=60.0,
        help="seconds the bot gets, once the players stop, to mark the answers they sent",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--options",
        default=env("SOAK_OPTIONS", ""),
        help="more race options for every game, e.g. 'hourglass=90' (env SOAK_OPTIONS)",
    )
    parser.add_argument("--ramp", type=float, default=None, help="seconds over which channels start")
    parser.add_argument(
        "--think",
        default=env("SOAK_THINK", "0.2,0.8"),
        help="seconds a player takes to answer after the cards change, as MIN,MAX (env SOAK_THINK)",
    )
    parser.add_argument("--log-level", default=env("SOAK_LOG_LEVEL", "INFO"))
    parser.add_argument("--bot", metavar="API", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.seconds is None and args.games is None:
        args.seconds = float(env("SOAK_SECONDS", "20"))
    if args.ramp is None:
        args.ramp = min(60.0, 0.03 * args.channels)
    low, _, high = str(args.think).partition(",")
    args.think = (float(low), float(high or low))
    if args.timeout is None:
        args.timeout = (args.seconds or 0) + 300.0
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.bot:
        return run_bot(args.bot)
    result = asyncio.run(soak(args))
    print(json.dumps(result, ensure_ascii=False))
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
