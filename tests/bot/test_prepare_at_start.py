"""Games prepare their slow one-off work at start-up, off the event loop, and a failure is only logged."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import threading
from collections.abc import Callable, Mapping

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Command
from bot.core.registry import Registry
from bot.hosting.manager import GameManager
from bot.hosting.preparing import prepare_at_start
from games.common.engine import nothing_to_prepare
from games.common.options import OptionValue, parse_options
from tests.bot.conftest import ANN, CHAT
from tests.bot.toygame import LINGO, TOY
from tests.doubles import FakeOutbox, MemoryLog


async def test_each_game_prepares_in_a_worker_thread(caplog: pytest.LogCaptureFixture) -> None:
    ran: list[tuple[str, int]] = []

    def broken(language: str, options: Mapping[str, OptionValue]) -> None:
        raise OSError("disk gone")

    def recorder(name: str) -> Callable[[str, Mapping[str, OptionValue]], None]:
        return lambda language, options: ran.append(
            (f"{name} {language} {dict(options)}", threading.get_ident())
        )

    games = [
        dataclasses.replace(TOY, name="first", prepare=recorder("first")),
        dataclasses.replace(TOY, name="broken", prepare=broken),
        dataclasses.replace(TOY, name="nothing"),
        dataclasses.replace(TOY, name="last", prepare=recorder("last")),
    ]
    with caplog.at_level(logging.INFO, logger="bot.hosting.preparing"):
        await prepare_at_start(games)
    assert [name for name, _ in ran] == ["first en {}", "last en {}"]  # English, default options, at start-up
    assert all(ident != threading.get_ident() for _, ident in ran)
    assert "preparing broken failed" in caplog.text
    assert "first prepared in" in caplog.text and "last prepared in" in caplog.text


def test_every_installed_game_that_prepares_does_so_without_error() -> None:
    from bot.core.registry import load_default

    # every installed game has one-off work to do (a toy game may have none: nothing_to_prepare)
    assert all(info.prepare is not nothing_to_prepare for info in load_default())
    for info in load_default():
        info.prepare("en", {})
        info.prepare("de", {})  # every language's word lists and tries too


def preparing(manager: GameManager) -> list[asyncio.Task[None]]:
    """The manager's tasks preparing a game's language (named ``prepare GAME LANGUAGE``)."""
    return [task for task in manager.tasks if task.get_name().startswith("prepare ")]


async def test_a_lobby_in_another_language_prepares_that_language_once_in_a_thread() -> None:
    ran: list[tuple[str, int]] = []
    game = dataclasses.replace(
        LINGO, prepare=lambda language, options: ran.append((language, threading.get_ident()))
    )
    clock, outbox = FakeClock(), FakeOutbox()
    manager = GameManager(Registry([game]), outbox, MemoryLog(), clock, think_in_thread=True)

    async def lobby(*options: str) -> None:
        await manager.handle(Command("start", ("lingo", *options), CHAT, ANN))
        await asyncio.gather(*preparing(manager))
        await manager.handle(Command("stop", (), CHAT, ANN))

    await lobby("language=es")
    await lobby("language=es")  # once per language in a process
    await lobby()  # English was prepared at start-up
    await lobby("language=nl")
    assert [language for language, _ in ran] == ["es", "nl"]
    assert all(ident != threading.get_ident() for _, ident in ran)
    await manager.shutdown()


async def test_a_lobby_with_other_word_rules_prepares_them_once_per_key() -> None:
    ran: list[tuple[str, int]] = []
    game = dataclasses.replace(
        LINGO,
        prepare=lambda language, options: ran.append((language, int(options["target"]))),
        prepare_key=lambda options: int(options.get("target", 2)),  # the target stands for the word rules
    )
    manager = GameManager(Registry([game]), FakeOutbox(), MemoryLog(), FakeClock(), think_in_thread=True)

    async def lobby(*options: str) -> None:
        await manager.handle(Command("start", ("lingo", *options), CHAT, ANN))
        await asyncio.gather(*preparing(manager))
        await manager.handle(Command("stop", (), CHAT, ANN))

    await lobby()  # English with the default options was prepared at start-up
    await lobby("target=5")
    await lobby("target=5", "bots=1")  # the same key: nothing more to do
    await lobby("target=5", "language=fr")
    await lobby("target=3")
    assert ran == [("en", 5), ("fr", 5), ("en", 3)]
    await manager.shutdown()


async def test_a_game_left_out_at_start_up_is_prepared_by_its_first_lobby() -> None:
    ran: list[str] = []
    game = dataclasses.replace(LINGO, prepare=lambda language, options: ran.append(language))
    manager = GameManager(Registry([game]), FakeOutbox(), MemoryLog(), FakeClock(), think_in_thread=True)
    manager.preparing.defer([game])  # PREPARE_AT_START left it out (bot.process.app.prepared_later)
    for _ in range(2):
        await manager.handle(Command("start", ("lingo",), CHAT, ANN))
        await asyncio.gather(*preparing(manager))
        await manager.handle(Command("stop", (), CHAT, ANN))
    assert ran == ["en"], "the first English lobby prepared it, once"
    await manager.shutdown()


def test_the_default_options_have_the_start_up_key() -> None:
    from bot.core.registry import load_default

    for info in load_default():
        defaults = parse_options(info.options, ())
        assert info.preparation("en", {}) == info.preparation("en", defaults), info.name


async def test_on_simulated_time_nothing_is_prepared_behind_the_game() -> None:
    ran: list[str] = []
    game = dataclasses.replace(LINGO, prepare=lambda language, options: ran.append(language))
    manager = GameManager(Registry([game]), FakeOutbox(), MemoryLog(), FakeClock())
    await manager.handle(Command("start", ("lingo", "language=fr"), CHAT, ANN))
    assert ran == [] and not preparing(manager)
    await manager.shutdown()


def test_a_preparation_still_running_never_holds_the_process_up_at_exit() -> None:
    """A stop signal during the start-up warm-up: the process exits at once, not after the
    preparation (asyncio's default executor would wait for it: past a container's grace period).
    The preparation here never ends, so a wait would hang; the child's own timeout says so."""
    import subprocess
    import sys

    code = """
import asyncio, dataclasses, threading
from bot.hosting.preparing import prepare_at_start
from tests.bot.toygame import TOY

started = threading.Event()

def forever(language, options):
    started.set()
    threading.Event().wait()

async def main():
    task = asyncio.create_task(prepare_at_start([dataclasses.replace(TOY, prepare=forever)]))
    await asyncio.to_thread(started.wait)
    task.cancel()  # the bot stops while the game prepares
    print("stopped", flush=True)

asyncio.run(main())
"""
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and done.stdout.strip() == "stopped", done.stderr
