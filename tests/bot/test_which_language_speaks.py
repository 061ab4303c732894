"""Which language speaks (docs/LANGUAGES.md, #41): what the whole chat reads speaks the
workspace's ``config language``; a game's ``language=`` picks its words only; what one person
alone reads follows their own locale where a catalogue speaks it, else the chat's. A restored
game speaks as it spoke before the restart."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Command, Player
from bot.core.registry import Registry
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.sessions.gamelog import StoreGameLog, load_unfinished
from bot.sessions.state import SPEECH
from games.common.speech import current, speaking
from storage import open_store
from storage.sqlstore import SQLStore
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.toygame import LINGO, TOY, LingoEngine
from tests.doubles import FakeOutbox

ADMIN = Player("test", "u9", "Ada Admin", is_admin=True)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SQLStore]:
    db = open_store(f"sqlite:///{tmp_path}/moji.db")
    await db.open()
    yield db
    await db.close()


@pytest.fixture
async def setup(store: SQLStore) -> AsyncIterator[tuple[GameManager, FakeOutbox]]:
    outbox = FakeOutbox()
    registry = Registry([LINGO, TOY])
    manager = GameManager(
        registry,
        outbox,
        StoreGameLog(store),
        FakeClock(),
        workspace=Workspace(store, registry),
        rng=random.Random(5),
    )
    yield manager, outbox
    await manager.shutdown()


@pytest.fixture
def heard(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The language spoken during every call of the toy engine's ``apply``."""
    spoken: list[str] = []
    apply = LingoEngine.apply

    def listening(self: LingoEngine, action: object) -> object:
        spoken.append(current())
        return apply(self, action)  # type: ignore[arg-type]

    monkeypatch.setattr(LingoEngine, "apply", listening)
    yield spoken


def cmd(line: str, player: Player = ANN) -> Command:
    name, *args = line.split()
    return Command(name, tuple(args), CHAT, player)


async def play(manager: GameManager, line: str) -> None:
    await manager.handle(cmd(line))
    await manager.handle(cmd("join", BOB))
    await manager.handle(cmd("go"))


async def test_a_german_workspace_is_spoken_to_in_german(setup, heard: list[str]) -> None:
    manager, outbox = setup
    await manager.handle(cmd("config language de", ADMIN))
    outbox.clear()
    await play(manager, "start lingo")
    session = manager.sessions[CHAT]
    assert session.speech == "de" and session.state.language == "de"
    posts = outbox.posts(CHAT)
    assert posts and {post.view.locale for post in posts} == {"de"}  # lobby, table, turns
    assert heard and set(heard) == {"de"}  # every engine call
    assert session.state.start_record is not None and session.state.start_record.options[SPEECH] == "de"
    assert SPEECH not in session.options  # never an option of the game


async def test_a_game_in_english_words_in_a_dutch_workspace_speaks_dutch(setup, heard: list[str]) -> None:
    manager, outbox = setup
    await manager.handle(cmd("config language nl", ADMIN))
    outbox.clear()
    await play(manager, "start lingo language=en")
    session = manager.sessions[CHAT]
    assert session.state.language == "en"  # its words
    assert session.speech == "nl"  # its speech
    assert {post.view.locale for post in outbox.posts(CHAT)} == {"nl"}
    assert set(heard) == {"nl"}


async def test_an_ephemeral_answer_follows_the_player_locale(setup) -> None:
    manager, outbox = setup
    await manager.handle(cmd("config language de", ADMIN))
    await manager.handle(cmd("start lingo"))
    french = replace(BOB, locale="fr")
    await manager.handle(cmd("why", french))
    assert outbox.privates()[-1].view.locale == "fr"
    # a locale without a catalogue: the chat's language
    await manager.handle(cmd("why", replace(BOB, locale="pt-BR")))
    assert outbox.privates()[-1].view.locale == "de"
    await manager.handle(cmd("why"))
    assert outbox.privates()[-1].view.locale == "de"
    # the lobby everyone sees stays the chat's, whoever pressed the button
    await manager.handle(cmd("join", french))
    assert outbox.privates()[-1].view.locale == "fr"
    assert {post.view.locale for post in outbox.posts(CHAT)} == {"de"}


async def test_with_no_setting_the_chat_is_spoken_to_in_english(setup, heard: list[str]) -> None:
    manager, outbox = setup
    await play(manager, "start lingo language=fr")
    assert manager.sessions[CHAT].speech == "en"
    assert {post.view.locale for post in outbox.posts(CHAT)} == {"en"}
    assert set(heard) == {"en"}


async def test_a_restored_game_speaks_as_before(setup, store: SQLStore, heard: list[str]) -> None:
    manager, _outbox = setup
    await manager.handle(cmd("config language es", ADMIN))
    await play(manager, "start lingo")
    ((start, actions),) = await load_unfinished(store)  # as a restart reads it back
    assert start.options[SPEECH] == "es"
    heard.clear()
    with speaking("en"):  # whatever the restarting process speaks
        again = manager.recovery.restored(LINGO, start, actions)
    assert again.speech == "es" and SPEECH not in again.options
    assert heard and set(heard) == {"es"}  # the replay
    assert again.announcer.table_view().locale == "es"
