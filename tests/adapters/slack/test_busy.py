"""A busy workspace: every Web API call paced (users.info, conversations.join… too), and an ✅ the
reactions budget cannot send soon shown on the table instead — through the real Bolt app, against
the fake's limits (each tier a token bucket whose burst is the size moji assumes)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.limits import BURST, SLACK_LIMITS
from bot.delivery.marks import MARK_HORIZON
from tests.adapters.slack.conftest import CHAT, Harness, tick_until
from tests.adapters.slack.test_game import claim, is_table, latest_table, letters


async def test_fifty_people_looked_up_at_once_stay_inside_users_info_budget(h: Harness) -> None:
    people = [f"U{i:03d}" for i in range(50)]
    # fifty people each open a game in a channel of their own, at once: fifty users.info lookups
    # and fifty conversations.join
    await asyncio.gather(*(h.command(user, "start toy", channel=f"C{user}") for user in people))
    await tick_until(
        h.clock,
        lambda: (
            len([c for c in h.slack.of("users.info") if c.ok]) >= 50
            and len([c for c in h.slack.of("conversations.join") if c.ok]) >= 50
        ),
        busy=lambda: h.slack.inflight > 0,
        within=120,
    )
    assert h.slack.rate_limited() == []
    lookups = [c.at for c in h.slack.of("users.info")]
    window = SLACK_LIMITS.buckets["users.info"].window
    assert max(sum(1 for t in lookups if s <= t < s + window) for s in lookups) <= BURST["tier4"]
    joins = [c.at for c in h.slack.of("conversations.join")]
    assert max(sum(1 for t in joins if s <= t < s + 1.0) for s in joins) <= BURST["tier3"]
    # the lobbies did not wait for the joins (moji posts in public channels without being in them)
    lobbies = [c for c in h.slack.of("chat.postMessage") if "lobby" in str(c.args.get("text"))]
    assert len(lobbies) == 50 and max(c.at for c in lobbies) < max(joins)


async def test_an_accepted_answer_shows_on_the_table_when_reactions_are_backed_up(h: Harness) -> None:
    await h.command("UANN", "start toy")
    await h.slack.wait_for("chat.postMessage")
    await h.clock.advance(1.0)
    await h.command("UANN", "go")
    await h.drain()
    table = await h.slack.wait_for("chat.postMessage", is_table)
    # The workspace's reactions budget is held for a minute (as after another channel's burst).
    h.adapter.outbox.pacer.penalize("react", CHAT, 60.0)
    letter = letters(table[0])[0].lower()
    accepted_at = h.clock.now()
    await claim(h, "UANN", letter + "zz")
    await tick_until(
        h.clock,
        lambda: "✅ Ann: " + letter.upper() + "ZZ" in latest_table(h).text(),
        busy=lambda: h.slack.inflight > 0,
        within=5,
    )
    shown = latest_table(h)
    assert shown.at - accepted_at <= MARK_HORIZON + 1.5  # the settle window, the horizon, a table call
    assert h.slack.of("reactions.add") == [] and h.slack.rate_limited() == []
    assert h.adapter.outbox.stats.accepted_left_to_table == 1
