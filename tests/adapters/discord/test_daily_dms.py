"""The daily in Discord direct messages, through discord.py against the fake Discord: the DM
intent, closed DMs (403 / 50007) explained with no attempt used, and DMs that are no daily's
left unread. (A whole daily on every front door: tests/contract/test_daily.py.)"""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.registry import Registry, load_default
from storage.daily import is_daily_game
from tests.adapters.discord.conftest import Harness
from tests.adapters.discord.fakediscord import CHANNEL_ID, DIRECT_MESSAGES

ANN = ("100000000000000101", "Ann")
BOB = ("100000000000000102", "Bob")


@pytest.fixture
def registry() -> Registry:
    return load_default()


def _daily(h: Harness) -> Any:
    return next((s for s in h.manager.sessions.values() if is_daily_game(s.game_id)), None)


def _dealt(h: Harness) -> bool:
    session = _daily(h)
    return session is not None and session.engine is not None and bool(session.engine.grid)


async def _today(h: Harness) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(h.clock.now(), UTC).date().isoformat()


async def test_moji_asks_for_direct_messages(h: Harness) -> None:
    assert int(h.fake.identifies[-1]["intents"]) & DIRECT_MESSAGES


async def test_closed_direct_messages_are_explained_and_use_no_attempt(h: Harness) -> None:
    h.fake.dms_closed.add(ANN[0])
    iid = await h.fake.slash(*ANN, "daily")
    [answer] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert answer.ephemeral and "I can't send you direct messages" in answer.text
    assert "Privacy Settings" in answer.text
    assert _daily(h) is None
    assert await h.svc.store.daily.daily_play("discord", ANN[0], await _today(h)) is None
    assert not h.fake.of("POST", rf"^/channels/{CHANNEL_ID}/messages$"), "nothing in the channel"

    h.fake.dms_closed.discard(ANN[0])  # opened again: the day's daily is still theirs
    iid = await h.fake.slash(*ANN, "daily")
    [answer] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert "Your daily is in our direct messages" in answer.text
    await h.fake.until(lambda: _daily(h) is not None)
    dm = h.fake.dm_channels[ANN[0]]
    assert _daily(h).chat.channel_id == dm


async def test_a_dm_that_is_no_dailys_is_left_unread(h: Harness) -> None:
    iid = await h.fake.slash(*ANN, "daily")
    await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    await h.fake.until(lambda: _dealt(h))
    session = _daily(h)
    engine = session.engine
    word = engine.planner.plan("hard", engine.groups(), engine.used, h.clock.now())[1]
    # Bob, who plays no daily, types Ann's word in his own DMs: it is not an answer of hers, and
    # moji leaves it unread (no mark, no answer)
    await h.fake.dm(*BOB, word)
    await h.drain()
    assert not engine.won[f"discord:{ANN[0]}"]
    bobs = h.fake.dm_channels[BOB[0]]
    assert not [r for r in h.fake.requests if f"/channels/{bobs}/" in r.path]
    # Ann's own word, in her DMs, is
    await h.fake.dm(*ANN, word)
    for _ in range(20):
        await h.advance(0.25)
        await h.settle()
        if engine.won[f"discord:{ANN[0]}"]:
            break
    assert engine.won[f"discord:{ANN[0]}"]
    assert not [r for r in h.fake.of("POST", rf"^/channels/{CHANNEL_ID}/messages$") if word.upper() in r.text]
