"""Mark My Words through the real manager, registry entry and lexicon, on a fake clock."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path

from adapters.terminal.app import TerminalAdapter, TerminalOutbox
from bot.core import views
from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, Player
from bot.core.registry import Registry, load_default
from bot.hosting.manager import GameManager
from bot.sessions.state import Phase
from games.paths import GAME, bots
from games.paths.engine import PathsEngine
from tests.doubles import FakeOutbox, Keyboard, MemoryLog

CHAT = ChatKey("test", "w", "c")
ANN = Player("test", "ann", "Ann")
BOB = Player("test", "bob", "Bob")


def engine_of(manager: GameManager, chat: ChatKey = CHAT) -> PathsEngine:
    engine = manager.sessions[chat].engine
    assert isinstance(engine, PathsEngine)
    return engine


def a_good_move(engine: PathsEngine, seat: str) -> str:
    """What a careful person would type: the normal computer player's choice."""
    return bots.choose(engine, seat, "normal", random.Random(engine.turns))


def test_the_registry_knows_mark_my_words() -> None:
    registry = load_default()
    assert registry.get("paths") is registry.get("mmw") is registry.get("mark-my-words")
    assert not GAME.realtime and (GAME.min_players, GAME.max_players) == (2, 6)
    for word in ("knock TEA EAT", "free O F6 X G6 OXCART", "blank E5", "swap E5", "discard Q", "pass"):
        assert word in GAME.rules
    shown = views.rules(GAME).plain()  # what `/moji rules paths` shows: the text, then every option
    for option in GAME.options:
        assert f"{option.name}=" in shown, option.name


