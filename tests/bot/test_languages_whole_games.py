"""Every game in every language, played to the end against computer players through the manager.

The real registry, the real per-language lexicons and tile sets, on a fake clock: one person
sits at the table and takes the game's own turn button (pass, draw, resign) when their turn
comes, so the computer players decide each game.
"""

from __future__ import annotations

import random

import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Command, Player
from bot.core.registry import load_default
from bot.hosting.manager import GameManager
from games.common.languages import LANGUAGES
from tests.doubles import FakeOutbox, MemoryLog

CHAT = ChatKey("test", "w", "c")
ANN = Player("test", "ann", "Ann")

#: Options per game: enough computer players to finish without the person, short settings.
OPTIONS: dict[str, tuple[str, ...]] = {
    "race": ("bots=2", "cards=4"),
    "board": ("bots=2", "live=on"),
    "dice": ("bots=1", "live=on"),
    "paths": ("bots=2",),
    "shed": ("bots=2",),
}


def _whose_turn(engine: object) -> str | None:
    """The seat to move in a turn-based game (None in the race)."""
    current = getattr(engine, "current", None)
    if isinstance(current, int):  # Mark My Words counts seats
        return str(getattr(engine, "seat_id", ""))
    return current if isinstance(current, str) else None


@pytest.mark.parametrize("game", sorted(OPTIONS))
@pytest.mark.parametrize("code", [c for c in LANGUAGES if c != "en"])
async def test_a_whole_game_in_every_language(game: str, code: str) -> None:
    registry = load_default()
    info = registry.get(game)
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(registry, outbox, log, clock, rng=random.Random(3))
    start = (game, *OPTIONS[game], "level=hard", f"language={code}")
    await manager.handle(Command("start", start, CHAT, ANN))
    await manager.handle(Command("go", (), CHAT, ANN))
    name = LANGUAGES[code].name
    for _ in range(3000):
        session = manager.sessions.get(CHAT)
        if session is None:
            break
        # the person takes the last turn button (board: resign, so the bots play on); dice has
        # none, so the person's turns run out on the clock
        if info.turn_moves and _whose_turn(session.engine) == ANN.seat_id:
            await manager.handle(Command("play", (info.turn_moves[-1][1],), CHAT, ANN))
        await clock.advance(5.0)
    assert CHAT not in manager.sessions, f"the {name} {game} game should have ended"
    (result,) = log.results.values()
    assert ANN.seat_id in result.scores and result.winners
    assert sum(result.scores.values()) > 0, "the computer players scored"
    assert ANN.seat_id not in result.winners
    titles = [p.view.title for p in outbox.posts() if p.view.kind == "table"]
    assert titles and all(name in (t or "") for t in titles), titles[:3]
    assert not manager.errors
    await manager.shutdown()


@pytest.mark.parametrize("game", ["race", "paths", "shed"])
async def test_english_only_rules_refuse_the_start_at_once(game: str) -> None:
    clock, outbox, log = FakeClock(), FakeOutbox(), MemoryLog()
    manager = GameManager(load_default(), outbox, log, clock, rng=random.Random(1))
    await manager.handle(Command("start", (game, "language=es", "rules=proper,ing"), CHAT, ANN))
    assert CHAT not in manager.sessions and not log.results, "no lobby, no game"
    said = outbox.texts(CHAT) + [m.view.plain() for m in outbox.privates()]
    reason = "The -s, -ing and -ed bans are English-only. Start a Spanish game without rules=ing."
    assert any(reason in text for text in said), said
    await manager.handle(Command("start", (game, "language=es", "rules=proper"), CHAT, ANN))
    assert CHAT in manager.sessions, "without the English-only ban the game starts"
    await manager.shutdown()
