"""Several ``python -m bot`` processes on one PostgreSQL, on the fake Discord.

Each test runs two real bot processes (:class:`~tests.hardening.botprocess.BotProcess`) against
one fake Discord and one PostgreSQL schema of its own, with ``LEASE_SECONDS=6``, and plays
short races (one computer player, ``level=easy`` so it never answers before the 5-second
hourglass; Ann answers from the lexicon):

* with ``SHARD_IDS``, each process runs its own shard's guild; a kill -9 leaves the other
  guild's race alone, and the restarted process resumes only its own game;
* without ``SHARD_IDS``, a process started later never takes a live process's game over; the
  fake gives the shard's events to the latest connection (that process), which forwards the
  chat's events to the game's owner, who judges them once;
* without ``SHARD_IDS``, a kill -9 of the owner mid-race: the other process adopts the race
  within about the lease, edits its table in place, and the race ends with the scores it
  announces;
* with ``SHARD_IDS`` and no ``SHARD_TAKEOVER``, a dead shard's race waits for its own
  process, however long the lease has lapsed; with ``SHARD_TAKEOVER=true`` the survivor
  adopts it, and the dead shard's process, back, forwards its answers to the adopter.

Which process did what is read from their logs (``LOG_LEVEL=DEBUG``: "answer … waits in the
settle window" is written by the process that judges an answer) and from the database
(``active_games``' owner and epoch, the ``inbox`` of forwarded events).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import secrets
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import pytest

from games.common.words import WordRules
from games.lexicon import load
from games.race.options import DEFAULT_BANS
from storage.postgres import PostgresStore
from tests.adapters.discord.fakediscord import APP_ID, GUILD_ID, FakeDiscord, Request
from tests.hardening.botprocess import BotProcess

POSTGRES_URL = os.environ.get("MOJI_TEST_POSTGRES_URL", "")

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(
        not POSTGRES_URL, reason="MOJI_TEST_POSTGRES_URL is not set (.ci/postgres.sh starts one)"
    ),
    pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals"),
]

TOKEN = "fake-discord-token-" + "x" * 40
ANN = ("100000000000000001", "Ann")
#: The processes' LEASE_SECONDS: 6 s rather than the 3 s floor, so that a process a busy 2-core
#: machine stalls for a few seconds keeps its games (an owner renews every third of the lease).
LEASE = 6
#: One guild on each shard of SHARD_COUNT=2 (Discord: shard = (guild id >> 22) % count).
GUILDS = {(int(g) >> 22) % 2: g for g in (GUILD_ID, str(int(GUILD_ID) + (1 << 22)))}
assert sorted(GUILDS) == [0, 1]
#: Seconds a process may take to adopt a dead process's game: the lease lapses at most
#: LEASE s after the owner's last renewal, and the survivor looks every LEASE / 3 s.
ADOPT_WITHIN = LEASE + 5.0

LEXICON = load("casual")
RULES = WordRules(min_length=2, bans=frozenset(DEFAULT_BANS))


# ---------------------------------------------------------------------------------------------
# the processes, the database


@dataclass
class Cluster:
    """The fake Discord, one PostgreSQL schema, and the bot processes on them."""

    fake: FakeDiscord
    url: str  # DATABASE_URL, with ?schema=
    db: Any  # an asyncpg pool on the schema
    root: Path
    procs: dict[str, BotProcess] = field(default_factory=dict)

    def process(self, name: str, **env: str) -> BotProcess:
        """A bot process named ``name`` (its INSTANCE_ID), not started yet."""
        workdir = self.root / name
        workdir.mkdir()
        proc = BotProcess(
            workdir,
            {
                "DISCORD_TOKEN": TOKEN,
                "MOJI_TEST_DISCORD_API": self.fake.base,
                "DATABASE_URL": self.url,
                "INSTANCE_ID": name,
                "LEASE_SECONDS": str(LEASE),
                **env,
            },
        )
        self.procs[name] = proc
        return proc

    async def up(self, proc: BotProcess, **env: str) -> None:
        """Start ``proc`` and wait until it routes events (it said it is alive in ``instances``)."""
        name = proc.env["INSTANCE_ID"]
        before = await self.seen_until(name)
        proc.start(**env)
        await proc.logged("connected as", within=60)
        # (a killed process's word stays fresh a while: the new one's is fresher)
        await until(lambda: self._later(name, before), within=30)

    async def seen_until(self, name: str) -> float:
        return float(
            await self.db.fetchval("SELECT seen_until FROM instances WHERE instance_id = $1", name) or 0.0
        )

    async def _later(self, name: str, before: float) -> bool:
        return await self.seen_until(name) > before

    async def owners(self) -> dict[str, tuple[str, int]]:
        """channel id → (owner, epoch) of its active game or lobby."""
        rows = await self.db.fetch("SELECT channel_id, owner, epoch FROM active_games")
        return {r["channel_id"]: (r["owner"], r["epoch"]) for r in rows}

    async def lapsed(self, channel: str) -> bool:
        """The lease on ``channel``'s game has run out."""
        return bool(
            await self.db.fetchval(
                "SELECT count(*) FROM active_games WHERE channel_id = $1 "
                "AND lease_until < extract(epoch from now())",
                channel,
            )
        )

    async def games(self) -> list[dict[str, Any]]:
        rows = await self.db.fetch("SELECT game_id, channel_id, status, seats, announced_at FROM games")
        return [dict(r) for r in rows]

    async def game_of(self, channel: str) -> dict[str, Any]:
        [game] = [g for g in await self.games() if g["channel_id"] == channel]
        return game

    async def results(self, game_id: str) -> list[dict[str, Any]]:
        rows = await self.db.fetch("SELECT seat_id, points FROM results WHERE game_id = $1", game_id)
        return [dict(r) for r in rows]

    async def claims(self, game_id: str) -> list[str]:
        """The message ids of every answer in the game's log, as often as they appear."""
        rows = await self.db.fetch("SELECT action FROM game_actions WHERE game_id = $1 ORDER BY seq", game_id)
        refs: list[str] = []
        for (text,) in rows:
            action = json.loads(text)
            refs += [str(c["ref"]) for c in action.get("claims") or [] if c.get("ref")]
            if action.get("kind") == "say" and action.get("ref"):
                refs.append(str(action["ref"]))
        return refs

    async def inbox(self) -> list[dict[str, Any]]:
        rows = await self.db.fetch("SELECT channel_id, event_key, handled_at FROM inbox ORDER BY id")
        return [dict(r) for r in rows]


