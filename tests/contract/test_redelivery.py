"""A command or button press the platform delivers again (a lost acknowledgement, a captured
request replayed) is handled once: moji's own record drops it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from tests.contract.harness import BUTTONS, PEOPLE_CAP, REDELIVERY, PlatformHarness, game_session


async def added_words(p: PlatformHarness) -> set[str]:
    added, _ = await p.store.word_lists(p.chat.platform, p.chat.workspace_id)
    return added


def said(p: PlatformHarness, who: str, words: str) -> int:
    return len([t for t in p.told(who) if words in t])


@pytest.mark.needs(REDELIVERY)
async def test_a_redelivered_command_runs_once(p: PlatformHarness) -> None:
    sent = await p.command("ada", "words add zzyzx")
    await p.until(lambda: said(p, "ada", "is now allowed") == 1)
    assert await added_words(p) == {"zzyzx"}
    await p.store.remove_word(p.chat.platform, p.chat.workspace_id, "zzyzx", "someone", datetime.now(UTC))

    await p.redeliver(sent)
    await p.redeliver(sent)
    await p.until(lambda: p.runtime.once.dropped == 2)
    await p.command("ada", "help")  # handled after the redeliveries
    await p.until(lambda: said(p, "ada", "moji commands") == 1)
    assert await added_words(p) == set(), "the word was not added again"
    assert said(p, "ada", "is now allowed") == 1
    # the same command sent anew is a new one
    await p.command("ada", "words add zzyzx")
    await p.until(lambda: said(p, "ada", "is now allowed") == 2)
    assert await added_words(p) == {"zzyzx"}
    assert not p.manager.errors


@pytest.mark.needs(REDELIVERY, BUTTONS, PEOPLE_CAP)
async def test_a_redelivered_button_press_runs_once(p: PlatformHarness) -> None:
    await p.command("ann", "start toy")
    await p.until(lambda: any("lobby" in t for t in p.channel()))
    session = game_session(p)
    press = await p.press("cat", "moji:join")
    await p.until(lambda: len(session.players) == 2)
    await p.command("cat", "leave")
    await p.until(lambda: len(session.players) == 1)
    await p.redeliver(press)  # the Join press again
    await p.until(lambda: p.runtime.once.dropped == 1)
    await p.command("ann", "help")
    await p.until(lambda: said(p, "ann", "moji commands") == 1)
    assert len(session.players) == 1
