"""adapters.discord.serve: the entry point ``python -m bot`` awaits."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import time
from collections.abc import Iterator

import pytest

from adapters.discord import serve
from bot.core.clock import FakeClock
from bot.process.app import Services, StartupError
from tests.adapters.discord.conftest import ANN, is_lobby, make_config
from tests.adapters.discord.fakediscord import FakeDiscord
from tests.waiting import PATIENCE, eventually_true


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


async def test_readyz_waits_for_the_gateway(monkeypatch: pytest.MonkeyPatch, services: Services) -> None:
    """/readyz on the process's server is 503 until the gateway's READY came, 200 after."""
    from typing import Any

    import aiohttp

    from bot.process.health import HealthServer

    fake = FakeDiscord()
    await fake.start()
    fake.patch(monkeypatch)
    gate = asyncio.Event()
    send = fake.send

    async def held_ready(event: str, data: dict[str, Any], *, shard: int = 0) -> None:
        if event == "READY":
            await gate.wait()  # Discord is slow to say READY
        await send(event, data, shard=shard)

    monkeypatch.setattr(fake, "send", held_ready)
    server = HealthServer("127.0.0.1", 0)
    server.watch_database(services.store, timeout=PATIENCE)  # a busy machine is slow, not down
    server.expect("discord")
    await server.start()
    services.http = server
    url = f"http://127.0.0.1:{server.port}/readyz"
    task = asyncio.get_running_loop().create_task(
        serve(make_config(), services, FakeClock(time.time()), guild_ready_timeout=0.05)
    )
    try:
        async with aiohttp.ClientSession() as http:

            async def readyz() -> tuple[int, Any]:
                async with http.get(url) as resp:
                    return resp.status, await resp.json()

            await fake.until(lambda: bool(fake.identifies))  # connected, identified, no READY yet
            status, body = await readyz()
            assert status == 503
            assert body["checks"] == {"database": "ok", "discord": "not connected"}
            gate.set()
            await fake.connected()

            async def ready() -> bool:  # (discord.py waits guild_ready_timeout for the guilds)
                return (await readyz())[0] == 200

            await eventually_true(ready, "/readyz 200")
            status, body = await readyz()
            assert (status, body["checks"]) == (200, {"database": "ok", "discord": "ok"})
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await server.stop()
        await fake.close()
    assert await server.readiness() == (False, {"database": "ok", "discord": "stopped"})


@contextlib.contextmanager
def refused_port() -> Iterator[int]:
    """A local port that refuses connections (bound, never listening: nobody else can take it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])


async def test_discord_out_of_reach_is_one_line_a_try_and_readyz_says_why(
    monkeypatch: pytest.MonkeyPatch, services: Services, caplog: pytest.LogCaptureFixture
) -> None:
    """No network at start: no traceback, tries again after the backoff's wait, then connects."""
    import discord

    from bot.process.health import HealthServer
    from bot.process.retry import Backoff

    fake = FakeDiscord()
    await fake.start()
    fake.patch(monkeypatch)
    clock = FakeClock(time.time())
    server = HealthServer("127.0.0.1", 0)
    server.watch_database(services.store)
    server.expect("discord")
    failures: list[str] = []
    failed = asyncio.Event()

    def pending(name: str, reason: str) -> None:
        HealthServer.pending(server, name, reason)
        failures.append(reason)
        failed.set()

    monkeypatch.setattr(server, "pending", pending)
    services.http = server
    task: asyncio.Task[None] | None = None
    with refused_port() as port, caplog.at_level(logging.INFO):
        monkeypatch.setattr(discord.http.Route, "BASE", f"http://127.0.0.1:{port}/api/v10")
        try:
            task = asyncio.get_running_loop().create_task(
                serve(
                    make_config(),
                    services,
                    clock,
                    backoff=Backoff(first=5, factor=2, jitter=0),
                    guild_ready_timeout=0.05,
                )
            )
            for tries in (1, 2):
                await asyncio.wait_for(failed.wait(), 10)
                failed.clear()
                ready, states = await server.readiness()
                assert not ready
                assert states["discord"] == (
                    f"cannot reach Discord; try {tries} failed, trying again in {5 * tries} s"
                )  # (no host, no port: the log has them)
                if tries == 1:
                    await clock.advance(5)  # the wait, then the second try (refused again)
            assert not task.done()
            # the network is back: the next try logs in and the gateway connects
            monkeypatch.setattr(discord.http.Route, "BASE", fake.base + "/api/v10")
            await clock.advance(10)
            await fake.connected()
            assert len(failures) == 2
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await fake.close()
    warnings = [
        r for r in caplog.records if r.name.startswith("adapters.discord") and r.levelno >= logging.WARNING
    ]
    assert [r.getMessage().split(" (")[0] for r in warnings] == ["cannot reach Discord"] * 2
    assert all(r.exc_info is None and "\n" not in r.getMessage() for r in warnings)
    assert not [r for r in caplog.records if r.exc_info and r.levelno >= logging.ERROR]
