"""forget-me reaches Slack's user directory; uninstalls schedule the deletion.

(``forget-me`` asked and confirmed, ``privacy`` answered privately and ``purge`` for admins only,
on every platform: the contract suite, tests/contract/test_forget.py, test_privacy.py and
test_rights.py.)"""

from __future__ import annotations

import pytest

pytest.importorskip("slack_bolt")

from bot.features.housekeeping import DAY, housekeeping
from tests.adapters.slack.conftest import TEAM, Harness, until
from tests.adapters.slack.fakes import Stats


def says(*words: str):  # type: ignore[no-untyped-def]
    return lambda call: all(word in call.text() for word in words)


async def test_forget_me_empties_the_user_directory_too(h: Harness) -> None:
    store = h.svc.store
    store.scores[("slack", TEAM, "UANN")] = Stats("Ann", 3, 1, 12)
    await h.adapter.people.person(TEAM, "UANN")
    assert (TEAM, "UANN") in h.adapter.people._people
    await h.command("UANN", "forget-me confirm")
    await h.slack.wait_for("chat.postEphemeral", says("forgotten you"))
    assert ("slack", TEAM, "UANN") not in store.scores
    assert (TEAM, "UANN") not in h.adapter.people._people  # the user directory forgot too


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
