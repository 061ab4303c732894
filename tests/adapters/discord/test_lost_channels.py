"""Channels and threads that are gone (on Discord), through discord.py.

A channel or thread deleted (CHANNEL_DELETE, THREAD_DELETE), or the bot denied access mid-game
(403 50001 Missing Access, 404 10003 Unknown Channel on its next call): the game ends voided and
recorded, and nothing more is sent there.
"""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core.registry import Registry
from tests.adapters.discord.conftest import ANN, BOB, CHAT, Harness, is_lobby, is_table
from tests.adapters.discord.fakediscord import CHANNEL_ID, GUILD_ID
from tests.bot.toygame import TOY

board = pytest.importorskip("games.board")

MESSAGES = r"^/channels/\d+/messages$"


@pytest.fixture
def registry() -> Registry:
    return Registry([TOY, board.GAME])


async def race(h: Harness) -> str:
    await h.fake.slash(*ANN, "start", {"game": "toy"})
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    await h.fake.slash(*BOB, "join")
    await h.fake.until(lambda: len(h.manager.sessions[CHAT].players) == 2)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)
    await h.drain()
    return str(h.manager.sessions[CHAT].game_id)


async def voided(h: Harness, game_id: str) -> bool:
    """Recorded as ended (finished or voided), with no scores: voided."""
    ended = [g.record.game_id for g in await h.svc.store.ended_games(0.0)]
    scores = await h.svc.store.leaderboard("discord", GUILD_ID, "toy", "all", datetime.now(UTC), 10)
    return game_id in ended and not scores


def sent_to(h: Harness, channel: str) -> int:
    return sum(1 for r in h.fake.requests if r.path.startswith(f"/channels/{channel}"))


async def nothing_more_is_sent(h: Harness, channel: str) -> None:
    await h.settle()  # (a call already on its way when the game ended is answered first)
    before = sent_to(h, channel)
    for _ in range(20):  # the toy game's timers would flip cards and post tables by now
        await h.advance(1.0)
        await h.settle()
    await h.drain()
    assert sent_to(h, channel) == before, [
        (r.method, r.path, r.status, r.text[:120])
        for r in h.fake.requests
        if r.path.startswith("/channels/" + channel)
    ][before:]


async def test_a_deleted_channel_ends_its_game_voided(h: Harness) -> None:
    game_id = await race(h)
    await h.fake.delete_channel(CHANNEL_ID)
    await h.fake.until(lambda: CHAT not in h.manager.sessions)
    await nothing_more_is_sent(h, CHANNEL_ID)
    assert await voided(h, game_id)
    assert not h.manager.errors


async def test_a_deleted_thread_ends_its_game_and_only_that_one(h: Harness) -> None:
    race_id = await race(h)
    await h.fake.slash(*ANN, "start", {"game": "board", "more": "bots=1"}, channel="800000000000000003")
    await h.fake.until(lambda: any(c.thread_id for c in h.manager.sessions))
    chat = next(c for c in h.manager.sessions if c.thread_id)
    thread = str(chat.thread_id)
    await h.fake.slash(*ANN, "go", channel=thread, thread_parent="800000000000000003")
    await h.fake.until(lambda: h.manager.sessions[chat].engine is not None)
    game_id = h.manager.sessions[chat].game_id
    await h.drain()
    await h.fake.delete_channel(thread)
    await h.fake.until(lambda: chat not in h.manager.sessions)
    await nothing_more_is_sent(h, thread)
    assert game_id in [g.record.game_id for g in await h.svc.store.ended_games(0.0)]
    assert CHAT in h.manager.sessions and h.manager.sessions[CHAT].game_id == race_id, "the race plays on"


async def test_missing_access_mid_game_ends_it_without_blaming_anyone(h: Harness) -> None:
    game_id = await race(h)
    h.fake.revoke_access(CHANNEL_ID)  # no event says so: the next call is refused 403, 50001
    letter = h.manager.sessions[CHAT].engine.letter
    await h.fake.say(*ANN, letter + "ab")
    for _ in range(40):
        if CHAT not in h.manager.sessions:
            break
        await h.advance(0.25)
        await h.settle()
    assert CHAT not in h.manager.sessions
    assert [r.status for r in h.fake.requests if r.status == 403], "refused once at least"
    await nothing_more_is_sent(h, CHANNEL_ID)
    assert await voided(h, game_id)
    notes = [r.text for r in h.fake.requests if r.path.startswith("/webhooks/") and "permission" in r.text]
    assert notes == [], "the game ended: nobody is asked to fix permissions for it"


async def test_a_channel_deleted_while_its_event_was_lost_ends_on_the_next_call(h: Harness) -> None:
    game_id = await race(h)
    h.fake.deleted.add(CHANNEL_ID)  # deleted, and the CHANNEL_DELETE never arrived
    letter = h.manager.sessions[CHAT].engine.letter
    await h.fake.say(*ANN, letter + "ab")
    for _ in range(40):
        if CHAT not in h.manager.sessions:
            break
        await h.advance(0.25)
        await h.settle()
    assert CHAT not in h.manager.sessions
    await nothing_more_is_sent(h, CHANNEL_ID)
    assert await voided(h, game_id)


async def test_a_removed_bot_ends_the_games_of_that_server(h: Harness) -> None:
    game_id = await race(h)
    await h.fake.remove_bot()
    await h.fake.until(lambda: CHAT not in h.manager.sessions)
    await nothing_more_is_sent(h, CHANNEL_ID)
    assert await voided(h, game_id)
