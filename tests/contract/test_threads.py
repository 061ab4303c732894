"""A turn-based game plays in a thread of its own where the platform has threads: moves typed
there are played (on the player's turn only), chatter there is ignored, a wrong move gets a
private hint, and each turn is a message that mentions the player so the platform notifies them."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.registry import Registry
from tests.contract.harness import PEOPLE_CAP, PINGS, THREADS, PlatformHarness, game_session

board = pytest.importorskip("games.board")


@pytest.fixture
def registry() -> Registry:
    return Registry([board.GAME])


@pytest.mark.needs(THREADS, PINGS, PEOPLE_CAP)
async def test_a_board_game_played_by_typing_moves_in_its_thread(
    p: PlatformHarness, monkeypatch: pytest.MonkeyPatch
) -> None:
    await p.command("ann", "start board bots=1")
    await p.until(lambda: game_session(p) is not None and p.thread() is not None)
    thread = p.thread()
    assert thread, "a turn-based game plays in a thread of its own"
    await p.command("ann", "go", thread=thread)
    await p.until(lambda: game_session(p).engine is not None)
    await p.drain()
    session = game_session(p)
    logged: list[Any] = []
    append = session.journal.log.append

    async def keep(game_id: str, seq: int, action: Any) -> None:
        logged.append(action)
        await append(game_id, seq, action)

    monkeypatch.setattr(session.journal.log, "append", keep)

    async def anns_turn() -> None:
        for _ in range(60):  # the computer thinks on the clock
            if session.state.turn_seats() or session.phase.value != "running":
                return
            await p.advance(1.0)

    turns = 0
    for _ in range(3):
        await anns_turn()
        if session.phase.value != "running":
            break
        await p.say("bob", "so who is winning", thread=thread)  # chatter from someone not playing: ignored
        await p.say("bob", "pass", thread=thread)  # move-shaped, but Bob is not playing: a private hint
        await p.say("ann", "pass", thread=thread)  # Ann's turn: typed in the thread, played
        await p.until(lambda: not session.state.turn_seats() or session.phase.value != "running")
        turns += 1
        await p.say("ann", "pass", thread=thread)  # out of turn now: a private hint, nothing played
        await p.drain()
    assert turns >= 2
    pings = [ping for ping in p.pings("ann", thread) if "your turn" in ping.text]
    assert len(pings) >= turns and all(ping.notifies for ping in pings), "each turn notifies the player"
    assert all(p.local_date(ping.text) for ping in pings), "the turn's deadline in the reader's time zone"
    assert any("not playing" in t for t in p.told("bob")) and any("Not yet" in t for t in p.told("ann"))
    said = [a.text for a in logged if a.kind == "say" and a.seat == p.seat("ann")]
    assert said == ["pass"] * turns, "only Ann's moves on her turn were played"
    assert not [t for t in p.channel(thread) if "so who is winning" in t]
    posts, edits = p.boards(thread, board.GAME.title)
    most_posts, fewest_edits = p.boards_expected(turns)
    assert posts <= most_posts and edits >= fewest_edits, (posts, edits, turns)
    assert p.rate_limited() == []
    assert not p.manager.errors
