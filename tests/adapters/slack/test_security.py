"""Hostile HTTP requests to the real Slack adapter, served by the process's real HTTP server.

Unsigned or malformed deliveries are refused before anything is parsed (401), signed ones
that cannot be read get 400, and neither leaves more than one quiet WARNING in the log.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from urllib.parse import urlencode

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.store import MemorySlackStore
from bot.core.clock import FakeClock
from bot.process.health import HealthServer
from tests.adapters.slack.conftest import CHAT, SECRET, Harness, running, sign, until
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import FakeSlack


@asynccontextmanager
async def through_the_server(h: Harness) -> AsyncIterator[Harness]:
    """The adapter's routes mounted on a real :class:`~bot.process.health.HealthServer` (as ``python -m bot``
    serves them, with its access log and limits); ``h.url`` points there meanwhile."""
    server = HealthServer("127.0.0.1", 0)
    server.mount(h.adapter.web_app())
    await server.start()
    own = h.url
    try:
        h.url = f"http://127.0.0.1:{server.port}"
        yield h
    finally:
        h.url = own
        await server.stop()


@pytest.fixture
async def served(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> AsyncIterator[Harness]:
    async with running(slack, clock, svc, slack_store) as h, through_the_server(h):
        yield h


def sign_bytes(body: bytes, timestamp: str | None = None, secret: str = SECRET) -> dict[str, str]:
    stamp = timestamp or str(int(time.time()))
    digest = hmac.new(secret.encode(), b"v0:" + stamp.encode() + b":" + body, hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": f"v0={digest}"}


async def post(h: Harness, body: bytes, content_type: str, headers: dict[str, str]) -> tuple[int, str]:
    async with h.http.post(
        h.url + "/slack/events", data=body, headers={"Content-Type": content_type, **headers}
    ) as resp:
        return resp.status, await resp.text()


def loud(caplog: pytest.LogCaptureFixture) -> list[logging.LogRecord]:
    """Records above INFO, or with a traceback."""
    return [r for r in caplog.records if r.levelno > logging.INFO or r.exc_info]


COMMAND = urlencode(
    {"team_id": "T1", "channel_id": "C1", "user_id": "UANN", "command": "/moji", "text": "start toy"}
).encode()
JSON = "application/json"
FORM = "application/x-www-form-urlencoded"

UNSIGNED = [
    # (body, content type, headers): what a stranger can send
    (b"{not json", JSON, {}),
    (b"\xff\xfe garbage \x00", JSON, {}),
    (b"payload=%7Bbroken", FORM, {}),
    (b"payload=" + json.dumps({"type": "block_actions"}).encode(), FORM, {}),
    (COMMAND, FORM, {}),
    (COMMAND, FORM, {"X-Slack-Request-Timestamp": "yesterday", "X-Slack-Signature": "v0=00"}),
    (b"{not json", JSON, {"X-Slack-Request-Timestamp": "1e9", "X-Slack-Signature": "v0=00"}),
    (b"{not json", JSON, {"X-Slack-Request-Timestamp": "-1", "X-Slack-Signature": "v0=00"}),
    (b"{}", JSON, {"X-Slack-Request-Timestamp": "9" * 40, "X-Slack-Signature": "v0=00"}),
    (b"{}", JSON, {"X-Slack-Request-Timestamp": str(int(time.time())), "X-Slack-Signature": "v0=\u00e9"}),
    (COMMAND, FORM, sign_bytes(COMMAND, secret="not-the-secret")),
    (COMMAND, FORM, sign_bytes(COMMAND, timestamp=str(int(time.time()) - 3600))),
]


async def test_unsigned_and_malformed_requests_get_401_quietly(
    served: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = served
    caplog.set_level(logging.DEBUG)
    for _ in range(5):  # a stranger flooding the endpoint
        for body, content_type, headers in UNSIGNED:
            status, text = await post(h, body, content_type, headers)
            assert status == 401, (body, headers, text)
    assert h.adapter.runtime.manager.sessions == {}
    assert [c.method for c in h.slack.calls if c.method != "auth.test"] == []
    # 60 refusals: one WARNING (counting them), the rest at DEBUG; no error, no traceback
    [warning] = loud(caplog)
    assert warning.levelno == logging.WARNING and "refused" in warning.getMessage()
    assert sum(h.adapter.refusals.counts.values()) == 5 * len(UNSIGNED)
    assert h.adapter.refusals.counts["malformed timestamp"] == 5 * 4
    # Slack's own requests still work
    assert await h.command("UANN", "start toy") == 200
    await until(lambda: CHAT in h.adapter.runtime.manager.sessions)


SIGNED_BUT_UNREADABLE = [
    (b"{not json", JSON),
    (b"[1, 2, 3]", JSON),
    (b'"just a string"', JSON),
    (b"\xff\xfe not utf-8", JSON),
    (b"payload=%7Bbroken", FORM),  # an interactive payload that is not JSON
    (b"payload=%5B%5D", FORM),
]


async def test_signed_requests_that_cannot_be_read_get_400_quietly(
    served: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    h = served
    caplog.set_level(logging.DEBUG)
    for body, content_type in SIGNED_BUT_UNREADABLE:
        status, text = await post(h, body, content_type, sign_bytes(body))
        assert status == 400, (body, text)
    assert [r.levelno for r in loud(caplog)] == [logging.WARNING]
    assert h.adapter.runtime.manager.sessions == {}


async def test_signed_commands_and_buttons_still_work_through_the_server(served: Harness) -> None:
    h = served
    assert await h.command("UANN", "start toy") == 200
    await until(lambda: CHAT in h.adapter.runtime.manager.sessions)
    assert await h.button("UBOB", "moji:join") == 200
    body = "team_id=T1&channel_id=C1&user_id=UANN&command=%2Fmoji&text=help"
    resp = await h.post(body, FORM, sign(body))
    assert resp.status == 200
