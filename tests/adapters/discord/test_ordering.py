"""One chat keeps its order while fifty others play: other chats never wait.

That events sent together are handled in arrival order, on every platform, is the contract
suite's (tests/contract/test_ordering.py).

discord.py runs a task per gateway event, and each command first defers its
interaction (a REST call) before moji looks at it: without a per-chat line in the
core, a ``join`` sent right after ``start`` could be handled before the lobby
exists.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from bot.events import ChatKey
from tests.adapters.discord.conftest import ANN, CAT, CHAT, Harness, mark_of
from tests.adapters.discord.fakediscord import GUILD_ID

#: Contains every letter the toy game can show: a right answer whatever the table.
EVERY_LETTER = "abcdefghilmnoprst"
DAN, EVE = ("100000000000000004", "Dan"), ("100000000000000005", "Eve")


async def tick_until(h: Harness, predicate: Callable[[], bool], most: float = 30.0) -> None:
    """Let the fake clock run (the delivery layer paces on it) until ``predicate()`` holds."""
    waited = 0.0
    while not predicate():
        assert waited < most, "condition not met in time"
        await h.advance(0.25)
        await h.settle()
        waited += 0.25


def no_game_replies(h: Harness) -> list[str]:
    return [r.text for r in h.fake.requests if "no game in this channel" in r.text]


async def test_one_chat_keeps_its_order_while_fifty_others_play(h: Harness) -> None:
    others = [str(810000000000000000 + i) for i in range(50)]
    # fifty people open a lobby each at the same moment (one person opening fifty at once would
    # be over their fair share)
    for i, channel in enumerate(others):
        await h.fake.slash(str(820000000000000000 + i), f"P{i}", "start", {"game": "toy"}, channel=channel)
    await h.fake.slash(*ANN, "start", {"game": "toy", "more": "target=2"})
    await h.fake.slash(*CAT, "join")
    await h.fake.slash(*ANN, "go")
    first = await h.fake.say(*CAT, EVERY_LETTER)
    # every command is acknowledged before the fake clock runs: on a loaded machine the bot may
    # still be reading them off the gateway when the fake clock's budget would already be spent
    await h.fake.until(lambda: set(h.fake.interactions) <= h.fake.answered, within=60)
    await tick_until(h, lambda: len(h.manager.sessions) == 51 and CHAT in h.manager.sessions)
    session = h.manager.sessions[CHAT]
    await tick_until(h, lambda: bool(session._pending) or session._seq > 1)
    await h.advance(0.2)
    await h.drain()
    assert [p.display_name for p in session.players] == ["Ann", "Cat"]
    assert mark_of(h, first) == ["✅"]
    assert no_game_replies(h) == []
    assert all(ChatKey("discord", GUILD_ID, c) in h.manager.sessions for c in others)
    assert not h.manager.errors
    await asyncio.sleep(0)
