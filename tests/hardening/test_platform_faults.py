"""Faults through the fake platform servers, beyond tests/adapters/*/test_resilience & test_http.

Discord: the gateway drops while a claim waits in the settle window (then RESUMEs);
a storm of 429s and 500s on one game's reactions and posts. Slack: an answer
redelivered after it was already awarded; the Web API failing (500s, a dropped
connection) in the middle of a game. Every time: the game goes on or ends with a
message, and no point is lost or counted twice.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from functools import partial
from typing import Any

import pytest

from bot.core.clock import FakeClock
from bot.core.registry import Registry
from bot.process.app import Services
from tests.adapters.discord.conftest import ANN, BOB, CHAT, Harness, mark_of
from tests.adapters.discord.fakediscord import GUILD_ID, Fault
from tests.adapters.discord.test_resilience import start_game
from tests.bot.toygame import TOY

#: Contains every letter the toy game can show: a right answer whatever the table.
EVERY_LETTER = "abcdefghilmnoprst"


async def leaderboard(svc: Services, platform: str, workspace: str) -> list[tuple[str, int, int]]:
    rows = await svc.store.leaderboard(platform, workspace, "toy", "all", datetime.now(UTC), 10)
    return sorted((r.display_name, r.points, r.games) for r in rows)


async def test_gateway_drops_while_a_claim_is_settling(discord_bot: Harness) -> None:
    h = discord_bot
    await start_game(h, target=2)
    session = h.manager.sessions[CHAT]
    mid = await h.fake.say(*ANN, EVERY_LETTER)
    await h.fake.until(lambda: any(c.ref == mid for c in session.settle.pending))
    await h.fake.drop_connection()  # the settle window closes while the gateway is down
    await h.advance(0.2)
    await h.drain()
    await h.fake.wait_for("PUT", rf"/messages/{mid}/reactions/", lambda r: r.status == 200)
    await h.fake.connected(within=60)
    assert h.fake.resumes and len(h.fake.identifies) == 1
    assert mark_of(h, mid) == ["✅"]

    mid2 = await h.fake.say(*BOB, EVERY_LETTER)
    await h.fake.until(lambda: any(c.ref == mid2 for c in session.settle.pending))
    await h.advance(0.2)
    await h.drain()
    await h.fake.wait_for("PUT", rf"/messages/{mid2}/reactions/", lambda r: r.status == 200)
    mid3 = await h.fake.say(*ANN, EVERY_LETTER)
    await h.fake.until(lambda: any(c.ref == mid3 for c in session.settle.pending))
    await h.advance(0.2)
    await h.drain()
    await h.posted(lambda r: "game over" in r.text)
    await h.fake.until(lambda: CHAT not in h.manager.sessions)
    assert await leaderboard(h.svc, "discord", GUILD_ID) == [("Ann", 2, 1), ("Bob", 1, 1)]
    assert not h.manager.errors


def settling(session: Any, mid: str) -> bool:
    """The answer ``mid`` waits in the session's settle window."""
    return any(c.ref == mid for c in session.settle.pending)


async def test_a_storm_of_rest_errors_never_stops_the_game(discord_bot: Harness) -> None:
    h = discord_bot
    h.bot.transport.timeout = 2.0  # (no hangs here: only a busy machine is slow)
    await start_game(h, target=3)
    session = h.manager.sessions[CHAT]
    h.fake.faults += [
        Fault("PUT", r"/reactions/", "429", times=3, retry_after=0.01),
        Fault("PATCH", r"^/channels/\d+/messages/\d+$", "500", times=4),  # the live table's edits
    ]
    for who in (ANN, BOB, ANN, ANN):
        mid = await h.fake.say(*who, EVERY_LETTER)
        await h.fake.until(partial(settling, session, mid))
        await h.advance(0.2)
        await h.drain()
        await h.fake.until(lambda: not session._lock.locked() and h.fake.inflight == 0)
        if CHAT not in h.manager.sessions:
            break
    await h.fake.until(lambda: CHAT not in h.manager.sessions)
    assert await leaderboard(h.svc, "discord", GUILD_ID) == [("Ann", 3, 1), ("Bob", 1, 1)]
    assert not h.manager.errors
    statuses = [r.status for r in h.fake.requests]
    # discord.py waits after a 500 before trying again; the transport's time limit cuts that
    # short, so each edit that met the fault shows it at least once (two tries per edit)
    assert statuses.count(429) == 3 and statuses.count(500) >= 2


# ------------------------------------------------------------------ Slack

slack_conftest = pytest.importorskip("tests.adapters.slack.conftest")


@pytest.fixture
async def slack_bot() -> AsyncIterator[object]:
    from adapters.slack.store import MemorySlackStore
    from tests.adapters.slack.fakes import FakeServices
    from tests.adapters.slack.fakeslack import FakeSlack

    clock = FakeClock(slack_conftest.MONDAY_1459)
    fake = FakeSlack(names={"UANN": "Ann", "UBOB": "Bob", "UADMIN": "Ada"}, admins={"UADMIN"}, now=clock.now)
    await fake.start()
    svc = FakeServices(Registry([TOY]))
    try:
        async with slack_conftest.running(fake, clock, svc, MemorySlackStore()) as harness:
            yield harness
    finally:
        await fake.stop()


