"""The HTTP server every serving mode runs: /healthz, /readyz, /metrics, mounted routes, quiet probes.

Each test starts a real :class:`~bot.process.health.HealthServer` on 127.0.0.1 (port 0) and talks
to it with an aiohttp client.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import aiohttp
import pytest
from aiohttp import web

from bot.core import metrics
from bot.core.registry import Registry
from bot.features.workspace import Workspace
from bot.process.app import Services, StartupError, http_server
from bot.process.config import load_config
from bot.process.health import HealthServer
from bot.sessions.gamelog import StoreGameLog
from storage import StorageError, open_store
from tests.bot.toygame import TOY
from tests.waiting import PATIENCE, eventually


class FakeStore:
    """A store whose ``ping`` fails while ``down`` (an injected fault), or never answers while ``hung``."""

    def __init__(self) -> None:
        self.down = False
        self.hung = False
        self.pings = 0

    async def ping(self) -> None:
        self.pings += 1
        if self.hung:
            await asyncio.Event().wait()
        if self.down:
            raise StorageError("could not read from PostgreSQL: connection refused")


@asynccontextmanager
async def serving(server: HealthServer) -> AsyncIterator[tuple[aiohttp.ClientSession, str]]:
    await server.start()
    try:
        async with aiohttp.ClientSession() as http:
            yield http, f"http://127.0.0.1:{server.port}"
    finally:
        await server.stop()


async def get(http: aiohttp.ClientSession, url: str) -> tuple[int, dict[str, object]]:
    async with http.get(url) as resp:
        return resp.status, await resp.json()


async def test_healthz_answers_while_the_loop_runs() -> None:
    server = HealthServer("127.0.0.1", 0)
    async with serving(server) as (http, url):
        assert server.port != 0
        assert await get(http, url + "/healthz") == (200, {"status": "ok", "games": 0})
        # the address existing Slack HTTP-mode deployments probe
        assert await get(http, url + "/health") == (200, {"status": "ok", "games": 0})


async def test_readiness_follows_the_database_down_and_back() -> None:
    store = FakeStore()
    server = HealthServer("127.0.0.1", 0)
    server.watch_database(store)
    async with serving(server) as (http, url):
        status, body = await get(http, url + "/readyz")
        assert status == 200
        assert body == {"status": "ready", "checks": {"database": "ok"}, "failed": []}
        store.down = True
        status, body = await get(http, url + "/readyz")
        assert status == 503
        assert body["status"] == "unready" and body["failed"] == ["database"]
        assert body["checks"] == {"database": "failing"}  # what failed; why is in the log
        # alive all the same: the process needs no restart, the database does
        assert (await get(http, url + "/healthz"))[0] == 200
        store.down = False
        assert (await get(http, url + "/readyz"))[0] == 200
    assert store.pings == 3


async def test_a_database_that_does_not_answer_in_time_is_not_ready() -> None:
    store = FakeStore()
    store.hung = True
    server = HealthServer("127.0.0.1", 0)
    server.watch_database(store, timeout=0.01)
    ready, states = await server.readiness()
    assert not ready and states == {"database": "no answer within 0.01 s"}
    store.hung = False
    assert await server.readiness() == (True, {"database": "ok"})


async def test_readiness_with_a_real_sqlite_store_closed_and_reopened(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    server = HealthServer("127.0.0.1", 0)
    server.watch_database(store, timeout=PATIENCE)  # a busy server is slow, not down
    try:
        async with serving(server) as (http, url):
            assert (await get(http, url + "/readyz"))[0] == 200
            await store.close()  # the database goes away under the running process
            status, body = await get(http, url + "/readyz")
            assert status == 503 and body["failed"] == ["database"]
            assert body["checks"] == {"database": "failing"}
            await store.open()
            assert (await get(http, url + "/readyz"))[0] == 200
    finally:
        await store.close()


@pytest.mark.postgres
async def test_readiness_with_a_real_postgres_server() -> None:
    import os
    import secrets

    import asyncpg

    from storage.postgres import PostgresStore

    url = os.environ.get("MOJI_TEST_POSTGRES_URL")
    if not url:
        pytest.skip("MOJI_TEST_POSTGRES_URL is not set")
    # a schema of its own, as the storage tests have: the server's default one may hold another
    # run's tables (another checkout's newer schema version, say)
    schema = f"test_{secrets.token_hex(6)}"
    admin = await asyncpg.connect(url)
    await admin.execute(f"CREATE SCHEMA {schema}")
    store = PostgresStore(url, schema=schema)
    try:
        await store.open()
        server = HealthServer("127.0.0.1", 0)
        server.watch_database(store, timeout=PATIENCE)  # a busy server is slow, not down
        assert await server.readiness() == (True, {"database": "ok"})
        await store.close()
        ready, states = await server.readiness()
        assert not ready and states["database"] == "failing"
        await store.open()
        assert (await server.readiness())[0]
    finally:
        await store.close()
        await admin.execute(f"DROP SCHEMA {schema} CASCADE")
        await admin.close()


async def test_readiness_needs_every_platform_connected() -> None:
    connected = {"discord": False}

    async def slack() -> bool:
        return True

    server = HealthServer("127.0.0.1", 0)
    server.expect("discord")
    server.expect("slack")
    async with serving(server) as (http, url):
        status, body = await get(http, url + "/readyz")
        assert status == 503
        assert body["checks"] == {"discord": "starting", "slack": "starting"}
        server.add_check("discord", lambda: connected["discord"])
        server.add_check("slack", slack)
        status, body = await get(http, url + "/readyz")
        assert status == 503 and body["checks"] == {"discord": "not connected", "slack": "ok"}
        assert body["failed"] == ["discord"]
        connected["discord"] = True
        assert await get(http, url + "/readyz") == (
            200,
            {"status": "ready", "checks": {"discord": "ok", "slack": "ok"}, "failed": []},
        )
        server.fail("process", "stopping")  # a graceful stop: no new work for this process
        status, body = await get(http, url + "/readyz")
        assert status == 503 and body["checks"]["process"] == "stopping"


async def test_a_check_that_raises_is_a_failing_check() -> None:
    def broken() -> bool:
        raise RuntimeError("gateway gone")

    server = HealthServer("127.0.0.1", 0)
    server.add_check("discord", broken)
    assert await server.readiness() == (False, {"discord": "failing"})


async def test_readyz_names_the_failing_check_and_logs_why_once_per_change(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Anyone may ask /readyz: it says which check fails, never the error's text (a database's
    error names its user, host and port); the log has it, once when the state changes."""
    secret = 'password authentication failed for user "moji_owner" (host db.internal, port 6543)'

    class Refusing(FakeStore):
        async def ping(self) -> None:
            self.pings += 1
            if self.down:
                raise StorageError(secret)

    store = Refusing()
    store.down = True
    server = HealthServer("127.0.0.1", 0)
    server.watch_database(store)
    caplog.set_level(logging.DEBUG, logger="bot.process.health")
    async with serving(server) as (http, url):
        for _ in range(3):
            async with http.get(url + "/readyz") as resp:
                text = await resp.text()
            assert resp.status == 503
            assert json.loads(text) == {
                "status": "unready",
                "checks": {"database": "failing"},
                "failed": ["database"],
            }
            for part in ("moji_owner", "db.internal", "6543", "password"):
                assert part not in text
        logged = [
            r for r in caplog.records if r.name == "bot.process.health" and "readiness" in r.getMessage()
        ]
        assert len(logged) == 1 and logged[0].levelno == logging.WARNING
        assert secret in logged[0].getMessage()
        store.down = False
        for _ in range(2):
            assert (await get(http, url + "/readyz"))[0] == 200
    changes = [
        r.getMessage()
        for r in caplog.records
        if r.name == "bot.process.health" and "readiness" in r.getMessage()
    ]
    assert changes[1:] == ["readiness: database is ok again"]
    assert store.pings == 5


