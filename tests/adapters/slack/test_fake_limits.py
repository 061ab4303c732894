"""The fake Slack Web API enforces Slack's rate limits, answering like Slack does.

Everything goes through the real ``slack_sdk`` ``AsyncWebClient`` with no retry
handlers, so a refused call surfaces as :class:`SlackApiError` with the 429
response. Time is a :class:`FakeClock`; nothing sleeps on the wall clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable
from dataclasses import replace
from types import SimpleNamespace
from typing import Any

import pytest

pytest.importorskip("slack_sdk")

from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry import builtin_async_handlers
from slack_sdk.http_retry.builtin_async_handlers import AsyncRateLimitErrorRetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState
from slack_sdk.web.async_client import AsyncWebClient
from slack_sdk.web.async_slack_response import AsyncSlackResponse

from bot.core.clock import FakeClock
from tests.adapters.slack.fakeslack import SLACK_LIMITS, TIER_3, FakeSlack, MethodLimit

START = 1_700_000_000.0


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(START)


@pytest.fixture
async def slack(clock: FakeClock) -> AsyncIterator[FakeSlack]:
    fake = FakeSlack(now=clock.now)
    await fake.start()
    try:
        yield fake
    finally:
        await fake.stop()


def sliding(slack: FakeSlack) -> None:
    """The sliding windows alone (no burst size): what the tests of the windows look at."""
    assert slack.limits is not None
    slack.limits = {method: replace(rule, burst=None) for method, rule in slack.limits.items()}


def client(slack: FakeSlack, token: str = "xoxb-1") -> AsyncWebClient:
    """The real client, with no retry handlers: a 429 raises."""
    return AsyncWebClient(token=token, base_url=slack.api_url, retry_handlers=[])


async def limited(call: Awaitable[AsyncSlackResponse]) -> int:
    """Await a call that must be refused; returns its Retry-After seconds."""
    with pytest.raises(SlackApiError) as caught:
        await call
    response = caught.value.response
    assert response.status_code == 429
    assert response["ok"] is False
    assert response["error"] == "ratelimited"
    return int(response.headers["Retry-After"])


def test_limits_model() -> None:
    assert SLACK_LIMITS["chat.postMessage"] == MethodLimit(1, 1.0, "channel")
    assert SLACK_LIMITS["chat.update"] == TIER_3 == MethodLimit(50, 60.0, "workspace", burst=10)
    assert SLACK_LIMITS["users.info"] == MethodLimit(100, 60.0, "workspace", burst=20)
    assert SLACK_LIMITS["conversations.join"] == TIER_3
    assert FakeSlack().limits == SLACK_LIMITS
    assert FakeSlack().limits is not SLACK_LIMITS  # each fake has its own copy to tweak
    with pytest.raises(ValueError):
        MethodLimit(1, 1.0, "team")


async def test_post_message_is_one_per_second_per_channel(slack: FakeSlack, clock: FakeClock) -> None:
    web = client(slack)
    first = await web.chat_postMessage(channel="C1", text="one")
    assert first["ok"]
    assert await limited(web.chat_postMessage(channel="C1", text="two")) == 1
    await clock.advance(0.5)
    assert await limited(web.chat_postMessage(channel="C1", text="three")) == 1
    # Another channel has its own budget.
    assert (await web.chat_postMessage(channel="C2", text="elsewhere"))["ok"]
    # One second after the first admitted post, the channel is free again.
    await clock.advance(0.5)
    fourth = await web.chat_postMessage(channel="C1", text="four")
    assert fourth["ok"]

    posts = slack.of("chat.postMessage")
    assert [c.args["text"] for c in posts] == ["one", "two", "three", "elsewhere", "four"]
    assert [c.status for c in posts] == [200, 429, 429, 200, 200]
    assert [c.at - START for c in posts] == [0.0, 0.0, 0.5, 0.5, 1.0]
    assert [c.args["text"] for c in slack.rate_limited()] == ["two", "three"]
    assert [c.args["text"] for c in posts if c.ok] == ["one", "elsewhere", "four"]
    # Refused calls were not executed: no ts was spent on them.
    assert first["ts"] == "1700000000.000001"
    assert fourth["ts"] == "1700000000.000003"


async def test_chat_update_is_fifty_a_minute_per_workspace(slack: FakeSlack, clock: FakeClock) -> None:
    sliding(slack)
    web = client(slack)
    for i in range(50):
        await web.chat_update(channel=f"C{i % 3}", ts="1.0", text=str(i))
        await clock.advance(0.2)  # 50 calls over 10 s
    # The first call arrived 10 s ago: its slot frees in 50 s.
    assert await limited(web.chat_update(channel="C9", ts="1.0", text="51st")) == 50
    await clock.advance(0.3)
    assert await limited(web.chat_update(channel="C1", ts="1.0", text="52nd")) == 50  # 49.7 s, rounded up
    # reactions.add has a budget of its own.
    assert (await web.reactions_add(channel="C1", timestamp="1.0", name="tada"))["ok"]
    # Sliding, not fixed: once the first call is a minute old, exactly one more fits.
    await clock.advance_to(START + 60)
    assert (await web.chat_update(channel="C1", ts="1.0", text="later"))["ok"]
    assert await limited(web.chat_update(channel="C1", ts="1.0", text="too soon")) == 1
    assert len(slack.rate_limited()) == 3
    assert len([c for c in slack.of("chat.update") if c.ok]) == 51


async def test_reactions_add_is_fifty_a_minute_apart_from_chat_update(
    slack: FakeSlack, clock: FakeClock
) -> None:
    sliding(slack)
    web = client(slack)
    for i in range(50):
        await web.reactions_add(channel=f"C{i % 2}", timestamp="1.0", name="tada")
    assert await limited(web.reactions_add(channel="C5", timestamp="1.0", name="tada")) == 60
    await clock.advance(59.5)
    assert await limited(web.reactions_add(channel="C5", timestamp="1.0", name="tada")) == 1
    assert (await web.chat_update(channel="C1", ts="1.0", text="fine"))["ok"]
    # reactions.remove is yet another budget.
    assert (await web.reactions_remove(channel="C1", timestamp="1.0", name="tada"))["ok"]
    await clock.advance(0.5)
    assert (await web.reactions_add(channel="C5", timestamp="1.0", name="tada"))["ok"]


async def test_each_workspace_has_its_own_budget(slack: FakeSlack) -> None:
    sliding(slack)
    team, token = slack.oauth_team
    assert slack.team_of(token) == team
    assert slack.team_of("xoxb-1") == "T1"
    one, two = client(slack), client(slack, token)
    assert (await one.chat_postMessage(channel="C1", text="a"))["ok"]
    assert (await two.chat_postMessage(channel="C1", text="b"))["ok"]
    await limited(one.chat_postMessage(channel="C1", text="c"))
    await limited(two.chat_postMessage(channel="C1", text="d"))
    for _ in range(50):
        await one.chat_update(channel="C1", ts="1.0", text="x")
    await limited(one.chat_update(channel="C1", ts="1.0", text="x"))
    assert (await two.chat_update(channel="C1", ts="1.0", text="x"))["ok"]
    # auth.test answers the same team the limits use.
    assert (await two.auth_test())["team_id"] == team


async def test_limits_none_disables_them(clock: FakeClock) -> None:
    slack = FakeSlack(now=clock.now, limits=None)
    await slack.start()
    try:
        web = client(slack)
        for i in range(60):
            assert (await web.chat_postMessage(channel="C1", text=str(i)))["ok"]
            assert (await web.chat_update(channel="C1", ts="1.0", text=str(i)))["ok"]
        assert slack.rate_limited() == []
    finally:
        await slack.stop()


async def test_limits_are_configurable_per_test(clock: FakeClock) -> None:
    slack = FakeSlack(now=clock.now, limits={"chat.update": MethodLimit(2, 10.0, "channel")})
    await slack.start()
    try:
        web = client(slack)
        await web.chat_update(channel="C1", ts="1.0", text="a")
        await clock.advance(3)
        await web.chat_update(channel="C1", ts="1.0", text="b")
        assert await limited(web.chat_update(channel="C1", ts="1.0", text="c")) == 7
        assert (await web.chat_update(channel="C2", ts="1.0", text="d"))["ok"]
        # Methods without a limit are not limited.
        for _ in range(5):
            assert (await web.chat_postMessage(channel="C1", text="x"))["ok"]
    finally:
        await slack.stop()


async def test_injected_failures_come_first_and_take_no_slot(slack: FakeSlack) -> None:
    web = client(slack)
    slack.fail["chat.postMessage"] = [(500, {}, {"ok": False, "error": "fatal_error"})]
    with pytest.raises(SlackApiError) as caught:
        await web.chat_postMessage(channel="C1", text="boom")
    assert caught.value.response.status_code == 500
    assert (await web.chat_postMessage(channel="C1", text="one"))["ok"]
    # With the channel's budget spent, an injected answer still wins over the limit.
    slack.fail["chat.postMessage"] = [(400, {}, {"ok": False, "error": "channel_not_found"})]
    with pytest.raises(SlackApiError) as caught:
        await web.chat_postMessage(channel="C1", text="two")
    assert caught.value.response["error"] == "channel_not_found"
    await limited(web.chat_postMessage(channel="C1", text="three"))
    posts = slack.of("chat.postMessage")
    assert [(c.status, c.limited, c.ok) for c in posts] == [
        (500, False, False),
        (200, False, True),
        (400, False, False),
        (429, True, False),
    ]
    assert slack.rate_limited() == [posts[-1]]


async def test_held_answers_still_count_at_arrival(slack: FakeSlack, clock: FakeClock) -> None:
    web = client(slack)
    gate = slack.hold("chat.postMessage")
    pending = asyncio.ensure_future(web.chat_postMessage(channel="C1", text="held"))
    await slack.wait_for("chat.postMessage")
    gate.set()  # the refused call below never waits on the gate anyway
    await limited(web.chat_postMessage(channel="C1", text="refused"))
    assert (await pending)["ok"]
    await clock.advance(1)
    assert (await web.chat_postMessage(channel="C1", text="next"))["ok"]


async def test_wait_for_can_skip_rate_limited_calls(slack: FakeSlack, clock: FakeClock) -> None:
    web = client(slack)
    await web.chat_postMessage(channel="C1", text="a")
    await limited(web.chat_postMessage(channel="C1", text="b"))
    assert len(await slack.wait_for("chat.postMessage", count=2, within=1)) == 2
    got = await slack.wait_for("chat.postMessage", lambda c: c.ok, count=1, within=1)
    assert [c.args["text"] for c in got] == ["a"]


async def test_slack_sdk_retry_handler_reads_the_retry_after(slack: FakeSlack, clock: FakeClock) -> None:
    sliding(slack)
    """The real AsyncRateLimitErrorRetryHandler parses the fake's 429 as Slack's."""
    web = client(slack)
    for _ in range(50):
        await web.chat_update(channel="C1", ts="1.0", text="x")
    await clock.advance(12.3)
    with pytest.raises(SlackApiError) as caught:
        await web.chat_update(channel="C1", ts="1.0", text="x")
    assert caught.value.response.headers["Retry-After"] == "48"

    # Unit level: the handler wants to retry and waits Retry-After (+ < 1 s jitter).
    slept: list[float] = []

    async def fake_sleep(seconds: float) -> None:
        slept.append(seconds)

    handler = AsyncRateLimitErrorRetryHandler()
    state = RetryState()
    request = HttpRequest(method="POST", url=slack.api_url + "chat.update", headers={})
    response = HttpResponse(
        status_code=caught.value.response.status_code,
        headers=dict(caught.value.response.headers),
        body=caught.value.response.data,
    )
    assert await handler.can_retry_async(state=state, request=request, response=response)
    patched = pytest.MonkeyPatch()
    patched.setattr(builtin_async_handlers, "asyncio", SimpleNamespace(sleep=fake_sleep))
    try:
        await handler.prepare_for_next_attempt_async(state=state, request=request, response=response)
    finally:
        patched.undo()
    assert len(slept) == 1
    assert 48 <= slept[0] < 49
    assert state.next_attempt_requested


async def test_client_with_retry_handler_gets_through(
    slack: FakeSlack, clock: FakeClock, monkeypatch: pytest.MonkeyPatch
) -> None:
    """End to end: the sdk's handler "sleeps" on the fake clock, then the retry is admitted."""
    slept: list[float] = []

    async def sleep_on_fake_clock(seconds: float) -> None:
        slept.append(seconds)
        await clock.advance(seconds)

    monkeypatch.setattr(builtin_async_handlers, "asyncio", SimpleNamespace(sleep=sleep_on_fake_clock))
    web = AsyncWebClient(
        token="xoxb-1",
        base_url=slack.api_url,
        retry_handlers=[AsyncRateLimitErrorRetryHandler(max_retry_count=1)],
    )
    await web.chat_postMessage(channel="C1", text="one")
    answer: Any = await web.chat_postMessage(channel="C1", text="two")
    assert answer["ok"]
    assert len(slept) == 1 and 1 <= slept[0] < 2
    assert [(c.args["text"], c.status) for c in slack.of("chat.postMessage")] == [
        ("one", 200),
        ("two", 429),
        ("two", 200),
    ]