@pytest.fixture
async def cluster(tmp_path: Path) -> AsyncIterator[Cluster]:
    import asyncpg

    schema = f"procs_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(POSTGRES_URL)
    await admin.execute(f"CREATE SCHEMA {schema}")
    fake = FakeDiscord(guilds=tuple(GUILDS.values()))
    await fake.start()
    url = f"{POSTGRES_URL}{'&' if '?' in POSTGRES_URL else '?'}schema={schema}"
    store = PostgresStore(url)
    await store.open()  # the tables, before any process starts
    await store.close()
    db = await asyncpg.create_pool(
        POSTGRES_URL, min_size=1, max_size=3, server_settings={"search_path": schema}
    )
    world = Cluster(fake, url, db, tmp_path)
    try:
        yield world
    finally:
        for proc in world.procs.values():
            await proc.close()
        await fake.close()
        await db.close()
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def until(predicate: Callable[[], Awaitable[bool]], within: float = 90.0) -> None:
    """Wait until the async ``predicate()`` holds (it reads the database)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not await predicate():
        assert loop.time() < deadline, "never happened"
        await asyncio.sleep(0.1)


class Watch:
    """Every (owner, epoch) a channel's active game had, sampled every 0.1 s while it runs."""

    def __init__(self, world: Cluster, channel: str) -> None:
        self.world, self.channel = world, channel
        self.seen: list[tuple[str, int]] = []
        self._task: asyncio.Task[None] | None = None

    async def _run(self) -> None:
        while True:
            owner = (await self.world.owners()).get(self.channel)
            if owner is not None and (not self.seen or self.seen[-1] != owner):
                self.seen.append(owner)
            await asyncio.sleep(0.1)

    def __enter__(self) -> Watch:
        self._task = asyncio.get_running_loop().create_task(self._run())
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._task is not None
        if self._task.done():
            self._task.result()  # (a failure of the sampler itself)
        self._task.cancel()


# ---------------------------------------------------------------------------------------------
# a race in a guild


def channel_of(fake: FakeDiscord, guild: str) -> str:
    return fake.channel_of(guild)


def in_channel(channel: str) -> str:
    """Posts and edits of messages in ``channel``."""
    return rf"^/channels/{channel}/messages(/\d+)?$"


