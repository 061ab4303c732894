"""``adapters.slack.serve``: what ``python -m bot`` runs, from a real :class:`~bot.config.Config`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import socket

import pytest

pytest.importorskip("slack_bolt")

import aiohttp

from adapters.slack import serve
from adapters.slack.settings import settings_from_config
from bot.clock import FakeClock
from bot.config import load_config
from tests.adapters.slack.conftest import SECRET, sign, until
from tests.adapters.slack.fakes import FakeServices


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_settings_from_config() -> None:
    config = load_config(
        {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": "s", "PORT": "8080", "SETTLE_MS": "200"}, None
    )
    settings = settings_from_config(config)
    assert settings.bot_token == "xoxb-1" and settings.port == 8080 and settings.settle == 0.2
    assert not settings.socket_mode and not settings.oauth and settings.state_secret == "s"


async def test_serve_in_http_mode(svc: FakeServices) -> None:
    port = free_port()
    config = load_config(
        {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": SECRET, "HOST": "127.0.0.1", "PORT": str(port)},
        None,
    )
    task = asyncio.ensure_future(serve(config, svc, FakeClock()))
    try:
        async with aiohttp.ClientSession() as http:
            health: dict[str, object] = {}

            async def ready() -> None:
                while True:
                    with contextlib.suppress(aiohttp.ClientConnectionError):
                        async with http.get(f"http://127.0.0.1:{port}/health") as resp:
                            health.update(await resp.json())
                            return
                    await asyncio.sleep(0.01)

            await asyncio.wait_for(ready(), 5)
            assert health == {"status": "ok", "games": 0}
            body = json.dumps({"type": "url_verification", "challenge": "abc123", "token": "t"})
            headers = {"Content-Type": "application/json", **sign(body)}
            async with http.post(f"http://127.0.0.1:{port}/slack/events", data=body, headers=headers) as resp:
                assert resp.status == 200 and "abc123" in await resp.text()
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
    await until(lambda: task.done())


async def test_http_mode_adds_its_routes_to_the_process_server(svc: FakeServices) -> None:
    """``python -m bot`` starts one HTTP server; Slack's HTTP mode serves /slack/events on it and is
    ready once it does."""
    from bot.health import HealthServer

    server = HealthServer("127.0.0.1", 0)
    server.expect("slack")
    await server.start()
    svc.http = server  # type: ignore[attr-defined]  # what bot.app.serve gives every adapter
    config = load_config({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": SECRET}, None)
    url = f"http://127.0.0.1:{server.port}"
    async with aiohttp.ClientSession() as http, http.get(url + "/readyz") as resp:
        assert resp.status == 503 and (await resp.json())["checks"] == {"slack": "starting"}
    task = asyncio.ensure_future(serve(config, svc, FakeClock()))
    try:
        async with aiohttp.ClientSession() as http:

            async def ready() -> int:
                async with http.get(url + "/readyz") as resp:
                    return resp.status

            await until(lambda: server.checks["slack"][0]() is True)
            assert await ready() == 200
            body = json.dumps({"type": "url_verification", "challenge": "abc123", "token": "t"})
            headers = {"Content-Type": "application/json", **sign(body)}
            async with http.post(url + "/slack/events", data=body, headers=headers) as resp:
                assert resp.status == 200 and "abc123" in await resp.text()
            async with http.get(url + "/metrics") as resp:
                assert resp.status == 200 and "moji_games_running" in await resp.text()
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
            async with http.get(url + "/readyz") as resp:
                assert resp.status == 503 and (await resp.json())["checks"]["slack"] == "stopped"
            async with http.post(url + "/slack/events", data=body, headers=headers) as resp:
                assert resp.status == 404  # its routes went with it
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await server.stop()
