"""adapters.discord.serve: the entry point ``python -m bot`` awaits."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest

from adapters.discord import serve
from bot.app import Services, StartupError
from bot.clock import FakeClock
from tests.adapters.discord.conftest import ANN, is_lobby, make_config
from tests.adapters.discord.fakediscord import FakeDiscord


async def test_serve_runs_until_cancelled(monkeypatch: pytest.MonkeyPatch, services: Services) -> None:
    fake = FakeDiscord()
    await fake.start()
    fake.patch(monkeypatch)
    task = asyncio.get_running_loop().create_task(
        serve(make_config(), services, FakeClock(time.time()), guild_ready_timeout=0.05)
    )
    try:
        await fake.connected()
        await fake.wait_for("PUT", r"/commands$")
        await fake.slash(*ANN, "start", {"game": "toy"})
        await fake.wait_for("POST", r"^/channels/\d+/messages$", is_lobby)
        assert not task.done()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await fake.close()


async def test_a_rejected_token_is_a_clear_startup_error(
    monkeypatch: pytest.MonkeyPatch, services: Services
) -> None:
    fake = FakeDiscord()
    await fake.start()
    fake.patch(monkeypatch)
    fake.faults_401 = True
    try:
        with pytest.raises(StartupError, match="DISCORD_TOKEN"):
            await serve(make_config(), services, FakeClock(time.time()))
    finally:
        await fake.close()
