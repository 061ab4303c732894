"""The fake Discord enforces Discord's rate limits on its own clock, with Discord's headers and bodies."""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
from discord.http import HTTPClient, Ratelimit, Route

from bot.core.clock import FakeClock
from tests import specs
from tests.adapters.discord.fakediscord import (
    APP_ID,
    CHANNEL_ID,
    DEFAULT_LIMITS,
    OTHER_CHANNEL_ID,
    DiscordLimits,
    FakeDiscord,
    Fault,
    RouteLimit,
    bucket_hash,
)

START = 1_700_000_000.0
TOKEN = "fake-discord-token-" + "x" * 40
MESSAGES = r"^/channels/\d+/messages$"
RATE_HEADERS = (
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "X-RateLimit-Reset-After",
    "X-RateLimit-Bucket",
)


@dataclass
class Answer:
    """One HTTP answer from the fake: status, headers and decoded body."""

    status: int
    headers: dict[str, str]
    body: Any


@dataclass
class Client:
    """A raw aiohttp client against a started fake, and the fake clock it runs on."""

    fake: FakeDiscord
    clock: FakeClock
    session: aiohttp.ClientSession

    async def call(self, method: str, path: str, body: Any = None) -> Answer:
        async with self.session.request(method, self.fake.base + "/api/v10" + path, json=body) as response:
            data = await response.json() if response.content_type == "application/json" else None
            return Answer(response.status, dict(response.headers), data)

    async def post(self, channel: str = CHANNEL_ID, content: str = "hi") -> Answer:
        return await self.call("POST", f"/channels/{channel}/messages", {"content": content})

    async def edit(self, mid: str, channel: str = CHANNEL_ID, content: str = "edited") -> Answer:
        return await self.call("PATCH", f"/channels/{channel}/messages/{mid}", {"content": content})

    async def react(self, mid: str, channel: str = CHANNEL_ID, emoji: str = "%E2%9C%85") -> Answer:
        return await self.call("PUT", f"/channels/{channel}/messages/{mid}/reactions/{emoji}/@me")


@contextlib.asynccontextmanager
async def serve(limits: DiscordLimits | None = DEFAULT_LIMITS) -> AsyncIterator[Client]:
    """A started fake on a fake clock at ``START`` with ``limits``, and a client for it."""
    clock = FakeClock(start=START)
    fake = FakeDiscord(now=clock.now, limits=limits)
    await fake.start()
    try:
        async with aiohttp.ClientSession() as session:
            yield Client(fake, clock, session)
    finally:
        await fake.close()


def assert_limited(answer: Answer, *, now: float, limit: int, retry_after: float, bucket: str) -> None:
    """A per-route 429 at fake time ``now``, exactly as Discord sends it."""
    assert answer.status == 429
    assert answer.body == {
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": False,
        "code": 0,
    }
    headers = answer.headers
    assert headers["Content-Type"] == "application/json"
    assert float(headers["Retry-After"]) == retry_after
    assert headers["X-RateLimit-Limit"] == str(limit)
    assert headers["X-RateLimit-Remaining"] == "0"
    assert headers["X-RateLimit-Reset"] == f"{now + retry_after:.3f}"
    assert float(headers["X-RateLimit-Reset-After"]) == pytest.approx(retry_after)
    assert headers["X-RateLimit-Bucket"] == bucket_hash(bucket)
    assert headers["X-RateLimit-Scope"] == "user"
    assert "X-RateLimit-Global" not in headers
    assert headers["Via"] == "1.1 google"


async def test_sixth_message_in_five_seconds_is_refused_and_not_posted() -> None:
    async with serve() as c:
        for _ in range(5):
            assert (await c.post()).status == 200
        await c.clock.advance(1.5)
        refused = await c.post(content="sixth")
        assert_limited(refused, now=c.clock.now(), limit=5, retry_after=3.5, bucket="message_create")
        assert len(c.fake.messages) == 5
        assert "sixth" not in [m["content"] for m in c.fake.messages.values()]
        assert len(c.fake.channel_posts()) == 5
        [limited] = c.fake.rate_limited()
        assert (limited.status, limited.limited, limited.at) == (429, "message_create", START + 1.5)
        assert c.fake.invalid_requests == 1