async def test_a_platform_mounts_its_routes_after_the_server_started() -> None:
    async def picture(request: web.Request) -> web.Response:
        return web.Response(text=f"picture {request.match_info['key']}")

    async def events(request: web.Request) -> web.Response:
        return web.json_response({"got": await request.text()})

    app = web.Application()
    app.router.add_get("/pictures/{key}.png", picture)
    app.router.add_post("/slack/events", events)
    server = HealthServer("127.0.0.1", 0)
    async with serving(server) as (http, url):
        async with http.get(url + "/slack/events") as resp:
            assert resp.status == 404  # not mounted yet
        server.mount(app)
        async with http.get(url + "/pictures/abc.png") as resp:
            assert resp.status == 200 and await resp.text() == "picture abc"
        async with http.post(url + "/slack/events", data="hello") as resp:
            assert resp.status == 200 and await resp.json() == {"got": "hello"}
        async with http.get(url + "/slack/events") as resp:
            assert resp.status == 405
        async with http.get(url + "/nothing") as resp:
            assert resp.status == 404
        assert (await get(http, url + "/healthz"))[0] == 200  # the server's own routes come first
        server.unmount(app)
        async with http.post(url + "/slack/events", data="hello") as resp:
            assert resp.status == 404


async def test_metrics_are_served_in_prometheus_text_format() -> None:
    mine = metrics.Metrics()
    mine.storage_retries.inc()
    server = HealthServer("127.0.0.1", 0, metrics=mine)
    async with serving(server) as (http, url), http.get(url + "/metrics") as resp:
        assert resp.status == 200
        assert resp.headers["Content-Type"].startswith("text/plain")
        text = await resp.text()
    assert "# HELP moji_storage_retries_total" in text
    assert "moji_storage_retries_total 1.0" in text
    assert "python_gc" not in text  # its own registry, not prometheus-client's global one


