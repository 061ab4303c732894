"""A lively race inside Discord's rate limits, as the fake enforces them, and its budget of calls.

Six people answer at human pace (a word every 2–4 s each, about half of them wrong)
through the real discord.py client; the fake Discord answers 429 to any call over
its limits. The game must never meet one, and the channel must end up showing the
final table and one result.
"""

from __future__ import annotations

import random
import string

import pytest

from bot.registry import Registry
from bot.tables import SCROLLED_AWAY
from tests.adapters.discord.conftest import CHAT, Harness, answer, is_lobby, is_table
from tests.adapters.discord.fakediscord import CHANNEL_ID

race = pytest.importorskip("games.race")
board = pytest.importorskip("games.board")

MESSAGES = r"^/channels/\d+/messages$"
PEOPLE = [
    (f"10000000000000010{i}", name) for i, name in enumerate(("Ann", "Bob", "Cat", "Dan", "Eve", "Fay"))
]


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME, board.GAME])


def table_messages(h: Harness) -> list[dict[str, object]]:
    """The bot's table messages as the channel shows them now."""
    return [
        m
        for m in h.fake.messages.values()
        if m.get("channel_id") == CHANNEL_ID and "Cards: " in str(m.get("content")) and m["author"]["bot"]  # type: ignore[index]
    ]


async def test_a_lively_race_stays_inside_the_limits(h: Harness) -> None:
    rng = random.Random(7)
    h.manager.rng = random.Random(11)
    await h.fake.slash(*PEOPLE[0], "start", {"game": "race", "cards": 6})
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    for who in PEOPLE[1:]:
        await h.fake.slash(*who, "join")
    await h.fake.until(lambda: CHAT in h.manager.sessions and len(h.manager.sessions[CHAT].players) == 6)
    await h.fake.slash(*PEOPLE[0], "go")
    await h.fake.until(lambda: h.manager.sessions[CHAT].engine is not None)
    session = h.manager.sessions[CHAT]
    start = h.clock.now()
    due = {who: start + rng.uniform(2, 4) for who in PEOPLE}
    typed = 0
    while CHAT in h.manager.sessions and h.clock.now() - start < 600:
        for who, at in due.items():
            if at > h.clock.now():
                continue
            word = session.engine._example() if rng.random() < 0.5 else None
            word = word or "".join(rng.choice(string.ascii_lowercase) for _ in range(5))
            await h.fake.say(*who, word)
            typed += 1
            due[who] = h.clock.now() + rng.uniform(2, 4)
        await h.advance(0.1)
        # real I/O (scores written, pictures drawn) finishes before the fake clock moves on
        await h.fake.until(lambda: not session._lock.locked() and h.fake.inflight == 0)
        await h.clock.settle()
    assert CHAT not in h.manager.sessions, "the race should end well within ten minutes"
    await h.drain()
    await h.fake.until(lambda: h.fake.inflight == 0)

    assert h.fake.rate_limited() == [], [(r.method, r.path, r.limited) for r in h.fake.rate_limited()]
    assert not h.manager.errors
    accepted = len([r for r in h.fake.of("PUT", r"/reactions/") if "%E2%9C%85" in r.path or "✅" in r.path])
    assert accepted >= 10 and typed >= 2 * accepted, (accepted, typed)
    results = [r for r in h.fake.channel_posts() if "game over" in r.text]
    assert len(results) == 1, "one end-of-game message"
    # the live table's last state is the game's final state (no Skip button any more)
    tables = [
        r for r in h.fake.requests if r.method in ("POST", "PATCH") and '"title": "moji race"' in r.text
    ]
    last = tables[-1]
    assert not last.json.get("components"), last.text
    assert not (last.json or {}).get("content"), "the final table: no cards left face-up"
    first = h.fake.requests.index(tables[0])
    calls = [
        r
        for r in h.fake.requests[first:]
        if r.method in ("POST", "PATCH", "PUT") and r.path.startswith("/channels/") and r.status == 200
    ]
    # every call the game made from its first table to its result, for each accepted answer (the
    # budget is 2 at human pace, see bench/bench_delivery.py; here the fake clock runs on while
    # pictures are drawn and scores are written in real time, so a state meant to pass unseen
    # is sometimes sent)
    kinds = {m: len([r for r in calls if r.method == m]) for m in ("POST", "PATCH", "PUT")}
    assert len(calls) / accepted <= 3.0, (kinds, accepted)


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