def description(request: Request) -> str:
    body = request.json or {}
    embeds = body.get("embeds") or [] if isinstance(body, dict) else []
    return str(embeds[0].get("description") or "") if embeds else ""


def title(request: Request) -> str:
    body = request.json or {}
    embeds = body.get("embeds") or [] if isinstance(body, dict) else []
    return str(embeds[0].get("title") or "") if embeds else ""


def tables(fake: FakeDiscord, channel: str) -> list[Request]:
    """Every post or edit of the channel's race table, in order."""
    return [
        r
        for r in fake.requests
        if r.method in ("POST", "PATCH")
        and r.status == 200
        and re.match(in_channel(channel), r.path)
        and description(r).startswith("Points: ")
    ]


def letters(table: Request) -> list[str]:
    """The face-up letters on a table."""
    first = description(table).split("\n", 1)[0]
    return [m.lower() for m in re.findall(r"\b([A-Z]) \d+", first)]


def results(fake: FakeDiscord, channel: str) -> list[Request]:
    """The results posted in the channel (a repeat Discord recognised by its nonce excluded)."""
    return [
        r
        for r in fake.of("POST", rf"^/channels/{channel}/messages$")
        if r.status == 200 and not r.duplicate and "game over" in title(r).lower()
    ]


def notices(fake: FakeDiscord, channel: str) -> list[Request]:
    """The '♻️' notices (a game resumed or adopted) posted in the channel."""
    return [
        r for r in fake.of("POST", rf"^/channels/{channel}/messages$") if r.status == 200 and "♻️" in r.text
    ]


async def open_race(world: Cluster, guild: str, cards: int = 4) -> None:
    """Ann starts a race against one slow computer player in ``guild``'s channel; its first table."""
    fake = world.fake
    channel = channel_of(fake, guild)
    more = "level=easy hourglass=5"
    await fake.slash(*ANN, "start", {"game": "race", "bots": 1, "cards": cards, "more": more}, guild=guild)
    await fake.wait_for(
        "POST", rf"^/channels/{channel}/messages$", lambda r: "lobby" in title(r).lower(), within=30
    )
    await fake.slash(*ANN, "go", guild=guild)
    await fake.until(lambda: bool(tables(fake, channel)), within=30)


async def answer(world: Cluster, guild: str, tried: set[str]) -> tuple[str, str]:
    """Ann answers the channel's live table with a word; (the word, its message id). Cards no
    word fits (Q Q) are waited out: the hourglass, or the computer player, brings others."""
    fake = world.fake
    channel = channel_of(fake, guild)

    def fitting() -> list[str]:
        face_up = letters(tables(fake, channel)[-1])
        if len(face_up) < 2:
            return []
        return [w for w in LEXICON.examples(face_up, RULES, limit=10) if w not in tried]

    await fake.until(lambda: bool(fitting()), within=30)
    words = fitting()
    tried.add(words[0])
    return words[0], await fake.say(*ANN, words[0], guild=guild)


async def judged(world: Cluster, guild: str, mid: str, within: float = 60.0) -> None:
    """Wait until Ann's answer ``mid`` is in its game's log: taken in and judged (a word that
    counts gets ✅; a refusal is shown on the table, not marked, by default)."""
    channel = channel_of(world.fake, guild)

    async def logged() -> bool:
        return mid in await world.claims((await world.game_of(channel))["game_id"])

    await until(logged, within=within)


async def next_table(world: Cluster, guild: str, seen: int, within: float = 10.0) -> None:
    """Wait for a table newer than the ``seen`` first ones (a claim or the 5 s hourglass changes
    it), or the result."""
    fake = world.fake
    channel = channel_of(fake, guild)
    with contextlib.suppress(TimeoutError):
        await fake.until(lambda: len(tables(fake, channel)) > seen or bool(results(fake, channel)), within)


async def finished(world: Cluster, guild: str, within: float = 60.0) -> None:
    """Wait for the race's result, then check it: posted once, recorded once, same scores."""
    fake = world.fake
    channel = channel_of(fake, guild)
    await fake.until(lambda: bool(results(fake, channel)), within=within)
    await until(lambda: _announced(world, channel), within=15)
    game = await world.game_of(channel)
    assert game["status"] == "finished"
    [result] = results(fake, channel)
    # the standings as posted: "1. Ann — 15 pts 👑" lines, wherever the embed shows them; names
    # as Discord shows them (their markdown escaped: "Ada \(bot\)" reads "Ada (bot)")
    posted = json.dumps(result.json, ensure_ascii=False)
    announced = {
        re.sub(r"\\([^\w\s])", r"\1", name.replace("\\\\", "\\")): int(points)
        for name, points in re.findall(r"\d+\. ([^\n\"]+?) — (-?\d+) pts", posted)
    }
    names = {seat["id"]: seat["name"] for seat in json.loads(game["seats"])}
    recorded = await world.results(game["game_id"])
    assert len(recorded) == len(names), "one result row per seat: the game was recorded once"
    assert {names[r["seat_id"]]: r["points"] for r in recorded} == announced, description(result)


