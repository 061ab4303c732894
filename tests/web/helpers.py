"""A web table for tests: two people (and a watcher) on a MOJO game of a chat, pages served by
a real aiohttp server, links in a real SQLite database."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from adapters.web.local import LocalTable
from bot.core.clock import Clock
from bot.core.events import ChatKey, Player
from bot.core.registry import Registry, load_default
from bot.features.workspace import Workspace
from storage.sqlite import SQLiteStore
from tests.doubles import MemoryLog

CHAT = ChatKey("web", "W1", "C1")
ANN = Player("web", "ann", "Ann")
BOB = Player("web", "bob", "Bob")
#: Two people, no computer players (the default turn: 72 hours, so no test ever runs out of time).
OPTIONS = ("bots=0",)


@dataclass
class Table:
    """A running game and its pages' server."""

    table: LocalTable
    store: SQLiteStore
    server: TestServer
    url: str

    @property
    def session(self):  # type: ignore[no-untyped-def]
        session = self.table.runtime.session(CHAT)
        assert session is not None
        return session

    async def link(self, player: Player | None) -> str:
        link = await self.table.companion.link(CHAT, player)
        assert link is not None
        return link

    def client(self) -> TestClient:
        return TestClient(self.server)


@asynccontextmanager
async def web_table(
    tmp_path: Path,
    clock: Clock,
    *,
    port: int = 0,
    game: str = "board",
    options: tuple[str, ...] = OPTIONS,
    language: str | None = None,
    registry: Registry | None = None,
) -> AsyncIterator[Table]:
    """A game of Ann and Bob in ``CHAT`` (MOJO unless ``game`` says), its pages served on 127.0.0.1;
    ``language``: the workspace's ``config language`` (what the chat is spoken to in)."""
    store = SQLiteStore(tmp_path / "web.db")
    await store.open()
    registry = registry or load_default()
    workspace = None
    if language is not None:
        await store.set_setting(CHAT.platform, CHAT.workspace_id, "language", language, ANN.user_id)
        workspace = Workspace(store, registry)
    table = LocalTable(registry, MemoryLog(), store.web_links, clock, "http://127.0.0.1", workspace=workspace)
    server = TestServer(table.app(), host="127.0.0.1", port=port or None)
    await server.start_server()
    url = f"http://127.0.0.1:{server.port}"
    table.public_url(url)
    try:
        await table.start([ANN, BOB], game, options, chat=CHAT)
        yield Table(table, store, server, url)
    finally:
        await table.close()
        await server.close()
        await store.close()


def shown(html: str | None, event: str, data: dict[str, Any]) -> str:
    """The live part a page shows after the live channel's ``event`` (``state``: the whole, or
    ``patch``: its changed regions, each an element replaced by id), as a page's script applies it."""
    if event == "state":
        return str(data["html"])
    assert event == "patch" and html is not None, "a patch comes after a state"
    for key, region in data["regions"].items():
        html = replace_element(html, key, region)
    return html


class LiveReader:
    """A page's live channel (an aiohttp response), read as the page's script reads it."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.html: str | None = None

    async def next(self) -> str:
        """The live part after the next update."""
        event = ""
        while True:
            line = (await self.response.content.readline()).decode()
            assert line, "the live channel ended"
            if line.startswith("event: "):
                event = line[7:].strip()
            elif line.startswith("data: "):
                self.html = shown(self.html, event, json.loads(line[6:]))
                return self.html

    async def until(self, holds: Any) -> str:
        """The live part after the first update for which ``holds(html)``."""
        while not holds(html := await self.next()):
            pass
        return html


def replace_element(html: str, key: str, new: str) -> str:
    """``html`` with the element whose id is ``key`` replaced by ``new``."""
    found = re.search(rf'<([a-z0-9]+)\b[^>]*\bid="{re.escape(key)}"', html)
    assert found is not None, f"no element {key}"
    tag, depth = found.group(1), 0
    for match in re.finditer(rf"<(/?){tag}\b[^>]*>", html[found.start() :]):
        depth += -1 if match.group(1) else 1
        if depth == 0:
            return html[: found.start()] + new + html[found.start() + match.end() :]
    raise AssertionError(f"element {key} never ends")


def give(session: Any, racks: dict[Player, str]) -> None:
    """Set players' racks in ``session``'s board game, keeping its tiles whole: their tiles go
    back to the bag, and a tile another player holds is traded for one from the bag."""
    engine: Any = session.engine
    for player in racks:
        engine.bag.extend(engine.racks[player.seat_id])
        engine.racks[player.seat_id].clear()
    wanted = "".join(racks.values())
    for player, tiles in racks.items():
        for tile in tiles:
            if tile not in engine.bag:
                holder = next(r for s, r in engine.racks.items() if tile in r and s not in racks_of(racks))
                holder.remove(tile)
                spare = next(t for t in engine.bag if t not in wanted)
                engine.bag.remove(spare)
                holder.append(spare)
                engine.bag.append(tile)
            engine.bag.remove(tile)
            engine.racks[player.seat_id].append(tile)


def racks_of(racks: dict[Player, str]) -> set[str]:
    """The seats whose racks ``give`` sets."""
    return {player.seat_id for player in racks}


def current(table: Table) -> Player:
    """The player to move."""
    active = next(s for s in table.session.snapshot(None).seats if s.active)
    return ANN if active.seat == ANN.seat_id else BOB


async def nothing_serious(page: Any) -> None:
    """axe-core (vendored by axe-playwright-python, never fetched from a CDN) finds no serious or
    critical violation on ``page``. Without the dev extra the test skips, outside CI only."""
    import os

    import pytest

    try:
        from axe_playwright_python.async_playwright import Axe
    except ImportError:  # pragma: no cover - the dev extra installs it
        if os.environ.get("CI") == "true":
            raise RuntimeError("CI must run the axe scan: install the dev extra") from None
        pytest.skip("axe-playwright-python is not installed (the dev extra)")
    results = await Axe().run(page)
    serious = [
        (v["id"], v["help"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v.get("impact") in ("serious", "critical")
    ]
    assert serious == [], (page.url, serious)
