"""Archived threads, through discord.py against the fake Discord.

Discord archives a thread after ``auto_archive_duration`` minutes without activity (sooner in
a busy server); in an archived thread nobody may use a command, and moji may neither edit the
board nor add a reaction (400, 50083). moji gives a game's thread a duration that covers the
turn, and unarchives the thread of a running game when Discord says it was archived.
"""

from __future__ import annotations

from typing import Any

import discord
import pytest

from bot.core.registry import Registry
from tests.adapters.discord.conftest import Harness, is_lobby
from tests.adapters.discord.fakediscord import CHANNEL_ID

board = pytest.importorskip("games.board")

ANN = ("100000000000000101", "Ann")


@pytest.fixture
def registry() -> Registry:
    return Registry([board.GAME])


async def start_board(h: Harness, more: str = "bots=1") -> tuple[Any, str]:
    await h.fake.slash(*ANN, "start", {"game": "board", "more": more})
    await h.fake.wait_for("POST", r"^/channels/\d+/messages$", is_lobby)
    chat = next(iter(h.manager.sessions))
    thread = str(chat.thread_id)
    await h.fake.slash(*ANN, "go", channel=thread, thread_parent=CHANNEL_ID)
    await h.fake.until(lambda: h.manager.sessions[chat].engine is not None)
    await h.fake.wait_for("POST", rf"^/channels/{thread}/messages$", lambda r: "attachment://" in r.text)
    await h.fake.until(lambda: h.bot.outbox._chats[chat].live is not None)
    await h.drain()
    return h.manager.sessions[chat], thread


def duration(h: Harness, thread: str) -> int:
    return int(h.fake.threads[thread]["thread_metadata"]["auto_archive_duration"])


async def test_the_thread_stays_active_for_a_whole_turn(h: Harness) -> None:
    _, thread = await start_board(h)  # 72 hours a turn by default
    [created] = h.fake.of("POST", rf"^/channels/{CHANNEL_ID}/threads$")
    assert created.json["auto_archive_duration"] == 1440, "a day for the lobby"
    await h.fake.until(lambda: duration(h, thread) == 4320)
    [patch] = h.fake.of("PATCH", rf"^/channels/{thread}$")
    assert patch.json == {"auto_archive_duration": 4320}

    session, _ = await _session(h)
    await h.bot.transport.keep_open(session.chat, h.clock.now() + 2 * 3600)
    assert duration(h, thread) == 4320, "never shortened"
    await h.bot.transport.keep_open(session.chat, h.clock.now() + 5 * 24 * 3600)  # a 5-day turn
    assert duration(h, thread) == 10080
    await h.bot.transport.keep_open(session.chat, h.clock.now() + 9 * 24 * 3600)  # longer than any
    assert duration(h, thread) == 10080 and len(h.fake.of("PATCH", rf"^/channels/{thread}$")) == 2


async def _session(h: Harness) -> tuple[Any, str]:
    session = next(iter(h.manager.sessions.values()))
    return session, str(session.chat.thread_id)


async def test_an_archived_game_thread_is_unarchived(h: Harness) -> None:
    session, thread = await start_board(h)
    await h.fake.archive(thread)  # a busy server archives sooner, or a member archived it
    await h.fake.wait_for("PATCH", rf"^/channels/{thread}$", lambda r: r.json == {"archived": False})
    assert not h.fake.archived(thread)
    iid = await h.fake.slash(*ANN, "hand", channel=thread, thread_parent=CHANNEL_ID)
    assert iid, "commands work in the thread again"
    [rack] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert rack.ephemeral

    await h.fake.archive(thread, locked=True)  # a moderator closed it: left as they chose
    await h.settle()
    assert h.fake.archived(thread)
    assert len(h.fake.of("PATCH", rf"^/channels/{thread}$")) == 2  # (the duration, one unarchive)
    assert session.phase.value == "running"


