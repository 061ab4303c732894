"""Letter dice through the real manager, registry entry, lexicon and terminal, on a fake clock."""

from __future__ import annotations

import asyncio
import random
import re
from dataclasses import replace

import pytest

from adapters.terminal.app import CHAT as TERMINAL
from adapters.terminal.app import YOU, TerminalAdapter, TerminalOutbox
from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, Player, Private
from bot.core.registry import Registry, load_default
from bot.hosting.leases import KEEP_ALIVE
from bot.hosting.manager import GameManager
from bot.sessions.state import Phase
from games.common.protocol import Setup
from games.dice import GAME
from games.dice.engine import LetterDice
from games.dice.solver import best_word
from tests.doubles import FakeOutbox, Keyboard, MemoryLog
from tests.games.dice.helpers import LEXICON

CHAT = ChatKey("test", "w", "c")
ANN = Player("test", "ann", "Ann")


def quick(setup: Setup) -> LetterDice:
    return LetterDice(replace(setup, judge=LEXICON))


QUICK = Registry([replace(GAME, create=quick)])


def engine_of(manager: GameManager, chat: ChatKey = CHAT) -> LetterDice:
    engine = manager.sessions[chat].engine
    assert isinstance(engine, LetterDice)
    return engine


async def play_to_the_end(manager: GameManager, clock: FakeClock, steps: int = 600) -> int:
    """Ann plays the best word whenever it is her turn; returns how many words she played."""
    played = 0
    for _ in range(steps):
        if CHAT not in manager.sessions:
            break
        engine = engine_of(manager)
        if engine.phase == "play" and engine.roller() == ANN.seat_id and not engine.stuck:
            best = best_word(engine.wordlist, engine.rolled, engine.mat)
            assert best is not None
            await manager.handle(Command("play", tuple(best.notation().split()), CHAT, ANN))
            played += 1
        await clock.advance(1.0)
    return played


def test_the_game_registers_itself() -> None:
    registry = load_default()
    assert registry.get("dice") is GAME and registry.get("letter-dice") is GAME
    assert not GAME.realtime and GAME.min_players == 2


