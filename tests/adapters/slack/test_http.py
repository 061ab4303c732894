"""Slack's HTTP contract: signatures, ack timing, redeliveries, rate limits, quiet threads."""

from __future__ import annotations

import asyncio
import time

import pytest

pytest.importorskip("slack_bolt")

from bot.core import views
from bot.core.events import Post
from tests.adapters.slack.conftest import CHAT, Harness, sign, until
from tests.adapters.slack.fakeslack import Call
from tests.adapters.slack.test_game import is_table, letters


async def test_bad_signature_is_rejected_and_nothing_happens(h: Harness) -> None:
    body = "team_id=T1&channel_id=C1&user_id=UANN&command=%2Fmoji&text=start"
    forged = sign(body, secret="not-the-secret")
    resp = await h.post(body, "application/x-www-form-urlencoded", forged)
    assert resp.status == 401
    stale = sign(body, timestamp=int(time.time()) - 3600)  # a replayed old request
    resp = await h.post(body, "application/x-www-form-urlencoded", stale)
    assert resp.status == 401
    resp = await h.post(body, "application/x-www-form-urlencoded", {"X-Slack-Signature": ""})
    assert resp.status == 401
    assert h.adapter.runtime.manager.sessions == {}
    assert [c.method for c in h.slack.calls if c.method != "auth.test"] == []


async def test_slash_command_is_acknowledged_before_the_work(h: Harness) -> None:
    release = h.slack.hold("chat.postMessage")
    started = time.monotonic()
    status = await h.command("UANN", "start toy")
    assert status == 200
    assert time.monotonic() - started < 3.0
    # Slack got its 200 while the lobby post is still waiting on the Web API.
    await h.slack.wait_for("chat.postMessage")
    assert not release.is_set()
    release.set()
    await until(lambda: CHAT in h.adapter.runtime.manager.sessions)


async def test_redelivered_events_never_count_twice(h: Harness) -> None:
    await h.command("UANN", "start toy target=2")
    await h.command("UANN", "go")
    await h.drain()
    [table] = await h.slack.wait_for("chat.postMessage", is_table)
    word = letters(table)[0].lower() + "zz"
    ts = h.next_ts()
    event = {
        "type": "message",
        "channel": "C1",
        "user": "UANN",
        "text": word,
        "ts": ts,
        "channel_type": "channel",
    }
    session = h.adapter.runtime.manager.sessions[CHAT]
    await h.event(event, event_id="EvSame")
    await until(lambda: len(session.settle.pending) == 1)
    # Slack retries the same event (same id), then delivers it again under a new id.
    assert await h.event(event, event_id="EvSame", retry=1) == 200
    assert await h.event(event, event_id="EvOther", retry=2) == 200
    await h.command("UANN", "help")  # handled after the redeliveries
    await h.slack.wait_for("chat.postEphemeral", lambda c: "moji commands" in str(c.args.get("text")))
    assert len(session.settle.pending) == 1
    await h.clock.advance(0.2)
    await h.slack.wait_for("reactions.add")
    seat = "slack:UANN"
    assert session.engine is not None
    assert session.engine.snapshot(None).seats[0].seat == seat
    assert session.engine.snapshot(None).seats[0].score == 1


async def test_rate_limited_calls_are_retried_after_retry_after(h: Harness) -> None:
    """A 429 reaches the pacer (not the client's own wall-clock retries): it holds the
    channel's bucket for Retry-After seconds on the adapter's clock, then tries once more."""
    h.slack.fail["chat.postMessage"] = [(429, {"Retry-After": "3"}, {"ok": False, "error": "ratelimited"})]
    posting = asyncio.ensure_future(h.adapter.outbox.send(Post(CHAT, views.message("hello", "lobby"))))
    [refused] = await h.slack.wait_for("chat.postMessage")
    assert refused.status == 429
    await until(lambda: h.adapter.outbox.stats.rate_limited == 1)
    await h.clock.advance(2.9)
    assert not posting.done() and len(h.slack.of("chat.postMessage")) == 1
    await h.clock.advance(0.1)
    ref = await asyncio.wait_for(posting, 5)
    assert ref is not None and ref.message_id.startswith("1700000000.")
    first, second = h.slack.of("chat.postMessage")
    assert second.ok and second.at - first.at == pytest.approx(3.0)
    assert second.args["text"] == first.args["text"]
    assert h.adapter.outbox.stats.rate_limited == 1


