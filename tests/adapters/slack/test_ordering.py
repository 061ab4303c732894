"""One chat keeps its order while fifty others play: other chats never wait.

That events sent together are handled in arrival order, on every platform, is the contract
suite's (tests/contract/test_ordering.py)."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("slack_bolt")

from bot.events import ChatKey
from tests.adapters.slack.conftest import CHAT, TEAM, Harness, tick_until

#: Contains every letter the toy game can show: a right answer whatever the table.
EVERY_LETTER = "abcdefghilmnoprst"


def no_game_replies(h: Harness) -> list[str]:
    return [c.text() for c in h.slack.calls if "no game in this channel" in c.text()]


async def test_one_chat_keeps_its_order_while_fifty_others_play(h: Harness) -> None:
    others = [f"C{i:03d}" for i in range(50)]
    # fifty people, one game each (one person starting fifty at once would be over their fair share)
    starts = asyncio.gather(*(h.command(f"U{c}", "start toy", channel=c) for c in others))
    for user, text in (("UANN", "start toy target=2"), ("UADMIN", "join"), ("UANN", "go")):
        assert await h.command(user, text) == 200
    await starts
    ts = await h.say("UADMIN", EVERY_LETTER)
    sessions = h.adapter.manager.sessions
    await tick_until(
        h.clock,
        lambda: len(sessions) == 51 and CHAT in sessions and sessions[CHAT]._seq > 1,
        busy=lambda: h.slack.inflight > 0,
        within=60,
    )
    session = sessions[CHAT]
    assert [p.display_name for p in session.players] == ["Ann", "Ada"]
    await tick_until(
        h.clock,
        lambda: any(c.args.get("timestamp") == ts for c in h.slack.of("reactions.add")),
        busy=lambda: h.slack.inflight > 0,
    )
    assert no_game_replies(h) == []
    assert all(ChatKey("slack", TEAM, c) in sessions for c in others)
    assert not h.adapter.manager.errors and not h.slack.rate_limited()
