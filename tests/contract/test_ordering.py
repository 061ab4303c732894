"""Events sent together are handled in arrival order, per chat (every front door); one chat keeps
its order while fifty others play, and other chats never wait."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from tests.contract.harness import BUTTONS, CHATS, PEOPLE_CAP, PlatformHarness, game_session
from tests.waiting import eventually_true

#: Contains every letter the toy game can show: a right answer whatever the table.
EVERY_LETTER = "abcdefghilmnoprst"


def no_game_replies(p: PlatformHarness) -> list[str]:
    return [t for t in p.everything() if "no game in this channel" in t]


async def test_start_join_go_and_an_answer_sent_at_once_are_handled_in_order(p: PlatformHarness) -> None:
    joiners = () if PEOPLE_CAP in p.lacks else ("bob", "cat")
    # each is sent the moment the one before is on its way (acknowledged, not yet handled)
    await p.command("ann", "start toy target=1")
    for who in joiners:
        await p.command(who, "join")
    await p.command("ann", "go")
    answer = await p.say(joiners[0] if joiners else "ann", EVERY_LETTER)  # typed the moment the game began
    # target=1: that answer wins the game, once the settle window closes
    await p.until(lambda: any("game over" in t for t in p.channel()))
    await p.drain()
    assert no_game_replies(p) == []
    expected = {"Ann", *(who.title() for who in joiners)} if joiners else {"You"}

    async def players() -> set[str]:
        board = await p.store.leaderboard(
            p.chat.platform, p.chat.workspace_id, "toy", "all", datetime.now(UTC), 10
        )
        return {r.display_name for r in board}

    # (the result is written by the database's thread: it may come a moment after the message)
    async def everyone_played() -> bool:
        return await players() == expected

    await eventually_true(everyone_played, f"everyone who joined ({expected}) played")
    assert p.marks(answer) == ["accepted"], "the answer typed after go counted"
    assert not p.manager.errors


@pytest.mark.needs(PEOPLE_CAP, BUTTONS)
async def test_four_simultaneous_join_clicks_all_count(p: PlatformHarness) -> None:
    await p.command("ann", "start toy")
    await p.until(lambda: any("lobby" in t for t in p.channel()))
    for who in ("bob", "cat"):  # one after the other: each sent before the one before is handled
        await p.press(who, "moji:join")
    await asyncio.gather(*(p.press(who, "moji:join") for who in ("dan", "eve")))  # at the same moment
    session = game_session(p)
    await p.until(lambda: len(session.players) == 5)
    names = [x.display_name for x in session.players]
    assert names[:3] == ["Ann", "Bob", "Cat"], "in the order they came"
    assert sorted(names) == ["Ann", "Bob", "Cat", "Dan", "Eve"]
    assert not p.manager.errors


@pytest.mark.needs(CHATS, PEOPLE_CAP)
async def test_one_chat_keeps_its_order_while_fifty_others_play(p: PlatformHarness) -> None:
    others = range(50)
    # fifty people open a lobby each at the same moment (one person opening fifty at once would
    # be over their fair share)…
    starts = asyncio.gather(*(p.command_elsewhere(n, "start toy") for n in others))
    # …while in this chat a game is started, joined, begun and answered, each sent at once
    await p.command("ann", "start toy target=2")
    await p.command("cat", "join")
    await p.command("ann", "go")
    await starts
    first = await p.say("cat", EVERY_LETTER)
    sessions = p.manager.sessions
    await p.until(lambda: len(sessions) == 51 and getattr(game_session(p), "engine", None), most=60)
    session = game_session(p)
    assert [x.display_name for x in session.players] == ["Ann", "Cat"]
    await p.until(lambda: p.marks(first), most=60)
    await p.drain()
    assert p.marks(first) == ["accepted"]
    assert no_game_replies(p) == []
    assert all(p.elsewhere(n) in sessions for n in others)
    assert p.rate_limited() == []
    assert not p.manager.errors
