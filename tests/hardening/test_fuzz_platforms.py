"""Hostile input through the real platform adapters (discord.py and slack-bolt against the fakes).

The property tests (test_fuzz_inbound.py) cover the bot core with thousands of inputs; these
send a fixed corpus of the worst ones through each platform's own parsing (gateway
messages, slash-command options, button custom ids, Slack command text and events) into a
real race: nothing escapes, nothing hostile is marked ✅, settings stay unchanged, and the
game still plays afterwards.
"""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from typing import Any

import pytest

from bot.core.clock import FakeClock
from bot.core.registry import Registry
from bot.process.app import Services
from tests.adapters.discord.conftest import ANN, BOB, CHAT, Harness, mark_of

race = pytest.importorskip("games.race")

#: Seeds the games' deals, so the test never depends on two random cards making a word.
SEED = 7

CORPUS = (
    "",
    " ",
    "\u200b",
    "cаt",  # Cyrillic а
    "ｃаｔ",  # fullwidth with a Cyrillic а
    "wo\u200brd",
    "wo\u202erd",
    "z\u0351\u0352\u0353\u0354ebra",
    "**bold**",
    "||spoiler||",
    "<@100000000000000001>",
    "@everyone",
    "<!channel>",
    "'; DROP TABLE games; --",
    "%s%s%s{0}",
    "x" * 4000,
    "a" * 41,
    "🙂",
    "\x00",
    "moji\nstart",
)
HOSTILE_IDS = ("", "moji:", "moji:go:extra", "moji:vote:maybe", "x" * 100, "moji:jоin", "\u200bmoji:go")
MESSAGES = r"^/channels/\d+/messages$"


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME])


async def test_hostile_discord_input_never_escapes(discord_bot: Harness, services: Services) -> None:
    h = discord_bot
    h.manager.rng = random.Random(SEED)  # a deal whose face-up cards make a word
    await h.fake.slash(*ANN, "start", {"game": "race", "cards": 5})
    await h.fake.wait_for("POST", MESSAGES, lambda r: "lobby" in r.text)
    await h.fake.slash(*BOB, "join")
    await h.fake.until(lambda: CHAT in h.manager.sessions and len(h.manager.sessions[CHAT].players) == 2)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, lambda r: "Cards: " in str((r.json or {}).get("content")))
    session = h.manager.sessions[CHAT]
    hostile_ids = [await h.fake.say(*BOB, text) for text in CORPUS]
    for custom_id in HOSTILE_IDS:
        await h.fake.press(*BOB, custom_id, "1")
    # (options with fixed choices are checked by Discord itself before they reach a bot)
    for text in CORPUS:
        await h.fake.slash(*BOB, "config", {"key": text or "x", "value": text or "x"})
        await h.fake.slash(*BOB, "start", {"game": "race", "more": text})
    await h.advance(0.2)
    # the game still plays: a right answer after all that is marked ✅
    word = session.engine._example()
    assert word
    mid = await h.fake.say(*ANN, word)
    await h.fake.until(lambda: any(c.ref == mid for c in session.settle.pending))
    await h.advance(0.2)
    await h.drain()
    await h.fake.wait_for("PUT", rf"/messages/{mid}/reactions/", lambda r: r.status == 200)
    assert mark_of(h, mid) == ["✅"]
    for bad in hostile_ids:
        assert "✅" not in mark_of(h, bad)
    assert not h.manager.errors
    assert await services.store.get_settings("discord", CHAT.workspace_id) == {}


@pytest.fixture
async def slack_bot() -> AsyncIterator[Any]:
    slack_conftest = pytest.importorskip("tests.adapters.slack.conftest")
    from adapters.slack.store import MemorySlackStore
    from tests.adapters.slack.fakes import FakeServices
    from tests.adapters.slack.fakeslack import FakeSlack

    clock = FakeClock(slack_conftest.MONDAY_1459)
    fake = FakeSlack(names={"UANN": "Ann", "UBOB": "Bob", "UADMIN": "Ada"}, admins={"UADMIN"}, now=clock.now)
    await fake.start()
    svc = FakeServices(Registry([race.GAME]))
    try:
        async with slack_conftest.running(fake, clock, svc, MemorySlackStore()) as harness:
            yield harness
    finally:
        await fake.stop()


async def test_hostile_slack_input_never_escapes(slack_bot: Any) -> None:
    from tests.adapters.slack.conftest import CHAT as SLACK_CHAT
    from tests.adapters.slack.conftest import until
    from tests.adapters.slack.test_game import is_table

    h = slack_bot
    h.adapter.runtime.manager.rng = random.Random(SEED)  # a deal whose face-up cards make a word
    await h.command("UANN", "start race cards=5")
    await h.command("UBOB", "join")
    await h.command("UANN", "go")
    await h.drain()
    await h.slack.wait_for("chat.postMessage", is_table)
    session = h.adapter.runtime.manager.sessions[SLACK_CHAT]
    hostile_ts = [await h.say("UBOB", text) for text in CORPUS]
    for text in CORPUS:
        assert await h.command("UBOB", text) == 200
        assert await h.command("UBOB", f"config quiet {text}") == 200
    for action_id in HOSTILE_IDS:
        # an id moji never sends has no listener: Bolt answers 404, never a 5xx
        assert await h.button("UBOB", action_id) in (200, 404)
    await h.clock.advance(0.2)
    word = session.engine._example()
    assert word
    ts = await h.say("UANN", word)
    await until(lambda: bool(session.settle.pending))
    await h.clock.advance(0.2)
    await h.drain()
    await h.slack.wait_for("reactions.add", lambda c: c.args.get("timestamp") == ts)
    marks = h.slack.of("reactions.add")
    assert [c.args.get("name") for c in marks if c.args.get("timestamp") == ts] == ["white_check_mark"]
    assert not [c for c in marks if c.args.get("timestamp") in hostile_ts and c.args.get("name") != "x"]
    assert not h.adapter.runtime.manager.errors and not h.slack.rate_limited()
    assert h.svc.store.settings.get(("slack", "T1"), {}) == {}
