"""Pacing inside the platform's declared limits: a lively race — six people, a burst of words
all at once, then a minute of a word every 2–4 s each, about half of them wrong — meets no 429 (the fakes
answer 429 to any call over the platform's limits, on the test's clock)."""

from __future__ import annotations

import random
import string

import pytest

from bot.registry import Registry
from tests.contract.harness import LIMITS, PEOPLE_CAP, PlatformHarness, Sent, game_session

race = pytest.importorskip("games.race")
pytest.importorskip("games.lexicon")

PLAYERS = ("ann", "bob", "cat", "dan", "eve", "ada")


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME])


@pytest.mark.needs(LIMITS, PEOPLE_CAP)
async def test_a_burst_and_a_lively_race_meet_no_rate_limit(p: PlatformHarness) -> None:
    rng = random.Random(7)
    p.manager._rng = random.Random(11)
    await p.command("ann", "start race cards=6")
    await p.until(lambda: game_session(p) is not None)
    for who in PLAYERS[1:]:
        await p.command(who, "join")
    await p.until(lambda: len(game_session(p).players) == len(PLAYERS))
    await p.command("ann", "go")
    await p.until(lambda: game_session(p).engine is not None)
    await p.drain()
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
        await p.advance(0.25)
    await p.drain()
    # the race was played meanwhile (how many words were taken first depends on who typed what)
    assert [s for s in typed if "accepted" in p.marks(s)], len(typed)

    assert p.rate_limited() == [], p.rate_limited()[:5]
    assert not p.manager.errors
