"""A server that removes moji and adds it back.

(``forget-me``, ``privacy`` answered privately and ``purge`` for admins only, on every platform:
the contract suite, tests/contract/test_forget.py, test_privacy.py and test_rights.py.)"""

from __future__ import annotations

from bot.features.housekeeping import DAY, housekeeping
from tests.adapters.discord.conftest import ANN, CHAT, Harness
from tests.adapters.discord.fakediscord import GUILD_ID

WS = CHAT.workspace_id


async def scored(h: Harness, *players: tuple[str, str]) -> None:
    """Give the players a record in the server (as a finished game would)."""
    store = h.svc.store
    await store.upsert_workspace("discord", WS)
    for uid, name in players:
        await store.upsert_player("discord", uid, name)


async def test_a_server_removing_moji_and_adding_it_back_keeps_its_data(h: Harness) -> None:
    store = h.svc.store
    await scored(h, ANN)
    await store.set_setting("discord", WS, "quiet", "on", ANN[0])
    now = h.clock.now()
    await h.fake.send("GUILD_DELETE", {"id": GUILD_ID})
    await h.fake.until(lambda: h.bot.get_guild(int(GUILD_ID)) is None)
    for _ in range(100):
        if await _pending(h):
            break
        await h.settle()
    assert await _pending(h) == [("discord", WS)]
    # added back within the grace period: the deletion is cancelled
    joined = {k: v for k, v in h.fake.guild_payload(GUILD_ID).items() if k != "unavailable"}  # (a join)
    await h.fake.send("GUILD_CREATE", joined)
    await h.fake.until(lambda: h.bot.get_guild(int(GUILD_ID)) is not None)
    for _ in range(100):
        if not await _pending(h):
            break
        await h.settle()
    assert await _pending(h) == []
    done = await housekeeping(store, "discord", now + 31 * DAY, present=h.bot._present)
    assert done.purged == [] and await store.get_settings("discord", WS) == {"quiet": "on"}
    # removed for good: after the grace period, the job purges it
    await h.fake.send("GUILD_DELETE", {"id": GUILD_ID})
    for _ in range(100):
        if await _pending(h):
            break
        await h.settle()
    assert (
        await housekeeping(store, "discord", h.clock.now() + 29 * DAY, present=h.bot._present)
    ).purged == []
    done = await housekeeping(store, "discord", h.clock.now() + 31 * DAY, present=h.bot._present)
    assert done.purged == [WS] and await store.get_settings("discord", WS) == {}


async def _pending(h: Harness) -> list[tuple[str, str]]:
    return await h.svc.store.due_deletions(float("inf"))
