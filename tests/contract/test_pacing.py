"""Pacing inside the platform's declared limits, and its budget of calls: a lively race — six
people, a burst of words all at once, then a minute of a word every 2–4 s each, about half of them
wrong — meets no 429 (the fakes answer 429 to any call over the platform's limits, on the test's
clock); a lively race at human pace, played to its end, makes at most the platform's budget of
calls per accepted answer and ends with the final table and one result in the channel."""

from __future__ import annotations

import random
import string
from typing import Any

import pytest

from bot.core.registry import Registry
from tests.contract.harness import (
    LIMITS,
    PEOPLE_CAP,
    PlatformHarness,
    Sent,
    database_caught_up,
    game_session,
)
from tests.waiting import eventually

race = pytest.importorskip("games.race")
pytest.importorskip("games.lexicon")

PLAYERS = ("ann", "bob", "cat", "dan", "eve", "ada")


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME])


async def racing(p: PlatformHarness) -> None:
    """Six people race."""
    p.manager.rng = random.Random(11)  # (the deck: the same every run)
    await p.command("ann", "start race cards=6")
    await p.until(lambda: game_session(p) is not None)
    for who in PLAYERS[1:]:
        await p.command(who, "join")
    await p.until(lambda: len(game_session(p).players) == len(PLAYERS))
    await p.command("ann", "go")
    await p.until(lambda: game_session(p).engine is not None)
    await p.drain()


async def step(p: PlatformHarness, session: Any, seconds: float) -> None:
    """Move the clock on by ``seconds``; then let the real work it set off (scores written,
    pictures drawn, calls answered) finish before the clock may move again (lighter than
    :meth:`PlatformHarness.advance`, for a race stepped through in tenths of a second)."""
    await p.clock.advance(seconds)
    await eventually(lambda: not session._lock.locked() and not p.calls_in_flight(), "the game idle")
    await database_caught_up(p.store)
    await p.clock.settle()


@pytest.mark.needs(LIMITS, PEOPLE_CAP)
async def test_a_burst_and_a_lively_race_meet_no_rate_limit(p: PlatformHarness) -> None:
    rng = random.Random(7)
    await racing(p)
    session = game_session(p)

    def word() -> str:
        found = session.engine._example() if rng.random() < 0.5 else None
        return found or "".join(rng.choice(string.ascii_lowercase) for _ in range(5))

    typed: list[Sent] = []
    for who in PLAYERS:  # everyone at once, three words each
        typed += [await p.say(who, word()) for _ in range(3)]
    start = p.clock.now()
    due = {who: start + rng.uniform(2, 4) for who in PLAYERS}
    while game_session(p) is not None and p.clock.now() - start < 60:
        for who, at in due.items():
            if at <= p.clock.now():
                typed.append(await p.say(who, word()))
                due[who] = p.clock.now() + rng.uniform(2, 4)
        await step(p, session, 0.25)
    await p.drain()
    # the race was played meanwhile (how many words were taken first depends on who typed what)
    assert [s for s in typed if "accepted" in p.marks(s)], len(typed)

    assert p.rate_limited() == [], p.rate_limited()[:5]
    assert not p.manager.errors


@pytest.mark.needs(LIMITS, PEOPLE_CAP)
async def test_a_lively_race_at_human_pace_stays_within_the_call_budget(p: PlatformHarness) -> None:
    rng = random.Random(7)
    await racing(p)
    session = game_session(p)
    start = p.clock.now()
    due = {who: start + rng.uniform(2, 4) for who in PLAYERS}
    typed: list[Sent] = []
    while game_session(p) is not None and p.clock.now() - start < 600:
        for who, at in due.items():
            if at <= p.clock.now():
                word = session.engine._example() if rng.random() < 0.5 else None
                word = word or "".join(rng.choice(string.ascii_lowercase) for _ in range(5))
                typed.append(await p.say(who, word))
                due[who] = p.clock.now() + rng.uniform(2, 4)
        await step(p, session, 0.1)
    assert game_session(p) is None, "the race should end well within ten minutes"
    await p.drain()

    assert p.rate_limited() == [], p.rate_limited()[:5]
    assert not p.manager.errors
    accepted = len([s for s in typed if "accepted" in p.marks(s)])
    assert accepted >= 10 and len(typed) >= 2 * accepted, (accepted, len(typed))
    assert p.accepted_marks() == accepted, "every accepted mark is on a typed answer"
    assert len([t for t in p.channel() if "game over" in t]) == 1, "one end-of-game message"
    # the live table's last state is the game's final state (no Skip button any more)
    assert p.final_table("moji race") == []
    # every call the game made from its first table to its result, for each accepted answer
    calls = len(p.shown_calls())
    assert calls / accepted <= p.call_budget, (calls, accepted)
