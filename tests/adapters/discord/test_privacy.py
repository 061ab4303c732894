"""Hidden things stay hidden; admins and the bot's own permissions are checked."""

from __future__ import annotations

import logging

import discord
import pytest

from bot.core.registry import Registry
from tests.adapters.discord.conftest import ANN, BOB, CAT, CHAT, Harness, is_lobby, is_table
from tests.adapters.discord.fakediscord import BOT_PERMS, Fault
from tests.bot.toygame import TOY
from tests.contract.secret import SECRET, SECRET_GAME

MESSAGES = r"^/channels/\d+/messages$"


@pytest.fixture
def registry() -> Registry:
    return Registry([TOY, SECRET_GAME])


async def test_private_notices_go_by_direct_message_and_a_hand_comes_with_its_picture(h: Harness) -> None:
    # (that hands never reach the channel, on every platform, is tests/contract/test_privacy.py)
    await h.fake.slash(*ANN, "start", {"game": "secret"})
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    await h.fake.slash(*BOB, "join")
    await h.fake.until(lambda: len(h.manager.sessions[CHAT].players) == 2)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)
    # the game's private notices (no interaction at hand) → direct messages
    await h.fake.until(lambda: len(h.fake.dm_channels) == 2)
    dm_paths = {f"/channels/{h.fake.dm_channels[uid]}/messages" for uid in (ANN[0], BOB[0])}
    dms = await h.fake.wait_for("POST", r"^/channels/\d+/messages$", lambda r: r.path in dm_paths, count=2)
    assert all(SECRET in r.text for r in dms)
    # /moji hand → an ephemeral answer, with the hand's picture
    iid = await h.fake.slash(*BOB, "hand")
    [hand] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert hand.ephemeral and SECRET in hand.text and hand.files


async def test_manage_server_makes_an_admin_and_so_does_the_admin_role(h: Harness) -> None:
    # (that everyone else is refused, on every platform, is tests/contract/test_rights.py)
    # Manage Server makes an admin; an admin names a role whose members are admins too
    iid = await h.fake.slash(*ANN, "config", {"key": "admin-role", "value": "Game Masters"}, admin=True)
    [done] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert "admin-role is now <@&600000000000000009>" in done.text  # kept by id, shown as a mention
    iid = await h.fake.slash(*CAT, "add", {"word": "zzyzx"}, group="words", roles=("600000000000000009",))
    [added] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert "is now allowed" in added.text
    added_words, _ = await h.svc.store.word_lists("discord", CHAT.workspace_id)
    assert "zzyzx" in added_words


async def test_missing_permissions_are_explained_before_a_game_starts(h: Harness) -> None:
    lacking = discord.Permissions(BOT_PERMS.value & ~discord.Permissions(add_reactions=True).value)
    iid = await h.fake.slash(*ANN, "start", {"game": "toy"}, app_permissions=lacking)
    [note] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert note.ephemeral and "Add Reactions" in note.text
    assert CHAT not in h.manager.sessions
    assert not h.fake.channel_posts()


async def test_a_refused_reaction_is_logged_and_explained(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    await h.fake.slash(*ANN, "start", {"game": "toy"})
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    iid = await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)
    h.fake.faults.append(Fault("PUT", r"/reactions/", "403"))
    letter = h.manager.sessions[CHAT].engine.letter
    with caplog.at_level(logging.WARNING, logger="adapters.discord"):
        await h.fake.say(*ANN, letter + "ab")
        await h.fake.until(lambda: bool(h.manager.sessions[CHAT].settle.pending))
        await h.advance(0.2)
        [note] = await h.fake.wait_for(
            "POST", rf"/webhooks/\d+/token-{iid}$", lambda r: "Add Reactions" in r.text
        )
    assert note.ephemeral
    assert any("refused to add a reaction" in rec.getMessage() for rec in caplog.records)
    assert not h.manager.errors
