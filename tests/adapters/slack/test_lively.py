"""A lively race inside Slack's rate limits, as the fake enforces them, and its budget of calls.

Six people answer at human pace (a word every 2–4 s each, about half of them wrong)
through the real Bolt app; the fake Web API answers 429 to any call over Slack's
limits (one chat.postMessage per second per channel, Tier 3 chat.update and
reactions.add per workspace). The game must never meet one, and the channel must
end up showing the final table and one result.
"""

from __future__ import annotations

import random
import string

import pytest

from bot.registry import Registry
from tests.adapters.slack.conftest import CHAT, Harness, until
from tests.adapters.slack.fakeslack import Call
from tests.adapters.slack.test_game import is_table

race = pytest.importorskip("games.race")
board = pytest.importorskip("games.board")

PEOPLE = ("UANN", "UBOB", "UCAT", "UDAN", "UEVE", "UFAY")


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME, board.GAME])


def is_race_table(call: Call) -> bool:
    """A race table, posted or edited (the final one has no cards left)."""
    return (
        call.ok
        and call.method in ("chat.postMessage", "chat.update")
        and str(call.args.get("text")).startswith("moji race")
    )


async def settle(h: Harness) -> None:
    await h.clock.settle()
    await until(lambda: h.slack.inflight == 0)
    await h.clock.settle()


async def test_a_lively_race_stays_inside_the_limits(h: Harness) -> None:
    for user in PEOPLE:
        h.slack.names.setdefault(user, user[1:].title())
    rng = random.Random(7)
    h.adapter.manager.rng = random.Random(11)
    await h.command("UANN", "start race cards=6")
    for user in PEOPLE[1:]:
        await h.button(user, "moji:join")
    await until(
        lambda: CHAT in h.adapter.manager.sessions and len(h.adapter.manager.sessions[CHAT].players) == 6
    )
    await h.command("UANN", "go")
    await h.drain()
    session = h.adapter.manager.sessions[CHAT]
    start = h.clock.now()
    due = {user: start + rng.uniform(2, 4) for user in PEOPLE}
    typed: list[str] = []
    while CHAT in h.adapter.manager.sessions and h.clock.now() - start < 600:
        for user, at in due.items():
            if at > h.clock.now():
                continue
            word = session.engine._example() if rng.random() < 0.5 else None
            word = word or "".join(rng.choice(string.ascii_lowercase) for _ in range(5))
            typed.append(await h.say(user, word))
            due[user] = h.clock.now() + rng.uniform(2, 4)
        await settle(h)
        await h.clock.advance(0.1)
    assert CHAT not in h.adapter.manager.sessions, "the race should end well within ten minutes"
    await h.drain()
    await settle(h)

    assert h.slack.rate_limited() == [], [(c.method, c.at) for c in h.slack.rate_limited()]
    assert not h.adapter.manager.errors
    ticks = [c for c in h.slack.of("reactions.add") if c.args.get("name") == "white_check_mark" and c.ok]
    accepted = len(ticks)
    assert accepted >= 10 and len(typed) >= 2 * accepted, (accepted, len(typed))
    assert {c.args["timestamp"] for c in ticks} <= set(typed)
    results = [c for c in h.slack.of("chat.postMessage") if "game over" in str(c.args.get("text"))]
    assert len(results) == 1, "one end-of-game message"
    tables = [c for c in h.slack.calls if c.method in ("chat.postMessage", "chat.update") and is_table(c)]
    last = [c for c in h.slack.calls if is_race_table(c)][-1]
    assert "in all" in last.text(), "the last outcome is on the final table"
    assert "moji:skip" not in last.text(), "the final table has no Skip button"
    first = h.slack.calls.index(tables[0])
    calls = [
        c
        for c in h.slack.calls[first:]
        if c.ok
        and c.method in ("chat.postMessage", "chat.update", "reactions.add", "files.completeUploadExternal")
    ]
    # the budget is 3 per accepted answer, pictures included (bench/bench_delivery.py measures
    # it at human pace; here the fake clock runs on while scores are written in real time)
    assert len(calls) / accepted <= 3.0, (len(calls), accepted)
