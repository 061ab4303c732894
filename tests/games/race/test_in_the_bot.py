"""A whole race through the real manager, registry entry and lexicon, on a fake clock."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, MessageRef, Player, Text
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from games.common.placement import Placement
from games.lexicon import load
from games.race import GAME
from games.race.engine import FlipRace
from games.race.options import VARIATIONS
from tests.doubles import FakeOutbox, MemoryLog
from tests.waiting import PATIENCE

CHAT = ChatKey("test", "w", "c")
ANN = Player("test", "ann", "Ann")


async def test_a_race_against_two_bots_runs_to_the_end() -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(11))
    lexicon = load("casual")
    await manager.handle(Command("start", ("race", "bots=2", "cards=4", "level=hard"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    session = manager.sessions[CHAT]
    answered = 0
    for step in range(400):
        if CHAT not in manager.sessions:
            break
        engine = session.engine
        assert isinstance(engine, FlipRace)
        if step % 3 == 0 and engine.tops():
            found = lexicon.examples(
                [c.letter for c in engine.tops()], engine.referee.rules, Placement.ANYWHERE
            )
            if found:
                answered += 1
                await manager.handle(Text(CHAT, ANN, found[0], clock.now(), MessageRef(CHAT, f"a{step}")))
        await clock.advance(1.0)
    assert CHAT not in manager.sessions, "the game should have ended"
    (result,) = log.results.values()
    assert set(result.scores) == {"test:ann", "bot:1", "bot:2"}
    assert result.winners and sum(result.scores.values()) > 0
    assert answered > 0 and outbox.reactions()
    tables = [p.view.plain() for p in outbox.posts() if p.view.kind == "table"]
    assert tables
    assert not manager.errors
    await manager.shutdown()


def test_real_lexicon_judges_claims() -> None:
    from games.common.protocol import Seat, Setup

    engine = FlipRace(Setup({"cards": 5}, [Seat("a", "Ann"), Seat("b", "Bob")], 3))
    from games.common.protocol import Action, Claim
    from games.race.cards import Card

    engine.apply(Action("begin", 0.0))
    engine.piles["a"] = [Card(900, "c", "red")]
    engine.piles["b"] = [Card(901, "t", "blue")]
    engine._changed(0.0)
    notes = engine.apply(Action("claims", 1.0, claims=(Claim("a", "xqzt", 0.5), Claim("b", "topic", 0.9))))
    kinds = [(n.kind, n.seat) for n in notes if n.kind in {"accepted", "rejected"}]
    assert kinds == [("rejected", "a"), ("accepted", "b")]


async def test_a_title_voted_in_is_kept_and_needs_no_vote_in_the_next_game(tmp_path: Path) -> None:
    # two people: Bob votes Ann's unknown title in; the workspace keeps it, so the next game
    # of that workspace accepts it at once
    from bot.features.workspace import Workspace
    from games.race.cards import Card
    from storage import open_store

    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    registry = Registry([GAME])
    bob = Player("test", "bob", "Bob")
    manager = GameManager(
        registry, outbox, log, clock, workspace=Workspace(store, registry), rng=random.Random(2)
    )

    async def game() -> FlipRace:
        await manager.handle(Command("start", ("race", "cards=1", "themes=movies"), CHAT, ANN))
        await manager.handle(Command("join", (), CHAT, bob))
        await manager.handle(Command("go", (), CHAT, ANN))
        engine = manager.sessions[CHAT].engine
        assert isinstance(engine, FlipRace)
        for i, (sid, letter) in enumerate(zip(engine.order, "zq", strict=True)):
            engine.piles[sid] = [Card(900 + i, letter, "red")]  # the same two letters each game
        engine._changed(clock.now())
        return engine

    await game()
    await clock.advance(1.0)
    await manager.handle(Text(CHAT, ANN, "The Zq Show", clock.now(), MessageRef(CHAT, "a1")))
    await clock.advance(0.2)
    assert any("vote yes or no" in t for t in outbox.texts(CHAT))
    closed = asyncio.Event()
    manager.closed_listeners.append(lambda chat: closed.set())
    await manager.handle(Command("vote", ("yes",), CHAT, bob))
    await clock.advance(0.2)
    # the game keeps the title on the workspace's list (a database thread) before it closes
    await asyncio.wait_for(closed.wait(), PATIENCE)
    assert CHAT not in manager.sessions
    kept = [t for t in outbox.texts(CHAT) if "Voted in during this game" in t]
    assert kept and "THE ZQ SHOW" in kept[0] and "Kept on this workspace's word list" in kept[0]
    added, _ = await store.word_lists("test", "w")
    assert "the zq show" in added

    before = len(outbox.texts(CHAT))
    engine = await game()
    assert "the zq show" in engine.referee.rules.added
    await clock.advance(1.0)
    await manager.handle(Text(CHAT, ANN, "the zq show", clock.now(), MessageRef(CHAT, "a2")))
    await clock.advance(0.2)
    later = outbox.texts(CHAT)[before:]
    assert not any("vote yes or no" in t for t in later)
    assert engine.won[ANN.seat_id] and engine.voted_words == []
    assert not manager.errors
    await manager.shutdown()
    await store.close()


async def test_a_vote_never_lifts_a_ban(tmp_path: Path) -> None:
    from datetime import UTC, datetime

    from bot.features.workspace import Workspace
    from storage import open_store

    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    workspace = Workspace(store)
    await store.ban_word("test", "w", "the zq show", "admin", datetime.now(UTC))
    assert await workspace.keep_voted(CHAT, ["the zq show", "jaws again", "jaws again"]) == ["jaws again"]
    added, banned = await store.word_lists("test", "w")
    assert added == {"jaws again"} and banned == {"the zq show"}
    assert await Workspace(None).keep_voted(CHAT, ["cat"]) == []
    await store.close()


@pytest.mark.parametrize("variation", [*VARIATIONS, "off-the-grid,monochrome", "stack-em-up,do-si-do"])
async def test_every_variation_plays_to_the_end_with_computer_players(variation: str) -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(5))
    options = ("race", "bots=3", "cards=3", "level=hard", f"variation={variation}")
    await manager.handle(Command("start", options, CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    for _ in range(3000):
        if CHAT not in manager.sessions:
            break
        await clock.advance(1.0)
    assert CHAT not in manager.sessions, f"{variation} did not end"
    (result,) = log.results.values()
    assert set(result.scores) == {"test:ann", "bot:1", "bot:2", "bot:3"}
    assert not manager.errors
    await manager.shutdown()
