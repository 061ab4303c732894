"""Chatter is never stored (issue 29): while a race runs, only what the race reads as an answer
is judged and kept in the game's log; sentences, phone numbers and a few words of letters leave
no trace in any table of the database."""

from __future__ import annotations

import pytest

from bot.registry import Registry
from tests.contract.harness import PEOPLE_CAP, PlatformHarness, game_session
from tests.storage.scan import every_row

race = pytest.importorskip("games.race")
pytest.importorskip("games.lexicon")

CHATTER = "my salary is too low, call me at +1 555 0100"


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME])


async def answered(p: PlatformHarness, who: str) -> str:
    """``who`` types a word the race takes; returns it once it is judged (every message sent
    before it in the chat has been handled by then: a chat's events are handled in turn)."""
    session = game_session(p)
    for _ in range(400):  # (no word on the table yet: the hourglass flips more cards)
        word = session.engine._example()
        if not word:
            await p.advance(0.5)
            await p.drain()
            continue
        sent = await p.say(who, word)
        await p.until(lambda sent=sent: p.marks(sent))  # type: ignore[misc]
        await p.drain()
        if "accepted" in p.marks(sent):
            return str(word)
        # (a computer player took those cards first: another word)
    raise AssertionError("the race never took a word")


async def test_chatter_during_a_race_leaves_no_trace_and_an_answer_is_kept_and_scored(
    p: PlatformHarness,
) -> None:
    others = () if PEOPLE_CAP in p.lacks else ("bob",)
    # (alone at the terminal, against a computer player: a race needs two piles)
    await p.command("ann", "start race cards=5" + (" bots=1" if not others else ""))
    await p.until(lambda: game_session(p) is not None)
    for who in others:
        await p.command(who, "join")
    await p.until(lambda: len(game_session(p).players) == 1 + len(others))
    await p.command("ann", "go")
    await p.until(lambda: game_session(p).engine is not None)

    await p.say("ann", CHATTER)
    await p.say("ann", f"*{CHATTER}*")  # formatted: the same words
    await p.say("ann", "call me maybe")  # a few words of letters: still no answer in this race
    await p.say(others[0] if others else "ann", "call me: +15550100")
    word = await answered(p, "ann")

    text = await p.stored()
    for trace in ("555 0100", "+15550100", "salary", "call me"):  # (with its +: no stored time has one)
        assert trace not in text, f"{trace!r} was stored"
    actions = "\n".join((await every_row(p.store))["game_actions"])
    assert word in actions, "the answer is in the game's log"
    assert game_session(p).engine.score(p.seat("ann")) > 0
    assert not p.manager.errors
