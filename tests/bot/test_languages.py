"""Languages in the bot: the workspace's language, games started in it, leaderboards by
language and the workspace's own words, over a real SQLite file."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Button, Player
from bot.core.registry import Registry
from bot.core.views import GO, JOIN
from bot.features.schedule import start_scheduled
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.sessions.gamelog import StoreGameLog
from games.common.speech import _, speak_only, speaking
from storage import open_store
from storage.base import Schedule
from storage.sqlstore import SQLStore
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_manager import text
from tests.bot.test_workspace_store import cmd, reply
from tests.bot.toygame import LINGO, TOY, LingoEngine
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
    registry = Registry([LINGO, TOY])
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


async def started_language(manager: GameManager, line: str) -> object:
    """The language option of the lobby ``line`` opens (the lobby is closed again)."""
    await manager.handle(cmd(line))
    session = manager.sessions[CHAT]
    chosen = session.options.get("language")
    await manager.handle(cmd("stop"))
    assert CHAT not in manager.sessions
    return chosen


async def test_config_language_is_set_shown_and_explained(setup, store: SQLStore) -> None:
    manager, outbox, _clock = setup
    listing = await reply(manager, outbox, "config")
    assert "language = en — the language moji speaks in this workspace" in listing
    assert "and the language of its games' words" in listing
    assert "Only workspace admins" in await reply(manager, outbox, "config language fr")
    answer = await reply(manager, outbox, "config language fr", ADMIN)
    assert "language is now fr" in answer and "start in French" in answer
    assert (await store.get_settings("test", "w1"))["language"] == "fr"
    # from now on moji speaks French here
    with speaking("fr"):
        assert _("{setting} = {value}", setting="language", value="fr") in await reply(
            manager, outbox, "config"
        )
    with speak_only("en"):  # (read in English from here on)
        assert "language = fr" in await reply(manager, outbox, "config")
        # a language's name and the lang alias work too; the code is what is kept
        assert "language is now de" in await reply(manager, outbox, "config lang German", ADMIN)
    assert (await store.get_settings("test", "w1"))["language"] == "de"
    with speak_only("en"):
        refused = await reply(manager, outbox, "config language klingon", ADMIN)
    assert "doesn't play in 'klingon'" in refused and "es (Spanish)" in refused
    assert (await store.get_settings("test", "w1"))["language"] == "de"


async def test_a_game_starts_in_the_workspace_language_unless_told_otherwise(setup) -> None:
    manager, outbox, _clock = setup
    assert await started_language(manager, "start lingo") == "en"
    await reply(manager, outbox, "config language fr", ADMIN)
    assert await started_language(manager, "start lingo") == "fr"
    assert await started_language(manager, "start lingo language=nl") == "nl"
    assert await started_language(manager, "start lingo lang=es") == "es"
    # a game's own default wins over the workspace's language; the player's choice over both
    with speak_only("en"):  # (the workspace speaks French now: its answer read in English)
        answer = await reply(manager, outbox, "config lingo.lang german", ADMIN)
    assert "lingo.language is now de" in answer
    assert await started_language(manager, "start lingo") == "de"
    assert await started_language(manager, "start lingo lang=es") == "es"
    # a game without a language option ignores the setting
    await manager.handle(cmd("start toy"))
    assert "language" not in manager.sessions[CHAT].options
    await manager.handle(cmd("stop"))


async def test_the_lobby_says_the_language(setup) -> None:
    manager, outbox, _clock = setup
    await manager.handle(cmd("start lingo language=fr"))
    lobby = outbox.posts()[-1].view
    assert lobby.title == "Lingo — lobby · French" and "language=fr" in lobby.plain()
    await manager.handle(cmd("stop"))
    await manager.handle(cmd("start lingo"))
    assert outbox.posts()[-1].view.title == "Lingo — lobby"
    await manager.handle(cmd("stop"))


async def play_lingo(manager: GameManager, clock: FakeClock, options: str, word: str) -> LingoEngine:
    closed = asyncio.Event()
    manager.closed_listeners.append(lambda chat: closed.set())
    await manager.handle(cmd(f"start lingo target=1 {options}".strip()))
    await manager.handle(Button(CHAT, BOB, JOIN))
    await manager.handle(Button(CHAT, ANN, GO))
    engine = manager.sessions[CHAT].engine
    assert isinstance(engine, LingoEngine)
    await manager.handle(text(word, clock.now(), ANN))
    await clock.advance(0.2)
    # the database writes run on a real thread: wait for the game to close, not for time
    await asyncio.wait_for(closed.wait(), PATIENCE)
    return engine


async def test_leaderboards_count_every_language_or_one(setup) -> None:
    manager, outbox, clock = setup
    await reply(manager, outbox, "config language fr", ADMIN)
    french = await play_lingo(manager, clock, "", "Élève")
    assert french.heard == ["Élève"] and french.folded == ["eleve"]
    spanish = await play_lingo(manager, clock, "language=es", "Niño")
    assert spanish.folded == ["niño"]

    with speak_only("en"):  # (the French workspace's answers speak French: read them in English)
        board = await reply(manager, outbox, "leaderboard lingo language=fr")
        assert "Lingo, all time, in French" in board and "1. Ann — 1 pt · 1 game · 1 win" in board
        assert "1. Ann — 2 pts · 2 games" in await reply(manager, outbox, "leaderboard lingo")
        assert "No games finished yet" in await reply(manager, outbox, "leaderboard lang=en")
        assert "doesn't play in 'xx'" in await reply(manager, outbox, "leaderboard language=xx")


async def test_the_workspace_words_keep_every_language_letters(setup, store: SQLStore) -> None:
    manager, outbox, _clock = setup
    assert "“äpfel” is now allowed" in await reply(manager, outbox, "words add Äpfel", ADMIN)
    assert "“strasse” is now allowed" in await reply(manager, outbox, "words add Straße", ADMIN)
    assert "“niño” is now banned" in await reply(manager, outbox, "words ban Niño", ADMIN)
    assert "“creme brulee” is now allowed" in await reply(manager, outbox, "words add Crème brûlée", ADMIN)
    assert await store.word_lists("test", "w1") == ({"äpfel", "strasse", "creme brulee"}, {"niño"})
    # each game reads them with its own language's letters
    workspace = manager.workspace
    assert await workspace.word_lists(CHAT, "de") == (
        frozenset({"äpfel", "strasse", "creme brulee"}),
        frozenset({"nino"}),
    )
    assert await workspace.word_lists(CHAT, "es") == (
        frozenset({"apfel", "strasse", "creme brulee"}),
        frozenset({"niño"}),
    )
    await manager.handle(cmd("start lingo language=de"))
    assert manager.sessions[CHAT].state.words[0] == frozenset({"äpfel", "strasse", "creme brulee"})
    await manager.handle(cmd("stop"))
    await manager.handle(cmd("start toy"))  # no language option: English
    assert manager.sessions[CHAT].state.words[0] == frozenset({"apfel", "strasse", "creme brulee"})
    await manager.handle(cmd("stop"))


async def test_a_scheduled_game_starts_in_the_workspace_language(setup) -> None:
    manager, outbox, clock = setup
    await reply(manager, outbox, "config language es", ADMIN)
    due = Schedule(
        1, "w1", "c1", (0,), "09:00", ("lingo",), created_by="u1", created_by_name="Ann", platform="test"
    )
    await start_scheduled(manager, due, clock.now(), "☕ Word break!")
    assert manager.sessions[CHAT].options["language"] == "es"
    await manager.handle(cmd("stop"))


async def test_defaults_stored_under_an_alias_yield_to_the_player(setup, store: SQLStore) -> None:
    manager, outbox, _clock = setup
    # kept as an older moji kept it: under the name the admin typed
    await store.set_setting("test", "w1", "lingo.lang", "nl", "u9")
    assert await started_language(manager, "start lingo") == "nl"
    assert await started_language(manager, "start lingo language=fr") == "fr"
    # now kept under the option's own name, whatever the admin typed
    assert "lingo.language is now de" in await reply(manager, outbox, "config lingo.lang de", ADMIN)
    assert "toy.bots is now 1" in await reply(manager, outbox, "config toy.bots 1", ADMIN)
    refused = await reply(manager, outbox, "config toy.language fr", ADMIN)
    assert "unknown option 'language'" in refused
    assert await started_language(manager, "start lingo") == "de"
