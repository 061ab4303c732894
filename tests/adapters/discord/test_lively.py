"""Tables under chatter on Discord: a table scrolled away by chatter comes anew at the bottom,
inside Discord's rate limits as the fake enforces them.

(A lively race inside every platform's limits and call budget is the contract suite's:
tests/contract/test_pacing.py.)
"""

from __future__ import annotations

import random

import pytest

from bot.core.registry import Registry
from bot.delivery.tables import SCROLLED_AWAY
from tests.adapters.discord.conftest import CHAT, Harness, answer, is_lobby, is_table

race = pytest.importorskip("games.race")
board = pytest.importorskip("games.board")

MESSAGES = r"^/channels/\d+/messages$"
PEOPLE = [
    (f"10000000000000010{i}", name) for i, name in enumerate(("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"))
]


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME, board.GAME])


async def test_tables_scroll_away_under_chatter_without_flooding(h: Harness) -> None:
    h.manager.rng = random.Random(11)
    await h.fake.slash(*PEOPLE[0], "start", {"game": "race", "cards": 3})
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    await h.fake.slash(*PEOPLE[1], "join")
    await h.fake.until(lambda: len(h.manager.sessions[CHAT].players) == 2)
    await h.fake.slash(*PEOPLE[0], "go")
    # the slash command crosses a real socket: wait for the first table, not for the clock
    await h.fake.wait_for("POST", MESSAGES, is_table)
    await h.drain()
    session = h.manager.sessions[CHAT]
    for _ in range(SCROLLED_AWAY):
        await h.fake.say("100000000000000999", "Zed", "so what's everyone having for lunch")
    word = session.engine._example()
    assert word, "the first cards make a word"
    await answer(h, PEOPLE[1], word)
    await h.drain()
    tables = [r for r in h.fake.channel_posts() if "Cards: " in str((r.json or {}).get("content"))]
    assert len(tables) == 2, "the new cards come in a new message at the bottom"
    assert h.fake.rate_limited() == []
