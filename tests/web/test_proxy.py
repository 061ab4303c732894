"""Pages of a game another process runs (adapters/web/proxy.py), in one test process: the
owner ("A", the web table's server) and another process ("B": its own server and companion,
running no game) share the links' database; who runs what is a small fake of the database's
answer. A page opened on B shows A's game, plays its moves there and follows it live; a
request that only claims to come from another process is refused; a game changing hands is
"moving", and a request passed on is never passed on again. (Two real processes on one
PostgreSQL: tests/hardening/test_web_processes.py.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from adapters.web.companion import WebCompanion
from adapters.web.links import Links
from adapters.web.proxy import HEADER, PageProxy, internal_url, signature
from adapters.web.server import COOKIE, WebServer
from bot.core.clock import FakeClock
from bot.core.events import Command
from bot.process.httpguard import Guard, Limits
from storage.records import ChatOwner
from tests.web.helpers import CHAT, LiveReader, Table, current, web_table


@dataclass
class Directory:
    """Who runs the table's game, and where each process serves pages (the database's word)."""

    owner: str = "A"
    live: bool = True
    game_id: str = ""
    pages: dict[str, tuple[str, str]] = field(default_factory=dict)

    async def chat_owner(self, platform: str, workspace_id: str, channel_id: str, thread_id: str | None):  # type: ignore[no-untyped-def]
        if (platform, workspace_id, channel_id, thread_id) != (
            CHAT.platform,
            CHAT.workspace_id,
            CHAT.channel_id,
            CHAT.thread_id,
        ):
            return None
        return ChatOwner(
            *(platform, workspace_id, channel_id, thread_id), self.game_id, self.owner, 1, self.live
        )

    async def set_instance_web(self, instance_id: str, url: str, key: str) -> None:
        self.pages[instance_id] = (url, key)

    async def instance_web(self, instance_id: str) -> tuple[str, str] | None:
        return self.pages.get(instance_id)


@dataclass
class Two:
    table: Table
    directory: Directory
    a: PageProxy
    b: PageProxy
    b_server: TestServer
    b_url: str
    guard: Guard

    def client(self) -> TestClient:
        return TestClient(self.b_server)


@pytest.fixture
async def two(tmp_path: Path) -> AsyncIterator[Two]:
    clock = FakeClock(1_000_000.0)
    async with web_table(tmp_path, clock) as table:
        directory = Directory(game_id=table.session.game_id)
        guard = Guard(Limits())
        a = PageProxy(directory, "A", clock, table.url, guard=guard)
        table.table.server.proxy = a
        await a.register()
        companion = WebCompanion(Links(table.store.web_links, clock, "http://127.0.0.1"))
        b = PageProxy(directory, "B", clock, "http://127.0.0.1:1")
        server = WebServer(companion, clock, "http://127.0.0.1", b)
        b_server = TestServer(server.app(), host="127.0.0.1")
        await b_server.start_server()
        b_url = f"http://127.0.0.1:{b_server.port}"
        server.public_url(b_url)
        try:
            yield Two(table, directory, a, b, b_server, b_url, guard)
        finally:
            await b.close()
            await a.close()
            await b_server.close()


async def opened_on_b(two: Two, who) -> tuple[TestClient, str]:  # type: ignore[no-untyped-def]
    path, token = (await two.table.link(who)).split("#", 1)
    game = path.split("/g/", 1)[1]
    client = two.client()
    await client.start_server()
    response = await client.post(f"/g/{game}/session", json={"token": token}, headers={"Origin": two.b_url})
    assert response.status == 200, await response.text()
    return client, game


async def test_a_page_on_another_process_shows_the_game_plays_its_moves_and_follows_it(two: Two) -> None:
    first = current(two.table)
    client, game = await opened_on_b(two, first)
    try:
        page = await client.get(f"/g/{game}")
        html = await page.text()
        assert page.status == 200 and 'role="grid"' in html, html[:500]
        mine = "".join(two.table.session.engine.racks[first.seat_id])
        assert f'data-rack="{mine}"' in html, "the player's own page, rendered by the owner"
        assert page.headers["Content-Security-Policy"].startswith("default-src 'none'")
        events = await client.get(f"/g/{game}/events", headers={"Origin": two.b_url})
        assert events.status == 200 and events.headers["Content-Type"] == "text/event-stream"
        live = LiveReader(events)
        assert "Last moves" in await live.next()
        # a move from the page on B is played by A's game, as a typed one
        played = await client.post(f"/g/{game}/move", json={"action": "pass"}, headers={"Origin": two.b_url})
        assert played.status == 200 and (await played.json())["ok"], await played.text()
        log = two.table.table.runtime.manager.game_log
        assert [(a.seat, a.text) for a in log.actions[game] if a.kind == "say"] == [(first.seat_id, "pass")]
        await live.until(lambda html: html.count("passes") == 1)
        # a move typed in chat reaches the page's live channel through B
        second = current(two.table)
        await two.table.table.runtime.ingest(Command("play", ("pass",), CHAT, second))
        await live.until(lambda html: html.count("passes") == 2)
        preview = await client.post(f"/g/{game}/preview", json={"tiles": []}, headers={"Origin": two.b_url})
        assert preview.status == 200
        events.close()
        assert two.b.sent >= 4 and two.a.received == two.b.sent
        assert two.guard.trusted("127.0.0.1"), "A now counts B's clients, not B"
    finally:
        await client.close()


async def test_a_request_that_only_claims_to_come_from_a_process_is_refused(two: Two) -> None:
    first = current(two.table)
    on_b, game = await opened_on_b(two, first)
    cookie = f"{COOKIE}={next(c.value for c in on_b.session.cookie_jar if c.key == COOKIE)}"
    await on_b.close()
    client = TestClient(two.table.server)
    await client.start_server()
    try:
        path = f"/g/{game}/events"
        at = repr(two.table.table.runtime.manager.clock.now())
        forged = signature("not-the-key", "B", at, "GET", path)
        for claim in (
            f"B;{at};{forged}",
            "B;x;y",
            f"B;{float(at) - 3600!r};{signature(two.a.key, 'B', repr(float(at) - 3600), 'GET', path)}",
        ):
            refused = await client.get(
                path, headers={HEADER: claim, "Origin": two.table.url, "Cookie": cookie}
            )
            assert refused.status == 403, claim
        assert two.a.received == 0
    finally:
        await client.close()


async def test_a_game_changing_hands_is_moving_and_a_request_passed_on_is_not_passed_on_again(
    two: Two,
) -> None:
    first = current(two.table)
    client, game = await opened_on_b(two, first)
    try:
        two.directory.live = False  # A's lease lapsed: nobody runs the game until it is adopted
        page = await client.get(f"/g/{game}")
        assert page.status == 503 and page.headers["Refresh"] == "2" and "moving" in await page.text()
        events = await client.get(f"/g/{game}/events", headers={"Origin": two.b_url})
        body = await events.text()  # (it ends at once; the browser's EventSource comes back)
        assert events.status == 200 and body.startswith("retry: 1000\n") and "data:" not in body
        move = await client.post(f"/g/{game}/move", json={"action": "pass"}, headers={"Origin": two.b_url})
        assert move.status == 503 and "moving" in (await move.json())["reason"]
        assert two.b.sent == 0
        # the database says B runs it (it is adopting it) but B has not got it yet: moving too
        two.directory.live, two.directory.owner = True, "B"
        assert (await client.get(f"/g/{game}")).status == 503
        # A says B runs it while B says A does: a request passed on comes back "moving", once
        two.directory.owner = "A"
        elsewhere = Directory(owner="B", game_id=game, pages={"B": (two.b_url, two.b.key)})
        confused = PageProxy(elsewhere, "A", two.a.clock, two.table.url, key=two.a.key)
        two.table.table.server.proxy = confused
        two.table.table.server.companion = WebCompanion(
            Links(two.table.store.web_links, two.a.clock, two.table.url)
        )
        looped = await client.get(f"/g/{game}")
        assert looped.status == 503 and "moving" in await looped.text()
        assert (two.b.sent, confused.received, confused.sent, two.b.received) == (1, 1, 0, 0)
    finally:
        await client.close()


async def test_a_game_nobody_runs_any_more_is_gone_as_before(two: Two) -> None:
    client, game = await opened_on_b(two, current(two.table))
    try:
        two.directory.game_id = "another"  # the chat has another game now
        page = await client.get(f"/g/{game}")
        assert page.status == 410 and "not running here any more" in await page.text()
    finally:
        await client.close()


def test_a_process_s_internal_address_defaults_to_host_and_port() -> None:
    assert internal_url("http://moji-2.internal:3000/", "0.0.0.0", 3000) == "http://moji-2.internal:3000"
    assert internal_url("", "127.0.0.1", 4001) == "http://127.0.0.1:4001"
    assert internal_url("", "::1", 4001) == "http://[::1]:4001"
    default = internal_url("", "0.0.0.0", 3000)
    assert default.startswith("http://") and default.endswith(":3000") and "0.0.0.0" not in default
