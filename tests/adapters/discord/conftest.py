"""The real discord.py client (moji's MojiBot) against the local fake Discord."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from discord.http import Ratelimit

from adapters.discord import MojiBot
from bot.core.clock import FakeClock
from bot.core.events import ChatKey
from bot.core.registry import Registry
from bot.features.workspace import Workspace
from bot.process.app import Services
from bot.process.config import Config, load_config
from bot.sessions.gamelog import StoreGameLog
from storage import open_store
from tests.adapters.discord.fakediscord import CHANNEL_ID, GUILD_ID, DiscordLimits, FakeDiscord, Request
from tests.bot.toygame import TOY

CHAT = ChatKey("discord", GUILD_ID, CHANNEL_ID)
#: Discord's limits, enforced (and told in the headers) on the test's clock.
ON_A_FAKE_CLOCK = DiscordLimits()


async def _refresh_without_sleeping(self: Ratelimit) -> None:
    """discord.py's pre-emptive wait for an empty bucket, minus its sleep on the wall clock.

    The fake's buckets run on the test's clock, and so does moji's pacer, which waits
    before it calls; discord.py's own wait would sleep real seconds for fake ones.
    """
    self.reset()
    self._wake(self.remaining)


TOKEN = "fake-discord-token-" + "x" * 40
ANN, BOB, CAT = ("100000000000000001", "Ann"), ("100000000000000002", "Bob"), ("100000000000000003", "Cat")


def make_config(**extra: str) -> Config:
    env = {"DISCORD_TOKEN": TOKEN, "SETTLE_MS": "150", "LOBBY_TIMEOUT": "600", **extra}
    return load_config(env, env_file=None)


@dataclass
class Harness:
    """A running bot, the fake Discord it talks to, and the shared clock and services."""

    fake: FakeDiscord
    bot: MojiBot
    clock: FakeClock
    svc: Services
    config: Config
    task: asyncio.Task[None]

    @property
    def manager(self) -> Any:
        return self.bot.runtime.manager

    async def settle(self) -> None:
        """Let in-flight work finish: the clock's sleepers and the bot's REST calls."""
        await self.clock.settle()
        await asyncio.sleep(0.01)
        await self.fake.until(lambda: self.fake.inflight == 0, within=60)  # a loaded machine is slow
        await self.clock.settle()

    async def advance(self, seconds: float) -> None:
        await self.clock.advance(seconds)

    async def posted(self, check: Callable[[Request], bool], most: float = 15.0) -> Request:
        """The first message the bot posted in a channel that passes ``check``, letting the clock
        run meanwhile (posts wait on it for the channel's rate limit)."""
        waited = 0.0
        while True:
            found = [
                r for r in self.fake.of("POST", r"^/channels/\d+/messages$") if r.status == 200 and check(r)
            ]
            if found:
                return found[0]
            assert waited < most, "never posted"
            await self.clock.advance(0.25)
            await self.settle()
            waited += 0.25

    async def drain(self, most: float = 10.0, step: float = 0.25) -> None:
        """Let the clock run (in small steps, at most ``most`` s) until everything queued is sent:
        the delivery layer waits on the clock for the platform's rate limits."""
        waited = 0.0
        await self.settle()
        while not self.bot.outbox.idle() and waited < most:
            await self.clock.advance(step)
            await self.settle()
            waited += step

    async def stop(self) -> None:
        await self.bot.close()
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self.task

    async def restart(self) -> Harness:
        """Stop this bot and start a fresh process-equivalent on the same database and server."""
        await self.stop()
        return await start_bot(self.fake, self.clock, self.svc, self.config)


async def start_bot(fake: FakeDiscord, clock: FakeClock, svc: Services, config: Config) -> Harness:
    bot = MojiBot(config, svc, clock, guild_ready_timeout=0.05)
    task = asyncio.get_running_loop().create_task(bot.start(TOKEN))
    ready = asyncio.get_running_loop().create_task(bot.games_ready.wait())
    done, _ = await asyncio.wait({task, ready}, timeout=15, return_when=asyncio.FIRST_COMPLETED)
    if ready not in done:
        ready.cancel()
        if task.done():
            task.result()  # the bot's own error
        raise AssertionError(
            f"the bot never got ready; requests: {[(r.method, r.path) for r in fake.requests]}"
        )
    return Harness(fake, bot, clock, svc, config, task)


@pytest.fixture
def registry() -> Registry:
    return Registry([TOY])


@pytest.fixture
async def services(tmp_path: Path, registry: Registry) -> AsyncIterator[Services]:
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    try:
        yield Services(registry, Workspace(store, registry), StoreGameLog(store), store)
    finally:
        await store.close()


@contextlib.asynccontextmanager
async def running_bot(monkeypatch: pytest.MonkeyPatch, services: Services) -> AsyncIterator[Harness]:
    """moji's bot on ``services``, connected to a fresh fake Discord, on a fake clock."""
    clock = FakeClock(start=time.time())
    fake = FakeDiscord(now=clock.now, limits=ON_A_FAKE_CLOCK)
    monkeypatch.setattr(Ratelimit, "_refresh", _refresh_without_sleeping)
    await fake.start()
    fake.patch(monkeypatch)
    harness = await start_bot(fake, clock, services, make_config())
    try:
        yield harness
    finally:
        await harness.stop()
        await fake.close()


@pytest.fixture
async def h(monkeypatch: pytest.MonkeyPatch, services: Services) -> AsyncIterator[Harness]:
    async with running_bot(monkeypatch, services) as harness:
        yield harness


def is_table(request: Request) -> bool:
    return isinstance(request.json, dict) and "Cards: " in str(request.json.get("content"))


def is_lobby(request: Request) -> bool:
    """A lobby message, in any language: it carries the Join button."""
    return "lobby" in request.text or '"moji:join"' in request.text


async def answer(h: Harness, who: tuple[str, str], word: str) -> str:
    """A player types ``word``; the settle window closes; returns the message id once it is judged
    and its marks (if any: a refused word is only listed in the table by default) are out."""
    session = h.manager.sessions[CHAT]
    mid = await h.fake.say(*who, word)
    await h.fake.until(lambda: any(c.ref == mid for c in session.settle.pending))
    await h.advance(0.2)
    await h.fake.until(lambda: not session.announcer.awaits_mark(mid))
    for _ in range(40):  # reactions are paced (one per 0.25 s per channel): let the clock run
        await h.settle()  # (first: the verdict's mark is queued by a task of its own)
        if not h.bot.outbox.marks_pending(CHAT):
            break
        await h.advance(0.05)
    await h.settle()  # (the last mark's request answered)
    return mid


def mark_of(h: Harness, mid: str) -> list[str]:
    """The reactions the bot put on a message."""
    from urllib.parse import unquote

    return [
        unquote(r.path.split("/reactions/")[1].split("/")[0])
        for r in h.fake.of("PUT", rf"/messages/{mid}/reactions/")
        if r.status == 200
    ]