async def test_a_refused_request_takes_no_slot_and_the_window_reopens_after_it_ends() -> None:
    async with serve() as c:
        for _ in range(5):
            assert (await c.post()).status == 200
        for _ in range(3):
            assert (await c.post()).status == 429
        await c.clock.advance(4.999)
        assert (await c.post()).status == 429
        await c.clock.advance(0.001)
        # a new window opens with this request: five more, then 429 until START + 10
        answers = [await c.post() for _ in range(6)]
        assert [a.status for a in answers] == [200] * 5 + [429]
        assert answers[0].headers["X-RateLimit-Remaining"] == "4"
        assert float(answers[0].headers["X-RateLimit-Reset"]) == START + 10.0
        assert answers[5].body["retry_after"] == 5.0
        assert len(c.fake.channel_posts()) == 10
        assert len(c.fake.rate_limited()) == 5


async def test_the_window_starts_with_the_first_request_not_on_a_grid() -> None:
    async with serve() as c:
        await c.clock.advance(3.0)
        assert (await c.post()).status == 200  # window START+3 .. START+8
        await c.clock.advance(4.0)
        for _ in range(4):
            assert (await c.post()).status == 200
        refused = await c.post()
        assert refused.status == 429
        assert refused.body["retry_after"] == 1.0
        await c.clock.advance(1.0)
        assert (await c.post()).status == 200


async def test_each_channel_has_its_own_message_bucket() -> None:
    async with serve() as c:
        for _ in range(5):
            assert (await c.post(CHANNEL_ID)).status == 200
        assert (await c.post(CHANNEL_ID)).status == 429
        other = [await c.post(OTHER_CHANNEL_ID) for _ in range(5)]
        assert [a.status for a in other] == [200] * 5
        assert [a.headers["X-RateLimit-Remaining"] for a in other] == ["4", "3", "2", "1", "0"]
        # Discord's bucket hash names the route, not the channel
        assert other[0].headers["X-RateLimit-Bucket"] == bucket_hash("message_create")
        assert (await c.post(OTHER_CHANNEL_ID)).status == 429
        assert len(c.fake.channel_posts(OTHER_CHANNEL_ID)) == 5


async def test_success_headers_count_down_and_reset_after_is_scaled() -> None:
    async with serve(DiscordLimits(reset_scale=0.5)) as c:
        answers = []
        for _ in range(5):
            answers.append(await c.post())
            await c.clock.advance(1.0)
        for n, answer in enumerate(answers):
            assert answer.status == 200
            assert set(RATE_HEADERS) <= answer.headers.keys()
            assert answer.headers["X-RateLimit-Limit"] == "5"
            assert answer.headers["X-RateLimit-Remaining"] == str(4 - n)
            assert answer.headers["X-RateLimit-Reset"] == f"{START + 5.0:.3f}"
            assert float(answer.headers["X-RateLimit-Reset-After"]) == (5.0 - n) * 0.5
            assert answer.headers["X-RateLimit-Bucket"] == bucket_hash("message_create")
            assert "X-RateLimit-Scope" not in answer.headers
        renewed = await c.post()  # 5 s have passed: a new window
        assert renewed.status == 200
        assert renewed.headers["X-RateLimit-Remaining"] == "4"
        assert renewed.headers["X-RateLimit-Reset"] == f"{START + 10.0:.3f}"


async def test_a_refusal_stays_honest_but_its_reset_after_is_scaled() -> None:
    async with serve(DiscordLimits(reset_scale=0.5)) as c:
        for _ in range(5):
            await c.post()
        refused = await c.post()
        assert refused.body["retry_after"] == 5.0
        assert refused.headers["Retry-After"] == "5.0"
        assert refused.headers["X-RateLimit-Reset"] == f"{START + 5.0:.3f}"
        assert refused.headers["X-RateLimit-Reset-After"] == "2.500"


async def test_reset_scale_zero_still_enforces_on_the_fake_clock() -> None:
    async with serve(DiscordLimits(reset_scale=0.0)) as c:
        answers = [await c.post() for _ in range(6)]
        assert [a.status for a in answers] == [200] * 5 + [429]
        assert {a.headers["X-RateLimit-Reset-After"] for a in answers} == {"0.000"}
        assert answers[5].body["retry_after"] == 5.0
        assert answers[5].headers["Retry-After"] == "5.0"