async def test_a_tier_is_also_a_token_bucket_of_its_burst(slack: FakeSlack, clock: FakeClock) -> None:
    """ "Sporadic bursts welcome", of a size Slack does not say: the fake assumes a fifth of the
    minute (10 for Tier 3), refilling at 50 a minute — a minute's budget never leaves at once."""
    web = client(slack)
    for i in range(10):
        assert (await web.chat_update(channel="C1", ts="1.0", text=str(i)))["ok"]
    assert await limited(web.chat_update(channel="C1", ts="1.0", text="11th")) == 2  # 1.2 s: rounded up
    await clock.advance(1.2)  # one token back (50 a minute)
    assert (await web.chat_update(channel="C1", ts="1.0", text="refilled"))["ok"]
    assert await limited(web.chat_update(channel="C1", ts="1.0", text="again")) == 2
    # Sustained, 50 a minute go through: one every 1.2 s.
    for i in range(20):
        await clock.advance(1.2)
        assert (await web.chat_update(channel="C1", ts="1.0", text=f"steady {i}"))["ok"]
    # The burst is configurable per test.
    slack.limits = {**(slack.limits or {}), "reactions.add": replace(TIER_3, burst=2)}
    assert (await web.reactions_add(channel="C1", timestamp="1.0", name="a"))["ok"]
    assert (await web.reactions_add(channel="C1", timestamp="1.0", name="b"))["ok"]
    assert await limited(web.reactions_add(channel="C1", timestamp="1.0", name="c")) == 2


