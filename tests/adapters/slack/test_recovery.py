"""Restarts: unfinished games come back; Slack's URL check and stats work as Slack sends them."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.store import MemorySlackStore
from bot.core.clock import FakeClock
from tests.adapters.slack.conftest import CHAT, Harness, running, until
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import FakeSlack
from tests.adapters.slack.test_game import claim, is_table, letters


async def test_a_running_game_resumes_after_a_restart(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    async with running(slack, clock, svc, slack_store) as before:
        await before.command("UANN", "start toy target=2")
        await before.command("UANN", "go")
        await before.drain()
        [table] = await slack.wait_for("chat.postMessage", is_table)
        await claim(before, "UANN", letters(table)[0].lower() + "zz")
        await before.drain()
        [scored] = await slack.wait_for("chat.update", lambda c: is_table(c) and "takes" in c.text())
        assert "Ann: 1" in scored.text()

    await clock.advance(5)
    async with running(slack, clock, svc, slack_store) as after:
        await after.drain()
        await slack.wait_for("chat.postMessage", lambda c: "restarted" in str(c.args.get("text")))
        # The new process does not edit the old table: it shows the game again, as it was.
        [first, table] = await slack.wait_for("chat.postMessage", is_table, count=2)
        assert first.answer is not None and scored.args["ts"] == first.answer["ts"]
        assert letters(table) == letters(scored) and "Ann: 1" in table.text()
        session = after.adapter.runtime.manager.sessions[CHAT]
        assert session.engine is not None
        await claim(after, "UANN", letters(table)[0].lower() + "zz")
        await after.drain()
        [over] = await slack.wait_for("chat.postMessage", lambda c: "game over" in str(c.args.get("text")))
        assert "Ann — 2 pts" in over.args["text"]


async def test_an_answer_redelivered_after_a_restart_counts_once(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    async with running(slack, clock, svc, slack_store) as before:
        await before.command("UANN", "start toy target=3")
        await before.command("UANN", "go")
        await before.drain()
        await slack.wait_for("chat.postMessage", is_table)
        word = "abcdefghilmnoprst"  # every letter the toy shows: it fits whatever the table
        ts = await claim(before, "UANN", word)
        await before.drain()
        await slack.wait_for("chat.update", lambda c: is_table(c) and "Ann: 1" in c.text())

    await clock.advance(5)
    async with running(slack, clock, svc, slack_store) as after:
        await after.drain()
        session = after.adapter.runtime.manager.sessions[CHAT]
        # Slack never saw our 200: it sends the same message again, to the new process
        event = {"type": "message", "channel": "C1", "user": "UANN", "text": word, "ts": ts}
        event["channel_type"] = "channel"
        assert await after.event(event, event_id="EvAgain", retry=1) == 200
        await clock.advance(0.2)
        await after.drain()
        assert session.engine is not None and session.engine.snapshot(None).seats[0].score == 1
        assert not session.settle.pending


async def test_stats_for_a_mentioned_player(h: Harness) -> None:
    await h.command("UANN", "start toy target=1")
    await h.command("UANN", "go")
    await h.drain()
    [table] = await h.slack.wait_for("chat.postMessage", is_table)
    await claim(h, "UANN", letters(table)[0].lower() + "zz")
    await until(lambda: CHAT not in h.adapter.runtime.manager.sessions)
    await h.command("UBOB", "stats <@UANN|ann>")
    [stats] = await h.slack.wait_for("chat.postEphemeral", lambda c: "1 game ·" in str(c.args.get("text")))
    assert stats.args["user"] == "UBOB" and "Ann" in stats.args["text"]


async def test_url_verification_and_unknown_events(h: Harness) -> None:
    resp = await h.post(
        json.dumps({"type": "url_verification", "challenge": "c-123", "token": "t"}), "application/json"
    )
    assert resp.status == 200
    assert await h.event({"type": "tokens_revoked", "tokens": {"bot": ["UBOT"]}}) == 200