async def _owned(world: Cluster, channel: str, owner: tuple[str, int]) -> bool:
    return (await world.owners()).get(channel) == owner


async def _announced(world: Cluster, channel: str) -> bool:
    return (await world.game_of(channel))["announced_at"] is not None


def judged_by(proc: BotProcess, mid: str, every_run: bool = False) -> bool:
    """``proc`` took answer ``mid`` in (its log says so)."""
    return f"answer {mid} in " in proc.output(since_start=not every_run)


async def play(world: Cluster, guild: str, tried: set[str], rounds: int) -> list[str]:
    """Ann answers ``rounds`` tables in turn, each judged before the next; the answers' ids."""
    mids: list[str] = []
    fake = world.fake
    channel = channel_of(fake, guild)
    for _ in range(rounds):
        if results(fake, channel):
            break
        seen = len(tables(fake, channel))
        _, mid = await answer(world, guild, tried)
        await judged(world, guild, mid)
        mids.append(mid)
        await next_table(world, guild, seen)  # the next answer is for the next table
    return mids


def marks_on(fake: FakeDiscord, mid: str) -> list[str]:
    """Every mark the bot put on message ``mid`` (✅ on a word that counts)."""
    return [unquote(r.path.split("/")[5]) for r in fake.of("PUT", rf"/messages/{mid}/reactions/")]


# ---------------------------------------------------------------------------------------------
# the tests


async def test_with_shard_ids_each_process_runs_its_guild_and_a_kill_leaves_the_other_alone(
    cluster: Cluster,
) -> None:
    world, fake = cluster, cluster.fake
    fake.shard_count = 2
    p0 = world.process("p0", SHARD_COUNT="2", SHARD_IDS="0")
    p1 = world.process("p1", SHARD_COUNT="2", SHARD_IDS="1")
    await world.up(p0)
    await world.up(p1)
    assert sorted(i["shard"][0] for i in fake.identifies) == [0, 1]
    g0, g1 = GUILDS[0], GUILDS[1]
    c0, c1 = channel_of(fake, g0), channel_of(fake, g1)
    await open_race(world, g0, cards=5)
    await open_race(world, g1, cards=4)
    assert await world.owners() == {c0: ("p0", 1), c1: ("p1", 1)}
    tried: set[str] = set()
    # each guild's answers reach its own shard's process, which judges them: nothing is forwarded
    [mid0] = await play(world, g0, tried, 1)
    [mid1] = await play(world, g1, tried, 1)
    assert judged_by(p0, mid0) and not judged_by(p1, mid0)
    assert judged_by(p1, mid1) and not judged_by(p0, mid1)

    with Watch(world, c0) as watch0:
        p1.kill9()
        # g0's race goes on untouched; g1's lease lapses and nobody takes it (its shard is p1's)
        await until(lambda: world.lapsed(c1), within=LEASE + 2)
        more = await play(world, g0, tried, 1)
        assert (await world.owners())[c1] == ("p1", 1)
        assert "adopted" not in p0.output()

        # p1 is back: it resumes its own game, and only that one
        await world.up(p1)
        await p1.logged(r"resumed 1 game\(s\)")
        await until(lambda: _owned(world, c1, ("p1", 2)))
        resumed = await play(world, g1, tried, 1)
        await finished(world, g0)
        await finished(world, g1)
    assert watch0.seen == [("p0", 1)], "g0's game never changed hands"
    assert not notices(fake, c0), "g0's race never stopped"
    assert len(notices(fake, c1)) == 1 and "restarted" in notices(fake, c1)[0].text
    assert all(judged_by(p0, mid) for mid in more)
    assert all(judged_by(p1, mid) and not judged_by(p0, mid) for mid in resumed)
    assert not await world.inbox(), "each shard's events reached the process that runs it"
    assert len(await world.games()) == 2
    for channel, mids in ((c0, [mid0, *more]), (c1, [mid1, *resumed])):
        claims = await world.claims((await world.game_of(channel))["game_id"])
        for mid in mids:
            assert len(marks_on(fake, mid)) <= 1 and claims.count(mid) == 1, "every answer judged once"


