"""Chatter is never stored (issue 29): signed Slack messages during a race, a real database.

While a race runs, everything a seated player types reaches moji; only what the race reads as
an answer is judged and kept in the game's log. Chatter (a sentence with a phone number) and
huge messages leave no trace in any table, on SQLite and on PostgreSQL.
"""

from __future__ import annotations

import secrets
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

pytest.importorskip("slack_bolt")

from bot.app import Services
from bot.clock import FakeClock
from bot.recording import StoreGameLog
from bot.registry import Registry
from bot.session_core import Phase
from bot.workspace import Workspace
from storage import open_store
from storage.sqlstore import SQLStore
from tests.adapters.slack.conftest import CHAT, Harness, running, until
from tests.adapters.slack.fakeslack import FakeSlack
from tests.storage.conftest import BACKENDS, POSTGRES_URL
from tests.storage.scan import every_row, every_text

race = pytest.importorskip("games.race")
pytest.importorskip("games.lexicon")

CHATTER = "my salary is too low, call me at +1 555 0100"
PHONE = "555 0100"


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME])


@pytest.fixture(params=BACKENDS)
async def database(
    request: pytest.FixtureRequest, tmp_path: Path, registry: Registry
) -> AsyncIterator[Services]:
    """The real services on a fresh SQLite file, or a fresh PostgreSQL schema."""
    if request.param == "sqlite":
        store: SQLStore = open_store(f"sqlite:///{tmp_path / 'moji.db'}")  # type: ignore[assignment]
        await store.open()
        try:
            yield Services(registry, Workspace(store, registry), StoreGameLog(store), store)
        finally:
            await store.close()
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
            yield Services(registry, Workspace(store, registry), StoreGameLog(store), store)
        finally:
            await store.close()
    finally:
        await conn.execute(f"DROP SCHEMA {schema} CASCADE")
        await conn.close()


async def racing(h: Harness) -> None:
    """Ann and Bob race."""
    await h.command("UANN", "start race cards=5")
    await until(lambda: CHAT in h.adapter.manager.sessions)
    await h.button("UBOB", "moji:join")
    await until(lambda: len(h.adapter.manager.sessions[CHAT].players) == 2)
    await h.command("UANN", "go")
    await until(lambda: h.adapter.manager.sessions[CHAT].phase is Phase.RUNNING)
    await h.drain()


async def answered(h: Harness, user: str = "UANN") -> str:
    """``user`` types a word the race takes; returns it once it is judged (every message sent
    before it in the channel has been handled by then: a chat's events are handled in turn)."""
    session = h.adapter.manager.sessions[CHAT]
    engine = session.engine
    word = None
    for _ in range(400):  # (no word on the table yet: the hourglass flips more cards)
        word = engine._example()  # type: ignore[union-attr]
        if word:
            break
        await h.clock.advance(0.5)
        await h.drain()
    assert word, "the race never showed a card"
    logged = session._seq
    ts = await h.say(user, word)
    await until(lambda: ts in session._handled)
    await h.clock.advance(0.2)  # the settle window closes
    await until(lambda: session._seq > logged and not h.adapter.manager.turns.busy(CHAT))
    await h.drain()
    return word


async def test_chatter_during_a_race_leaves_no_trace_and_an_answer_is_kept_and_scored(
    slack: FakeSlack, database: Services
) -> None:
    clock = FakeClock()
    slack.now = clock.now
    svc = database
    async with running(slack, clock, svc, svc.store) as h:  # type: ignore[arg-type]
        await racing(h)
        session = h.adapter.manager.sessions[CHAT]
        await h.say("UANN", CHATTER)
        await h.say("UANN", f"*{CHATTER}*")  # formatted: the same words
        await h.say("UANN", "call me: +15550100")
        word = await answered(h)

        text = await every_text(svc.store)  # type: ignore[arg-type]
        for trace in (PHONE, "+15550100", "salary"):  # (with its +: no stored time has one)
            assert trace not in text, f"{trace!r} was stored"
        actions = "\n".join((await every_row(svc.store))["game_actions"])  # type: ignore[arg-type]
        assert word in actions, "the answer is in the game's log"
        assert session.engine.score("slack:UANN") > 0  # type: ignore[union-attr]
        assert not h.adapter.manager.errors


async def test_forty_huge_messages_add_nothing(slack: FakeSlack, database: Services) -> None:
    clock = FakeClock()
    slack.now = clock.now
    svc = database
    async with running(slack, clock, svc, svc.store) as h:  # type: ignore[arg-type]
        await racing(h)
        before = await every_row(svc.store)  # type: ignore[arg-type]
        huge = "lorem ipsum " * 3250  # 39,000 characters
        assert len(huge) == 39_000
        for _ in range(40):
            assert await h.say("UANN", huge) is not None
        # (Bob answers: past 20 messages, Ann's own allowance refuses hers for a few seconds,
        # bot/fairshare.py)
        word = await answered(h, "UBOB")
        after = await every_row(svc.store)  # type: ignore[arg-type]

        added = {t: [row for row in rows if row not in before.get(t, [])] for t, rows in after.items()}
        assert "lorem" not in "\n".join(row for rows in added.values() for row in rows)
        grown = sum(len(row) for rows in added.values() for row in rows)
        assert grown < 2_000, f"{grown} characters added for one answer: {added}"
        assert any(word in row for row in added["game_actions"]), "the answer after them is kept"
