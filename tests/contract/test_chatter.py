"""Chatter is never stored: while a race runs, only what the race reads as an answer
is judged and kept in the game's log; sentences, phone numbers, a few words of letters and huge
messages leave no trace in any table of the database, on SQLite and on PostgreSQL."""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator

import pytest

from bot.core.registry import Registry
from storage.sqlstore import SQLStore
from tests.contract.harness import PEOPLE_CAP, PlatformHarness, game_session
from tests.storage.conftest import BACKENDS, POSTGRES_URL
from tests.storage.scan import every_row

race = pytest.importorskip("games.race")
pytest.importorskip("games.lexicon")

CHATTER = "my salary is too low, call me at +1 555 0100"


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME])


@pytest.fixture(params=BACKENDS)
async def database(request: pytest.FixtureRequest) -> AsyncIterator[SQLStore | None]:
    """The platform's own fresh SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        yield None
        return
    import asyncpg

    from storage.postgres import PostgresStore

    schema = f"test_{secrets.token_hex(6)}"
    conn = await asyncpg.connect(POSTGRES_URL)
    try:
        await conn.execute(f"CREATE SCHEMA {schema}")
        store = PostgresStore(POSTGRES_URL, schema=schema, max_size=4)
        await store.open()
        try:
            yield store
        finally:
            await store.close()
    finally:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
        await conn.close()


def others(p: PlatformHarness) -> tuple[str, ...]:
    """Who races Ann (alone at the terminal, against a computer player: a race needs two piles)."""
    return () if PEOPLE_CAP in p.lacks else ("bob",)


async def racing(p: PlatformHarness) -> None:
    """Ann races Bob (or, at the terminal, a computer player)."""
    await p.command("ann", "start race cards=5" + ("" if others(p) else " bots=1"))
    await p.until(lambda: game_session(p) is not None)
    for who in others(p):
        await p.command(who, "join")
    await p.until(lambda: len(game_session(p).players) == 1 + len(others(p)))
    await p.command("ann", "go")
    await p.until(lambda: game_session(p).engine is not None)
    await p.drain()


async def answered(p: PlatformHarness, who: str) -> str:
    """``who`` types a word the race takes; returns it once it is judged (every message sent
    before it in the chat has been handled by then: a chat's events are handled in turn)."""
    session = game_session(p)
    for _ in range(400):  # (no word on the table yet: the hourglass flips more cards)
        word = session.engine._example()
        if not word:
            await p.advance(0.5)
            await p.drain()
            continue
        sent = await p.say(who, word)
        await p.until(lambda sent=sent: p.marks(sent))  # type: ignore[misc]
        await p.drain()
        if "accepted" in p.marks(sent):
            return str(word)
        # (a computer player took those cards first: another word)
    raise AssertionError("the race never took a word")


async def test_chatter_during_a_race_leaves_no_trace_and_an_answer_is_kept_and_scored(
    p: PlatformHarness,
) -> None:
    await racing(p)
    await p.say("ann", CHATTER)
    await p.say("ann", f"*{CHATTER}*")  # formatted: the same words
    await p.say("ann", "call me maybe")  # a few words of letters: still no answer in this race
    await p.say((*others(p), "ann")[0], "call me: +15550100")
    word = await answered(p, "ann")

    text = await p.stored()
    for trace in ("555 0100", "+15550100", "salary", "call me"):  # (with its +: no stored time has one)
        assert trace not in text, f"{trace!r} was stored"
    actions = "\n".join((await every_row(p.store))["game_actions"])
    assert word in actions, "the answer is in the game's log"
    assert game_session(p).engine.score(p.seat("ann")) > 0
    assert not p.manager.errors


async def test_forty_huge_messages_add_nothing(p: PlatformHarness) -> None:
    await racing(p)
    before = await every_row(p.store)
    huge = "lorem ipsum " * 3250  # 39,000 characters
    assert len(huge) == 39_000
    for _ in range(40):
        await p.say("ann", huge)
    # (Bob answers: past 20 messages, Ann's own allowance refuses hers for a few seconds,
    # bot/core/fairshare.py; the terminal's one person has no allowance)
    word = await answered(p, (*others(p), "ann")[0])
    after = await every_row(p.store)

    added = {t: [row for row in rows if row not in before.get(t, [])] for t, rows in after.items()}
    assert "lorem" not in "\n".join(row for rows in added.values() for row in rows)
    grown = sum(len(row) for rows in added.values() for row in rows)
    assert grown < 2_000, f"{grown} characters added for one answer: {added}"
    assert any(word in row for row in added["game_actions"]), "the answer after them is kept"
    assert not p.manager.errors
