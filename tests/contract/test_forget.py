"""forget-me: asked first, with a button only the asker sees (or confirmed as typed), it forgets
that person in the workspace and no one else; never while their game runs.

(``privacy`` answered privately and ``purge`` for admins only: test_privacy.py and test_rights.py.)"""

from __future__ import annotations

import pytest

from bot.features.privacy import FORGET_ME
from tests.contract.harness import BUTTONS, PEOPLE_CAP, PlatformHarness

#: Names only these records have: what the database keeps of each person.
NAMES = {"ann": "Zelda Forgetme", "bob": "Yorick Keepme"}


async def recorded(p: PlatformHarness) -> None:
    """Ann and Bob have a record in the workspace (as a finished game would give them)."""
    await p.store.upsert_workspace(p.chat.platform, p.chat.workspace_id)
    for who, name in NAMES.items():
        await p.store.upsert_player(p.chat.platform, p.seat(who).split(":", 1)[1], name)
    text = await p.stored()
    assert all(name in text for name in NAMES.values())


def said(p: PlatformHarness, who: str, words: str) -> int:
    return len([t for t in p.told(who) if words in t])


@pytest.mark.needs(BUTTONS, PEOPLE_CAP)
async def test_forget_me_asks_with_a_button_then_forgets(p: PlatformHarness) -> None:
    await recorded(p)
    await p.command("ann", "forget-me")
    await p.until(lambda: said(p, "ann", "Forget me in this workspace?") == 1)
    assert p.buttons_told("ann") == [FORGET_ME]
    assert NAMES["ann"] in await p.stored(), "not before the confirmation"
    await p.press("ann", FORGET_ME)
    await p.until(lambda: said(p, "ann", "forgotten you") == 1)
    text = await p.stored()
    assert NAMES["ann"] not in text and NAMES["bob"] in text, "Ann forgotten, Bob kept"
    assert not [t for t in p.channel() if "forget" in t.lower()], "asked and answered privately"
    assert not p.manager.errors


@pytest.mark.needs(PEOPLE_CAP)  # (the one person at the terminal is always at its game's table)
async def test_forget_me_confirm_typed(p: PlatformHarness) -> None:
    await recorded(p)
    await p.command("ann", "forget-me confirm")
    await p.until(lambda: said(p, "ann", "forgotten you") == 1)
    text = await p.stored()
    assert NAMES["ann"] not in text and NAMES["bob"] in text, "Ann forgotten, Bob kept"
    assert not p.manager.errors


async def test_forget_me_waits_for_the_players_game_to_end(p: PlatformHarness) -> None:
    await p.command("ann", "start toy")
    await p.command("ann", "forget-me confirm")
    await p.until(lambda: any("leave" in t and "first" in t for t in p.told("ann")))
    assert not p.manager.errors
