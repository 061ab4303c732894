"""Chatter is never stored (issue 29): discord.py against the fake gateway, a real SQLite file.

Discord hands every message in a channel with a game to the core as typed; the one rule in
bot/ (:mod:`bot.moves`) keeps only what the race reads as an answer, as on Slack.
"""

from __future__ import annotations

import pytest

from bot.registry import Registry
from bot.session import Phase
from tests.adapters.discord.conftest import ANN, BOB, CHAT, Harness, is_table
from tests.storage.scan import every_row, every_text

race = pytest.importorskip("games.race")
pytest.importorskip("games.lexicon")

MESSAGES = r"^/channels/\d+/messages$"
CHATTER = "my salary is too low, call me at +1 555 0100"


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME])


async def answered(h: Harness) -> str:
    """Ann types a word the race takes; returns it once it is judged and logged (every message
    sent before it in the channel has been handled by then: a chat's events go in turn)."""
    session = h.manager.sessions[CHAT]
    word = None
    for _ in range(400):  # (no word on the table yet: the hourglass flips more cards)
        word = session.engine._example()
        if word:
            break
        await h.advance(0.5)
        await h.drain()
    assert word, "the race never showed a card"
    logged = session._seq
    mid = await h.fake.say(*ANN, word)
    await h.fake.until(lambda: mid in session._handled)
    await h.advance(0.2)  # the settle window closes
    await h.fake.until(lambda: session._seq > logged and not h.manager.turns.busy(CHAT))
    await h.drain()
    return str(word)


async def test_chatter_during_a_race_leaves_no_trace_and_an_answer_is_kept_and_scored(h: Harness) -> None:
    await h.fake.slash(*ANN, "start", {"game": "race", "cards": 5})
    await h.fake.until(lambda: CHAT in h.manager.sessions)
    await h.fake.slash(*BOB, "join")
    await h.fake.until(lambda: len(h.manager.sessions[CHAT].players) == 2)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)
    session = h.manager.sessions[CHAT]
    assert session.phase is Phase.RUNNING

    await h.fake.say(*ANN, CHATTER)
    await h.fake.say(*ANN, "call me maybe")  # a few words of letters: still no answer in this race
    await h.fake.say(*BOB, "+1 555 0100")
    word = await answered(h)

    text = await every_text(h.svc.store)  # type: ignore[arg-type]
    for trace in ("555 0100", "salary", "call me"):
        assert trace not in text, f"{trace!r} was stored"
    actions = "\n".join((await every_row(h.svc.store))["game_actions"])  # type: ignore[arg-type]
    assert word in actions, "the answer is in the game's log"
    assert session.engine.score("discord:" + ANN[0]) > 0
    assert not h.manager.errors