async def test_a_game_against_a_computer_player_runs_to_the_end() -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(11))
    await manager.handle(Command("start", ("dice", "bots=1", "level=hard", "live=on"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    played = await play_to_the_end(manager, clock)
    assert CHAT not in manager.sessions, "the game should have ended"
    (result,) = log.results.values()
    assert set(result.scores) == {"test:ann", "bot:1"}
    assert played > 0 and result.summary
    tables = [p.view for p in outbox.posts() if p.view.kind == "table"]
    assert tables and any(view.grid and view.board for view in tables)
    assert any("Roll:" in line for view in tables for line in view.lines)
    assert not manager.errors
    await manager.shutdown()


async def test_a_refused_move_is_explained_privately() -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(QUICK, outbox, log, clock, rng=random.Random(2))
    await manager.handle(Command("start", ("dice", "bots=1"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    await manager.handle(Command("play", ("qqqq",), CHAT, ANN))
    private = [m for m in outbox.sent if isinstance(m, Private)]
    assert private and any("QQQQ" in line for line in private[-1].view.lines)
    await manager.handle(Command("why", (), CHAT, ANN))
    await manager.shutdown()


async def test_rules_help_explains_the_notation_and_every_option() -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(QUICK, outbox, log, clock, rng=random.Random(2))
    await manager.handle(Command("rules", ("dice",), CHAT, ANN))
    (reply,) = [m for m in outbox.sent if isinstance(m, Private)]
    text = "\n".join(reply.view.lines)
    for needle in ("STONe", "STONE 2 1", "challenge", "concede", "blank", "strict=on", "live=on"):
        assert needle in text, needle
    for spec in GAME.options:
        assert f"{spec.name}=" in text
    await manager.shutdown()
    # the dice' faces close the rules (GameInfo.rules_text, in the language being spoken)
    assert "  die  1: A1 E1 I1 O1 U1 ?0" in GAME.rules_text()


def new_manager(clock: FakeClock, log: MemoryLog) -> tuple[GameManager, FakeOutbox]:
    outbox = FakeOutbox()
    return GameManager(QUICK, outbox, log, clock, settle=0.15, rng=random.Random(3)), outbox


@pytest.mark.parametrize("live", [False, True])
async def test_a_restart_mid_turn_gives_the_lost_time_back(live: bool) -> None:
    clock, log = FakeClock(), MemoryLog()
    first, _ = new_manager(clock, log)
    options = ("dice", "bots=1", "turn=10", f"live={'on' if live else 'off'}")
    await first.handle(Command("start", options, CHAT, ANN))
    await first.handle(Command("go", (), CHAT, ANN))
    engine = engine_of(first)
    assert engine.roller() == ANN.seat_id  # Ann and Ada tie on length: the first to join starts
    best = best_word(engine.wordlist, engine.rolled, engine.mat)
    assert best is not None
    await first.handle(Command("play", tuple(best.notation().split()), CHAT, ANN))
    await clock.advance(5.0)  # the computer player moves (3 s), and Ann's second turn begins
    before = engine_of(first)
    assert before.roller() == ANN.seat_id and before.turn == 2
    turn_limit = 120.0 if live else 600.0
    end = before.turn_started + turn_limit
    rolled, deadline = list(before.rolled), before.next_deadline()
    await clock.advance(20.0)  # mid-turn
    await first.shutdown()  # the process dies
    await clock.advance(15.0)

    second, outbox = new_manager(clock, log)
    ((start, _),) = log.unfinished()
    assert start.alive_at is not None
    down = clock.now() - start.alive_at  # from the last record that the game was alive
    assert 15.0 <= down <= 15.0 + KEEP_ALIVE
    report = await second.recover(log.unfinished())
    await clock.settle()
    assert report.resumed and not log.voided
    after = engine_of(second)
    assert second.sessions[CHAT].phase is Phase.RUNNING
    # the same game, its clock held still while moji was down
    assert after.rolled == rolled and after.scores == before.scores and after.next_deadline() == deadline
    assert after.turn_started + turn_limit == end
    assert any("carries on" in t and "clock stood still" in t for t in outbox.texts(CHAT))
    await clock.advance_to(end + down - 1.0)
    assert not any("Time is up" in t for t in outbox.texts(CHAT))
    await clock.advance_to(end + down + 0.5)
    assert any("Time is up" in t for t in outbox.texts(CHAT))
    assert engine_of(second).roller() == "bot:1"
    assert not second.errors
    await second.shutdown()


async def test_a_whole_game_in_the_terminal_against_computer_players() -> None:
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    log = MemoryLog()
    manager = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(5))
    keys = Keyboard()
    options = ["bots=1", "level=normal", "live=on", "words=3"]
    adapter = TerminalAdapter(manager, outbox, keys.lines(), screen.append, game="dice", options=options)
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)  # 3… 2… 1…
    typed = 0
    for _ in range(400):
        if TERMINAL not in manager.sessions:
            break
        engine = engine_of(manager, TERMINAL)
        if engine.phase == "play" and engine.roller() == YOU.seat_id and not engine.stuck:
            best = best_word(engine.wordlist, engine.rolled, engine.mat)
            assert best is not None
            keys.type(best.notation())
            typed += 1
        elif engine.phase == "last-call" and engine.pending and engine.pending.seat != YOU.seat_id:
            keys.type("accept")
        await clock.advance(1.0)
    text = "".join(screen)
    assert typed > 0 and "game over" in text
    assert "Roll:" in text
    assert re.search(r"^  (?:[A-Za-z·] )+[A-Za-z·]$", text, re.MULTILINE)  # the mat was drawn
    (result,) = log.results.values()
    assert len(result.scores) == 2
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()


def test_the_shared_picture_code_draws_the_mat() -> None:
    pytest.importorskip("PIL")
    from adapters.pictures.board import render_board
    from tests.games.dice.helpers import new_game, say, script

    engine, _ = new_game(first_roll="oestnocdbz")
    script(engine, "acihz", dice=[5, 6, 7, 8, 9])
    say(engine, "bob", "STONE")
    say(engine, "ann", "cat")
    snap = engine.snapshot()
    png = render_board(snap.board, labels=snap.board_labels, title=snap.title)
    assert png.startswith(b"\x89PNG")