def unarchives(h: Harness, thread: str) -> list[Any]:
    """moji's requests to unarchive ``thread`` so far."""
    patches = h.fake.of("PATCH", rf"^/channels/{thread}$")
    return [r for r in patches if r.json == {"archived": False} and r.status == 200]


async def test_an_idle_thread_archives_and_is_unarchived(h: Harness) -> None:
    _, thread = await start_board(h)
    minutes = duration(h, thread)
    # To a minute before the turn's end (the thread's duration covers the turn): past it, Ann's
    # turn runs out if hers came first (the deal's seed decides) and the game ends as the thread
    # is archived, racing moji's unarchive; and a request still on its way as the clock jumped
    # (an edit of the board) would meet a thread idle that long and be unarchived before this
    # test's archive. The unarchive waited for is one that follows this archive.
    await h.advance(minutes * 60 - 60)  # (the game's own reminders are messages: activity)
    await h.settle()
    earlier = len(unarchives(h, thread))
    h.fake.thread_activity[thread] = h.clock.now() - minutes * 60 - 1  # idle whatever was said
    assert await h.fake.archive_idle() == [thread]
    await h.fake.until(lambda: len(unarchives(h, thread)) > earlier)
    assert not h.fake.archived(thread)


async def test_the_fake_refuses_what_discord_refuses_in_an_archived_thread(h: Harness) -> None:
    data = await h.bot.http.start_thread_without_message(
        int(CHANNEL_ID), name="chat", auto_archive_duration=60, type=11
    )
    thread = str(data["id"])
    channel = h.bot.get_partial_messageable(int(thread))
    sent = await channel.send("hello")
    message = channel.get_partial_message(sent.id)
    await h.advance(3601)
    assert await h.fake.archive_idle() == [thread], "an hour without activity"
    with pytest.raises(discord.HTTPException) as edit:
        await message.edit(content="x")
    assert edit.value.status == 400 and edit.value.code == 50083
    with pytest.raises(discord.HTTPException) as react:
        await message.add_reaction("✅")
    assert react.value.code == 50083
    assert await h.fake.slash(*ANN, "hand", channel=thread, thread_parent=CHANNEL_ID) == ""
    assert h.fake.refused_in_archived == [(thread, "/moji hand")]
    await channel.send("a message unarchives it")
    assert not h.fake.archived(thread)
    await message.edit(content="and then it can be edited")


async def test_an_edit_refused_in_an_archived_thread_unarchives_it_and_goes_again(h: Harness) -> None:
    session, thread = await start_board(h)
    chat = session.chat
    live = h.bot.outbox._chats[chat].live
    h.fake.threads[thread]["thread_metadata"]["archived"] = True  # archived, and the event lost
    outcome = await h.bot.transport.edit(live, session.announcer.table_view(), picture=False)
    assert outcome.value == "ok"
    [refused] = [r for r in h.fake.of("PATCH", rf"^/channels/{thread}/messages/\d+$") if r.status == 400]
    assert [r for r in h.fake.of("PATCH", rf"^/channels/{thread}$") if r.json == {"archived": False}]
    assert h.fake.requests.index(refused) < len(h.fake.requests) - 1
    assert h.fake.of("PATCH", rf"^/channels/{thread}/messages/\d+$")[-1].status == 200
    assert not h.fake.archived(thread)


async def test_after_a_restart_the_thread_is_kept_in_hand(h: Harness) -> None:
    session, thread = await start_board(h)
    chat = session.chat
    await h.fake.until(lambda: duration(h, thread) == 4320)
    h2 = await h.restart()
    try:
        await h2.fake.until(lambda: chat in h2.manager.sessions)
        assert h2.bot.transport.archive_minutes.get(int(thread)) == 4320, "read from GUILD_CREATE's threads"
    finally:
        await h2.stop()
    h.fake.threads[thread]["thread_metadata"]["archived"] = True  # archived while moji was away
    h3 = await h2.restart()
    try:
        await h3.fake.until(lambda: not h3.fake.archived(thread))
        assert h3.bot.transport.archive_minutes.get(int(thread)) == 4320
    finally:
        await h3.stop()
