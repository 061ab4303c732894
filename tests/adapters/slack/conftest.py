"""A real slack-bolt app on 127.0.0.1, fed signed requests, talking to a fake Web API."""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import itertools
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

import pytest

pytest.importorskip("slack_bolt")

import aiohttp
from aiohttp import web

from adapters.slack.app import SlackAdapter
from adapters.slack.settings import SlackSettings
from adapters.slack.store import MemorySlackStore
from bot.core.clock import FakeClock
from bot.core.events import ChatKey
from bot.core.registry import Registry
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import FakeSlack
from tests.bot.toygame import TOY
from tests.waiting import PATIENCE

SECRET = "8f742231b10e8888abcd99yyyzzz85a5"
TEAM = "T1"
CHANNEL = "C1"
CHAT = ChatKey("slack", TEAM, CHANNEL)
#: Slack gives each slash command and button press a trigger id of its own (across restarts).
TRIGGERS = itertools.count(1)
#: Monday 23 November 2026, 14:59:00 UTC.
MONDAY_1459 = 1795445940.0


def sign(body: str, secret: str = SECRET, timestamp: int | None = None) -> dict[str, str]:
    """Slack's v0 request signature headers for ``body``."""
    stamp = str(int(time.time()) if timestamp is None else timestamp)
    digest = hmac.new(secret.encode(), f"v0:{stamp}:{body}".encode(), hashlib.sha256).hexdigest()
    return {"X-Slack-Request-Timestamp": stamp, "X-Slack-Signature": f"v0={digest}"}