async def test_edits_have_their_own_bucket_per_channel() -> None:
    async with serve() as c:
        posted = [await c.post() for _ in range(5)]
        mids = [a.body["id"] for a in posted]
        edits = [await c.edit(mid) for mid in mids]
        assert [a.status for a in edits] == [200] * 5
        assert edits[0].headers["X-RateLimit-Bucket"] == bucket_hash("message_edit")
        assert edits[0].headers["X-RateLimit-Bucket"] != posted[0].headers["X-RateLimit-Bucket"]
        refused = await c.edit(mids[0], content="too many")
        assert_limited(refused, now=START, limit=5, retry_after=5.0, bucket="message_edit")
        assert c.fake.messages[mids[0]]["content"] == "edited"
        assert (await c.post()).status == 429  # the create bucket is spent too, independently
        assert (await c.edit(mids[0], channel=OTHER_CHANNEL_ID)).status == 200
        assert [r.limited for r in c.fake.rate_limited()] == ["message_edit", "message_create"]


async def test_one_reaction_per_quarter_second_per_channel() -> None:
    async with serve() as c:
        mid = (await c.post()).body["id"]
        first = await c.react(mid)
        assert first.status == 204
        assert first.headers["X-RateLimit-Limit"] == "1"
        assert first.headers["X-RateLimit-Remaining"] == "0"
        assert first.headers["X-RateLimit-Bucket"] == bucket_hash("reaction")
        assert float(first.headers["X-RateLimit-Reset-After"]) == 0.25
        refused = await c.react(mid, emoji="%F0%9F%91%8D")
        assert_limited(refused, now=START, limit=1, retry_after=0.25, bucket="reaction")
        removal = await c.call("DELETE", f"/channels/{CHANNEL_ID}/messages/{mid}/reactions/%E2%9C%85/@me")
        assert removal.status == 429  # removing shares the bucket
        assert (await c.react(mid, channel=OTHER_CHANNEL_ID)).status == 204
        await c.clock.advance(0.25)
        assert (await c.react(mid)).status == 204
        assert [r.limited for r in c.fake.rate_limited()] == ["reaction", "reaction"]


async def test_global_limit_is_fifty_a_second_across_channels() -> None:
    limits = DiscordLimits(message_create=RouteLimit(100, 5.0))
    async with serve(limits) as c:
        for n in range(50):
            channel = CHANNEL_ID if n % 2 else OTHER_CHANNEL_ID
            assert (await c.post(channel)).status == 200
        await c.clock.advance(0.4)
        refused = await c.post(str(int(CHANNEL_ID) + 7))  # a fresh channel: only the global bucket is full
        assert refused.status == 429
        assert refused.body == {
            "message": "You are being rate limited.",
            "retry_after": 0.6,
            "global": True,
            "code": 0,
        }
        assert refused.headers["X-RateLimit-Global"] == "true"
        assert refused.headers["X-RateLimit-Scope"] == "global"
        assert refused.headers["X-RateLimit-Limit"] == "50"
        assert refused.headers["X-RateLimit-Remaining"] == "0"
        assert float(refused.headers["Retry-After"]) == 0.6
        assert float(refused.headers["X-RateLimit-Reset"]) == START + 1.0
        assert refused.headers["Via"] == "1.1 google"
        # non-bucket routes count toward the global limit too
        assert (await c.call("GET", "/users/@me")).status == 429
        [a, b] = c.fake.rate_limited()
        assert (a.limited, b.limited) == ("global", "global")
        assert len(c.fake.messages) == 50
        await c.clock.advance(0.6)
        assert (await c.call("GET", "/users/@me")).status == 200


async def test_global_refusal_takes_no_route_slot() -> None:
    limits = DiscordLimits(global_limit=RouteLimit(3, 1.0))
    async with serve(limits) as c:
        for _ in range(3):
            assert (await c.call("GET", "/gateway/bot")).status == 200
        assert (await c.post()).body["global"] is True
        await c.clock.advance(1.0)
        ok = await c.post()
        assert ok.status == 200
        assert ok.headers["X-RateLimit-Remaining"] == "4"