async def test_quiet_mode_keeps_the_game_in_a_thread(h: Harness) -> None:
    h.svc.store.settings[("slack", "T1")] = {"quiet": "true"}
    await h.command("UANN", "start toy target=1")
    [lobby] = await h.slack.wait_for("chat.postMessage")
    assert not lobby.args.get("thread_ts")
    await until(lambda: CHAT in h.adapter.transport.threads)  # the lobby post has been answered
    lobby_ts = h.adapter.transport.threads[CHAT]
    assert lobby_ts.startswith("1700000000.")
    await h.command("UANN", "go")
    await h.drain()
    [table] = await h.slack.wait_for("chat.postMessage", is_table)
    assert table.args["thread_ts"] == lobby_ts
    # Answers typed in the thread count for the channel's game.
    session = h.adapter.runtime.manager.sessions[CHAT]
    await h.say("UANN", letters(table)[0].lower() + "zz", thread_ts=lobby_ts)
    await until(lambda: len(session.settle.pending) == 1)
    await h.clock.advance(0.2)
    await h.drain()
    [over] = await h.slack.wait_for("chat.postMessage", lambda c: "game over" in str(c.args.get("text")))
    assert over.args["thread_ts"] == lobby_ts
    # Everything after the lobby stayed in its thread: the table was edited there, not reposted.
    posts = [c for c in h.slack.of("chat.postMessage") if c.ok]
    assert [c.args.get("thread_ts") for c in posts[1:]] == [lobby_ts] * (len(posts) - 1)
    assert [c for c in posts if is_table(c)] == [table]
    # The next game opens a new lobby in the channel.
    await h.command("UANN", "start toy")
    await h.drain()
    lobbies = await h.slack.wait_for(
        "chat.postMessage", lambda c: "lobby" in str(c.args.get("text")), count=2
    )
    assert not lobbies[1].args.get("thread_ts")


async def test_loud_mode_posts_in_the_channel(h: Harness) -> None:
    await h.command("UANN", "start toy")
    await h.command("UANN", "go")
    await h.drain()
    [table] = await h.slack.wait_for("chat.postMessage", is_table)
    assert not table.args.get("thread_ts")


async def test_buttons_answer_through_bolt(h: Harness) -> None:
    await h.command("UANN", "start toy")
    await h.slack.wait_for("chat.postMessage")
    assert await h.button("UBOB", "moji:join") == 200
    assert await h.button("UBOB", "moji:go") == 200
    [refusal] = await h.slack.wait_for(
        "chat.postEphemeral", lambda c: "Only the host" in str(c.args.get("text"))
    )
    assert refusal.args["user"] == "UBOB"
    assert await h.button("UADMIN", "moji:go") == 200  # a workspace admin may start it
    await h.drain()  # the table waits for the channel's next chat.postMessage slot
    await h.slack.wait_for("chat.postMessage", is_table)


async def test_admin_only_config_uses_slack_admins_and_the_configured_group(h: Harness) -> None:
    await h.command("UANN", "config quiet true")
    await h.slack.wait_for("chat.postEphemeral", lambda c: "Only workspace admins" in str(c.args.get("text")))
    await h.command("UADMIN", "config admin-role @wordsmiths")
    await h.slack.wait_for("chat.postEphemeral", lambda c: "admin-role is now" in str(c.args.get("text")))
    h.slack.groups["S0WORDS1"] = ("wordsmiths", ["UANN"])
    await h.command("UANN", "config quiet true")
    await h.slack.wait_for("chat.postEphemeral", lambda c: "quiet is now on" in str(c.args.get("text")))
    assert h.svc.store.settings[("slack", "T1")]["quiet"] == "on"


def _text(call: Call) -> str:
    return str(call.args.get("text"))


async def test_bots_play_too(h: Harness) -> None:
    await h.command("UANN", "start toy bots=1 target=1")
    await h.command("UANN", "go")
    await h.drain()
    await h.slack.wait_for("chat.postMessage", is_table)
    await h.clock.advance(3.2)
    [over] = await h.slack.wait_for("chat.postMessage", lambda c: "game over" in _text(c))
    assert "(bot)" in _text(over)
