"""Shed through the real manager, registry entry and lexicon, on a fake clock; restarts; the terminal."""

from __future__ import annotations

import asyncio
import random

from adapters.terminal.app import TerminalAdapter, TerminalOutbox
from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, Player
from bot.core.registry import Registry, load_default
from bot.core.views import rules
from bot.hosting.manager import GameManager
from games.shed import GAME
from games.shed.bots import plan_turn
from games.shed.cards import hand_text
from games.shed.engine import ShedGame
from tests.doubles import FakeOutbox, Keyboard, MemoryLog

CHAT = ChatKey("test", "w", "c")


ANN = Player("test", "ann", "Ann")
BOB = Player("test", "bob", "Bob")


def _engine(manager: GameManager) -> ShedGame:
    engine = manager.sessions[CHAT].engine
    assert isinstance(engine, ShedGame)
    return engine


async def _play_as_people(manager: GameManager, clock: FakeClock, players: list[Player], turns: int) -> int:
    """People play their turns with the planner's move (or let the timer run); returns moves made."""
    moves = 0
    for step in range(turns):
        if CHAT not in manager.sessions:
            break
        engine = _engine(manager)
        person = next((p for p in players if p.seat_id == engine.current), None)
        if person is not None and step % 5 != 4:
            text = plan_turn(engine, person.seat_id, "normal", random.Random(step))
            await manager.handle(Command("play", tuple(text.split()), CHAT, person))
            moves += 1
        await clock.advance(5.0 if person is not None and step % 5 != 4 else 121.0)
    return moves


async def test_a_game_against_two_computers_runs_to_the_end() -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(11))
    await manager.handle(Command("start", ("shed", "bots=2", "level=hard"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    engine = _engine(manager)
    hands = {seat: hand_text(cards) for seat, cards in engine.round.hands.items()}
    await manager.handle(Command("hand", (), CHAT, ANN))
    assert any(hands["test:ann"] in m.view.plain() for m in outbox.privates())
    moves = await _play_as_people(manager, clock, [ANN], 300)
    assert CHAT not in manager.sessions, "the game should have ended"
    (result,) = log.results.values()
    assert set(result.scores) == {"test:ann", "bot:1", "bot:2"} and result.winners
    assert moves > 0 and not manager.errors
    public = "\n".join(outbox.texts(CHAT))
    assert "Shed" in public and "Your hand" not in public
    assert all(p.player == ANN for p in outbox.privates()), "only the person gets private messages"
    await manager.shutdown()


async def test_two_people_and_a_refused_move_answered_privately() -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(3))
    await manager.handle(Command("start", ("shed", "rounds=2", "hand=4"), CHAT, ANN))
    await manager.handle(Command("join", (), CHAT, BOB))
    await manager.handle(Command("go", (), CHAT, ANN))
    engine = _engine(manager)
    other = BOB if engine.current == ANN.seat_id else ANN
    outbox.clear()
    await manager.handle(Command("play", ("WHO",), CHAT, other))
    errors = [m for m in outbox.privates() if m.view.kind == "error"]
    assert errors and "not your turn" in errors[0].view.plain() and errors[0].player == other
    await _play_as_people(manager, clock, [ANN, BOB], 600)
    assert CHAT not in manager.sessions
    (result,) = log.results.values()
    assert result.winners and sum(result.scores.values()) > 0
    assert not manager.errors
    await manager.shutdown()


async def test_a_game_survives_a_restart_with_its_deadline() -> None:
    clock, log = FakeClock(), MemoryLog()
    first = GameManager(Registry([GAME]), FakeOutbox(), log, clock, rng=random.Random(5))
    await first.handle(Command("start", ("shed", "bots=1", "pace=slow"), CHAT, ANN))
    await first.handle(Command("go", (), CHAT, ANN))
    await _play_as_people(first, clock, [ANN], 6)
    assert CHAT in first.sessions, "still running"
    before = _engine(first)
    state = (before.round.hands, before.round.table, before.current, before.next_deadline())
    await first.shutdown()
    await clock.advance(3600)
    outbox = FakeOutbox()
    second = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(6))
    await second.recover(log.unfinished())
    await clock.settle()
    after = _engine(second)
    assert (after.round.hands, after.round.table, after.current, after.next_deadline()) == state
    kinds = [post.view.kind for post in outbox.posts(CHAT)]
    assert kinds[:2] == ["info", "table"]  # "carries on", then the table
    assert kinds[2:] in ([], ["turn"])  # and the player to move, if a person, hears their time left
    assert not second.errors
    await second.shutdown()


def test_registered_with_rules_help_for_every_option() -> None:
    registry = load_default()
    info = registry.get("shed")
    assert info is registry.get("shedding") and not info.realtime
    text = rules(info).plain()
    for needle in ("SOCK+H -> SHOCK", "SHOCK-H+WO -> WHO SOCK", "trade Q Bob", "+2 all", "draw", "rounds=N"):
        assert needle in text
    for spec in info.options:
        assert f"{spec.name}=" in info.rules, f"the rules text explains {spec.name}"
        assert spec.describe() in text


async def test_a_whole_game_in_the_terminal_with_computer_players() -> None:
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([GAME]), outbox, MemoryLog(), clock, rng=random.Random(8))
    keys = Keyboard()
    adapter = TerminalAdapter(
        manager, outbox, keys.lines(), screen.append, game="shed", options=["bots=2"], countdown=0
    )
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(0)
    typed = 0
    for step in range(400):
        session = next(iter(manager.sessions.values()), None)
        if session is None:
            break
        engine = session.engine
        assert isinstance(engine, ShedGame)
        if engine.current == "terminal:you":
            keys.type(plan_turn(engine, "terminal:you", "normal", random.Random(step)))
            typed += 1
        await clock.advance(5.0)
    text = "".join(screen)
    assert typed and "game over" in text
    assert "(only you see this)" in text and "Your hand:" in text
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()
