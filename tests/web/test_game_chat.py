"""A Shed game on Discord seen from its players' pages (through discord.py against the fake
Discord): My rack's private answer carries the "Open your hand" link; a page's move shows in the
thread as a typed one would; a refused one is answered on the page only."""

from __future__ import annotations

import pytest

from bot.core import views
from bot.core.registry import Registry
from tests.adapters.discord.conftest import Harness, h  # noqa: F401 (the fixture)
from tests.adapters.discord.fakediscord import CHANNEL_ID
from tests.web.on_discord import (
    ANN,
    BOB,
    SITE,
    components,
    only,
    page_clients,
    start_game,
    tables,
    thread_text,
)


@pytest.fixture
def registry() -> Registry:
    return only("shed")


async def test_a_shed_move_made_on_a_page_is_a_move_in_the_discord_thread(h: Harness) -> None:  # noqa: F811
    chat, thread, session = await start_game(h, "shed")
    first, second = ANN, BOB  # (Shed's first player is the first seat: the host)

    # My rack on the table: the private answer holds the link to the player's own hand
    await h.fake.until(lambda: bool(tables(h, thread, views.HAND)))  # (it may still be dealing)
    table = tables(h, thread, views.HAND)[0]
    assert session.engine.current == f"discord:{ANN[0]}"  # type: ignore[union-attr]
    iid = await h.fake.press(*first, views.HAND, table, channel=thread, thread_parent=CHANNEL_ID)
    [hand] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    [link] = [c for c in components(hand) if c.get("url")]
    assert hand.ephemeral and link["label"] == "Open your hand"

    async with page_clients(h, chat, session, [first, second]) as (game, (mover, waiting)):
        sent_before = len(h.fake.requests)
        refused = await waiting.post(f"/g/{game}/move", json={"action": "draw"}, headers={"Origin": SITE})
        assert refused.status == 422 and "not your turn" in (await refused.json())["reason"]
        await h.drain()
        assert not [r for r in h.fake.requests[sent_before:] if "not your turn" in r.text], (
            "a page's refusal is answered on the page, never in Discord"
        )
        played = await mover.post(f"/g/{game}/move", json={"action": "draw"}, headers={"Origin": SITE})
        assert played.status == 200, await played.text()
        await h.drain()
        assert [t for t in thread_text(h, thread) if "draws a card" in t], "the thread shows the page's move"
