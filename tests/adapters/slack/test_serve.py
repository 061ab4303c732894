"""``adapters.slack.serve``: what ``python -m bot`` runs, from a real :class:`~bot.process.config.Config`."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import socket
from collections.abc import Iterator
from dataclasses import replace

import pytest

pytest.importorskip("slack_bolt")

import aiohttp

from adapters.slack import serve
from adapters.slack.settings import settings_from_config
from bot.core.clock import FakeClock
from bot.process.config import load_config
from bot.process.health import HealthServer
from tests.adapters.slack.conftest import SECRET, sign, until
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import FakeSlack


@pytest.fixture
def at_fake(slack: FakeSlack, monkeypatch: pytest.MonkeyPatch) -> FakeSlack:
    """``serve`` talks to the local fake Slack Web API (no test reaches the internet)."""
    from adapters.slack import settings as settings_module

    plain = settings_module.settings_from_config
    monkeypatch.setattr(
        settings_module, "settings_from_config", lambda config: replace(plain(config), base_url=slack.api_url)
    )
    return slack


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


async def test_serve_in_http_mode(svc: FakeServices, at_fake: FakeSlack) -> None:
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


async def test_http_mode_adds_its_routes_to_the_process_server(svc: FakeServices, at_fake: FakeSlack) -> None:
    """``python -m bot`` starts one HTTP server; Slack's HTTP mode serves /slack/events on it and is
    ready once it does."""
    from bot.process.health import HealthServer

    server = HealthServer("127.0.0.1", 0)
    server.expect("slack")
    await server.start()
    svc.http = server  # type: ignore[attr-defined]  # what bot.process.app.serve gives every adapter
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


def http_mode(**extra: str) -> dict[str, str]:
    return {"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_SIGNING_SECRET": SECRET, **extra}


async def process_server(svc: FakeServices) -> HealthServer:
    """The HTTP server ``python -m bot`` gives the adapters, with Slack expected on it."""
    from bot.process.health import HealthServer

    server = HealthServer("127.0.0.1", 0)
    server.expect("slack")
    await server.start()
    svc.http = server  # type: ignore[attr-defined]
    return server


async def test_http_mode_checks_the_bot_token_at_start(svc: FakeServices, at_fake: FakeSlack) -> None:
    """A token Slack rejects stops the start with one line; /readyz never said ok."""
    from bot.process.app import StartupError

    at_fake.fail["auth.test"] = [(200, {}, {"ok": False, "error": "invalid_auth"})]
    server = await process_server(svc)
    try:
        with pytest.raises(StartupError, match=r"^Slack rejected SLACK_BOT_TOKEN \(invalid_auth\): copy"):
            await serve(load_config(http_mode(), None), svc, FakeClock())
        assert await server.readiness() == (False, {"slack": "stopped"})
        [checked] = at_fake.of("auth.test")
        assert checked.token == "xoxb-1"
    finally:
        await server.stop()


async def test_socket_mode_checks_the_app_token_at_start(svc: FakeServices, at_fake: FakeSlack) -> None:
    from bot.process.app import StartupError

    at_fake.fail["apps.connections.open"] = [(200, {}, {"ok": False, "error": "invalid_auth"})]
    config = load_config({"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-revoked"}, None)
    with pytest.raises(StartupError, match=r"^Slack rejected SLACK_APP_TOKEN \(invalid_auth\)"):
        await serve(config, svc, FakeClock())


@contextlib.contextmanager
def refused_port() -> Iterator[int]:
    """A local port that refuses connections (bound, never listening: nobody else can take it)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        yield int(sock.getsockname()[1])


class Failures:
    """What a server's :meth:`~bot.process.health.HealthServer.pending` was told, as it is told."""

    def __init__(self, server: HealthServer, monkeypatch: pytest.MonkeyPatch) -> None:
        self.reasons: list[str] = []
        self.told = asyncio.Event()
        pending = server.pending

        def record(name: str, reason: str) -> None:
            pending(name, reason)
            self.reasons.append(reason)
            self.told.set()

        monkeypatch.setattr(server, "pending", record)

    async def next(self) -> str:
        await asyncio.wait_for(self.told.wait(), 10)
        self.told.clear()
        return self.reasons[-1]


async def test_slack_out_of_reach_is_one_line_a_try_and_readyz_says_why(
    svc: FakeServices, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    from adapters.slack import settings as settings_module
    from bot.process.retry import Backoff

    server = await process_server(svc)
    failures = Failures(server, monkeypatch)
    clock = FakeClock()
    task: asyncio.Future[None] | None = None
    plain = settings_module.settings_from_config
    with refused_port() as port, caplog.at_level(logging.INFO):
        monkeypatch.setattr(
            settings_module,
            "settings_from_config",
            lambda config: replace(plain(config), base_url=f"http://127.0.0.1:{port}/api/"),
        )
        try:
            task = asyncio.ensure_future(
                serve(load_config(http_mode(), None), svc, clock, backoff=Backoff(first=3, jitter=0))
            )
            reason = await failures.next()
            assert reason == "cannot reach Slack; try 1 failed, trying again in 3 s"  # (no host, no port)
            url = f"http://127.0.0.1:{server.port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(url + "/readyz") as resp:
                    assert resp.status == 503 and (await resp.json())["checks"]["slack"] == reason
                async with http.post(url + "/slack/events", data="{}") as resp:
                    assert resp.status == 503  # still starting: Slack sends the event again later
            await clock.advance(3)
            assert (await failures.next()).endswith("try 2 failed, trying again in 6 s")
            assert not task.done()
        finally:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await server.stop()
    lines = [
        r for r in caplog.records if r.levelno >= logging.WARNING and r.name.startswith("adapters.slack")
    ]
    lines = [r for r in lines if "cannot reach" in r.getMessage()]
    assert len(lines) == 2 and all(r.exc_info is None for r in lines)
    assert not [r for r in caplog.records if r.exc_info]


async def test_slack_down_at_start_is_tried_again_until_it_answers(
    svc: FakeServices, at_fake: FakeSlack, monkeypatch: pytest.MonkeyPatch
) -> None:
    from bot.process.retry import Backoff

    at_fake.fail["auth.test"] = [(503, {}, {"ok": False, "error": "service_unavailable"})] * 2
    server = await process_server(svc)
    failures = Failures(server, monkeypatch)
    clock = FakeClock()
    task = asyncio.ensure_future(
        serve(load_config(http_mode(), None), svc, clock, backoff=Backoff(first=2, jitter=0))
    )
    try:
        assert await failures.next() == "cannot reach Slack; try 1 failed, trying again in 2 s"
        await clock.advance(2)
        assert (await failures.next()).endswith("try 2 failed, trying again in 4 s")
        await clock.advance(4)
        await until(lambda: server.checks["slack"][0]() is True)
        assert await server.readiness() == (True, {"slack": "ok"})
        assert [call.status for call in at_fake.of("auth.test")] == [503, 503, 200]
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await server.stop()
