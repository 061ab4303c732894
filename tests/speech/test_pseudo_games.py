"""The pseudo-language through the core: a whole game of each of the five games, its rules, the
help and every option's description, spoken in ``qps``, hold no word outside the catalogue's marks.

Everything the core hands a platform is scanned as the platform receives it (the views' text
with its user parts marked, button labels, refusal reasons of marks): whatever reads as a word
there and is neither marked by the catalogue nor typed or played by someone skipped the catalogue.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, Edit, Outbound, Player, Post, Private, React
from bot.core.registry import load_default
from bot.hosting.manager import GameManager
from bot.sessions.lobby import BOT_NAMES
from games.common.speech import PSEUDO, speak_only
from tests.bot.test_languages_whole_games import OPTIONS, _whose_turn
from tests.doubles import FakeOutbox, MemoryLog
from tests.speech.pseudo import unmarked

CHAT = ChatKey("test", "w", "c")
ANN = Player("test", "ann", "Ann")


def texts(message: Outbound) -> Iterator[str]:
    """What a player could read of one outbound message."""
    if isinstance(message, Post | Edit | Private):
        view = message.view
        yield view.text()
        for button in view.buttons:
            yield button.label
    elif isinstance(message, React):
        yield message.reason


@pytest.fixture(autouse=True)
def pseudo() -> Iterator[None]:
    with speak_only(PSEUDO):
        yield


@pytest.mark.parametrize("game", sorted(OPTIONS))
async def test_a_whole_game_speaks_only_through_the_catalogue(game: str) -> None:
    registry = load_default()
    info = registry.get(game)
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(registry, outbox, log, clock, rng=random.Random(3))
    await manager.handle(Command("start", (game, *OPTIONS[game], "level=hard"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    for _step in range(3000):
        session = manager.sessions.get(CHAT)
        if session is None:
            break
        if info.turn_moves and _whose_turn(session.engine) == ANN.seat_id:
            await manager.handle(Command("play", (info.turn_moves[-1][1],), CHAT, ANN))
        await clock.advance(5.0)
    assert CHAT not in manager.sessions, "the game ended"
    found = {word for message in outbox.sent for text in texts(message) for word in unmarked(text, BOT_NAMES)}
    assert not found, sorted(found)
    await manager.shutdown()


@pytest.mark.parametrize("game", sorted(OPTIONS))
async def test_the_rules_and_the_options_speak_only_through_the_catalogue(game: str) -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(load_default(), outbox, log, clock, rng=random.Random(3))
    await manager.handle(Command("rules", (game,), CHAT, ANN))
    await manager.handle(Command("help", (game,), CHAT, ANN))
    await manager.handle(Command("help", (), CHAT, ANN))
    said = [text for message in outbox.sent for text in texts(message)]
    assert said, "the rules were shown"
    found = {word for text in said for word in unmarked(text)}
    assert not found, sorted(found)
    await manager.shutdown()
