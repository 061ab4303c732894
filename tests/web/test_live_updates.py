"""Smaller live updates (adapters/web/server.py): a page's live channel sends the whole live part
once, then only the regions that changed (elements replaced by id), numbered; applied as the
page's script applies them, they give exactly what a fresh page shows."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from adapters.web.server import cut
from bot.core.clock import FakeClock
from bot.core.events import Command
from tests.web.helpers import CHAT, Table, current, give, shown, web_table


@pytest.fixture
async def table(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with web_table(tmp_path, FakeClock(1_000_000.0)) as t:
        yield t


class Channel:
    """A page's live channel, read as the page's script reads it."""

    def __init__(self, response: Any) -> None:
        self.response = response
        self.html: str | None = None
        self.sizes: list[int] = []

    async def next(self) -> tuple[str, dict[str, Any]]:
        event = ""
        while True:
            line = (await self.response.content.readline()).decode()
            assert line, "the channel ended"
            if line.startswith("event: "):
                event = line[7:].strip()
            elif line.startswith("data: "):
                data = json.loads(line[6:])
                self.sizes.append(len(line))
                self.html = shown(self.html, event, data)
                return event, data


async def channel(table: Table, who) -> Channel:  # type: ignore[no-untyped-def]
    game, token = (await table.link(who)).split("/g/", 1)[1].split("#", 1)
    client = table.client()
    await client.start_server()
    opened = await client.post(f"/g/{game}/session", json={"token": token}, headers={"Origin": table.url})
    assert opened.status == 200
    response = await client.get(f"/g/{game}/events", headers={"Origin": table.url})
    assert response.status == 200
    found = Channel(response)
    found.client = client  # type: ignore[attr-defined]
    return found


def same(a: str | None, b: str | None) -> bool:
    """Two live parts alike but for the server's clock at rendering."""
    strip = re.compile(r' data-now="[^"]*"')
    return a is not None and b is not None and strip.sub("", a) == strip.sub("", b)


async def test_after_the_whole_state_only_the_changed_regions_come_and_add_up_to_a_fresh_page(
    table: Table,
) -> None:
    first = current(table)
    give(table.session, {first: "QUIZSAT"})
    page = await channel(table, first)
    try:
        event, state = await page.next()
        assert event == "state" and "<!--r:" not in state["html"] and 'id="sq-H8"' in state["html"]
        await table.table.runtime.ingest(Command("play", ("H8", "across", "QUIZ"), CHAT, first))
        patches = []
        while "plays H8 across QUIZ" not in str(page.html).split('id="log"')[-1]:
            event, data = await page.next()
            assert event == "patch"
            patches.append(data)
        assert patches[0]["base"] == state["v"] and all(
            later["base"] == earlier["v"] for earlier, later in itertools.pairwise(patches)
        )
        changed = {key for data in patches for key in data["regions"]}
        assert {"sq-H8", "sq-I8", "sq-J8", "sq-K8", "log", "scores"} <= changed
        assert not [key for key in changed if key.startswith("sq-") and key[3] not in "HIJK"], changed
        assert "sq-A1" not in changed and max(page.sizes[1:]) < page.sizes[0] / 4
        # what the page shows now is what a fresh page is sent whole
        fresh = await channel(table, first)
        try:
            event, whole = await fresh.next()
            assert event == "state" and same(page.html, whole["html"])
        finally:
            await fresh.client.close()  # type: ignore[attr-defined]
    finally:
        await page.client.close()  # type: ignore[attr-defined]


async def test_watchers_share_one_patch_per_change(table: Table) -> None:
    pages = [await channel(table, None) for _ in range(3)]
    try:
        for page in pages:
            assert (await page.next())[0] == "state"
        await table.table.runtime.ingest(Command("play", ("pass",), CHAT, current(table)))
        updates = [await page.next() for page in pages]
        assert all(event == "patch" for event, _ in updates) and len({json.dumps(d) for _, d in updates}) == 1
        assert "passes" in updates[0][1]["regions"]["log"]
    finally:
        for page in pages:
            await page.client.close()  # type: ignore[attr-defined]


def test_a_live_part_without_regions_is_one_skeleton_sent_whole() -> None:
    one, two = cut("<p>race: 3</p>", 1, False), cut("<p>race: 4</p>", 2, False)
    assert one.regions == {} and one.skeleton != two.skeleton  # (so the page gets a state)
    marked = cut('<!--r:a--><b id="a">1</b><!--/r--><i>x</i>', 3, False)
    assert marked.regions == {"a": '<b id="a">1</b>'} and marked.html == '<b id="a">1</b><i>x</i>'
    again = cut('<!--r:a--><b id="a">2</b><!--/r--><i>x</i>', 4, True)
    patch = json.loads(again.patch(marked).decode().split("data: ", 1)[1])
    assert patch == {"v": 4, "base": 3, "regions": {"a": '<b id="a">2</b>'}, "ended": True}
    assert again.patch(marked) is again.patch(marked), "shared by every page that showed the same"


async def test_live_channels_end_when_the_process_s_http_server_stops(table: Table) -> None:
    """The pages mounted on the process's one HTTP server (platform mode): stopping it (SIGTERM)
    ends every live channel at once, a player's and a watcher's, instead of holding the stop up
    until aiohttp's shutdown timeout (60 s) gives up on them. The pages reconnect by themselves."""
    import asyncio

    import aiohttp

    from bot.process.health import HealthServer

    server = HealthServer("127.0.0.1", 0)
    server.mount(table.table.app())
    await server.start()
    base = f"http://127.0.0.1:{server.port}"
    table.table.public_url(base)
    try:
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            channels = []
            for who in (current(table), None):
                url, token = (await table.link(who)).split("#", 1)
                async with http.post(f"{url}/session", json={"token": token}, headers={"Origin": base}) as r:
                    assert r.status == 200
                live = await http.get(f"{url}/events", headers={"Origin": base})
                assert live.status == 200 and await live.content.readline()  # (open: its first line came)
                channels.append(live)
            stopping = asyncio.ensure_future(server.stop())
            for live in channels:  # (a hang guard far below the 60 s the stop took before)
                await asyncio.wait_for(live.content.read(), 30)
                live.release()
            await stopping
    finally:
        await server.stop()