async def test_interaction_callbacks_and_webhooks_are_exempt_from_the_global_limit() -> None:
    async with serve() as c:
        for _ in range(50):
            assert (await c.call("GET", "/users/@me")).status == 200
        assert (await c.call("GET", "/users/@me")).status == 429
        callback = await c.call("POST", "/interactions/123/token-123/callback", {"type": 5})
        assert callback.status == 200
        followup = await c.call("POST", f"/webhooks/{APP_ID}/token-123", {"content": "later"})
        assert followup.status == 200
        edit = await c.call("PATCH", f"/webhooks/{APP_ID}/token-123/messages/@original", {"content": "x"})
        assert edit.status == 200
        gone = await c.call("DELETE", f"/webhooks/{APP_ID}/token-123/messages/@original")
        assert gone.status == 204
        assert len(c.fake.rate_limited()) == 1
        assert not any(h.startswith("X-RateLimit") for h in callback.headers)


async def test_faults_come_before_limits_and_are_not_counted_as_rate_limited() -> None:
    async with serve() as c:
        c.fake.faults.append(Fault("POST", MESSAGES, "429", times=2))
        c.fake.faults.append(Fault("POST", MESSAGES, "403"))
        assert [(await c.post()).status for _ in range(3)] == [429, 429, 403]
        assert [(await c.post()).status for _ in range(6)] == [200] * 5 + [429]
        assert len(c.fake.rate_limited()) == 1
        assert c.fake.invalid_requests == 4


async def test_invalid_requests_counts_401_403_and_429() -> None:
    async with serve() as c:
        c.fake.faults_401 = True
        assert (await c.call("GET", "/users/@me")).status == 401
        c.fake.faults.append(Fault("PUT", "reactions", "403"))
        assert (await c.react("1")).status == 403
        assert (await c.call("GET", "/unknown")).status == 404
        # (Discord's published spec has no such route either: taken here, so the test passes)
        assert specs.take_problems() == (["no route /unknown in the spec"] if specs.discord_spec() else [])
        assert [(await c.react("1")).status for _ in range(2)] == [204, 429]
        assert c.fake.invalid_requests == 3


async def test_requests_are_stamped_with_the_fake_clock() -> None:
    async with serve() as c:
        await c.post()
        await c.clock.advance(2.5)
        await c.call("GET", "/users/@me")
        assert [r.at for r in c.fake.requests] == [START, START + 2.5]


async def test_no_limits_means_no_enforcement_and_no_headers() -> None:
    async with serve(limits=None) as c:
        answers = [await c.post() for _ in range(60)]
        assert {a.status for a in answers} == {200}
        assert not any(h.startswith("X-RateLimit") for a in answers for h in a.headers)
        mid = answers[0].body["id"]
        assert {(await c.react(mid)).status for _ in range(3)} == {204}
        assert c.fake.rate_limited() == []
        assert c.fake.invalid_requests == 0


async def test_discord_py_reads_the_headers() -> None:
    async with serve(DiscordLimits(reset_scale=0.5)) as c:
        bucket = Ratelimit(None)
        url = f"{c.fake.base}/api/v10/channels/{CHANNEL_ID}/messages"
        for n in range(5):
            async with c.session.post(url, json={"content": "hi"}) as response:
                bucket.update(response)
                assert (bucket.limit, bucket.remaining) == (5, 4 - n)
                assert bucket.reset_after == 2.5
                clocked = Ratelimit(None)
                clocked.update(response, use_clock=True)  # reads X-RateLimit-Reset as an epoch
                assert math.isfinite(clocked.reset_after)
        assert bucket.remaining == 0  # discord.py would now sleep reset_after (wall) seconds


async def test_discord_py_http_client_paces_with_scale_zero_and_reads_a_429_as_a_rate_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    limits = DiscordLimits(message_create=RouteLimit(5, 100.0), reset_scale=0.0)
    async with serve(limits) as c:
        c.fake.patch(monkeypatch)
        http = HTTPClient(asyncio.get_running_loop(), max_ratelimit_timeout=30.0)
        try:
            await http.static_login(TOKEN)
            route = Route("POST", "/channels/{channel_id}/messages", channel_id=CHANNEL_ID)
            for n in range(5):
                await http.request(route, json={"content": f"m{n}"})
            # retry_after (100 s) is over max_ratelimit_timeout, so discord.py raises instead of sleeping;
            # a 429 without Via or with a non-JSON body would have been an HTTPException (a ban)
            with pytest.raises(discord.RateLimited) as caught:
                await http.request(route, json={"content": "m5"})
            assert caught.value.retry_after == 100.0
        finally:
            await http.close()
        assert len(c.fake.channel_posts()) == 5
        assert [r.limited for r in c.fake.rate_limited()] == ["message_create"]
