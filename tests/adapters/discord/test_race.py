"""A whole moji flip race on Discord, from /moji start to /moji leaderboard (the real engine)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core.registry import Registry
from tests.adapters.discord.conftest import ANN, BOB, CHAT, Harness, is_lobby, is_table, mark_of
from tests.adapters.discord.fakediscord import GUILD_ID

race = pytest.importorskip("games.race")
pytest.importorskip("games.lexicon")

MESSAGES = r"^/channels/\d+/messages$"


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME])


async def idle(h: Harness) -> None:
    """Wait until the bot has nothing in flight: no REST call, no session busy."""
    await h.clock.settle()

    def quiet() -> bool:
        session = h.manager.sessions.get(CHAT)
        return h.fake.inflight == 0 and (session is None or not session._lock.locked())

    await h.fake.until(quiet)
    await h.clock.settle()


async def test_a_whole_race(h: Harness) -> None:
    await h.fake.slash(*ANN, "start", {"game": "race", "bots": 1, "cards": 5, "min": 4})
    [lobby] = await h.fake.wait_for("POST", MESSAGES, is_lobby)
    assert "min=4" in lobby.text and "cards=5" in lobby.text
    await h.fake.slash(*BOB, "join")
    await h.fake.until(lambda: len(h.manager.sessions[CHAT].players) == 2)
    await h.fake.slash(*ANN, "go")
    [table] = await h.fake.wait_for("POST", MESSAGES, is_table)
    letters = table.json["content"].removeprefix("Cards: ").split()
    assert letters and all(len(x) == 1 and (x.isupper() or x == "_") for x in letters)
    assert table.files[0].startswith(b"\x89PNG")

    claimed: list[str] = []
    for _ in range(3000):
        session = h.manager.sessions.get(CHAT)
        if session is None:
            break
        example = session.engine._example()
        if example and len(claimed) < 10:
            claimed.append(await h.fake.say(*BOB, example))
        await idle(h)
        await h.advance(0.5)
        await idle(h)
    assert CHAT not in h.manager.sessions, "the race never ended"
    over = await h.posted(lambda r: "game over" in r.text)
    assert "pts" in over.text
    if claimed:
        assert "✅" in [m for mid in claimed for m in mark_of(h, mid)]

    iid = await h.fake.slash(*ANN, "leaderboard", {"game": "race"})
    [board] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert board.ephemeral and "Leaderboard" in board.text
    rows = await h.svc.store.leaderboard("discord", GUILD_ID, "race", "all", datetime.now(UTC), 10)
    assert {r.display_name for r in rows} >= {"Ann", "Bob"}
    assert not h.manager.errors
