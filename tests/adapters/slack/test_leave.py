"""moji leaves the public channels it joined by itself once no game has run there for a while:
every message in a channel it is in counts toward the workspace's Events API budget."""

from __future__ import annotations

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.app import LEAVE_AFTER
from tests.adapters.slack.conftest import CHANNEL, CHAT, Harness, until


async def game_over(h: Harness) -> float:
    """A toy game in C1, started and stopped; returns when it closed."""
    await h.command("UANN", "start toy")
    await h.slack.wait_for("chat.postMessage")
    await h.command("UANN", "stop")
    await until(lambda: CHAT not in h.adapter.runtime.manager.sessions)
    ended = h.clock.now()
    await h.drain()
    return ended


async def test_a_channel_moji_joined_is_left_once_idle(h: Harness) -> None:
    ended = await game_over(h)
    [join] = h.slack.of("conversations.join")
    assert join.args["channel"] == CHANNEL
    await h.clock.advance_to(ended + LEAVE_AFTER - 1)
    assert h.slack.of("conversations.leave") == []
    await h.clock.advance_to(ended + LEAVE_AFTER + 1)
    [leave] = await h.slack.wait_for("conversations.leave")
    assert leave.args["channel"] == CHANNEL and CHANNEL not in h.slack.members

    # The next game joins again (and is left again after it).
    await h.command("UANN", "start toy")
    await h.slack.wait_for("conversations.join", count=2)
    assert CHANNEL in h.slack.members


async def test_a_new_game_before_the_idle_time_keeps_moji_there(h: Harness) -> None:
    ended = await game_over(h)
    await h.clock.advance_to(ended + LEAVE_AFTER / 2)
    await h.command("UANN", "start toy")
    await h.slack.wait_for("chat.postMessage", count=2)
    await h.clock.advance_to(ended + LEAVE_AFTER + 1)
    await h.drain()
    assert h.slack.of("conversations.leave") == [] and CHAT in h.adapter.runtime.manager.sessions
    assert len(h.slack.of("conversations.join")) == 1


async def test_a_channel_moji_was_invited_to_is_never_left(h: Harness) -> None:
    h.slack.members.add(CHANNEL)  # /invite @moji: conversations.join answers "already_in_channel"
    ended = await game_over(h)
    await h.clock.advance_to(ended + 2 * LEAVE_AFTER)
    await h.drain()
    assert h.slack.of("conversations.leave") == [] and CHANNEL in h.slack.members


async def test_without_channels_manage_moji_stays_and_stops_trying(h: Harness) -> None:
    h.slack.fail["conversations.leave"] = [(200, {}, {"ok": False, "error": "missing_scope"})]
    ended = await game_over(h)
    await h.clock.advance_to(ended + LEAVE_AFTER + 1)
    await h.slack.wait_for("conversations.leave")
    ended = await game_over(h)
    await h.clock.advance_to(ended + 2 * LEAVE_AFTER)
    await h.drain()
    assert len(h.slack.of("conversations.leave")) == 1 and h.adapter.runtime.manager.errors == []
