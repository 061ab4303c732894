"""The pseudo-language through the core's commands: refusals of the grammar, of the playing
commands and of the games' verbs, ``define``'s answers, ``watch`` and ``why`` speak only
through the catalogue."""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from bot.core.clock import FakeClock
from bot.core.commands import help_lines
from bot.core.events import ChatKey, Command, Player, Private
from bot.core.registry import load_default
from bot.hosting.handlers.verbs import instead
from bot.hosting.handlers.watching import is_offer, offer
from bot.hosting.manager import GameManager
from games.common.speech import PSEUDO, speak_only
from tests.doubles import FakeOutbox, MemoryLog
from tests.speech.pseudo import english_words, unmarked

CHAT = ChatKey("test", "w", "c")
ANN = Player("test", "ann", "Ann")
BOB = Player("test", "bob", "Bob")
#: What players typed in these commands (names, games' names, words).
TYPED = {"Ann", "Bob", "nosuchgame", "zzz", "xyzzy", "hond", "dog", "quoth", "said"}


@pytest.fixture(autouse=True)
def pseudo() -> Iterator[None]:
    with speak_only(PSEUDO):
        yield


def _found(texts: list[str], registry_names: set[str]) -> set[str]:
    allowed = TYPED | registry_names
    return {word for text in texts for word in unmarked(text, allowed)}


async def test_refusals_and_answers_of_the_commands_speak_only_through_the_catalogue() -> None:
    registry = load_default()
    outbox = FakeOutbox()
    manager = GameManager(registry, outbox, MemoryLog(), FakeClock(), rng=random.Random(2))
    commands = [
        ("why", ()),
        ("watch", ()),
        ("play", ()),
        ("board", ()),
        ("nosuchcommand", ()),
        ("rules", ("nosuchgame",)),
        ("start", ("nosuchgame",)),
        ("leaderboard", ("zzz",)),
        ("define", ()),
        ("define", ("a", "b")),
        ("define", ("xyzzy",)),
        ("define", ("quoth",)),
        ("daily", ("zzz",)),
        ("start", ("board", "bots=1")),
        ("start", ("race",)),
        ("why", ()),
        ("watch", ()),
        ("board", ()),
        ("skip", ()),
    ]
    for name, args in commands:
        await manager.handle(Command(name, args, CHAT, ANN))
    await manager.handle(Command("stop", (), CHAT, BOB))
    await manager.handle(Command("go", (), CHAT, ANN))
    await manager.handle(Command("skip", (), CHAT, ANN))
    texts = [m.view.text() for m in outbox.sent if isinstance(m, Private)]
    assert len(texts) >= len(commands) - 2  # (a lobby opens publicly)
    names = {info.name for info in registry}
    assert not _found(texts, names), sorted(_found(texts, names))
    await manager.shutdown()


def test_help_hints_and_the_watch_offer_speak_only_through_the_catalogue() -> None:
    registry = load_default()
    names = {info.name for info in registry}
    texts = [*help_lines(registry), *(instead(info) for info in registry)]
    view = offer("race")
    assert is_offer(view)
    texts += [view.text()]
    assert not _found(texts, names), sorted(_found(texts, names))


def test_the_english_word_check_reads_sentences_and_leaves_played_words_alone() -> None:
    # a French shed game plays THÉ with a joker for its E, shown THe: a word of the game, not
    # of a sentence (it made this check fail at random, as the computer players' words vary)
    said = ["Bob pose THe et SOLEIL.", "The game is over, your turn.", "Voici `start the race` et x=the."]
    assert english_words(said, {"Bob"}) == ["The", "your", "turn"]