async def test_probes_are_not_logged_at_info(caplog: pytest.LogCaptureFixture) -> None:
    async def other(request: web.Request) -> web.Response:
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/other", other)
    server = HealthServer("127.0.0.1", 0)
    server.mount(app)
    async with serving(server) as (http, url):
        with caplog.at_level(logging.INFO, logger="aiohttp.access"):
            for path in ("/healthz", "/health", "/readyz", "/metrics", "/other"):
                async with http.get(url + path) as resp:
                    await resp.read()
            await until(lambda: any("/other" in r.getMessage() for r in caplog.records))
        info = [r.getMessage() for r in caplog.records if r.name == "aiohttp.access"]
        assert len(info) == 1 and "GET /other" in info[0]
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="aiohttp.access"):
            async with http.get(url + "/readyz") as resp:
                await resp.read()
            await until(lambda: any("/readyz" in r.getMessage() for r in caplog.records))
        [probe] = [r for r in caplog.records if r.name == "aiohttp.access"]
        assert probe.levelno == logging.DEBUG


async def until(predicate: Callable[[], bool]) -> None:
    """Wait until ``predicate()`` holds (the access log is written after the response)."""
    await eventually(predicate)


async def test_the_process_server_checks_the_database_and_each_configured_platform(tmp_path: Path) -> None:
    config = load_config(
        {
            "DISCORD_TOKEN": "x" * 40,
            "SLACK_BOT_TOKEN": "xoxb-1",
            "SLACK_APP_TOKEN": "xapp-1",
            "HOST": "127.0.0.1",
            "PORT": str(free_port()),
        },
        env_file=None,
    )
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    registry = Registry([TOY])
    svc = Services(registry, Workspace(store, registry), StoreGameLog(store), store)
    try:
        async with http_server(config, svc) as server:
            assert svc.http is server and server.port == config.port
            ready, states = await server.readiness()
            assert not ready
            assert states == {"database": "ok", "discord": "starting", "slack": "starting"}
            # a second process on the same address: one clear line
            with pytest.raises(StartupError, match=r"cannot listen on 127\.0\.0\.1"):
                async with http_server(config, svc):
                    pass
        assert svc.http is None
    finally:
        await store.close()


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_unknown_paths_are_503_while_a_platform_is_starting() -> None:
    server = HealthServer("127.0.0.1", 0)
    server.expect("slack")
    async with serving(server) as (http, url):
        async with http.post(url + "/slack/events", data="x") as resp:
            assert resp.status == 503 and resp.headers["Retry-After"] == "1"  # Slack tries again
        server.add_check("slack", lambda: True)
        async with http.post(url + "/slack/events", data="x") as resp:
            assert resp.status == 404
