"""Browsing, reached from a real adapter: on Discord (discord.py against the fake Discord) an admin
turns the web on with ``/moji config web on``; ``leaderboard`` then carries a link button (a
Discord link button: a URL, no custom id) to the workspace's page, which answers; ``config web
off`` takes the button away and the page answers 404."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from aiohttp.test_utils import TestClient, TestServer

from adapters.web.browse import BrowseServer
from bot.core.clock import FakeClock
from bot.core.registry import Registry, load_default
from bot.features.workspace import Workspace
from bot.process.app import Services
from bot.sessions.gamelog import StoreGameLog
from storage import open_store
from storage.sqlstore import SQLStore
from tests.adapters.discord.conftest import Harness, h  # noqa: F401 (the fixture)
from tests.web.on_discord import components

ANN = ("100000000000000101", "Ann")
PUBLIC = "https://moji.example"


@pytest.fixture
def registry() -> Registry:
    return Registry([g for g in load_default() if g.name == "board"])


@pytest.fixture
async def services(tmp_path: Path, registry: Registry) -> AsyncIterator[Services]:
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    try:
        workspace = Workspace(store, registry)
        workspace.web_url = PUBLIC  # (as adapters.web.browse.browse_for does with PUBLIC_URL)
        yield Services(registry, workspace, StoreGameLog(store), store)
    finally:
        await store.close()


async def answer_links(
    harness: Harness, command: str, options: dict[str, str], *, admin: bool = False
) -> list[str]:
    iid = await harness.fake.slash(*ANN, command, options, admin=admin)
    [answer] = await harness.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    links = [c for c in components(answer) if c.get("url")]
    assert all("custom_id" not in c and c["style"] == 5 for c in links)
    return [c["url"] for c in links]


async def test_an_admin_turns_the_web_on_on_discord_and_leaderboard_links_to_it(h: Harness) -> None:  # noqa: F811
    assert await answer_links(h, "leaderboard", {"period": "all"}) == []
    [on] = await answer_links(h, "config", {"key": "web", "value": "on"}, admin=True)
    [link] = await answer_links(h, "leaderboard", {"period": "all"})
    assert (
        link.startswith(f"{PUBLIC}/w/")
        and urlsplit(link).path.split("/")[2] == urlsplit(on).path.split("/")[2]
    )
    store = h.svc.store
    assert isinstance(store, SQLStore)
    server = TestServer(BrowseServer(store, h.svc.registry, FakeClock()).app())
    async with TestClient(server) as client:
        page = await client.get(urlsplit(link).path + "?" + urlsplit(link).query)
        assert page.status == 200 and "Leaderboard — all games, all time" in await page.text()
        assert await answer_links(h, "config", {"key": "web", "value": "off"}, admin=True) == []
        assert await answer_links(h, "leaderboard", {"period": "all"}) == []
        gone = await client.get(urlsplit(link).path)
        assert gone.status == 404
