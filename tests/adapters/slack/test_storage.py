"""The Slack adapter on the real services: SQLite store, game log, restart recovery.

Word breaks and installations live in the database, so a restart (a new
adapter on the same file) keeps them; a whole game is recorded and shows on
the leaderboard.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

pytest.importorskip("slack_bolt")
pytest.importorskip("storage.sqlstore")
pytest.importorskip("bot.sessions.gamelog")

from adapters.slack.store import slack_store
from bot.core.clock import FakeClock
from bot.core.registry import Registry
from bot.features.workspace import Workspace
from bot.process.app import Services
from bot.sessions.gamelog import StoreGameLog
from storage import open_store
from tests.adapters.slack.conftest import CHAT, MONDAY_1459, running, tick_until, until
from tests.adapters.slack.fakeslack import FakeSlack
from tests.adapters.slack.test_game import claim, is_table, letters
from tests.adapters.slack.test_schedule import is_lobby, lobbies


@pytest.fixture
async def database(tmp_path: Path) -> AsyncIterator[str]:
    yield f"sqlite:///{tmp_path / 'moji.db'}"


async def services(url: str, registry: Registry) -> Services:
    store = open_store(url)
    await store.open()
    return Services(registry, Workspace(store, registry), StoreGameLog(store), store)


async def test_breaks_settings_and_scores_live_in_the_database(
    slack: FakeSlack, registry: Registry, database: str
) -> None:
    clock = FakeClock(MONDAY_1459)
    slack.now = clock.now  # Slack's limits count on the same clock
    svc = await services(database, registry)
    try:
        async with running(slack, clock, svc, slack_store(svc.store)) as h:
            await h.command("UADMIN", "config quiet on")
            await slack.wait_for("chat.postEphemeral", lambda c: "quiet is now on" in str(c.args.get("text")))
            await h.command("UADMIN", "schedule weekdays 15:00 toy target=1")
            await slack.wait_for("chat.postEphemeral", lambda c: "scheduled" in str(c.args.get("text")))
    finally:
        await svc.store.close()

    # Restart: a new process on the same database file.
    svc = await services(database, registry)
    try:
        async with running(slack, clock, svc, slack_store(svc.store)) as h:
            assert list(h.adapter.scheduler.next) == [1]
            await clock.advance(60)  # the break is due: the hello goes out, then the lobby is opened…
            await until(lambda: CHAT in h.adapter.runtime.manager.sessions)
            # …and posted in the channel's next chat.postMessage slot.
            await tick_until(clock, lambda: bool(lobbies(slack)), busy=lambda: slack.inflight > 0)
            session = h.adapter.runtime.manager.sessions[CHAT]
            await h.command("UANN", "join")
            await until(lambda: len(session.players) == 2)
            await clock.advance(120)  # the break starts by itself
            await h.drain()
            [table] = await slack.wait_for("chat.postMessage", is_table)
            assert table.args["thread_ts"]  # quiet, from the database
            assert table.args["thread_ts"] == h.adapter.transport.threads[CHAT]
            await claim(h, "UANN", letters(table)[0].lower() + "zz")
            await until(lambda: CHAT not in h.adapter.runtime.manager.sessions)
            await h.drain()
            await h.command("UANN", "leaderboard")
            [board] = await slack.wait_for(
                "chat.postEphemeral", lambda c: "Leaderboard" in str(c.args.get("text"))
            )
            assert "1. Ann" in board.args["text"]
    finally:
        await svc.store.close()

    # A second restart a minute later does not start the same break again.
    svc = await services(database, registry)
    try:
        clock2 = FakeClock(MONDAY_1459 + 90)
        slack.now = clock2.now
        async with running(slack, clock2, svc, slack_store(svc.store)) as h:
            await clock2.advance(1)
            assert h.adapter.runtime.manager.sessions == {}
            assert len([c for c in slack.of("chat.postMessage") if is_lobby(c)]) == 1
    finally:
        await svc.store.close()


async def test_the_purge_command_deletes_a_workspaces_installations(database: str) -> None:
    """``python -m bot purge --platform slack`` runs without the adapter: it attaches the Slack
    adapter's table, so the team's installations (bot and user tokens) go with the rest."""
    from adapters.slack.store import InstallKey, SQLInstallations
    from bot.process.app import purge
    from bot.process.config import load_config

    store = open_store(database)
    await store.open()
    try:
        installs = SQLInstallations(store)
        await installs.save_installation(InstallKey(None, "T1", "U1"), {"bot_token": "xoxb-1"})
        await installs.save_installation(InstallKey(None, "T2", "U1"), {"bot_token": "xoxb-2"})
    finally:
        await store.close()

    config = load_config({"DATABASE_URL": database}, env_file=None)
    assert await purge(config, "slack", "T1", confirmed=True) == 0

    store = open_store(database)
    await store.open()
    try:
        installs = SQLInstallations(store)
        assert await installs.find_installation(InstallKey(None, "T1", "U1")) is None
        assert await installs.find_installation(InstallKey(None, "T1")) is None
        assert await installs.find_installation(InstallKey(None, "T2")) == {"bot_token": "xoxb-2"}
    finally:
        await store.close()
