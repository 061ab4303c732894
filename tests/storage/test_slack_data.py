"""Word-break schedules, one-time claims, Slack installations and card files, on every backend.

Installations and card files are the Slack adapter's own tables (``adapters/slack/store.py``,
``adapters/slack/cardfiles.py``), kept on the store's database primitive.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from adapters.slack.cardfiles import CardFile, Shelf, SQLCardFiles
from adapters.slack.store import SQLInstallations, attach
from storage.base import Schedule
from storage.sqlstore import SQLStore


@dataclass(frozen=True, slots=True)
class Key:
    enterprise_id: str | None
    team_id: str | None
    user_id: str | None = None


def _schedule(workspace: str = "T1", channel: str = "C1") -> Schedule:
    return Schedule(
        id=0,
        workspace_id=workspace,
        channel_id=channel,
        days=(0, 1, 2, 3, 4),
        at="15:00",
        args=("race", "bots=1", "'; DROP TABLE schedules;--"),
        mention="<!subteam^S1|team>",
        created_by="U1",
        created_by_name="Ann 🎉",
    )


async def test_schedules_round_trip(store: SQLStore) -> None:
    first = await store.add_schedule(_schedule())
    second = await store.add_schedule(_schedule("T2", "C9"))
    assert first.id != second.id and first.id > 0
    assert first == Schedule(**{**_fields(_schedule()), "id": first.id})
    listed = await store.list_schedules("slack")
    assert [s.id for s in listed] == [first.id, second.id]
    assert listed[0].args == first.args and listed[0].days == first.days
    assert [s.id for s in await store.list_schedules("slack", "T2")] == [second.id]
    assert await store.list_schedules("discord") == []
    assert await store.remove_schedule("slack", "T1", second.id) is False  # another workspace's
    assert await store.remove_schedule("slack", "T2", second.id) is True
    assert await store.remove_schedule("slack", "T2", second.id) is False


def _fields(schedule: Schedule) -> dict[str, object]:
    return {name: getattr(schedule, name) for name in Schedule.__slots__}


async def test_a_run_is_claimed_once(store: SQLStore) -> None:
    saved = await store.add_schedule(_schedule())
    claims = await asyncio.gather(*(store.claim_schedule_run(saved.id, 1000.0) for _ in range(6)))
    assert sorted(claims) == [False] * 5 + [True]
    assert await store.claim_schedule_run(saved.id, 1000.0) is False
    assert await store.claim_schedule_run(saved.id, 900.0) is False  # an older run
    assert await store.claim_schedule_run(saved.id, 2000.0) is True
    assert await store.claim_schedule_run(12345, 3000.0) is False
    (listed,) = await store.list_schedules("slack")
    assert listed.last_run_at == 2000.0


async def test_installations(store: SQLStore) -> None:
    installs = SQLInstallations(store)
    data = {"team_id": "T1", "bot_token": "xoxb-1", "installed_at": 12.5, "scopes": ["chat:write"]}
    await installs.save_installation(Key(None, "T1", "U1"), data)
    assert await installs.find_installation(Key(None, "T1", "U1")) == data
    assert await installs.find_installation(Key(None, "T1")) == data  # the team's latest
    newer = {**data, "bot_token": "xoxb-2"}
    await installs.save_installation(Key(None, "T1", "U2"), newer)
    assert await installs.find_installation(Key(None, "T1")) == newer
    assert await installs.find_installation(Key(None, "T1", "U1")) == data
    await installs.save_installation(Key("E1", None, "U3"), {"enterprise": True})
    assert await installs.find_installation(Key("E1", None)) == {"enterprise": True}
    await installs.delete_installation(Key(None, "T1", "U1"))
    assert await installs.find_installation(Key(None, "T1", "U1")) is None
    assert await installs.find_installation(Key(None, "T1")) == newer
    await installs.delete_installation(Key(None, "T1"))
    assert await installs.find_installation(Key(None, "T1", "U2")) is None
    assert await installs.find_installation(Key(None, "T1")) is None
    assert await installs.find_installation(Key("E1", None, "U3")) == {"enterprise": True}


async def test_forget_me_and_purge_reach_the_installations_once_attached(store: SQLStore) -> None:
    """The Slack adapter attaches its table to the store: forget-me and purge of a Slack workspace
    reach it (once, however often attached); another platform's purge leaves it alone."""
    slack = attach(store)
    attach(store)
    assert store.roles.privacy.erasers == [SQLInstallations(store), SQLCardFiles(store)]
    data = {"team_id": "T1", "bot_token": "xoxb-1", "user_id": "U1", "user_token": "xoxp-1"}
    await slack.save_installation(Key(None, "T1", "U1"), data)
    await slack.save_installation(Key(None, "T2", "U1"), {**data, "team_id": "T2"})
    await store.forget_player("discord", "T1", "U1")
    assert await store.purge_workspace("discord", "T1") == 0
    assert await slack.find_installation(Key(None, "T1", "U1")) == data

    await store.forget_player("slack", "T1", "U1")
    assert await slack.find_installation(Key(None, "T1", "U1")) is None
    team = await slack.find_installation(Key(None, "T1"))
    assert team is not None and team["bot_token"] == "xoxb-1" and "user_token" not in team
    assert team["user_id"].startswith("former:")
    assert await slack.find_installation(Key(None, "T2", "U1")) is not None  # another workspace's

    assert await store.purge_workspace("slack", "T1") == 1  # (the team's row; no other data)
    assert await slack.find_installation(Key(None, "T1")) is None
    assert await slack.find_installation(Key(None, "T2")) is not None