async def test_without_shard_ids_a_later_process_never_takes_a_live_game_and_forwards_its_events(
    cluster: Cluster,
) -> None:
    world, fake = cluster, cluster.fake
    guild = GUILDS[0]  # one shard (no SHARD_COUNT): every guild's events go to one connection
    channel = channel_of(fake, guild)
    a, b = world.process("a"), world.process("b")
    await world.up(a)
    # (cards enough for the race to outlast b's start on a busy machine, unanswered)
    await open_race(world, guild, cards=9)
    tried: set[str] = set()
    [direct] = await play(world, guild, tried, 1)
    assert judged_by(a, direct)

    with Watch(world, channel) as watch:
        await world.up(b)
        # b found a's unfinished game at its start and left it: a's lease is alive
        await b.logged(r"resumed 0 game\(s\)")
        assert [i["shard"] for i in fake.identifies] == [[0, 1], [0, 1]]
        await asyncio.sleep(LEASE)  # b looks around every LEASE / 3 s: a whole lease of looks
        # the fake gives the shard's events to b now (its latest connection): b forwards them to a
        # (the command first: the race may end at any answer taken, and then "no game" is the
        # right answer to it)
        iid = await fake.slash(*ANN, "board", guild=guild)
        [board] = await fake.wait_for("POST", rf"^/webhooks/{APP_ID}/token-{iid}$", within=20)
        forwarded = await play(world, guild, tried, 2)
        await finished(world, guild, within=120)
    assert watch.seen == [("a", 1)], "a ran the game from start to end"
    assert not notices(fake, channel), "nobody resumed or adopted it"
    assert "adopted" not in b.output() and "waits in the settle window" not in b.output()
    assert forwarded
    for mid in [direct, *forwarded]:
        assert judged_by(a, mid), "a judged every answer"
        assert len(marks_on(fake, mid)) <= 1, "once"
    game = await world.game_of(channel)
    claims = await world.claims(game["game_id"])
    assert all(claims.count(mid) == 1 for mid in [direct, *forwarded]), claims
    # what b forwarded: the answers and the command, each handled (once: its inbox row was taken)
    inbox = {row["event_key"]: row["handled_at"] for row in await world.inbox()}
    for mid in forwarded:
        [key] = [k for k in inbox if f":{mid}:" in k]
        assert inbox[key] is not None
    [command] = [k for k in inbox if k.startswith("command:") and k.endswith(f":{iid}")]
    assert inbox[command] is not None
    # a answered b's interaction by its follow-up webhook, privately, with the live game's board
    assert board.ephemeral and "no game" not in board.text.lower(), board.text
    assert fake.of("POST", rf"^/webhooks/{APP_ID}/token-{iid}$") == [board], "answered once"


async def test_without_shard_ids_a_kill_9_mid_race_is_adopted_by_the_other_process(cluster: Cluster) -> None:
    world, fake = cluster, cluster.fake
    guild = GUILDS[0]
    channel = channel_of(fake, guild)
    a, b = world.process("a"), world.process("b")
    await world.up(a)
    await open_race(world, guild, cards=7)
    tried: set[str] = set()
    await world.up(b)
    early = await play(world, guild, tried, 2)  # through b to a
    assert all(judged_by(a, mid) for mid in early)
    [table_id] = {r.path.rsplit("/", 1)[1] for r in tables(fake, channel) if r.method == "PATCH"}
    posted = len([r for r in tables(fake, channel) if r.method == "POST"])
    loop = asyncio.get_running_loop()

    with Watch(world, channel) as watch:
        a.kill9()
        killed = loop.time()
        # an answer right away reaches b, which forwards it to a (its lease still runs): the
        # adopter takes it from the inbox
        seen = len(tables(fake, channel))
        _, orphan = await answer(world, guild, tried)
        await until(lambda: _owned(world, channel, ("b", 2)), within=ADOPT_WITHIN)
        took = loop.time() - killed
        await b.logged(r"adopted 1 game\(s\)")
        await fake.until(lambda: bool(notices(fake, channel)), within=30)
        await judged(world, guild, orphan)
        await next_table(world, guild, seen)
        late = await play(world, guild, tried, 2)
        await finished(world, guild)
    assert watch.seen == [("a", 1), ("b", 2)]
    assert took <= ADOPT_WITHIN
    [notice] = notices(fake, channel)
    assert "had a hiccup" in notice.text and "clock stood still" in notice.text, notice.text
    # the adopter edited the race's table in place: no second table
    assert len([r for r in tables(fake, channel) if r.method == "POST"]) == posted
    assert {r.path.rsplit("/", 1)[1] for r in tables(fake, channel) if r.method == "PATCH"} == {table_id}
    assert late and all(judged_by(b, mid) for mid in [orphan, *late])
    game = await world.game_of(channel)
    claims = await world.claims(game["game_id"])
    for mid in [*early, orphan, *late]:
        assert len(marks_on(fake, mid)) <= 1 and claims.count(mid) == 1, mid