async def until(predicate: Callable[[], bool], within: float = PATIENCE) -> None:
    """Wait (yielding to the loop) until ``predicate()`` holds; fail after ``within`` s."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not predicate():
        if loop.time() > deadline:
            raise AssertionError("condition not met in time")
        await asyncio.sleep(0.005)


async def tick_until(
    clock: FakeClock,
    predicate: Callable[[], bool],
    *,
    busy: Callable[[], bool],
    within: float = 10.0,
    step: float = 0.25,
) -> None:
    """Let the fake clock run in small steps until ``predicate()`` holds; fail after ``within``
    fake seconds. Before each check the loop runs until nothing is ``busy`` (e.g. the fake
    Slack's calls in flight), so whatever was due at that time has happened."""
    start = clock.now()
    while True:
        await clock.settle()
        await until(lambda: not busy())
        await clock.settle()
        if predicate():
            return
        if clock.now() - start >= within:
            raise AssertionError(f"condition not met within {within} s on the fake clock")
        await clock.advance(step)
        await asyncio.sleep(0.005)  # (as in drain: a call on its way to the fake gets there)


@dataclass
class Harness:
    """The adapter under test and ways to talk to it like Slack does."""

    adapter: SlackAdapter
    slack: FakeSlack
    clock: FakeClock
    svc: FakeServices
    url: str
    http: aiohttp.ClientSession
    runner: web.AppRunner
    _events: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _ts: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    async def drain(self, most: float = 10.0, step: float = 0.25) -> None:
        """Let the clock run (in small steps, at most ``most`` s) until everything queued is sent:
        the delivery layer waits on the clock for Slack's rate limits."""
        waited = 0.0
        await until(lambda: True)
        await self.clock.settle()
        while not self.adapter.outbox.idle() and waited < most:
            await self.clock.advance(step)
            await asyncio.sleep(0.005)
            waited += step

    async def post(
        self, body: str, content_type: str, headers: dict[str, str] | None = None
    ) -> aiohttp.ClientResponse:
        """POST ``body`` to /slack/events, correctly signed unless ``headers`` say otherwise."""
        all_headers = {"Content-Type": content_type, **sign(body), **(headers or {})}
        async with self.http.post(
            self.url + "/slack/events", data=body.encode(), headers=all_headers
        ) as resp:
            await resp.read()
            return resp

    async def command(self, user: str, text: str, channel: str = CHANNEL, team: str = TEAM) -> int:
        """``/moji text`` typed by ``user``; returns the HTTP status."""
        form = {
            "token": "legacy",
            "team_id": team,
            "team_domain": "acme",
            "channel_id": channel,
            "channel_name": "general",
            "user_id": user,
            "user_name": self.slack.names.get(user, user).lower(),
            "command": "/moji",
            "text": text,
            "api_app_id": "A1",
            "response_url": f"{self.slack.url}/respond/{user}",
            "trigger_id": self.trigger_id(),
        }
        resp = await self.post(urlencode(form), "application/x-www-form-urlencoded")
        return resp.status

    async def button(self, user: str, action_id: str, channel: str = CHANNEL, team: str = TEAM) -> int:
        """``user`` presses the button ``action_id``."""
        payload = {
            "type": "block_actions",
            "team": {"id": team, "domain": "acme"},
            "user": {"id": user, "name": self.slack.names.get(user, user).lower(), "team_id": team},
            "api_app_id": "A1",
            "channel": {"id": channel, "name": "general"},
            "container": {"type": "message", "channel_id": channel, "message_ts": "1700000000.000001"},
            "trigger_id": self.trigger_id(),
            "response_url": f"{self.slack.url}/respond/{user}",
            "actions": [
                {"action_id": action_id, "block_id": "moji:actions", "type": "button", "action_ts": "1"}
            ],
        }
        resp = await self.post(
            urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded"
        )
        return resp.status

    async def event(
        self,
        event: dict[str, Any],
        *,
        event_id: str | None = None,
        retry: int | None = None,
        team: str = TEAM,
    ) -> int:
        """An Events API delivery (``retry`` sets X-Slack-Retry-Num like a redelivery)."""
        body = json.dumps(
            {
                "token": "legacy",
                "team_id": team,
                "api_app_id": "A1",
                "type": "event_callback",
                "event_id": event_id or f"Ev{next(self._events)}",
                "event_time": int(self.clock.now()),
                "event": event,
                "authorizations": [{"team_id": team, "user_id": "UBOT", "is_bot": True}],
            }
        )
        headers = {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"} if retry else {}
        resp = await self.post(body, "application/json", headers)
        return resp.status

    async def channel_deleted(self, channel: str = CHANNEL) -> int:
        """Someone deletes the channel: Slack refuses calls naming it and sends ``channel_deleted``
        (https://api.slack.com/events/channel_deleted)."""
        self.slack.lose_channel(channel, "deleted")
        return await self.event({"type": "channel_deleted", "channel": channel})

    async def channel_archived(self, channel: str = CHANNEL) -> int:
        """Someone archives the channel: ``channel_archive`` (https://api.slack.com/events/channel_archive)."""
        self.slack.lose_channel(channel, "archived")
        return await self.event({"type": "channel_archive", "channel": channel, "user": "UADMIN"})

    async def bot_removed(self, channel: str = CHANNEL) -> int:
        """Someone removes moji from the channel: ``member_left_channel`` naming the bot's user
        (https://api.slack.com/events/member_left_channel)."""
        self.slack.lose_channel(channel, "removed")
        event = {"type": "member_left_channel", "user": "UBOT", "channel": channel, "channel_type": "C"}
        return await self.event({**event, "team": TEAM})

    def trigger_id(self) -> str:
        """A new trigger id, as Slack makes one for each slash command or button press."""
        return f"{next(TRIGGERS)}.2.3"

    def next_ts(self) -> str:
        """A message timestamp at the fake clock's time (unique)."""
        return f"{self.clock.now():.0f}.{next(self._ts):06d}"

    async def say(
        self, user: str, text: str, *, ts: str | None = None, channel: str = CHANNEL, **extra: Any
    ) -> str:
        """``user`` types ``text`` in the channel; returns the message ts."""
        ts = ts or self.next_ts()
        event = {"type": "message", "channel": channel, "user": user, "text": text, "ts": ts}
        event.update({"channel_type": "channel", "team": TEAM, **extra})
        await self.event(event)
        return ts


def make_adapter(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, store: MemorySlackStore, **settings: Any
) -> SlackAdapter:
    """An adapter on the fake API (single-workspace token unless ``settings`` say OAuth)."""
    values: dict[str, Any] = {
        "bot_token": "xoxb-test",
        "signing_secret": SECRET,
        "base_url": slack.api_url,
        "settle": 0.15,
        "lobby_timeout": 600.0,
        **settings,
    }
    renderer = values.pop("renderer", None)
    return SlackAdapter(SlackSettings(**values), svc, clock, store=store, renderer=renderer)


@pytest.fixture
async def slack(clock: FakeClock) -> AsyncIterator[FakeSlack]:
    # Slack's limits, enforced on the test's clock
    fake = FakeSlack(names={"UANN": "Ann", "UBOB": "Bob", "UADMIN": "Ada"}, admins={"UADMIN"}, now=clock.now)
    await fake.start()
    yield fake
    await fake.stop()


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(MONDAY_1459)


@pytest.fixture
def registry() -> Registry:
    return Registry([TOY])


@pytest.fixture
def svc(registry: Registry) -> FakeServices:
    return FakeServices(registry)


@pytest.fixture
def slack_store() -> MemorySlackStore:
    return MemorySlackStore()


@asynccontextmanager
async def running(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, store: MemorySlackStore, **settings: Any
) -> AsyncIterator[Harness]:
    """Start an adapter (recovery, scheduler) and serve its HTTP app on 127.0.0.1."""
    adapter = make_adapter(slack, clock, svc, store, **settings)
    await adapter.start()
    runner = web.AppRunner(adapter.web_app())
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
    async with aiohttp.ClientSession() as http:
        harness = Harness(adapter, slack, clock, svc, f"http://127.0.0.1:{port}", http, runner)
        try:
            yield harness
        finally:
            await adapter.close()
            await runner.cleanup()


@pytest.fixture
async def h(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> AsyncIterator[Harness]:
    async with running(slack, clock, svc, slack_store) as harness:
        yield harness