async def test_a_claim_once_is_won_by_one_caller_until_it_expires(store: SQLStore) -> None:
    claims = await asyncio.gather(*(store.claim_once("oauth-state", "n1", 1600.0, 1000.0) for _ in range(6)))
    assert sorted(claims) == [False] * 5 + [True]
    assert await store.claim_once("oauth-state", "n1", 1700.0, 1500.0) is False  # still claimed
    assert await store.claim_once("other-kind", "n1", 1600.0, 1000.0) is True
    assert await store.claim_once("oauth-state", "n2", 1600.0, 1000.0) is True
    # once expired, the row is gone (deleted by the next claim), and the key could be claimed again
    assert await store.claim_once("oauth-state", "n3", 2000.0, 1601.0) is True
    async with store.read() as tx:
        rows = await tx.fetch("SELECT kind, key FROM claimed_once ORDER BY key")
    assert [tuple(r) for r in rows] == [("oauth-state", "n3")]


async def test_card_files_are_kept_per_workspace_and_purged_with_it(store: SQLStore) -> None:
    """The card pictures uploaded to a workspace (adapters/slack/faces.py): one file per picture,
    the newest upload winning; a file Slack forgot goes; a purge of the workspace takes its rows
    and its shelf, and no other workspace's."""
    files = attach(store).card_files
    assert await files.card_files("T1") == {} and await files.card_shelf("T1") is None
    await files.save_card_files("T1", {"aa": CardFile("F1", 10.0), "bb": CardFile("F2", 10.5)})
    await files.save_card_files("T2", {"aa": CardFile("F9", 11.0)})
    await files.save_card_files("T1", {"aa": CardFile("F3", 12.0)})  # uploaded again
    assert await files.card_files("T1") == {"aa": CardFile("F3", 12.0), "bb": CardFile("F2", 10.5)}
    await files.drop_card_file("T1", "aa", "F1")  # an older file: the newer one stays
    await files.drop_card_file("T1", "bb", "F2")
    assert await files.card_files("T1") == {"aa": CardFile("F3", 12.0)}

    await files.save_card_shelf("T1", Shelf("C1", "1700000000.000001"), 13.0)
    await files.save_card_shelf("T1", Shelf("C2", "1700000000.000002"), 14.0)
    await files.save_card_shelf("T2", Shelf("C9", "1700000000.000009"), 14.0)
    assert await files.card_shelf("T1") == Shelf("C2", "1700000000.000002")
    await files.drop_card_shelf("T1")
    assert await files.card_shelf("T1") is None
    await files.save_card_shelf("T1", Shelf("C3", "1700000000.000003"), 15.0)

    await store.forget_player("slack", "T1", "U1")  # no person in these rows
    assert await files.card_files("T1") == {"aa": CardFile("F3", 12.0)}
    assert await store.purge_workspace("discord", "T1") == 0
    assert await store.purge_workspace("slack", "T1") == 2  # its file and its shelf
    assert await files.card_files("T1") == {} and await files.card_shelf("T1") is None
    assert await files.card_files("T2") == {"aa": CardFile("F9", 11.0)}
    assert await files.card_shelf("T2") == Shelf("C9", "1700000000.000009")
