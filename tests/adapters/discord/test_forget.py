"""forget-me through real discord.py; a server that removes moji and adds it back.

(``privacy`` answered privately and ``purge`` for admins only, on every platform: the contract
suite, tests/contract/test_privacy.py and test_rights.py.)"""

from __future__ import annotations

from typing import Any

from bot.housekeeping import DAY, housekeeping
from bot.privacy import FORGET_ME
from tests.adapters.discord.conftest import ANN, BOB, CHAT, Harness
from tests.adapters.discord.fakediscord import GUILD_ID

WS = CHAT.workspace_id


def reply_to(iid: str) -> str:
    return rf"/webhooks/\d+/token-{iid}$"


def custom_ids(body: Any) -> list[str]:
    rows = (body or {}).get("components") or []
    return [c.get("custom_id") for row in rows for c in row.get("components", [])]


async def scored(h: Harness, *players: tuple[str, str]) -> None:
    """Give the players a record in the server (as a finished game would)."""
    store = h.svc.store
    await store.upsert_workspace("discord", WS)
    for uid, name in players:
        await store.upsert_player("discord", uid, name)


def spy(h: Harness, method: str) -> list[tuple[Any, ...]]:
    calls: list[tuple[Any, ...]] = []
    real = getattr(h.svc.store, method)

    async def recording(*args: Any) -> Any:
        calls.append(args)
        return await real(*args)

    setattr(h.svc.store, method, recording)
    return calls


async def test_forget_me_asks_with_a_button_then_forgets(h: Harness) -> None:
    forgotten = spy(h, "forget_player")
    iid = await h.fake.slash(*ANN, "forget-me")
    [asked] = await h.fake.wait_for("POST", reply_to(iid))
    assert asked.ephemeral and "Forget me in this workspace?" in asked.text
    assert custom_ids(asked.json) == [FORGET_ME]
    assert forgotten == []
    pressed = await h.fake.press(*ANN, FORGET_ME, "900000000000000001")
    [done] = await h.fake.wait_for("POST", reply_to(pressed))
    assert done.ephemeral and "forgotten you" in done.text
    assert forgotten == [("discord", WS, ANN[0])]


async def test_forget_me_confirm_option(h: Harness) -> None:
    forgotten = spy(h, "forget_player")
    iid = await h.fake.slash(*BOB, "forget-me", {"confirm": True})
    [done] = await h.fake.wait_for("POST", reply_to(iid))
    assert "forgotten you" in done.text and forgotten == [("discord", WS, BOB[0])]


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
