"""DISCORD_GLOBAL_RATE: a bot whose global limit Discord raised paces to the raised limit.

Discord's global limit is 50 requests a second per bot token, and "if your bot gets big enough
… you can reach out to support to see if you qualify for increased global rate limits"
(docs/topics/Rate_Limits.md, "Global Rate Limit"). moji keeps a tenth spare either way.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator

import pytest
from discord.http import Ratelimit

from adapters.discord.limits import process_share
from bot.core.clock import FakeClock
from bot.core.events import ChatKey
from bot.process.app import Services
from tests.adapters.discord.conftest import (
    Harness,
    _refresh_without_sleeping,
    make_config,
    start_bot,
)
from tests.adapters.discord.fakediscord import GUILD_ID, DiscordLimits, FakeDiscord, RouteLimit


async def granted_at_once(h: Harness, calls: int) -> int:
    """How many reactions in ``calls`` different channels the pacer lets go without waiting."""
    pacer = h.bot.outbox.pacer
    chats = [ChatKey("discord", GUILD_ID, str(900 + n)) for n in range(calls)]
    tasks = [asyncio.ensure_future(pacer.acquire("react", chat)) for chat in chats]
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    granted = sum(task.done() for task in tasks)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return granted


@pytest.fixture
async def raised(monkeypatch: pytest.MonkeyPatch, services: Services) -> AsyncIterator[Harness]:
    clock = FakeClock(start=time.time())
    fake = FakeDiscord(now=clock.now, limits=DiscordLimits(global_limit=RouteLimit(200, 1.0)))
    monkeypatch.setattr(Ratelimit, "_refresh", _refresh_without_sleeping)
    await fake.start()
    fake.patch(monkeypatch)
    harness = await start_bot(fake, clock, services, make_config(DISCORD_GLOBAL_RATE="200"))
    try:
        yield harness
    finally:
        await harness.stop()
        await fake.close()


@pytest.mark.parametrize(
    ("rate", "ids", "count", "share"),
    [(50, None, None, 50), (50, None, 4, 50), (50, (0, 1), 4, 25), (50, (3,), 4, 12), (1, (0,), 8, 1)],
)
def test_processes_sharing_a_token_split_its_global_limit_by_their_shards(
    rate: int, ids: tuple[int, ...] | None, count: int | None, share: int
) -> None:
    assert process_share(rate, ids, count) == share


async def test_the_default_is_discords_fifty_with_five_spare(h: Harness) -> None:
    assert h.config.discord_global_rate == 50
    assert await granted_at_once(h, 100) == 45


async def test_a_raised_limit_is_used_with_a_tenth_spare(raised: Harness) -> None:
    assert await granted_at_once(raised, 300) == 180