async def test_auth_test_has_its_own_limit_per_workspace(slack: FakeSlack, clock: FakeClock) -> None:
    # "hundreds of requests per minute": the fake's 200 a minute per workspace,
    # met by an app that checks its token on every inbound event
    assert SLACK_LIMITS["auth.test"] == MethodLimit(200, 60.0, "workspace")
    one, two = client(slack), client(slack, slack.oauth_team[1])
    for _ in range(200):
        assert (await one.auth_test())["ok"]
    assert await limited(one.auth_test()) > 0
    assert (await two.auth_test())["ok"], "another workspace has its own budget"
    await clock.advance(60.0)
    assert (await one.auth_test())["ok"]


async def test_a_private_or_unprocessed_file_makes_a_message_invalid_blocks(
    slack: FakeSlack, clock: FakeClock
) -> None:
    """As Slack documents it: a file completed without a channel is private to
    the app, and an upload is processed asynchronously; a message whose image block names such
    a file (``slack_file``) is refused whole with ``invalid_blocks``."""
    web = client(slack)

    async def upload(**share: str) -> str:
        got = await web.files_getUploadURLExternal(filename="t.png", length=4)
        file_id = str(got["file_id"])
        await web.files_completeUploadExternal(files=[{"id": file_id, "title": "t"}], **share)
        return file_id

    def picture(file_id: str) -> list[dict[str, Any]]:
        return [{"type": "image", "slack_file": {"id": file_id}, "alt_text": "the table"}]

    async def refused(file_id: str) -> list[str]:
        await clock.advance(1.0)  # (chat.postMessage: one a second in a channel)
        with pytest.raises(SlackApiError) as caught:
            await web.chat_postMessage(channel="C1", text="table", blocks=picture(file_id))
        assert caught.value.response["error"] == "invalid_blocks"
        return list(caught.value.response["errors"])

    private = await upload()
    assert await refused(private) == ["invalid slack file [json-pointer:/blocks/0/slack_file]"]
    shared = await upload(channel_id="C1")
    assert slack.file_processing > 1.0
    assert await refused(shared) == ["invalid slack file [json-pointer:/blocks/0/slack_file]"]
    await clock.advance(slack.file_processing)
    assert (await web.chat_postMessage(channel="C1", text="table", blocks=picture(shared)))["ok"]
    assert await refused(private), "a private file stays private"
    assert await refused("F404"), "and an unknown one is refused too"


