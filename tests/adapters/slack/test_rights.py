"""Rights on Slack: the admin user group may do every admin command, a demoted admin loses the
destructive ones at once, and a captured signed request replayed after a restart, or without a
trigger id, runs nothing again. The real slack-bolt app, fed signed requests, on the real
services (a SQLite file). (A replay within one process, on every platform: the contract suite,
tests/contract/test_redelivery.py.)"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import urlencode

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.store import attach
from bot.core.clock import FakeClock
from bot.core.registry import Registry
from bot.features.workspace import Workspace
from bot.process.app import Services
from bot.sessions.gamelog import StoreGameLog
from storage import open_store
from tests.adapters.slack.conftest import CHAT, MONDAY_1459, TEAM, Harness, running, sign, tick_until
from tests.adapters.slack.fakeslack import Call, FakeSlack

FORM = "application/x-www-form-urlencoded"


def text(call: Call) -> str:
    return str(call.args.get("text"))


def said(slack: FakeSlack, words: str) -> list[Call]:
    """The private answers that contain ``words``."""
    return [c for c in slack.of("chat.postEphemeral") if words in text(c)]


async def answered(h: Harness, words: str, count: int = 1) -> None:
    """Wait for the ``count``-th private answer containing ``words``, letting the fake clock run in
    small steps meanwhile: the lookups behind admin checks are paced (user groups are Tier 2)."""
    await tick_until(
        h.clock, lambda: len(said(h.slack, words)) >= count, busy=lambda: h.slack.inflight > 0, within=30
    )


@pytest.fixture
async def svc(tmp_path: Path, registry: Registry) -> AsyncIterator[Services]:
    store = open_store(f"sqlite:///{tmp_path / 'moji.db'}")
    await store.open()
    try:
        yield Services(registry, Workspace(store, registry), StoreGameLog(store), store)
    finally:
        await store.close()


@pytest.fixture
async def h(slack: FakeSlack, svc: Services) -> AsyncIterator[Harness]:
    clock = FakeClock(MONDAY_1459)
    slack.now = clock.now
    async with running(slack, clock, svc, attach(svc.store)) as harness:  # type: ignore[arg-type]
        yield harness


def slash(h: Harness, user: str, command: str) -> str:
    """The form body Slack signs and posts for ``/moji command`` (one trigger id of its own)."""
    return urlencode(
        {
            "token": "legacy",
            "team_id": TEAM,
            "team_domain": "acme",
            "channel_id": CHAT.channel_id,
            "channel_name": "general",
            "user_id": user,
            "user_name": user.lower(),
            "command": "/moji",
            "text": command,
            "api_app_id": "A1",
            "response_url": f"{h.slack.url}/respond/{user}",
            "trigger_id": h.trigger_id(),
        }
    )


def press(h: Harness, user: str, action_id: str) -> str:
    payload = {
        "type": "block_actions",
        "team": {"id": TEAM, "domain": "acme"},
        "user": {"id": user, "name": user.lower(), "team_id": TEAM},
        "api_app_id": "A1",
        "channel": {"id": CHAT.channel_id, "name": "general"},
        "container": {"type": "message", "channel_id": CHAT.channel_id, "message_ts": "1700000000.000001"},
        "trigger_id": h.trigger_id(),
        "response_url": f"{h.slack.url}/respond/{user}",
        "actions": [{"action_id": action_id, "block_id": "moji:actions", "type": "button", "action_ts": "1"}],
    }
    return urlencode({"payload": json.dumps(payload)})


async def words(svc: Services) -> set[str]:
    added, _ = await svc.store.word_lists("slack", TEAM)
    return added


async def test_a_replay_after_a_restart_runs_nothing(slack: FakeSlack, svc: Services) -> None:
    clock = FakeClock(MONDAY_1459)
    slack.now = clock.now
    async with running(slack, clock, svc, attach(svc.store)) as h:  # type: ignore[arg-type]
        body = slash(h, "UADMIN", "words ban zzyzx")
        captured = sign(body)
        assert (await h.post(body, FORM, captured)).status == 200
        await answered(h, "is now banned")
    await svc.store.remove_word("slack", TEAM, "zzyzx", "UADMIN", datetime.now(UTC))
    # a new process on the same database
    async with running(slack, clock, svc, attach(svc.store)) as h:  # type: ignore[arg-type]
        assert (await h.post(body, FORM, captured)).status == 200
        await h.command("UADMIN", "help")
        await answered(h, "moji commands")
        _, banned = await svc.store.word_lists("slack", TEAM)
        assert banned == set()
        assert len(said(slack, "is now banned")) == 1


async def test_the_admin_group_may_reset_a_season(h: Harness, slack: FakeSlack) -> None:
    await h.command("UADMIN", "config admin-role @wordsmiths")
    await answered(h, "admin-role is now @wordsmiths")
    slack.groups["S0WORDS1"] = ("wordsmiths", ["UANN"])
    await h.command("UANN", "season reset")
    await answered(h, "Season 1 is archived")
    await h.command("UBOB", "season reset")
    await answered(h, "Only workspace admins can end a season")


async def test_a_demoted_admin_loses_destructive_rights_at_once(
    h: Harness, svc: Services, slack: FakeSlack
) -> None:
    await h.command("UADMIN", "config admin-role @wordsmiths")
    await answered(h, "admin-role is now")
    slack.groups["S0WORDS1"] = ("wordsmiths", ["UANN"])
    await h.command("UANN", "words add zzyzx")  # Slack's answers are cached from here
    await answered(h, "is now allowed")
    slack.groups["S0WORDS1"] = ("wordsmiths", [])  # UANN is taken out of the group
    slack.admins.discard("UADMIN")  # and the workspace admin is demoted
    # seconds pass at most (the lookups are paced): the answers Slack gave are cached for ten minutes
    for user, command in [
        ("UANN", "words ban qwxyz"),
        ("UANN", "season reset"),
        ("UANN", "purge confirm"),
        ("UADMIN", "purge confirm"),
        ("UADMIN", "config admin-role none"),
    ]:
        before = len(said(slack, "Only workspace admins"))
        await h.command(user, command)
        await answered(h, "Only workspace admins", count=before + 1)
    assert await words(svc) == {"zzyzx"}
    assert (await svc.store.get_settings("slack", TEAM))["admin-role"] == "@wordsmiths"


async def test_a_replayed_command_without_a_trigger_id_runs_once_too(h: Harness, svc: Services) -> None:
    body = "&".join(
        part for part in slash(h, "UADMIN", "words add zzyzx").split("&") if "trigger_id" not in part
    )
    captured = sign(body)
    assert (await h.post(body, FORM, captured)).status == 200
    await answered(h, "is now allowed")
    await svc.store.remove_word("slack", TEAM, "zzyzx", "UADMIN", datetime.now(UTC))
    assert (await h.post(body, FORM, captured)).status == 200  # same signed body and timestamp
    await h.command("UADMIN", "help")
    await answered(h, "moji commands")
    assert await words(svc) == set() and h.adapter.runtime.once.dropped == 1
    # the same text signed at another moment is another command
    assert (
        await h.post(body, FORM, sign(body, timestamp=int(captured["X-Slack-Request-Timestamp"]) + 1))
    ).status == 200
    await answered(h, "is now allowed", count=2)
    assert await words(svc) == {"zzyzx"}