def slack_scores(h: object) -> dict[str, tuple[int, int]]:
    """Display name → (points, games) as recorded at the end of each game."""
    store = h.svc.store  # type: ignore[attr-defined]
    return {stats.display_name: (stats.points, stats.games) for stats in store.scores.values()}


async def slack_claim(h: object, user: str, word: str, **event: object) -> str:
    """``user`` answers ``word``; returns the message ts once the settle window has closed."""
    from tests.adapters.slack.conftest import CHAT as SLACK_CHAT
    from tests.adapters.slack.conftest import until

    session = h.adapter.runtime.manager.sessions[SLACK_CHAT]  # type: ignore[attr-defined]
    before = len(session.settle.pending)
    ts = await h.say(user, word, **event)  # type: ignore[attr-defined]
    await until(lambda: len(session.settle.pending) > before)
    await h.clock.advance(0.2)  # type: ignore[attr-defined]
    return str(ts)


async def test_slack_redelivers_an_answer_after_it_was_awarded(slack_bot: object) -> None:
    from tests.adapters.slack.conftest import CHAT as SLACK_CHAT
    from tests.adapters.slack.conftest import until
    from tests.adapters.slack.test_game import is_table

    h: object = slack_bot
    await h.command("UANN", "start toy target=2")  # type: ignore[attr-defined]
    await h.command("UBOB", "join")  # type: ignore[attr-defined]
    await h.command("UANN", "go")  # type: ignore[attr-defined]
    await h.drain()  # type: ignore[attr-defined]
    await h.slack.wait_for("chat.postMessage", is_table)  # type: ignore[attr-defined]
    ts = await slack_claim(h, "UANN", EVERY_LETTER)
    await h.drain()  # type: ignore[attr-defined]
    await h.slack.wait_for("reactions.add", lambda c: c.args.get("timestamp") == ts)  # type: ignore[attr-defined]
    session = h.adapter.runtime.manager.sessions[SLACK_CHAT]  # type: ignore[attr-defined]
    # Slack did not see our 200 in time: the same message comes again, twice, after the award
    event = {"type": "message", "channel": "C1", "user": "UANN", "text": EVERY_LETTER, "ts": ts}
    event["channel_type"] = "channel"
    assert await h.event(event, event_id="EvLate", retry=1) == 200  # type: ignore[attr-defined]
    assert await h.event(event, event_id="EvLater", retry=2) == 200  # type: ignore[attr-defined]
    await h.command("UANN", "help")  # type: ignore[attr-defined]  # handled after the redeliveries
    await h.slack.wait_for("chat.postEphemeral", lambda c: "moji commands" in str(c.args.get("text")))  # type: ignore[attr-defined]
    assert not session.settle.pending
    await h.clock.advance(1.0)  # type: ignore[attr-defined]
    assert session.engine.snapshot(None).seats[0].score == 1
    await slack_claim(h, "UBOB", EVERY_LETTER)
    await slack_claim(h, "UANN", EVERY_LETTER)
    await until(lambda: SLACK_CHAT not in h.adapter.runtime.manager.sessions)  # type: ignore[attr-defined]
    assert slack_scores(h) == {"Ann": (2, 1), "Bob": (1, 1)}
    assert not h.adapter.runtime.manager.errors  # type: ignore[attr-defined]


async def test_slack_web_api_failures_never_stop_the_game(slack_bot: object) -> None:
    from tests.adapters.slack.conftest import CHAT as SLACK_CHAT
    from tests.adapters.slack.conftest import until
    from tests.adapters.slack.test_game import is_table

    h: object = slack_bot
    await h.command("UANN", "start toy target=2")  # type: ignore[attr-defined]
    await h.command("UBOB", "join")  # type: ignore[attr-defined]
    await h.command("UANN", "go")  # type: ignore[attr-defined]
    await h.drain()  # type: ignore[attr-defined]
    await h.slack.wait_for("chat.postMessage", is_table)  # type: ignore[attr-defined]
    fail = h.slack.fail  # type: ignore[attr-defined]
    error: tuple[int, dict[str, str], dict[str, Any]] = (500, {}, {"ok": False, "error": "internal_error"})
    fail["chat.update"] = [error, error, error]  # the live table's edits
    fail["reactions.add"] = [(503, {}, {"ok": False, "error": "service_unavailable"})]
    await slack_claim(h, "UANN", EVERY_LETTER)
    await h.drain()  # type: ignore[attr-defined]
    await until(lambda: not fail["chat.update"])
    await slack_claim(h, "UBOB", EVERY_LETTER)
    await slack_claim(h, "UANN", EVERY_LETTER)
    await until(lambda: SLACK_CHAT not in h.adapter.runtime.manager.sessions)  # type: ignore[attr-defined]
    assert slack_scores(h) == {"Ann": (2, 1), "Bob": (1, 1)}
    assert not h.adapter.runtime.manager.errors  # type: ignore[attr-defined]
