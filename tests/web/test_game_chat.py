"""A Shed game on Discord seen from its players' pages (through discord.py against the fake
Discord): My rack's private answer carries the "Open your hand" link; a page's move shows in the
thread as a typed one would; a refused one is answered on the page only."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from adapters.web.companion import WebCompanion
from adapters.web.links import Links
from bot import views
from bot.app import Services
from bot.clock import SystemClock
from bot.recording import StoreGameLog
from bot.registry import Registry, load_default
from bot.workspace import Workspace
from storage import open_store
from tests.adapters.discord.conftest import Harness, h, is_lobby  # noqa: F401 (the fixture)
from tests.adapters.discord.fakediscord import CHANNEL_ID
from tests.web.test_links_in_chat import ANN, BOB, PUBLIC, components


@pytest.fixture
def registry() -> Registry:
    return Registry([g for g in load_default() if g.name == "shed"])


@pytest.fixture
async def services(tmp_path: Path, registry: Registry) -> AsyncIterator[Services]:
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    try:
        svc = Services(registry, Workspace(store, registry), StoreGameLog(store), store)
        svc.companions.append(WebCompanion(Links(store.web_links, SystemClock(), PUBLIC)))
        yield svc
    finally:
        await store.close()


async def test_a_shed_move_made_on_a_page_is_a_move_in_the_discord_thread(h: Harness) -> None:  # noqa: F811
    from aiohttp.test_utils import TestClient, TestServer

    from adapters.web.server import WebServer

    await h.fake.slash(*ANN, "start", {"game": "shed", "more": "bots=0"})
    await h.fake.wait_for("POST", r"^/channels/\d+/messages$", is_lobby)
    chat = next(iter(h.manager.sessions))
    thread = chat.thread_id
    await h.fake.slash(*BOB, "join", channel=thread, thread_parent=CHANNEL_ID)
    await h.fake.until(lambda: len(h.manager.sessions[chat].players) == 2)
    await h.fake.slash(*ANN, "go", channel=thread, thread_parent=CHANNEL_ID)
    await h.fake.until(lambda: h.manager.sessions[chat].engine is not None)
    await h.drain()
    session = h.manager.sessions[chat]
    first, second = ANN, BOB  # (Shed's first player is the first seat: the host)

    # My rack on the table: the private answer holds the link to the player's own hand
    def tables() -> list[str]:
        return [
            m for m, p in h.fake.messages.items() if p["channel_id"] == thread and views.HAND in json.dumps(p)
        ]

    await h.fake.until(lambda: bool(tables()))  # (the game may still be dealing on a loaded machine)
    table = tables()[0]
    assert session.engine.current == f"discord:{ANN[0]}"  # type: ignore[union-attr]
    iid = await h.fake.press(*first, views.HAND, table, channel=thread, thread_parent=CHANNEL_ID)
    [hand] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    [link] = [c for c in components(hand) if c.get("url")]
    assert hand.ephemeral and link["label"] == "Open your hand"

    companion = h.svc.companions[0]
    assert isinstance(companion, WebCompanion)
    players = {p.user_id: p for p in session.players}
    site = "http://moji.example"  # (plain http: the test client keeps no Secure cookie)
    server = TestServer(WebServer(companion, h.clock, site).app())
    clients = []
    try:
        for who in (first, second):
            url = await companion.link(chat, players[who[0]])
            assert url is not None
            client = TestClient(server)
            await client.start_server()
            clients.append(client)
            game, token = url.split("/g/", 1)[1].split("#", 1)
            opened = await client.post(f"/g/{game}/session", json={"token": token}, headers={"Origin": site})
            assert opened.status == 200
        mover, waiting = clients
        sent_before = len(h.fake.requests)
        refused = await waiting.post(f"/g/{game}/move", json={"action": "draw"}, headers={"Origin": site})
        assert refused.status == 422 and "not your turn" in (await refused.json())["reason"]
        await h.drain()
        assert not [r for r in h.fake.requests[sent_before:] if "not your turn" in r.text], (
            "a page's refusal is answered on the page, never in Discord"
        )
        played = await mover.post(f"/g/{game}/move", json={"action": "draw"}, headers={"Origin": site})
        assert played.status == 200, await played.text()
        await h.drain()
        shown = [r.text for r in h.fake.requests if thread in r.path and r.status == 200]
        assert [t for t in shown if "draws a card" in t], "the thread shows the page's move"
    finally:
        for client in clients:
            await client.close()
        await server.close()
