"""Events sent together are handled in arrival order, per chat; other chats never wait."""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("slack_bolt")

from bot.events import ChatKey
from tests.adapters.slack.conftest import CHAT, TEAM, Harness, tick_until, until

#: Contains every letter the toy game can show: a right answer whatever the table.
EVERY_LETTER = "abcdefghilmnoprst"


def no_game_replies(h: Harness) -> list[str]:
    return [c.text() for c in h.slack.calls if "no game in this channel" in c.text()]


async def test_start_join_and_go_sent_at_once_are_handled_in_order(h: Harness) -> None:
    # each request returns as soon as Slack has its acknowledgement, before it is handled
    for user, text in (("UANN", "start toy target=1"), ("UBOB", "join"), ("UADMIN", "join"), ("UANN", "go")):
        assert await h.command(user, text) == 200
    ts = await h.say("UBOB", EVERY_LETTER)  # typed the moment the game began
    await tick_until(
        h.clock,
        lambda: any("game over" in str(c.args.get("text")) for c in h.slack.of("chat.postMessage")),
        busy=lambda: h.slack.inflight > 0,
    )
    assert no_game_replies(h) == []
    scores = {s.display_name for s in h.svc.store.scores.values()}
    assert scores == {"Ann", "Bob", "Ada"}, "everyone who joined played"
    marks = [c.args.get("name") for c in h.slack.of("reactions.add") if c.args.get("timestamp") == ts]
    assert marks == ["white_check_mark"], "the answer typed after go counted"


async def test_four_simultaneous_join_clicks_all_count(h: Harness) -> None:
    for user in ("UCAT", "UDAN", "UEVE"):
        h.slack.names[user] = user[1:].title()
    await h.command("UANN", "start toy")
    await until(lambda: CHAT in h.adapter.manager.sessions)
    await asyncio.gather(*(h.button(user, "moji:join") for user in ("UBOB", "UCAT", "UDAN", "UEVE")))
    session = h.adapter.manager.sessions[CHAT]
    await until(lambda: len(session.players) == 5)
    assert sorted(p.display_name for p in session.players) == ["Ann", "Bob", "Cat", "Dan", "Eve"]


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