async def test_a_file_named_by_an_image_element_follows_the_same_rules(
    slack: FakeSlack, clock: FakeClock
) -> None:
    """Image elements (of a context block, or a section's accessory) name files as image blocks do:
    the refusal points at the element; a file of another workspace is refused too; and with
    ``strict_files`` off, only an unknown file or another workspace's is."""
    web, other = client(slack), client(slack, slack.oauth_team[1])

    async def upload(web: AsyncWebClient, **share: str) -> str:
        got = await web.files_getUploadURLExternal(filename="t.png", length=4)
        file_id = str(got["file_id"])
        await web.files_completeUploadExternal(files=[{"id": file_id, "title": "t"}], **share)
        return file_id

    def row(file_id: str) -> list[dict[str, Any]]:
        text = {"type": "mrkdwn", "text": "cards"}
        image = {"type": "image", "slack_file": {"id": file_id}, "alt_text": "a card"}
        return [
            {"type": "section", "text": text, "accessory": {**image, "slack_file": {"id": "F-ok"}}},
            {"type": "context", "elements": [text, image]},
        ]

    async def refused(file_id: str) -> list[str]:
        await clock.advance(1.0)
        with pytest.raises(SlackApiError) as caught:
            await web.chat_postMessage(channel="C1", text="table", blocks=row(file_id))
        assert caught.value.response["error"] == "invalid_blocks"
        return list(caught.value.response["errors"])

    ok = await upload(web, channel_id="C1")
    mine, theirs, private = (
        await upload(web, channel_id="C1"),
        await upload(other, channel_id="C1"),
        await upload(web),
    )
    slack.files["F-ok"] = slack.files[ok]
    await clock.advance(slack.file_processing)
    assert (await web.chat_postMessage(channel="C1", text="table", blocks=row(mine)))["ok"]
    pointer = "invalid slack file [json-pointer:/blocks/1/elements/1/slack_file]"
    assert await refused(theirs) == [pointer]
    assert await refused(private) == [pointer]
    assert await refused("F404") == [pointer]
    accessory = [
        {"type": "section", "text": {"type": "mrkdwn", "text": "x"}, "accessory": row(mine)[1]["elements"][1]}
    ]
    accessory[0]["accessory"] = {**accessory[0]["accessory"], "slack_file": {"id": private}}
    await clock.advance(1.0)
    with pytest.raises(SlackApiError) as caught:
        await web.chat_postMessage(channel="C1", text="x", blocks=accessory)
    assert caught.value.response["errors"] == [
        "invalid slack file [json-pointer:/blocks/0/accessory/slack_file]"
    ]

    slack.strict_files = False  # (what some apps report: a processed private file is shown)
    fresh = await upload(web)
    await clock.advance(1.0)
    assert (await web.chat_postMessage(channel="C1", text="table", blocks=row(fresh)))["ok"]
    assert await refused(theirs) == [pointer], "another workspace's file is never shown"
    assert await refused("F404") == [pointer]
