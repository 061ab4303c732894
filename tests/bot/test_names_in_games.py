"""Names in every language, played through the manager on the real lexicons.

A German, French and Spanish race (default bans: proper nouns, abbreviations, contractions)
accepts everyday nouns, German ones capitalised as German writes them, and refuses city
names and first names; Mark My Words refuses symbols the dictionary lists only capitalised
(SN, XE) and allows places.
"""

from __future__ import annotations

import random

import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, MessageRef, Player, Text
from bot.core.registry import load_default
from bot.hosting.manager import GameManager
from games.race.cards import Card
from games.race.engine import FlipRace
from tests.doubles import FakeOutbox, MemoryLog

CHAT = ChatKey("test", "w", "names")
ANN = Player("test", "ann", "Ann")

#: language -> (everyday nouns a race accepts, city and first names it refuses)
WORDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "de": (
        ("stadt", "zucker", "apfel", "silber", "wurst", "physik", "hammer", "kanal", "brust", "essen"),
        ("münchen", "köln", "berlin", "hamburg", "anna", "jürgen"),
    ),
    "fr": (
        ("internet", "ville", "fromage", "pierre", "paris", "rose"),
        ("marseille", "toulouse", "nathalie"),
    ),
    "es": (
        ("ciudad", "queso", "azúcar", "rosa", "internet"),
        ("madrid", "sevilla", "zaragoza", "isabel", "begoña"),
    ),
}


async def _race(code: str) -> tuple[GameManager, FakeOutbox, FakeClock]:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(load_default(), outbox, log, clock, rng=random.Random(5))
    await manager.handle(Command("start", ("race", "bots=1", "level=easy", f"language={code}"), CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    return manager, outbox, clock


async def _say(manager: GameManager, outbox: FakeOutbox, clock: FakeClock, word: str, n: int) -> str:
    """Lay the word's first and last letters face up, type the word, and return how the game
    marked it: "accepted", or the reason it was refused."""
    engine = manager.sessions[CHAT].engine
    assert isinstance(engine, FlipRace)
    for i, sid in enumerate(engine.order):
        engine.piles[sid] = [Card(90000 + 2 * n + i, (word[0], word[-1])[i % 2], "red")]
    engine._changed(engine.now)
    ref = MessageRef(CHAT, f"m{n}")
    await manager.handle(Text(CHAT, ANN, word, clock.now(), ref))
    await clock.advance(1.5)  # past the flip that follows a taken card
    marks = [r for r in outbox.reactions() if r.ref == ref]
    assert marks, f"the game marked no answer to {word}"
    if marks[-1].mark == "accepted":
        return "accepted"
    await clock.advance(15.0)  # past the cool-down that follows wrong claims
    return marks[-1].reason


@pytest.mark.parametrize("code", sorted(WORDS))
async def test_a_race_accepts_everyday_nouns_and_refuses_names(code: str) -> None:
    everyday, names = WORDS[code]
    manager, outbox, clock = await _race(code)
    for n, word in enumerate(everyday):
        assert await _say(manager, outbox, clock, word, n) == "accepted", word
    for n, word in enumerate(names, start=100):
        said = await _say(manager, outbox, clock, word, n)
        assert "proper noun" in said, (word, said)
    assert not manager.errors
    await manager.shutdown()


async def _paths_move(code: str, layout: dict[str, str], rack: str, move: str) -> tuple[str, str]:
    """A fresh Mark My Words game (Ann against a computer player) with ``layout`` on the grid
    and ``rack`` in Ann's hand, past the first round; Ann plays ``move``: (mark, reason)."""
    from games.paths.engine import PathsEngine
    from tests.games.paths.helpers import give, put, skip_first_round

    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(load_default(), outbox, log, clock, rng=random.Random(5))
    options = ("paths", "bots=1", "size=8", "misplaced=retry", "knock=0", f"language={code}")
    await manager.handle(Command("start", options, CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    engine = manager.sessions[CHAT].engine
    assert isinstance(engine, PathsEngine) and engine.seat_id == ANN.seat_id, "Ann moves first"
    skip_first_round(engine)
    put(engine, layout)
    give(engine, ANN.seat_id, rack)
    ref = MessageRef(CHAT, "move")
    await manager.handle(Text(CHAT, ANN, move, clock.now(), ref))
    (mark,) = [r for r in outbox.reactions() if r.ref == ref]
    assert not manager.errors
    await manager.shutdown()
    return mark.mark, mark.reason


def _row(word: str) -> dict[str, str]:
    """``word`` less its last letter along row 1 (A1, B1, …)."""
    return {f"{'ABCDEFGH'[i]}1": ch for i, ch in enumerate(word[:-1])}


@pytest.mark.parametrize(
    ("code", "word", "refusal"),
    [
        ("en", "sn", "SN is an abbreviation"),
        ("en", "xe", "XE is an abbreviation"),
        ("en", "mary", "MARY is a personal name"),
        ("en", "monday", "MONDAY is a proper noun (not a place)"),
        ("en", "london", None),
        ("en", "nile", None),
        ("de", "berlin", None),
        ("de", "stadt", None),
        ("de", "anna", "ANNA is a personal name"),
        ("fr", "lyon", None),
        ("es", "madrid", None),
    ],
)
async def test_mark_my_words_refuses_symbols_and_names_and_allows_places(
    code: str, word: str, refusal: str | None
) -> None:
    square = f"{'ABCDEFGH'[len(word) - 1]}1"
    mark, reason = await _paths_move(
        code, _row(word), word[-1], f"{square} {word[-1].upper()} {word.upper()}"
    )
    if refusal is None:
        assert mark == "accepted", reason
    else:
        assert mark != "accepted" and reason.startswith(refusal), reason
