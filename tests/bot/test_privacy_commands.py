"""privacy, forget-me, purge, retention and deletions after removal, over a real SQLite file."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Button
from bot.core.views import JOIN
from bot.features.housekeeping import DAY, housekeeping, workspace_back, workspace_removed
from bot.features.privacy import FORGET_ME, PURGE, retention_days
from bot.hosting.manager import GameManager
from storage.sqlstore import SQLStore
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_workspace_store import ADMIN, cmd, play_toy, reply, setup, store
from tests.doubles import FakeOutbox

__all__ = ["setup", "store"]  # (the fixtures, shared with test_workspace_store)


def last_private(outbox: FakeOutbox):  # type: ignore[no-untyped-def]
    return outbox.privates()[-1]


async def test_privacy_answers_privately_with_the_workspace_retention(setup) -> None:
    manager, outbox, _ = setup
    await manager.handle(cmd("privacy"))
    answer = last_private(outbox)
    assert answer.player == ANN and not outbox.posts()
    text = answer.view.plain()
    assert "for 30 days after the game ends" in text and "docs/PRIVACY.md" in text
    assert "forget-me" in text and "purge" in text
    assert "retention is now 7" in await reply(manager, outbox, "config retention 7", ADMIN)
    assert "for 7 days" in await reply(manager, outbox, "privacy", BOB)
    assert "retention is now forever" in await reply(manager, outbox, "config retention forever", ADMIN)
    assert "until this workspace's data is purged" in await reply(manager, outbox, "privacy")


async def test_retention_and_grace_settings_are_validated(setup) -> None:
    manager, outbox, _ = setup
    assert "between 1 and 3,650" in await reply(manager, outbox, "config retention 0", ADMIN)
    assert "number of days" in await reply(manager, outbox, "config retention soon", ADMIN)
    assert "between 1 and 365" in await reply(manager, outbox, "config deletion-grace 400", ADMIN)
    assert "deletion-grace is now 3" in await reply(manager, outbox, "config deletion-grace 3", ADMIN)
    listing = await reply(manager, outbox, "config")
    assert "retention = 30" in listing and "deletion-grace = 3" in listing
    assert retention_days("forever") is None and retention_days("12") == 12 and retention_days("x") == 30


async def test_forget_me_asks_first_then_the_button_forgets(setup, store: SQLStore) -> None:
    manager, outbox, clock = setup
    await play_toy(manager, clock)
    asked = await reply(manager, outbox, "forget-me")
    assert "Press the button, or type `forget-me confirm`" in asked
    assert [b.action for b in last_private(outbox).view.buttons] == [FORGET_ME]
    # nothing is deleted until confirmed
    assert "1. Ann — 1 pt · 1 game · 1 win" in await reply(manager, outbox, "leaderboard toy all")
    await manager.handle(Button(CHAT, ANN, FORGET_ME))
    assert "forgotten you in this workspace" in last_private(outbox).view.plain()
    board = await reply(manager, outbox, "leaderboard toy all", BOB)
    assert "Ann" not in board and "Bob — 0 pts" in board  # the others' results stay
    assert "hasn't finished a game here" in await reply(manager, outbox, "stats")


async def test_forget_me_confirm_as_text_and_the_alias(setup) -> None:
    manager, outbox, clock = setup
    await play_toy(manager, clock)
    assert "forgotten you" in await reply(manager, outbox, "forgetme confirm", BOB)
    board = await reply(manager, outbox, "leaderboard toy all")
    assert "Bob" not in board and "Ann — 1 pt · 1 game" in board


async def test_forget_me_is_refused_while_in_a_lobby_or_game_here(setup) -> None:
    manager, outbox, _ = setup
    await manager.handle(cmd("start toy"))
    await manager.handle(Button(CHAT, BOB, JOIN))
    refused = await reply(manager, outbox, "forget-me confirm", BOB)
    assert "Finish it or `leave` it first" in refused
    assert "Finish it or `leave` it first" in await reply(manager, outbox, "forget-me", ANN)
    await manager.handle(cmd("leave", BOB))
    assert "forgotten you" in await reply(manager, outbox, "forget-me confirm", BOB)


async def test_purge_is_for_admins_and_asks_first(setup, store: SQLStore) -> None:
    manager, outbox, clock = setup
    await play_toy(manager, clock)
    await reply(manager, outbox, "config reasons on", ADMIN)
    await reply(manager, outbox, "words add selfie", ADMIN)
    for line in ("purge", "purge confirm"):
        refused = await reply(manager, outbox, line, BOB)
        assert "Only workspace admins can purge" in refused and "forget-me" in refused
    await manager.handle(Button(CHAT, BOB, PURGE))  # a forwarded button is checked too
    assert "Only workspace admins can purge" in last_private(outbox).view.plain()
    assert "1. Ann" in await reply(manager, outbox, "leaderboard toy all")
    asked = await reply(manager, outbox, "purge", ADMIN)
    assert "type `purge confirm`" in asked and last_private(outbox).view.buttons[0].action == PURGE
    await manager.handle(Button(CHAT, ADMIN, PURGE))
    assert "everything moji kept about this workspace is deleted" in last_private(outbox).view.plain()
    assert "No games finished yet" in await reply(manager, outbox, "leaderboard toy all")
    assert await store.get_settings("test", "w1") == {}
    assert await store.word_lists("test", "w1") == (set(), set())


async def test_purge_is_refused_while_a_game_is_open(setup) -> None:
    manager, outbox, _ = setup
    await manager.handle(cmd("start toy"))
    assert "Stop it first" in await reply(manager, outbox, "purge confirm", ADMIN)


async def test_housekeeping_drops_old_logs_by_the_workspace_retention(setup, store: SQLStore) -> None:
    manager, _, clock = setup
    await play_toy(manager, clock)
    now = clock.now()
    assert await store.workspaces_with_logs(now + 1) == [("test", "w1")]
    # within the retention (30 days by default): kept
    done = await housekeeping(store, "test", now + 29 * DAY)
    assert done.pruned == {} and await store.workspaces_with_logs(now + 1) == [("test", "w1")]
    # another platform's pass leaves it alone
    assert (await housekeeping(store, "slack", now + 31 * DAY)).pruned == {}
    await store.set_setting("test", "w1", "retention", "forever", "u9")
    assert (await housekeeping(store, "test", now + 400 * DAY)).pruned == {}
    await store.set_setting("test", "w1", "retention", "30", "u9")
    done = await housekeeping(store, "test", now + 31 * DAY)
    assert done.pruned == {"w1": 1}
    assert await store.workspaces_with_logs(now + 1) == []
    # the results and scores stay
    assert (await store.player_stats("test", "w1", ANN.user_id)) is not None


async def test_a_removed_workspace_is_deleted_after_the_grace_unless_back(setup, store: SQLStore) -> None:
    manager, _, clock = setup
    await play_toy(manager, clock)
    now = clock.now()
    await store.set_setting("test", "w1", "deletion-grace", "2", "u9")
    due = await workspace_removed(store, "test", "w1", now, "guild_remove")
    assert due == now + 2 * DAY
    # added back in time: the deletion is cancelled and everything stays
    assert await workspace_back(store, "test", "w1") is True
    assert (await housekeeping(store, "test", now + 3 * DAY, privacy=manager.privacy)).purged == []
    assert await store.player_stats("test", "w1", ANN.user_id) is not None
    # removed again; the job before the grace period keeps it, after it purges it
    await workspace_removed(store, "test", "w1", now, "guild_remove")
    assert (await housekeeping(store, "test", now + DAY)).purged == []

    async def present(ws: str) -> bool:
        return False

    done = await housekeeping(store, "test", now + 2 * DAY + 1, present=present, privacy=manager.privacy)
    assert done.purged == ["w1"]
    assert await store.player_stats("test", "w1", ANN.user_id) is None
    assert await store.due_deletions(now + 100 * DAY) == []


async def test_a_due_deletion_for_a_workspace_moji_is_in_again_is_cancelled(store: SQLStore) -> None:
    await workspace_removed(store, "test", "w2", 1000.0, "app_uninstalled")

    async def present(ws: str) -> bool:
        return True

    done = await housekeeping(store, "test", 1000.0 + 31 * DAY, present=present)
    assert done.kept == ["w2"] and done.purged == []
    assert await store.due_deletions(1000.0 + 100 * DAY) == []


async def test_the_job_runs_hourly_on_the_manager_clock(setup, store: SQLStore) -> None:
    manager: GameManager = setup[0]
    clock: FakeClock = setup[2]
    from bot.features.housekeeping import run_housekeeping

    start = clock.now()
    await workspace_removed(store, "test", "w3", start - 40 * DAY, "guild_remove")  # overdue
    await workspace_removed(store, "test", "w4", start - 30 * DAY + 1800, "guild_remove")  # due in 30 min
    for ws in ("w3", "w4"):
        await store.set_setting("test", ws, "quiet", "on", "u9")
    manager.spawn(run_housekeeping(manager, "test", clock, every=3600), "housekeeping")
    # a pass is over once the job sleeps until the next one (its database calls run on a real
    # thread, which the fake clock's settle cannot wait for); the timeout only catches a hang
    await asyncio.wait_for(clock.sleeper(start + 3600), 30)
    assert await store.get_settings("test", "w3") == {}
    assert await store.get_settings("test", "w4") == {"quiet": "on"}
    await clock.advance(3600)
    await asyncio.wait_for(clock.sleeper(start + 7200), 30)
    assert await store.get_settings("test", "w4") == {}
    assert not manager.errors


def test_the_purge_command_line_needs_yes_and_deletes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:

    from bot.__main__ import main
    from storage import open_store

    url = f"sqlite:///{tmp_path}/cli.db"

    async def seed() -> dict[str, str]:
        db = open_store(url)
        await db.open()
        try:
            await db.upsert_workspace("slack", "T9")
            await db.set_setting("slack", "T9", "quiet", "on", "U1")
            return dict(await db.get_settings("slack", "T9"))
        finally:
            await db.close()

    async def settings() -> dict[str, str]:
        db = open_store(url)
        await db.open()
        try:
            return dict(await db.get_settings("slack", "T9"))
        finally:
            await db.close()

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", url)
    for name in ("DISCORD_TOKEN", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_CLIENT_ID"):
        monkeypatch.delenv(name, raising=False)
    assert asyncio.run(seed()) == {"quiet": "on"}
    assert main(["purge", "--platform", "slack", "--workspace", "T9"]) == 1
    assert "Add --yes" in capsys.readouterr().out
    assert asyncio.run(settings()) == {"quiet": "on"}
    assert main(["purge", "--platform", "slack", "--workspace", "T9", "--yes"]) == 0
    assert "Deleted everything" in capsys.readouterr().out
    assert asyncio.run(settings()) == {}
