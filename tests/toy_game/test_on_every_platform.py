"""A game added in one folder plays on every platform, with its rules, help and start options.

Spell (``game.py``, ``RULES.md``) is registered by the one line of :func:`registry`, next to
every installed game, and played through the Discord, Slack and terminal harnesses; nothing
outside this folder names it. Discord's ``/moji start`` offers its options from its own
declaration (``start_form``), alongside the real games', within Discord's 25.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import views
from bot.clock import FakeClock
from bot.registry import Registry, load_default
from games.common.text import plain
from tests.toy_game.game import RULES, SPELL


def registry() -> Registry:
    """The one line that adds the toy game to a bot."""
    return Registry([*load_default(), SPELL])


def rules_lines() -> list[str]:
    """What ``rules spell`` says, as plain text."""
    return [plain(line) for line in views.rules(SPELL).lines]


def test_the_game_is_declared_in_its_folder() -> None:
    assert RULES.startswith("A length is shown.")
    assert registry().get("spelling") is SPELL
    assert SPELL.form_options()[1].name == "tally"


# ---------------------------------------------------------------- Discord


@pytest.fixture
async def discord_bot(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AsyncIterator[Any]:
    from discord.http import Ratelimit

    from bot.app import Services
    from bot.recording import StoreGameLog
    from bot.workspace import Workspace
    from storage import open_store
    from tests.adapters.discord import conftest as discord_harness
    from tests.adapters.discord.fakediscord import FakeDiscord

    games = registry()
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    clock = FakeClock(start=time.time())
    fake = FakeDiscord(now=clock.now, limits=discord_harness.ON_A_FAKE_CLOCK)
    monkeypatch.setattr(Ratelimit, "_refresh", discord_harness._refresh_without_sleeping)
    await fake.start()
    fake.patch(monkeypatch)
    services = Services(games, Workspace(store, games), StoreGameLog(store), store)
    harness = await discord_harness.start_bot(fake, clock, services, discord_harness.make_config())
    try:
        yield harness
    finally:
        await harness.stop()
        await fake.close()
        await store.close()


def _start_options(sync: Any) -> dict[str, dict[str, Any]]:
    [group] = sync.json
    start = next(o for o in group["options"] if o["name"] == "start")
    return {o["name"]: o for o in start["options"]}


async def test_spell_on_discord(discord_bot: Any) -> None:
    from tests.adapters.discord.conftest import ANN

    h = discord_bot
    [sync] = h.fake.of("PUT", r"^/applications/\d+/commands$")
    options = _start_options(sync)
    assert len(options) <= 25
    assert {"game", "more", "cards", "bots", "language"} <= set(options)  # the real games' too
    assert "spell" in [c["value"] for c in options["game"]["choices"]]
    target, tally = options["target"], options["tally"]
    assert (target["type"], target["min_value"], target["max_value"]) == (4, 1, 5)
    assert [c["value"] for c in tally["choices"]] == ["words", "letters"]
    assert target["description"] == "Points to win"

    def said(iid: str) -> str:
        return " ".join(str(r.json) for r in h.fake.replies_to(iid) if isinstance(r.json, dict))

    iid = await h.fake.slash(*ANN, "rules", {"game": "spell"})
    await h.fake.until(lambda: "How to play Spell" in said(iid))
    await h.fake.until(lambda: all(word in said(iid) for word in RULES.split()[:12]))
    iid = await h.fake.slash(*ANN, "help")
    await h.fake.until(lambda: "spell (Spell)" in said(iid))

    await h.fake.slash(*ANN, "start", {"game": "spell", "tally": "letters", "shortest": 4, "longest": 4})
    lobby = await h.posted(lambda r: "lobby" in r.text)
    assert "tally=letters" in lobby.text and "Spell" in lobby.text
    await h.fake.slash(*ANN, "go")
    await h.posted(lambda r: "Spell a word of 4 letters." in r.text)
    session = next(iter(h.manager.sessions.values()))
    await h.fake.say(*ANN, "word")
    await h.fake.until(lambda: bool(session._pending))
    await h.advance(0.2)
    over = await h.posted(lambda r: "game over" in r.text)
    assert "Ann — 4 pts" in over.text  # a point per letter, as the option says


# ---------------------------------------------------------------- Slack


@pytest.fixture
async def slack_app() -> AsyncIterator[Any]:
    pytest.importorskip("slack_bolt")
    from adapters.slack.store import MemorySlackStore
    from tests.adapters.slack import conftest as slack_harness
    from tests.adapters.slack.fakes import FakeServices
    from tests.adapters.slack.fakeslack import FakeSlack

    clock = FakeClock(slack_harness.MONDAY_1459)
    fake = FakeSlack(names={"UANN": "Ann", "UBOB": "Bob"}, now=clock.now)
    await fake.start()
    try:
        async with slack_harness.running(fake, clock, FakeServices(registry()), MemorySlackStore()) as h:
            yield h
    finally:
        await fake.stop()


async def test_spell_on_slack(slack_app: Any) -> None:
    from tests.adapters.slack.conftest import tick_until, until

    h = slack_app

    def ephemeral(text: str) -> bool:
        return any(text in str(c.args.get("text")) for c in h.slack.of("chat.postEphemeral"))

    def posted(text: str) -> bool:
        return any(text in str(c.args.get("text")) for c in h.slack.of("chat.postMessage") if c.ok)

    assert await h.command("UANN", "rules spell") == 200
    await until(lambda: ephemeral("How to play Spell"))
    shown = " ".join(str(c.args.get("text")) for c in h.slack.of("chat.postEphemeral"))
    assert RULES.splitlines()[0] in shown and "tally=words|letters" in shown
    assert await h.command("UANN", "help") == 200
    await until(lambda: ephemeral("spell (Spell)"))

    assert await h.command("UANN", "start spell target=2 shortest=5 longest=5") == 200
    await until(lambda: posted("lobby"))
    assert await h.command("UANN", "go") == 200
    await tick_until(h.clock, lambda: posted("Spell a word of 5 letters."), busy=lambda: h.slack.inflight > 0)
    session = h.adapter.manager.sessions[next(iter(h.adapter.manager.sessions))]
    for word in ("apple", "lemon"):
        before = len(session._pending)
        await h.say("UANN", word)
        await until(lambda before=before: len(session._pending) > before)  # type: ignore[misc]
        await h.clock.advance(0.2)
    await tick_until(h.clock, lambda: posted("game over"), busy=lambda: h.slack.inflight > 0)
    over = next(c for c in h.slack.of("chat.postMessage") if "game over" in str(c.args.get("text")))
    assert "Ann — 2 pts" in over.args["text"]


# ---------------------------------------------------------------- terminal


async def test_spell_in_the_terminal() -> None:
    from adapters.terminal.app import TerminalAdapter, TerminalOutbox
    from bot.manager import GameManager
    from bot.testing import Keyboard, MemoryLog

    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(registry(), outbox, MemoryLog(), clock, rng=random.Random(3))
    keys = Keyboard()
    options = ["shortest=3", "longest=3", "tally=letters"]
    adapter = TerminalAdapter(manager, outbox, keys.lines(), screen.append, game="spell", options=options)
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)  # 3… 2… 1…
    keys.type("/rules spell")
    keys.type("/help")
    await clock.advance(0.1)
    shown = "".join(screen)
    assert all(line in shown for line in rules_lines() if line)
    assert "spell (Spell)" in shown
    assert "Spell a word of 3 letters." in shown
    keys.type("cat")
    await clock.advance(0.2)
    shown = "".join(screen)
    assert "game over" in shown and "3 pts" in shown
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()
