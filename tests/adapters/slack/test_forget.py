"""forget-me through the real Bolt app; uninstalls schedule the deletion.

(``privacy`` answered privately and ``purge`` for admins only, on every platform: the contract
suite, tests/contract/test_privacy.py and test_rights.py.)"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("slack_bolt")

from bot.housekeeping import DAY, housekeeping
from bot.privacy import FORGET_ME
from tests.adapters.slack.conftest import TEAM, Harness, until
from tests.adapters.slack.fakes import Stats
from tests.adapters.slack.fakeslack import Call


def says(*words: str):  # type: ignore[no-untyped-def]
    return lambda call: all(word in call.text() for word in words)


def buttons_of(call: Call) -> list[str]:
    blocks = call.args.get("blocks")
    if isinstance(blocks, str):
        blocks = json.loads(blocks)
    return [e["action_id"] for b in blocks or () if b.get("type") == "actions" for e in b["elements"]]


async def test_forget_me_asks_then_the_button_forgets(h: Harness) -> None:
    store = h.svc.store
    store.scores[("slack", TEAM, "UANN")] = Stats("Ann", 3, 1, 12)
    store.scores[("slack", TEAM, "UBOB")] = Stats("Bob", 3, 2, 15)
    await h.command("UANN", "forget-me")
    [asked] = await h.slack.wait_for("chat.postEphemeral", says("Forget me in this workspace?"))
    assert asked.args["user"] == "UANN" and buttons_of(asked) == [FORGET_ME]
    assert ("slack", TEAM, "UANN") in store.scores  # not before the confirmation
    await h.adapter.people.person(TEAM, "UANN")
    assert (TEAM, "UANN") in h.adapter.people._people
    assert await h.button("UANN", FORGET_ME) == 200
    await h.slack.wait_for("chat.postEphemeral", says("forgotten you"))
    assert ("slack", TEAM, "UANN") not in store.scores and ("slack", TEAM, "UBOB") in store.scores
    assert (TEAM, "UANN") not in h.adapter.people._people  # the user directory forgot too


async def test_forget_me_confirm_typed(h: Harness) -> None:
    h.svc.store.scores[("slack", TEAM, "UBOB")] = Stats("Bob", 1, 0, 2)
    await h.command("UBOB", "forget-me confirm")
    await h.slack.wait_for("chat.postEphemeral", says("forgotten you"))
    assert h.svc.store.scores == {}


async def test_forget_me_waits_for_the_players_game_to_end(h: Harness) -> None:
    await h.command("UANN", "start toy")
    await h.command("UANN", "forget-me confirm")
    await h.slack.wait_for("chat.postEphemeral", says("leave", "first"))


async def test_uninstall_schedules_the_deletion_and_an_event_cancels_it(h: Harness) -> None:
    store = h.svc.store
    start = h.clock.now()
    await h.event({"type": "app_uninstalled"})
    await until(lambda: ("slack", TEAM) in store.deletions)
    assert store.deletions[("slack", TEAM)] == pytest.approx(start + 30 * DAY)
    # the workspace comes back (any event from it) within the grace period: nothing goes
    await h.say("UANN", "hello")
    await until(lambda: ("slack", TEAM) not in store.deletions)
    # revoked again; after the grace period the job purges it
    await h.event({"type": "tokens_revoked", "tokens": {"bot": ["UBOT"]}})
    await until(lambda: ("slack", TEAM) in store.deletions)
    done = await housekeeping(store, "slack", start + 31 * DAY)  # type: ignore[arg-type]
    assert done.purged == [TEAM] and store.purged == [("slack", TEAM)]
