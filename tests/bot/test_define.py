"""``define WORD``: the meaning privately, never in the channel; the running game's verdict;
every bad input refused with a reason (through the manager, on the real registry and glosses)."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.core.clock import FakeClock
from bot.core.commands import CommandError, split
from bot.core.events import ChatKey, Command, Player, Post, Private
from bot.core.registry import Registry, load_default
from bot.features.define import MAX_LETTERS, parse_define
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from storage import open_store
from tests.doubles import FakeOutbox, MemoryLog

CHAT = ChatKey("test", "w", "c")
ANN = Player("test", "ann", "Ann")
BOB = Player("test", "bob", "Bob")


@pytest.fixture(scope="module")
def registry() -> Registry:
    return load_default()


@pytest.fixture
async def table(registry: Registry) -> AsyncIterator[tuple[GameManager, FakeOutbox]]:
    outbox = FakeOutbox()
    manager = GameManager(registry, outbox, MemoryLog(), FakeClock(), rng=random.Random(3))
    yield manager, outbox
    await manager.shutdown()


async def define(manager: GameManager, outbox: FakeOutbox, who: Player, *args: str) -> str:
    """The one answer ``define ARGS`` brings: private to ``who``, never posted in the channel."""
    before = len(outbox.sent)
    await manager.handle(Command("define", args, CHAT, who))
    new = outbox.sent[before:]
    assert not any(isinstance(m, Post) for m in new), "define answered in the channel"
    (answer,) = new
    assert isinstance(answer, Private) and answer.player == who and answer.chat == CHAT
    return answer.view.plain()


async def test_define_gives_the_meanings_privately(table: tuple[GameManager, FakeOutbox]) -> None:
    manager, outbox = table
    text = await define(manager, outbox, ANN, "zebra")
    assert text.startswith("ZEBRA\n")
    assert "• noun — any of several fleet black-and-white striped African equines" in text
    assert "Source: WordNet 3.0" in text
    assert "game" not in text  # no game here: no verdict


async def test_define_names_the_base_of_an_inflected_form(table: tuple[GameManager, FakeOutbox]) -> None:
    manager, outbox = table
    text = await define(manager, outbox, ANN, "Dogs")
    assert "DOGS is a form of DOG." in text and "• noun — a member of the genus Canis" in text
    assert "• verb — go after with the intent to catch" in text


async def test_define_says_when_it_knows_no_meaning(table: tuple[GameManager, FakeOutbox]) -> None:
    manager, outbox = table
    text = await define(manager, outbox, ANN, "qzxqzx")
    assert "I don't know what QZXQZX means" in text and "Source" not in text


async def test_define_in_another_language_gives_the_english(table: tuple[GameManager, FakeOutbox]) -> None:
    manager, outbox = table
    text = await define(manager, outbox, ANN, "Stadt", "language=de")
    assert text.startswith("STADT (German)") and "In English:" in text and "• noun — city" in text
    assert "Ding" in text
    text = await define(manager, outbox, ANN, "language=fr", "maison")
    assert "• noun — house" in text and "FreeDict" in text


async def test_define_uses_the_language_of_the_game_here(table: tuple[GameManager, FakeOutbox]) -> None:
    manager, outbox = table
    await manager.handle(Command("start", ("race", "bots=1", "language=de"), CHAT, ANN))
    text = await define(manager, outbox, BOB, "Zucker")
    assert text.startswith("ZUCKER (German)") and "sugar" in text
    assert "game" not in text.lower().split("source")[0].split("english:")[0]  # a lobby: no verdict yet


async def test_define_says_whether_the_running_game_takes_the_word(
    table: tuple[GameManager, FakeOutbox],
) -> None:
    manager, outbox = table
    await manager.handle(Command("start", ("race", "bots=1"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    assert "✓ The game in this channel takes ZEBRA." in await define(manager, outbox, ANN, "zebra")
    # a stranger may ask too, and hears the same (the dictionary is no secret)
    paris = await define(manager, outbox, BOB, "paris")
    assert "✗ The game in this channel doesn't take it:" in paris and "proper noun" in paris
    assert "capital and largest city of France" in paris
    # in another language than the game's: the meaning, and no verdict by the wrong dictionary
    other = await define(manager, outbox, ANN, "chat", "language=fr")
    assert "cat" in other and "The game in this channel" not in other


@pytest.mark.parametrize("game", ["board", "dice", "paths", "shed"])
async def test_define_in_each_turn_based_game(table: tuple[GameManager, FakeOutbox], game: str) -> None:
    manager, outbox = table
    await manager.handle(Command("start", (game, "bots=1"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    assert "✓ The game in this channel takes HOUSE." in await define(manager, outbox, ANN, "house")
    assert "✗ The game in this channel doesn't take it" in await define(manager, outbox, ANN, "qzxqzx")


@pytest.mark.parametrize(
    ("args", "reason"),
    [
        ((), "Say which word, like `define quoth`"),
        (("big", "cat"), "one word at a time, and you gave 2"),
        (("c4t",), "isn't a word I can look up: letters only"),
        (("<@123>",), "isn't a word I can look up"),
        (("Q" * 2000,), f"too long to be a word: `define` takes {MAX_LETTERS} letters at most"),
        (("cat", "language=xx"), "moji doesn't play in 'xx'"),
        (("cat", "colour=red"), "takes one word and maybe `language=fr`"),
    ],
)
async def test_bad_input_gets_a_friendly_reason(
    table: tuple[GameManager, FakeOutbox], args: tuple[str, ...], reason: str
) -> None:
    manager, outbox = table
    text = await define(manager, outbox, ANN, *args)
    assert reason in text, text
    assert len(text) < 300 and "QQQQQQQQQQ" not in text


def test_the_grammar_reads_define_and_its_aliases() -> None:
    assert split("/moji define quoth") == ("define", ("quoth",))
    assert split("meaning quoth")[0] == "define"
    assert parse_define(("Haus", "lang=German")) == ("Haus", "de")


@given(st.lists(st.text(max_size=30), max_size=4))
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_parse_define_reads_or_refuses_any_arguments(args: list[str]) -> None:
    try:
        word, code = parse_define(args)
    except CommandError as exc:
        assert str(exc)
    else:
        assert word in args and (code is None or code in {"en", "de", "fr", "es", "nl"})


async def test_the_workspace_language_is_the_default(registry: Registry, tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    outbox = FakeOutbox()
    manager = GameManager(
        registry, outbox, MemoryLog(), FakeClock(), rng=random.Random(1), workspace=Workspace(store, registry)
    )
    try:
        admin = Player("test", "boss", "Boss", is_admin=True)
        await manager.handle(Command("config", ("language", "nl"), CHAT, admin))
        text = await define(manager, outbox, ANN, "hond")
        # (the workspace speaks Dutch now: the language is named in Dutch)
        assert text.startswith("HOND (Nederlands)") and "dog" in text
    finally:
        await manager.shutdown()
        await store.close()