async def test_with_shard_ids_a_dead_shards_race_waits_for_its_own_process(cluster: Cluster) -> None:
    world, fake = cluster, cluster.fake
    fake.shard_count = 2
    p0 = world.process("p0", SHARD_COUNT="2", SHARD_IDS="0")
    p1 = world.process("p1", SHARD_COUNT="2", SHARD_IDS="1")
    await world.up(p0)
    await world.up(p1)
    guild = GUILDS[1]
    channel = channel_of(fake, guild)
    await open_race(world, guild, cards=4)
    tried: set[str] = set()
    before = await play(world, guild, tried, 1)

    with Watch(world, channel) as watch:
        p1.kill9()
        await until(lambda: world.lapsed(channel), within=LEASE + 2)
        # p0 looks for orphans every LEASE / 3 s; for three more leases it leaves this one alone
        await asyncio.sleep(3 * LEASE)
        assert (await world.owners())[channel] == ("p1", 1) and await world.lapsed(channel)
        assert "adopted" not in p0.output() and not notices(fake, channel)

        await world.up(p1)  # the shard's own process is back: it resumes the race
        await p1.logged(r"resumed 1 game\(s\)")
        after = await play(world, guild, tried, 1)
        await finished(world, guild)
    assert watch.seen == [("p1", 1), ("p1", 2)]
    [notice] = notices(fake, channel)
    assert "restarted" in notice.text and "clock stood still" in notice.text, notice.text
    assert all(judged_by(p1, mid, every_run=True) and not judged_by(p0, mid) for mid in [*before, *after])
    assert "adopted" not in p0.output()


async def test_with_shard_takeover_the_survivor_adopts_a_dead_shards_race(cluster: Cluster) -> None:
    world, fake = cluster, cluster.fake
    fake.shard_count = 2
    p0 = world.process("p0", SHARD_COUNT="2", SHARD_IDS="0", SHARD_TAKEOVER="true")
    p1 = world.process("p1", SHARD_COUNT="2", SHARD_IDS="1")
    await world.up(p0)
    await world.up(p1)
    guild = GUILDS[1]
    channel = channel_of(fake, guild)
    await open_race(world, guild, cards=6)
    tried: set[str] = set()
    before = await play(world, guild, tried, 1)
    loop = asyncio.get_running_loop()

    with Watch(world, channel) as watch:
        p1.kill9()
        killed = loop.time()
        await until(lambda: _owned(world, channel, ("p0", 2)), within=ADOPT_WITHIN)
        took = loop.time() - killed
        await p0.logged(r"adopted 1 game\(s\)")
        # shard 1's events have nowhere to go until p1 is back; then p1 finds its race run by a
        # live process, leaves it there, and forwards the answers to it
        await world.up(p1)
        await p1.logged(r"resumed 0 game\(s\)")
        forwarded = await play(world, guild, tried, 2)
        await finished(world, guild)
    assert watch.seen == [("p1", 1), ("p0", 2)]
    assert took <= ADOPT_WITHIN
    [notice] = notices(fake, channel)
    assert "had a hiccup" in notice.text, notice.text
    assert all(judged_by(p1, mid, every_run=True) for mid in before)
    assert forwarded
    for mid in forwarded:
        assert judged_by(p0, mid) and not judged_by(p1, mid)
    inbox = {row["event_key"]: row["handled_at"] for row in await world.inbox()}
    for mid in forwarded:
        [key] = [k for k in inbox if f":{mid}:" in k]
        assert inbox[key] is not None
    claims = await world.claims((await world.game_of(channel))["game_id"])
    for mid in [*before, *forwarded]:
        assert len(marks_on(fake, mid)) <= 1 and claims.count(mid) == 1, mid
