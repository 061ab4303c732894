"""Ratings through the bot: the game-over message, `leaderboard … rating`, `stats`, seasons,
`season rebuild` and `level=auto`, over a real SQLite file."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Button, Command, Player
from bot.core.registry import Registry
from bot.core.views import GO, JOIN
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.inbound.rights import Rights, rights_needed
from bot.sessions.gamelog import StoreGameLog
from games.common.options import computer_players
from storage import open_store
from storage.sqlstore import SQLStore
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_manager import letter, text
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox
from tests.waiting import PATIENCE

ADMIN = Player("test", "u9", "Ada Admin", is_admin=True)
#: the toy with the computer players' level option every real game has
LEVELLED = replace(
    TOY, name="levelled", title="Levelled", aliases=(), options=(*TOY.options, computer_players(3)[1])
)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLStore]:
    db = open_store(f"sqlite:///{tmp_path}/moji.db")
    await db.open()
    yield db
    await db.close()


@pytest.fixture
async def manager(store: SQLStore) -> AsyncIterator[GameManager]:
    registry = Registry([TOY, LEVELLED])
    made = GameManager(
        registry,
        FakeOutbox(),
        StoreGameLog(store),
        FakeClock(),
        workspace=Workspace(store, registry),
        rng=random.Random(5),
    )
    yield made
    await made.shutdown()


def outbox_of(manager: GameManager) -> FakeOutbox:
    assert isinstance(manager.outbox, FakeOutbox)
    return manager.outbox


def clock_of(manager: GameManager) -> FakeClock:
    assert isinstance(manager.clock, FakeClock)
    return manager.clock


async def reply(manager: GameManager, line: str, player: Player = ANN) -> str:
    name, *args = line.split()
    await manager.handle(Command(name, tuple(args), CHAT, player))
    return outbox_of(manager).privates()[-1].view.plain()


async def play_toy(manager: GameManager, winner: Player = ANN) -> str:
    """A toy game Ann and Bob play to one point; the result as posted."""
    closed = asyncio.Event()
    manager.closed_listeners.append(lambda chat: closed.set())
    await manager.handle(Command("start", ("toy", "target=1"), CHAT, ANN))
    await manager.handle(Button(CHAT, BOB, JOIN))
    await manager.handle(Button(CHAT, ANN, GO))
    clock = clock_of(manager)
    await manager.handle(text(letter(manager) + "x", clock.now(), winner, f"w{clock.now()}"))
    await clock.advance(0.2)
    await asyncio.wait_for(closed.wait(), PATIENCE)  # the database runs on a thread: wait for the end
    results = [p.view for p in outbox_of(manager).posts(CHAT) if p.view.kind == "result"]
    return results[-1].plain()


async def test_the_game_over_message_shows_each_change(manager: GameManager) -> None:
    result = await play_toy(manager)
    assert "📈 Ratings: Ann 1,000 → 1,086 (provisional) · Bob 1,000 → 954 (provisional)" in result
    result = await play_toy(manager, BOB)
    assert "Ann 1,086 → " in result and "Bob 954 → " in result


async def test_the_rating_leaderboard_and_stats(manager: GameManager) -> None:
    await play_toy(manager)
    await play_toy(manager)
    board = await reply(manager, "leaderboard toy rating")
    assert "Ratings — Toy (English)" in board
    lines = board.splitlines()
    ann = next(i for i, line in enumerate(lines) if "Ann" in line)
    bob = next(i for i, line in enumerate(lines) if "Bob" in line)
    assert ann < bob and "(provisional) · 2 games · 2 wins" in lines[ann]
    assert "a newcomer starts at 1,000" in board
    assert "leave out the period" in await reply(manager, "leaderboard toy week rating")
    stats = await reply(manager, "stats", ANN)
    assert "📈 Toy (English): 1,1" in stats and "provisional: 2 of 10 games" in stats
    assert "▲ +" in stats and "over the last game" in stats and "best wins over 1," in stats
    assert "best wins" not in (await reply(manager, "stats", BOB))
    detail = await reply(manager, "stats toy", ANN)
    assert "last games: 1,086 → 1,1" in detail
    assert "No rated Levelled games yet." in await reply(manager, "stats <@u2> levelled", ANN)
    assert "like `stats @ann`" in await reply(manager, "stats nobody", ANN)


async def test_a_season_reset_archives_ratings_and_a_rebuild_agrees(
    manager: GameManager, store: SQLStore
) -> None:
    await play_toy(manager)
    await play_toy(manager, BOB)
    assert rights_needed("season", ("rebuild",)) is Rights.FRESH
    assert "carry over softly" in await reply(manager, "season reset", ADMIN)
    await play_toy(manager)
    assert "📈 Toy (English), best rating at its end: Bob (1," in await reply(manager, "season 1")
    before = await store.rating_board("test", "w1", "toy", "en")
    assert "Only workspace admins" in await reply(manager, "season rebuild", BOB)
    assert "rebuilt from 3 finished games" in await reply(manager, "season rebuild", ADMIN)
    assert await store.rating_board("test", "w1", "toy", "en") == before


@pytest.mark.parametrize(
    ("mu", "level"), [(31.0, "hard"), (25.0, "normal"), (19.0, "easy"), (None, "normal")]
)
async def test_level_auto_picks_the_closest_computer(
    manager: GameManager, store: SQLStore, mu: float | None, level: str
) -> None:
    if mu is not None:
        await store.upsert_workspace("test", "w1")
        async with store.write() as tx:
            await tx.execute(
                "INSERT INTO ratings (platform, workspace_id, game, language, user_id, mu, sigma, rating, "
                "games, wins, updated_at) "
                "VALUES ('test', 'w1', 'levelled', 'en', 'u1', ?, 2.0, 0, 20, 10, 0)",
                (mu,),
            )
    await manager.handle(Command("start", ("levelled", "bots=1", "level=auto"), CHAT, ANN))
    await manager.handle(Button(CHAT, ANN, GO))
    session = manager.sessions[CHAT]
    assert session.options["level"] == level
    assert [seat.bot for seat in session.state.seats if seat.bot] == [level]
    assert session.state.start_record is not None and session.state.start_record.options["level"] == level
