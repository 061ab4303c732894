"""Rights on Discord: the admin role is a role's id (a namesake gains nothing); each interaction
is handled once. The real discord.py client against the fake gateway, on a real SQLite file."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

import pytest

from tests.adapters.discord.conftest import ANN, CAT, Harness
from tests.adapters.discord.fakediscord import GUILD_ID, Request

GAME_MASTERS = "600000000000000009"
NAMESAKE = "600000000000000077"
MENTION = f"<@&{GAME_MASTERS}>"


async def reply(h: Harness, iid: str) -> Request:
    """The one private answer to interaction ``iid``."""
    [answer] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert answer.ephemeral
    return answer


async def replies(h: Harness, iid: str, count: int) -> list[Request]:
    return await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$", count=count)


async def setting(h: Harness) -> str:
    return (await h.svc.store.get_settings("discord", GUILD_ID)).get("admin-role", "")


async def namesake(h: Harness, name: str = "game masters") -> None:
    """A member allowed to create roles (not to manage the server) makes a role of that name."""
    await h.fake.create_role(GUILD_ID, NAMESAKE, name)
    guild = h.bot.get_guild(int(GUILD_ID))
    assert guild is not None
    await h.fake.until(lambda: guild.get_role(int(NAMESAKE)) is not None)


async def words_add(h: Harness, word: str, roles: tuple[str, ...], **kw: Any) -> Request:
    iid = await h.fake.slash(*CAT, "add", {"word": word}, group="words", roles=roles, **kw)
    return await reply(h, iid)


async def test_the_admin_role_is_kept_by_id_and_a_namesake_role_gains_nothing(h: Harness) -> None:
    iid = await h.fake.slash(*ANN, "config", {"key": "admin-role", "value": MENTION}, admin=True)
    assert f"admin-role is now {MENTION}" in (await reply(h, iid)).text
    assert await setting(h) == GAME_MASTERS
    assert "is now allowed" in (await words_add(h, "zzyzx", (GAME_MASTERS,))).text

    # someone who may create roles makes "game masters", gives it to themselves, and purges
    await namesake(h)
    assert "Only workspace admins" in (await words_add(h, "qwxyz", (NAMESAKE,))).text
    iid = await h.fake.slash(*CAT, "purge", {"confirm": True}, group="privacy", roles=(NAMESAKE,))
    assert "Only workspace admins" in (await reply(h, iid)).text
    added, _ = await h.svc.store.word_lists("discord", GUILD_ID)
    assert added == {"zzyzx"}  # nothing purged, nothing added

    # `config` shows the role as a mention (Discord shows its current name)
    iid = await h.fake.slash(*CAT, "config")
    assert f"admin-role = {MENTION}" in (await reply(h, iid)).text


async def test_a_name_is_resolved_when_set_and_refused_when_it_names_no_single_role(h: Harness) -> None:
    iid = await h.fake.slash(*ANN, "config", {"key": "admin-role", "value": "@game masters"}, admin=True)
    assert f"admin-role is now {MENTION}" in (await reply(h, iid)).text
    assert await setting(h) == GAME_MASTERS

    await namesake(h)
    iid = await h.fake.slash(*ANN, "config", {"key": "admin-role", "value": "Game Masters"}, admin=True)
    refused = (await reply(h, iid)).text
    assert "2 roles here are called @Game Masters" in refused and "Mention the one you mean" in refused
    iid = await h.fake.slash(*ANN, "config", {"key": "admin-role", "value": "Wizards"}, admin=True)
    refused = (await reply(h, iid)).text
    assert "no role @Wizards" in refused and "config admin-role @Game Masters" in refused
    iid = await h.fake.slash(*ANN, "config", {"key": "admin-role", "value": "@everyone"}, admin=True)
    assert "@everyone can't be the admin role" in (await reply(h, iid)).text
    assert await setting(h) == GAME_MASTERS  # every refusal left it as it was

    iid = await h.fake.slash(*ANN, "config", {"key": "admin-role", "value": f"<@&{NAMESAKE}>"}, admin=True)
    assert f"admin-role is now <@&{NAMESAKE}>" in (await reply(h, iid)).text
    iid = await h.fake.slash(*ANN, "config", {"key": "admin-role", "value": "none"}, admin=True)
    assert "admin-role is now cleared" in (await reply(h, iid)).text
    assert await setting(h) == ""
    assert "Only workspace admins" in (await words_add(h, "zzyzx", (NAMESAKE,))).text


async def test_a_name_kept_by_an_older_moji_becomes_its_roles_id_once(h: Harness) -> None:
    await h.svc.store.set_setting("discord", GUILD_ID, "admin-role", "game masters", "100000000000000001")
    assert "is now allowed" in (await words_add(h, "zzyzx", (GAME_MASTERS,))).text
    assert await setting(h) == GAME_MASTERS
    # from now on the id counts, not the name
    await namesake(h)
    assert "Only workspace admins" in (await words_add(h, "qwxyz", (NAMESAKE,))).text
    assert "is now allowed" in (await words_add(h, "qwxyz", (GAME_MASTERS,))).text


async def test_an_ambiguous_old_name_counts_for_no_one_and_says_what_to_do(h: Harness) -> None:
    await h.svc.store.set_setting("discord", GUILD_ID, "admin-role", "Game Masters", "100000000000000001")
    await namesake(h)
    for role in (NAMESAKE, GAME_MASTERS):  # never matched by name, not even the first role
        iid = await h.fake.slash(*CAT, "add", {"word": "zzyzx"}, group="words", roles=(role,))
        refused, note = (r.text for r in await replies(h, iid, 2))
        assert "Only workspace admins" in refused
        assert "2 roles here have that name" in note and "/moji config admin-role" in note
    # someone without a role of that name gets the plain refusal
    iid = await h.fake.slash(*CAT, "add", {"word": "zzyzx"}, group="words")
    await reply(h, iid)
    assert await setting(h) == "Game Masters"
    added, _ = await h.svc.store.word_lists("discord", GUILD_ID)
    assert added == set()
    # a server admin sets it again with a mention: it counts
    iid = await h.fake.slash(*ANN, "config", {"key": "admin-role", "value": MENTION}, admin=True)
    await reply(h, iid)
    assert "is now allowed" in (await words_add(h, "zzyzx", (GAME_MASTERS,))).text


async def test_a_redelivered_interaction_is_handled_once(
    h: Harness, caplog: pytest.LogCaptureFixture
) -> None:
    iid = await h.fake.slash(*ANN, "add", {"word": "zzyzx"}, group="words", admin=True)
    assert "is now allowed" in (await reply(h, iid)).text
    await h.svc.store.remove_word("discord", GUILD_ID, "zzyzx", ANN[0], datetime.now(UTC))
    answers = len(h.fake.replies_to(iid))

    # Discord refuses a second answer to one interaction: the redelivery is let go quietly
    with caplog.at_level(logging.INFO, logger="adapters.discord"):
        await h.fake.redeliver(iid)
        await h.fake.until(lambda: len(h.fake.of("POST", rf"/interactions/{iid}/")) == 2)
        await h.settle()
    assert "delivered again" in caplog.text and "slash command failed" not in caplog.text
    # moji's own record drops it too, where Discord would take it (another process got it first)
    h.fake.answered.discard(iid)
    await h.fake.redeliver(iid)
    await h.fake.until(lambda: h.bot.runtime.once.dropped == 1)
    await h.settle()
    assert await words(h) == set()  # the word was not added again
    callbacks = [r for r in h.fake.replies_to(iid) if "/callback" in r.path]
    assert len(h.fake.replies_to(iid)) == answers + len(callbacks) - 1  # only the acknowledgement
    assert not [r for r in h.fake.replies_to(iid) if r.method == "DELETE"]  # the answer stays


async def words(h: Harness) -> set[str]:
    added, _ = await h.svc.store.word_lists("discord", GUILD_ID)
    return added


async def test_the_value_box_offers_the_servers_roles_as_mentions(h: Harness) -> None:
    await namesake(h)
    iid = await h.fake.autocomplete(*ANN, "config", {"key": "admin-role", "value": "game"}, focused="value")
    [answer] = await h.fake.wait_for("POST", rf"/interactions/{iid}/")
    assert [(c["name"], c["value"]) for c in answer.json["data"]["choices"]] == [
        (f"@Game Masters (id {GAME_MASTERS})", MENTION),
        (f"@game masters (id {NAMESAKE})", f"<@&{NAMESAKE}>"),
    ]
    iid = await h.fake.autocomplete(*ANN, "config", {"key": "admin-role", "value": "every"}, focused="value")
    [answer] = await h.fake.wait_for("POST", rf"/interactions/{iid}/")
    assert answer.json["data"]["choices"] == []  # never @everyone
