"""Forget-me and purge through the bot's commands leave no column naming the person.

A real manager over a real database: SQLite, and PostgreSQL with ``MOJI_TEST_POSTGRES_URL``.
After each, every column of every table (read from the database, so a new table is scanned
too) is searched for the person's user id and display name.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Button, Command, Player
from bot.core.registry import Registry
from bot.core.views import GO, JOIN
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.sessions.gamelog import StoreGameLog
from storage.privacy import STOPPED
from storage.sqlstore import SQLStore
from tests.bot.conftest import CHAT
from tests.bot.test_manager import letter, text
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox
from tests.storage.conftest import Factory, make_store
from tests.waiting import PATIENCE

__all__ = ["make_store"]  # (the two-backend fixture, shared with tests/storage)

ANN = Player("test", "U0ANNIKA", "Annika Stopwell")
BOB = Player("test", "U0BARTHO", "Bartholomew Keep")
DORA = Player("test", "U0DOROTH", "Dorothea Lobby")  # only opens a lobby
LEO = Player("test", "U0LEOPOL", "Leopold Joins")  # only joins it
EVE = Player("test", "U0EVELYN", "Evelyn Admin", is_admin=True)  # stops a game she is not in


@pytest.fixture
async def setup(make_store: Factory) -> AsyncIterator[tuple[GameManager, FakeOutbox, FakeClock, SQLStore]]:
    store = make_store()
    await store.open()
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
    yield manager, outbox, clock, store
    await manager.shutdown()
    await store.close()


def cmd(line: str, player: Player) -> Command:
    name, *args = line.split()
    return Command(name, tuple(args), CHAT, player)


async def reply(manager: GameManager, outbox: FakeOutbox, line: str, player: Player) -> str:
    await manager.handle(cmd(line, player))
    return outbox.privates()[-1].view.plain()


async def closing(manager: GameManager) -> asyncio.Event:
    closed = asyncio.Event()
    manager.closed_listeners.append(lambda chat: closed.set())
    return closed


async def a_game_stopped(manager: GameManager, clock: FakeClock, by: Player) -> None:
    """Ann hosts a toy game with Bob, answers once, and ``by`` stops it."""
    closed = await closing(manager)
    await manager.handle(cmd("start toy target=5", ANN))
    await manager.handle(Button(CHAT, BOB, JOIN))
    await manager.handle(Button(CHAT, ANN, GO))
    await manager.handle(text(letter(manager) + "x", clock.now(), ANN))
    await clock.advance(0.2)
    await manager.handle(cmd("stop", by))
    # the database writes run on a real thread (or server): wait for the game to close
    await asyncio.wait_for(closed.wait(), PATIENCE)


async def rows_naming(store: SQLStore, *people: Player) -> list[str]:
    """Every row of every table that holds one of ``people``'s user id or display name."""
    return await rows_with(store, *(m for p in people for m in (p.user_id, p.display_name)))


async def rows_with(store: SQLStore, *marks: str) -> list[str]:
    found = []
    async with store._read() as tx:
        for table in sorted(await store.columns()):
            for row in await tx.fetch(f"SELECT * FROM {table}"):
                if any(m in str(value) for value in row for m in marks):
                    found.append(f"{table}: {row!r}")
    return found


async def void_reasons(store: SQLStore) -> list[str]:
    async with store._read() as tx:
        return [str(r[0]) for r in await tx.fetch("SELECT void_reason FROM games WHERE status = 'void'")]


async def test_who_stopped_a_game_is_not_kept_and_forget_me_leaves_nothing(setup) -> None:
    manager, outbox, clock, store = setup
    await a_game_stopped(manager, clock, by=EVE)  # an admin, not seated
    await a_game_stopped(manager, clock, by=ANN)  # the host
    assert await void_reasons(store) == [STOPPED, STOPPED]
    assert await rows_naming(store, EVE) == [], "the admin who stopped is named nowhere"
    assert await rows_naming(store, ANN), "Ann's seats and answers are kept until she asks"

    assert "forgotten you" in await reply(manager, outbox, "forget-me confirm", ANN)

    assert await rows_naming(store, ANN) == []
    assert await rows_naming(store, BOB), "Bob's seats stay"


async def test_purge_drops_the_names_of_people_who_only_opened_or_joined_a_lobby(setup) -> None:
    manager, outbox, clock, store = setup
    closed = await closing(manager)
    await manager.handle(cmd("start toy", DORA))
    await manager.handle(Button(CHAT, LEO, JOIN))
    assert await rows_naming(store, DORA) and await rows_naming(store, LEO), "kept while the lobby is open"
    await manager.handle(cmd("stop", DORA))
    await asyncio.wait_for(closed.wait(), PATIENCE)
    await a_game_stopped(manager, clock, by=ANN)
    assert await rows_naming(store, DORA), "the name of someone who opened a lobby was kept"

    await reply(manager, outbox, "purge confirm", EVE)
    assert "everything moji kept about this workspace is deleted" in outbox.privates()[-1].view.plain()

    assert await rows_naming(store, DORA, LEO, ANN, BOB, EVE) == []
    assert await rows_with(store, f"'{CHAT.workspace_id}'") == []