async def test_a_game_against_two_computer_players_runs_to_the_end() -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(4))
    await manager.handle(Command("start", ("paths", "bots=2", "level=hard", "knock=3"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    moves = 0
    for _ in range(2000):
        if CHAT not in manager.sessions:
            break
        engine = engine_of(manager)
        if engine.seat_id == ANN.seat_id and not engine.finished:
            await manager.handle(Command("play", tuple(a_good_move(engine, ANN.seat_id).split()), CHAT, ANN))
            moves += 1
        await clock.advance(1.0)
    assert CHAT not in manager.sessions, "the game should have ended"
    (result,) = log.results.values()
    assert set(result.scores) == {"test:ann", "bot:1", "bot:2"}
    assert result.winners and sum(result.scores.values()) > 0 and moves > 0
    tables = [p.view for p in outbox.posts() if p.view.kind == "table"]
    assert tables and all(len(t.board) == 12 for t in tables)
    # racks travel privately, and only to their owner
    assert outbox.privates() and all(p.player == ANN for p in outbox.privates())
    assert not any("Your tiles" in t for t in outbox.texts(CHAT))
    assert not manager.errors
    await manager.shutdown()


async def test_a_refused_move_comes_back_to_its_author_with_the_reason() -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(4))
    await manager.handle(Command("start", ("paths", "bots=1"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    outbox.clear()
    await manager.handle(Command("play", ("Z99", "Q", "QI"), CHAT, ANN))
    assert any("not a square" in p.view.plain() for p in outbox.privates())
    await manager.handle(Command("why", (), CHAT, ANN))
    assert "not a square" in outbox.privates()[-1].view.plain()
    await manager.shutdown()


async def test_a_turn_limit_survives_a_restart() -> None:
    clock, log = FakeClock(), MemoryLog()
    first = GameManager(Registry([GAME]), FakeOutbox(), log, clock, rng=random.Random(8))
    await first.handle(Command("start", ("paths", "turn=60", "knock=0"), CHAT, ANN))
    await first.handle(Command("join", (), CHAT, BOB))
    await first.handle(Command("go", (), CHAT, ANN))
    engine = engine_of(first)
    await clock.advance(10)
    await first.handle(Command("play", tuple(a_good_move(engine, ANN.seat_id).split()), CHAT, ANN))
    assert engine.seat_id == BOB.seat_id
    deadline = engine.next_deadline()
    assert deadline == clock.now() + 60
    before = (list(engine.squares), dict(engine.racks), dict(engine.scores))
    await first.shutdown()  # the process dies

    await clock.advance(20)
    outbox = FakeOutbox()
    second = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(9))
    await second.recover(log.unfinished())
    await clock.settle()
    again = engine_of(second)
    assert second.sessions[CHAT].phase is Phase.RUNNING
    assert (again.squares, again.racks, again.scores) == before
    assert again.next_deadline() == deadline  # on the game's clock, which stood still for 20 s
    assert any("Bob, it's your turn again in Mark My Words: 1 min left." in t for t in outbox.texts(CHAT))
    await clock.advance(deadline + 20 - clock.now() - 0.5)
    assert again.seat_id == BOB.seat_id  # Bob got his 20 s back
    await clock.advance(1.0)
    assert again.seat_id == ANN.seat_id  # then his time ran out
    await second.shutdown()


async def test_a_whole_game_in_the_terminal_with_computer_players() -> None:
    clock = FakeClock()
    screen: list[str] = []
    outbox = TerminalOutbox(screen.append, clock, colour=False)
    manager = GameManager(Registry([GAME]), outbox, MemoryLog(), clock, rng=random.Random(6))
    keys = Keyboard()
    adapter = TerminalAdapter(
        manager, outbox, keys.lines(), screen.append, game="paths", options=["bots=1", "knock=2", "size=9"]
    )
    run = asyncio.ensure_future(adapter.run())
    await clock.advance(3)
    typed = 0
    for _ in range(3000):
        session = next(iter(manager.sessions.values()), None)
        if session is None:
            break
        engine = session.engine
        assert isinstance(engine, PathsEngine)
        if not engine.finished and engine.level(engine.seat_id) is None:  # the person at the keyboard
            keys.type(a_good_move(engine, engine.seat_id))
            typed += 1
        await clock.advance(1.0)
    text = "".join(screen)
    assert typed > 0 and "game over" in text
    assert "Mark My Words" in text and " A B C D E F G H I" in text  # the text grid
    keys.type("/quit")
    assert await run == 0
    await manager.shutdown()


async def test_a_game_kept_in_sqlite_resumes_exactly_and_finishes(tmp_path: Path) -> None:
    from bot.sessions.gamelog import StoreGameLog, load_unfinished
    from storage import open_store

    url = f"sqlite:///{tmp_path}/moji.db"
    clock = FakeClock()
    store = open_store(url)
    await store.open()
    first = GameManager(Registry([GAME]), FakeOutbox(), StoreGameLog(store), clock, rng=random.Random(2))
    options = ("paths", "bots=1", "level=hard", "rules=none", "size=8", "scoring=letter", "knock=0")
    await first.handle(Command("start", options, CHAT, ANN))
    await first.handle(Command("go", (), CHAT, ANN))
    for _ in range(3):  # Ann plays, the computer answers
        engine = engine_of(first)
        await first.handle(Command("play", tuple(a_good_move(engine, ANN.seat_id).split()), CHAT, ANN))
        await clock.advance(5)
    engine = engine_of(first)
    before = (list(engine.squares), dict(engine.racks), dict(engine.scores), engine.seat_id, engine.config)
    await first.shutdown()
    await store.close()

    store = open_store(url)
    await store.open()
    log = StoreGameLog(store)
    second = GameManager(Registry([GAME]), FakeOutbox(), log, clock, rng=random.Random(3))
    await second.recover(await load_unfinished(store))
    await clock.settle()
    again = engine_of(second)
    assert (again.squares, again.racks, again.scores, again.seat_id, again.config) == before
    assert again.config.bans == frozenset()  # rules=none survived the JSON round trip
    for _ in range(1000):
        if CHAT not in second.sessions:
            break
        engine = engine_of(second)
        if engine.seat_id == ANN.seat_id and not engine.finished:
            await second.handle(Command("play", tuple(a_good_move(engine, ANN.seat_id).split()), CHAT, ANN))
        await clock.advance(1.0)
    assert CHAT not in second.sessions and not second.errors
    await second.shutdown()
    await store.close()


async def test_a_misplaced_tile_goes_to_the_pile_and_replays_as_recorded() -> None:
    clock, log = FakeClock(), MemoryLog()
    outbox = FakeOutbox()
    first = GameManager(Registry([GAME]), outbox, log, clock, rng=random.Random(5))
    await first.handle(Command("start", ("paths", "bots=1", "level=easy", "knock=0"), CHAT, ANN))
    await first.handle(Command("go", (), CHAT, ANN))
    engine = engine_of(first)
    ann = ANN.seat_id
    await first.handle(Command("play", ("A1", engine.racks[ann][0].upper()), CHAT, ANN))
    for _ in range(30):  # the easy computer player places its first tile away from A1
        if engine.seat_id == ann:
            break
        await clock.advance(1.0)
    assert engine.seat_id == ann and engine.squares[1] == ""
    letter = engine.racks[ann][0]
    outbox.clear()
    await first.handle(Command("play", ("B1", letter.upper(), "QQQ"), CHAT, ANN))
    assert engine.pile == [letter] and engine.seat_id != ann
    assert any("Free Letter Pile" in p.view.plain() for p in outbox.privates())
    assert any("without making a new word" in t for t in outbox.texts(CHAT))
    after = (list(engine.squares), {k: list(v) for k, v in engine.racks.items()}, list(engine.pile))
    await first.shutdown()

    # a restart replays the log: the tile is on the pile again
    second = GameManager(Registry([GAME]), FakeOutbox(), log, clock, rng=random.Random(6))
    await second.recover(log.unfinished())
    again = engine_of(second)
    assert (again.squares, again.racks, again.pile) == after
    await second.shutdown()

    # a game recorded before the option existed keeps the lenient rule when it is replayed
    ((start, actions),) = log.unfinished()
    old = {k: v for k, v in start.options.items() if k != "misplaced"}
    third = GameManager(Registry([GAME]), FakeOutbox(), MemoryLog(), clock, rng=random.Random(7))
    await third.recover([(replace(start, options=old), actions)])
    legacy = engine_of(third)
    assert legacy.config.misplaced == "retry"
    assert legacy.pile == [] and letter in legacy.racks[ann] and legacy.seat_id == ann
    await third.shutdown()
