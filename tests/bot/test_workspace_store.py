"""Workspace commands and game recording end to end over a real SQLite file."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Button, Command, Player
from bot.core.registry import Registry
from bot.core.views import GO, JOIN
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.sessions.gamelog import StoreGameLog, load_unfinished
from storage import open_store
from storage.sqlstore import SQLStore
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_manager import letter, text
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox
from tests.waiting import PATIENCE

ADMIN = Player("test", "u9", "Ada Admin", is_admin=True)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLStore]:
    db = open_store(f"sqlite:///{tmp_path}/moji.db")
    await db.open()
    yield db
    await db.close()


@pytest.fixture
async def setup(store: SQLStore) -> AsyncIterator[tuple[GameManager, FakeOutbox, FakeClock]]:
    clock, outbox = FakeClock(), FakeOutbox()
    registry = Registry([TOY])
    manager = GameManager(
        registry,
        outbox,
        StoreGameLog(store),
        clock,
        workspace=Workspace(store, registry),
        rng=random.Random(5),
    )
    yield manager, outbox, clock
    await manager.shutdown()


def cmd(line: str, player: Player = ANN) -> Command:
    name, *args = line.split()
    return Command(name, tuple(args), CHAT, player)


async def reply(manager: GameManager, outbox: FakeOutbox, line: str, player: Player = ANN) -> str:
    await manager.handle(cmd(line, player))
    return outbox.privates()[-1].view.plain()


async def play_toy(manager: GameManager, clock: FakeClock, winner: Player = ANN) -> None:
    closed = asyncio.Event()
    manager.closed_listeners.append(lambda chat: closed.set())
    await manager.handle(cmd("start toy target=1"))
    await manager.handle(Button(CHAT, BOB, JOIN))
    await manager.handle(Button(CHAT, ANN, GO))
    await manager.handle(text(letter(manager) + "x", clock.now(), winner, "w"))
    await clock.advance(0.2)
    # the database writes run on a real thread: wait for the game to close, not for time
    await asyncio.wait_for(closed.wait(), PATIENCE)
    assert CHAT not in manager.sessions


async def test_a_finished_game_reaches_the_leaderboard_and_stats(setup, store: SQLStore) -> None:
    manager, outbox, clock = setup
    await play_toy(manager, clock)
    board = await reply(manager, outbox, "leaderboard toy all")
    assert "1. Ann — 1 pt · 1 game · 1 win" in board
    assert "Bob — 0 pts" in board
    stats = await reply(manager, outbox, "stats", BOB)
    assert "1 game · 0 wins" in stats and "1 games" not in stats
    assert await load_unfinished(store) == []


async def test_season_reset_is_for_admins_and_archives(setup) -> None:
    manager, outbox, clock = setup
    await play_toy(manager, clock)
    assert "Only workspace admins" in await reply(manager, outbox, "season reset", BOB)
    assert "season 2 starts now" in await reply(manager, outbox, "season reset", ADMIN)
    assert "No games finished yet" in await reply(manager, outbox, "leaderboard season")
    assert "Ann" in await reply(manager, outbox, "leaderboard all")
    assert "1. Ann — 1 pt · 1 game · 1 win" in await reply(manager, outbox, "season 1")
    listing = await reply(manager, outbox, "season")
    assert "Season 1 (archived): Ann (1 pt)" in listing and "Season 2 (current)" in listing
    assert "no season 7" in await reply(manager, outbox, "season 7")


async def test_settings_and_word_lists_persist(setup, store: SQLStore) -> None:
    manager, outbox, _ = setup
    assert "Only workspace admins" in await reply(manager, outbox, "config reasons on")
    assert "reasons is now on" in await reply(manager, outbox, "config reasons on", ADMIN)
    assert "not a time zone" in await reply(manager, outbox, "config timezone Mars/Base", ADMIN)
    assert "toy.target is now 3" in await reply(manager, outbox, "config toy.target 3", ADMIN)
    assert "“selfie” is now allowed" in await reply(manager, outbox, "words add Selfie", ADMIN)
    assert await store.word_lists("test", "w1") == ({"selfie"}, set())
    # the game default applies to the next lobby
    await manager.handle(cmd("start toy"))
    assert manager.sessions[CHAT].options["target"] == 3


async def test_two_processes_on_one_database_run_one_game_per_channel(store: SQLStore) -> None:
    # two managers on one database, as two processes on one PostgreSQL (tests/storage checks the
    # claim itself with separate connections on both backends)
    clock, registry = FakeClock(), Registry([TOY])
    managers, outboxes = [], []
    for db in (store, store):
        outbox = FakeOutbox()
        managers.append(
            GameManager(registry, outbox, StoreGameLog(db), clock, workspace=Workspace(db, registry))
        )
        outboxes.append(outbox)
    try:
        # both processes get a /moji start for the same channel in the same moment
        await asyncio.gather(
            *(m.handle(cmd("start toy target=1", p)) for m, p in zip(managers, (ANN, BOB), strict=True))
        )
        opened = [CHAT in m.sessions for m in managers]
        assert opened.count(True) == 1, "exactly one lobby"
        loser = opened.index(False)
        refusal = outboxes[loser].privates()[-1].view.plain()
        assert "There's already a game in this channel" in refusal
        winner = managers[1 - loser]
        host, guest = (ANN, BOB) if loser == 1 else (BOB, ANN)
        await winner.handle(Button(CHAT, guest, JOIN))
        await winner.handle(Button(CHAT, host, GO))
        # the other process still may not open a second game while it runs
        await managers[loser].handle(cmd("start toy"))
        assert CHAT not in managers[loser].sessions
        closed = asyncio.Event()
        winner.closed_listeners.append(lambda chat: closed.set())
        await winner.handle(text(letter(winner) + "x", clock.now(), host, "w"))
        await clock.advance(0.2)
        await asyncio.wait_for(closed.wait(), PATIENCE)
        await managers[loser].handle(cmd("start toy"))  # once it ended, the channel is free again
        assert CHAT in managers[loser].sessions
    finally:
        for m in managers:
            await m.shutdown()
