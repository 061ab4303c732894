"""Admin commands are refused to everyone else, with a reason only they see; admins may."""

from __future__ import annotations

import pytest

from bot.features.privacy import PURGE
from tests.contract.harness import ADMINS, BUTTONS, PEOPLE_CAP, PlatformHarness, game_session


def said(p: PlatformHarness, who: str, words: str) -> int:
    return len([t for t in p.told(who) if words in t])


@pytest.mark.needs(ADMINS, PEOPLE_CAP, BUTTONS)
async def test_admin_commands_are_refused_to_others_and_done_for_an_admin(p: PlatformHarness) -> None:
    platform, ws = p.chat.platform, p.chat.workspace_id
    for command in ("config reasons on", "words add zzyzx"):
        before = said(p, "bob", "Only workspace admins")
        await p.command("bob", command)
        await p.until(lambda before=before: said(p, "bob", "Only workspace admins") == before + 1)  # type: ignore[misc]
    await p.command("bob", "purge confirm")
    await p.until(lambda: said(p, "bob", "Only workspace admins can purge") == 1)
    await p.press("bob", PURGE)  # the confirmation button, pressed by someone who may not
    await p.until(lambda: said(p, "bob", "Only workspace admins can purge") == 2)
    assert await p.store.get_settings(platform, ws) == {}
    assert (await p.store.word_lists(platform, ws))[0] == set()
    assert not [t for t in p.channel() if "Only workspace admins" in t], "refusals are private"

    await p.command("ada", "config reasons on")
    await p.until(lambda: said(p, "ada", "reasons is now") == 1)
    await p.command("ada", "words add zzyzx")
    await p.until(lambda: said(p, "ada", "is now allowed") == 1)
    assert (await p.store.word_lists(platform, ws))[0] == {"zzyzx"}
    await p.command("ada", "purge")  # asked first, then done by the button
    await p.until(lambda: said(p, "ada", "Delete all of this") == 1)
    assert p.buttons_told("ada") == [PURGE]
    assert await p.store.get_settings(platform, ws) == {"reasons": "on"}
    await p.press("ada", PURGE)
    await p.until(lambda: said(p, "ada", "everything moji kept") + said(p, "ada", "nothing to delete") == 1)
    assert await p.store.get_settings(platform, ws) == {}
    assert (await p.store.word_lists(platform, ws))[0] == set(), "the workspace's words went too"
    assert not p.manager.errors


@pytest.mark.needs(ADMINS, PEOPLE_CAP)
async def test_stop_is_for_the_host_or_an_admin(p: PlatformHarness) -> None:
    await p.command("ann", "start toy")
    await p.until(lambda: any("lobby" in t for t in p.channel()))
    await p.command("bob", "stop")
    await p.until(lambda: said(p, "bob", "Only the host") == 1)
    assert game_session(p) is not None
    await p.command("ada", "stop")
    await p.until(lambda: any("stopped the game" in t for t in p.channel()))
    assert game_session(p) is None
