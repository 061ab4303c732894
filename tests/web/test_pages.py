"""The web companion over HTTP: links, sessions, authorisation, moves, the live channel.

A real aiohttp server and a real SQLite database; moves go through the chat's runtime, so the
game's log and refusals are the chat's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient

from adapters.web.server import COOKIE, CSP
from bot.core.clock import FakeClock
from tests.web.helpers import ANN, BOB, CHAT, Table, current, give, web_table


@pytest.fixture
async def table(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with web_table(tmp_path, FakeClock(1_000_000.0)) as t:
        yield t


def secret(link: str) -> tuple[str, str]:
    path, token = link.split("#", 1)
    return path.split("/g/", 1)[1], token


async def opened(t: Table, who) -> tuple[TestClient, str]:  # type: ignore[no-untyped-def]
    game, token = secret(await t.link(who))
    client = t.client()
    await client.start_server()
    response = await client.post(f"/g/{game}/session", json={"token": token}, headers={"Origin": t.url})
    assert response.status == 200, await response.text()
    return client, game


async def test_a_link_s_secret_is_in_its_fragment_and_opens_one_session_once(table: Table) -> None:
    link = await table.link(ANN)
    assert link.startswith(f"{table.url}/g/{table.session.game_id}#")
    game, token = secret(link)
    client = table.client()
    await client.start_server()
    try:
        page = await client.get(f"/g/{game}")
        assert page.status == 200 and "Opening your game" in await page.text()
        assert (
            page.headers["Content-Security-Policy"] == CSP
            and page.headers["Referrer-Policy"] == "no-referrer"
        )
        first = await client.post(f"/g/{game}/session", json={"token": token}, headers={"Origin": table.url})
        assert first.status == 200
        cookie = first.cookies[COOKIE]
        assert cookie["httponly"] and cookie["samesite"] == "Strict" and cookie["path"] == f"/g/{game}"
        again = await client.post(f"/g/{game}/session", json={"token": token}, headers={"Origin": table.url})
        assert again.status == 403 and "used already" in (await again.json())["reason"]
        page = await client.get(f"/g/{game}")
        html = await page.text()
        assert 'role="grid"' in html and "H8, " in html and "<script>" not in html
    finally:
        await client.close()


async def test_another_site_cannot_post_or_listen(table: Table) -> None:
    game, token = secret(await table.link(ANN))
    client = table.client()
    await client.start_server()
    try:
        evil = await client.post(
            f"/g/{game}/session", json={"token": token}, headers={"Origin": "https://evil.example"}
        )
        assert evil.status == 403
        # the refused request did not use the link up
        ok = await client.post(f"/g/{game}/session", json={"token": token}, headers={"Origin": table.url})
        assert ok.status == 200
        listen = await client.get(f"/g/{game}/events", headers={"Origin": "https://evil.example"})
        assert listen.status == 403
        cross = await client.post(
            f"/g/{game}/move", json={"action": "pass"}, headers={"Sec-Fetch-Site": "cross-site"}
        )
        assert cross.status == 403
        form = await client.post(f"/g/{game}/move", data="action=pass", headers={"Origin": table.url})
        assert form.status == 415
    finally:
        await client.close()


async def test_a_session_is_refused_on_another_game(table: Table) -> None:
    client, game = await opened(table, ANN)
    try:
        # the cookie is the game's only (its path); sent by hand to another game, it is refused
        secret_value = next(c.value for c in client.session.cookie_jar if c.key == COOKIE)
        other = await client.post(
            "/g/another-game/move",
            json={"action": "pass"},
            headers={"Origin": table.url, "Cookie": f"{COOKIE}={secret_value}"},
        )
        assert other.status == 403 and "another game" in (await other.json())["reason"]
        none = await table.client().session.post(f"{table.url}/g/{game}/move", json={"action": "pass"})
        assert none.status == 401
    finally:
        await client.close()


async def test_a_move_out_of_turn_is_refused_in_the_game_s_words_and_a_move_in_turn_is_played(
    table: Table,
) -> None:
    first = current(table)
    second = BOB if first is ANN else ANN
    waiting, game = await opened(table, second)
    playing, _ = await opened(table, first)
    try:
        refused = await waiting.post(
            f"/g/{game}/move", json={"action": "pass"}, headers={"Origin": table.url}
        )
        assert refused.status == 422
        assert (await refused.json())["reason"] == f"It's {first.display_name}'s turn, not yours."
        played = await playing.post(f"/g/{game}/move", json={"action": "pass"}, headers={"Origin": table.url})
        assert played.status == 200 and (await played.json())["ok"]
        assert current(table) is second
        # both are in the game's log, as typed ones are (a refused move too)
        log = table.table.runtime.manager.game_log
        says = [(a.seat, a.text) for a in log.actions[table.session.game_id] if a.kind == "say"]
        assert says == [(second.seat_id, "pass"), (first.seat_id, "pass")]
    finally:
        await waiting.close()
        await playing.close()


async def test_tiles_placed_on_the_page_are_previewed_then_played_as_the_typed_move(table: Table) -> None:
    first = current(table)
    give(table.session, {first: "QUIZSAT"})
    client, game = await opened(table, first)
    tiles = [[7, 7 + i, ch] for i, ch in enumerate("QUIZ")]
    try:
        preview = await (
            await client.post(f"/g/{game}/preview", json={"tiles": tiles}, headers={"Origin": table.url})
        ).json()
        assert preview["ok"] and preview["move"] == "H8 across QUIZ" and preview["words"][0][0] == "QUIZ"
        played = await client.post(
            f"/g/{game}/move", json={"action": "place", "tiles": tiles}, headers={"Origin": table.url}
        )
        assert played.status == 200
        assert (
            table.session.snapshot(None)
            .seats[[s.seat for s in table.session.snapshot(None).seats].index(first.seat_id)]
            .score
            == preview["score"]
        )
    finally:
        await client.close()


async def test_a_watcher_sees_no_rack_and_cannot_move(table: Table) -> None:
    client, game = await opened(table, None)
    try:
        html = await (await client.get(f"/g/{game}")).text()
        assert 'id="rack"' not in html and "watching" in html
        for seat in (ANN.seat_id, BOB.seat_id):
            rack = "".join(table.session.engine.racks[seat])
            assert f'data-rack="{rack}"' not in html
        move = await client.post(f"/g/{game}/move", json={"action": "pass"}, headers={"Origin": table.url})
        assert move.status == 403
    finally:
        await client.close()


async def test_a_player_s_page_shows_their_rack_only(table: Table) -> None:
    client, game = await opened(table, ANN)
    try:
        html = await (await client.get(f"/g/{game}")).text()
        mine = "".join(table.session.engine.racks[ANN.seat_id])
        assert f'data-rack="{mine}"' in html
        assert html.count('class="rtile"') == len(mine)
    finally:
        await client.close()


async def test_the_live_channel_sends_the_state_then_each_change(table: Table) -> None:
    client, game = await opened(table, None)
    try:
        events = await client.get(f"/g/{game}/events", headers={"Origin": table.url})
        assert events.status == 200 and events.headers["Content-Type"] == "text/event-stream"

        async def next_state() -> dict:  # type: ignore[type-arg]
            while True:
                line = (await events.content.readline()).decode()
                if line.startswith("data: "):
                    return json.loads(line[6:])

        first = await next_state()
        assert "Last moves" in first["html"]
        mover = current(table)
        from bot.core.events import Command

        await table.table.runtime.ingest(Command("play", ("pass",), CHAT, mover))  # typed in chat
        second = await next_state()  # (only what changed: tests/web/test_live_updates.py)
        assert "passes" in json.dumps(second)
        events.close()
    finally:
        await client.close()


async def test_a_session_over_its_allowance_is_told_to_slow_down_and_gets_it_back_in_time(
    table: Table,
) -> None:
    from adapters.web.server import BURST, RATE

    client, game = await opened(table, ANN)
    clock = table.table.runtime.manager.clock
    try:
        statuses = []
        for _ in range(BURST + 1):  # (the clock stands still: no allowance comes back meanwhile)
            r = await client.post(f"/g/{game}/preview", json={"tiles": []}, headers={"Origin": table.url})
            statuses.append(r.status)
        assert statuses[:BURST] == [200] * BURST and statuses[BURST] == 429
        assert "Slow down" in (await r.json())["reason"]
        await clock.advance(1.5 / RATE)  # (a little over one request's worth: no float edge)
        again = await client.post(f"/g/{game}/preview", json={"tiles": []}, headers={"Origin": table.url})
        assert again.status == 200
    finally:
        await client.close()


async def test_a_blank_is_placed_as_its_letter_and_a_swap_is_the_typed_swap(table: Table) -> None:
    first = current(table)
    give(table.session, {first: "QUI?SAT"})
    client, game = await opened(table, first)
    try:
        tiles = [[7, 7, "Q"], [7, 8, "U"], [7, 9, "I"], [7, 10, "z"]]  # the blank stands for Z
        preview = await (
            await client.post(f"/g/{game}/preview", json={"tiles": tiles}, headers={"Origin": table.url})
        ).json()
        assert preview["ok"] and preview["move"] == "H8 across QUIz", preview
        swap = await client.post(
            f"/g/{game}/move",
            json={"action": "swap", "tiles": [[0, 0, "Q"], [0, 0, "?"]]},
            headers={"Origin": table.url},
        )
        assert swap.status == 200, await swap.text()
        log = table.table.runtime.manager.game_log
        assert [a.text for a in log.actions[table.session.game_id] if a.kind == "say"] == ["swap Q?"]
        bad = await client.post(
            f"/g/{game}/move",
            json={"action": "place", "tiles": [[7, 7, "Q7"]]},
            headers={"Origin": table.url},
        )
        assert bad.status == 400
    finally:
        await client.close()
