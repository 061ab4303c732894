"""Links in chat: a player of a MOJO game on Discord gets their page's link only privately (a link
button on My rack's ephemeral reply, and on their private rack notes); a "your turn" message in
the thread carries the My rack button, never a link. Through discord.py against the fake Discord.

Also the renderings of a link button on Slack and in the terminal, and what a process without
PUBLIC_URL says instead."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from adapters.slack.blocks import render as slack_render
from adapters.terminal.render import render as terminal_render
from adapters.web.companion import WebCompanion
from adapters.web.wiring import HOW_TO_ENABLE, WebOff, companion_for
from bot.core import views
from bot.core.clock import SystemClock
from bot.core.events import Private
from bot.core.registry import Registry
from storage import open_store
from tests.adapters.discord.conftest import Harness, h  # noqa: F401 (the fixture)
from tests.adapters.discord.fakediscord import CHANNEL_ID
from tests.web.helpers import ANN as WEB_ANN
from tests.web.helpers import CHAT as WEB_CHAT
from tests.web.helpers import give, web_table
from tests.web.on_discord import (
    PUBLIC,
    SITE,
    companion,
    link_buttons,
    only,
    page_clients,
    start_game,
    tables,
    thread_text,
)


@pytest.fixture
def registry() -> Registry:
    return only("board")


async def test_a_discord_player_s_link_is_only_ever_private(h: Harness) -> None:  # noqa: F811
    _, thread, session = await start_game(h, "board")
    [first] = [p for p in session.players if session.state.turn_seats() == {p.seat_id}]
    who = (first.user_id, first.display_name)

    # My rack, pressed on the table: the ephemeral answer has a link button to the player's page
    table = tables(h, thread, views.HAND)[0]
    iid = await h.fake.press(*who, views.HAND, table, channel=thread, thread_parent=CHANNEL_ID)
    [rack] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    links = link_buttons(rack)
    assert rack.ephemeral and len(links) == 1
    assert links[0]["url"].startswith(f"{PUBLIC}/g/{session.game_id}#") and links[0]["style"] == 5
    assert "custom_id" not in links[0]

    # the table carries a Watch live link: anyone's, again and again, the public view only
    posted = [
        r
        for r in h.fake.of("POST", rf"^/channels/{thread}/messages$")
        if r.status == 200 and views.HAND in r.text
    ]
    watch = [c for r in posted for c in link_buttons(r)]
    assert watch and all(c["label"] == "Watch live" and c["style"] == 5 for c in watch)
    web = companion(h)
    for _ in range(2):
        seen = await web.links.open(watch[0]["url"].split("#", 1)[1])
        assert seen is not None and seen.grant.watcher and seen.grant.game_id == session.game_id

    # the link opens that player's page once
    opened = await web.links.open(links[0]["url"].split("#", 1)[1])
    assert opened is not None and opened.grant.user_id == first.user_id
    assert opened.grant.game_id == session.game_id

    # a move: the next player's "your turn" message carries My rack, and no link
    await h.fake.say(*who, "pass", channel=thread)
    await h.fake.until(lambda: session.state.turn_seats() != {first.seat_id})
    await h.drain()
    posts = [r for r in h.fake.of("POST", rf"^/channels/{thread}/messages$") if r.status == 200]
    turns = [r for r in posts if "your turn" in r.text.lower()]
    assert turns and all(views.HAND in r.text for r in turns)
    everything_public = [r.text for r in h.fake.requests if "/channels/" in r.path and r.status == 200]
    seat_links = [t for t in everything_public if f"{PUBLIC}/g/" in t and "Watch live" not in t]
    assert not seat_links, "no player's link is ever posted in a channel (only the table's watch link)"
    assert all(links[0]["url"] not in t for t in everything_public)


async def test_a_move_made_on_a_page_is_a_move_in_the_discord_thread(h: Harness) -> None:  # noqa: F811
    """A Discord game seen from its players' pages: a page's move shows in the thread as a typed
    one would; a refused one is answered on the page only (nothing reaches Discord for it)."""
    chat, thread, session = await start_game(h, "board")
    order = sorted(session.players, key=lambda p: session.state.turn_seats() != {p.seat_id})
    give(session, {order[0]: "QUIZAEO", order[1]: "UITSAEO"})
    users = [(p.user_id, p.display_name) for p in order]
    async with page_clients(h, chat, session, users) as (game, (mover, waiting)):
        sent_before = len(h.fake.requests)
        refused = await waiting.post(f"/g/{game}/move", json={"action": "pass"}, headers={"Origin": SITE})
        assert refused.status == 422 and "turn, not yours" in (await refused.json())["reason"]
        await h.drain()
        assert not [r for r in h.fake.requests[sent_before:] if "turn, not yours" in r.text], (
            "a page's refusal is answered on the page, never in Discord"
        )
        tiles = [[7, 7 + i, ch] for i, ch in enumerate("QUIZ")]
        played = await mover.post(
            f"/g/{game}/move", json={"action": "place", "tiles": tiles}, headers={"Origin": SITE}
        )
        assert played.status == 200, await played.text()
        await h.drain()
        assert [t for t in thread_text(h, thread) if "plays H8 across QUIZ" in t], "the thread shows it"


def test_slack_shows_a_link_button_and_the_terminal_prints_the_link() -> None:
    link = views.ButtonSpec(views.OPEN_LINK, "Open the board", "primary", url=f"{PUBLIC}/g/abc#secret")
    view = views.View(kind="private", lines=("Your rack: A B C",), buttons=(link,))
    [button] = [e for b in slack_render(view) if b["type"] == "actions" for e in b["elements"]]
    assert button["url"] == link.url and button["action_id"] == views.OPEN_LINK and "value" not in button
    assert f"Open the board: {PUBLIC}/g/abc#secret" in terminal_render(view, colour=False)
    turn = views.View(
        kind="turn", lines=("Ann, your turn",), buttons=(views.ButtonSpec(views.HAND, "My rack"),)
    )
    assert any(b["type"] == "actions" for b in slack_render(turn)), (
        "Slack's turn message has its My rack button"
    )


async def test_without_public_url_a_board_player_is_told_once_how_to_turn_pages_on(tmp_path: Path) -> None:
    assert isinstance(companion_for("", None, SystemClock(), None), WebOff)  # type: ignore[arg-type]
    from bot.core.clock import FakeClock

    async with web_table(tmp_path, FakeClock(1_000_000.0)) as table:
        off = WebOff()
        taps: list[Any] = []
        off.attach(table.table.runtime, taps)
        note = Private(WEB_CHAT, WEB_ANN, views.message("Your rack: A B C", "private"))
        shown = await taps[0](note)
        assert shown is not None and HOW_TO_ENABLE in shown.view.plain()
        again = await taps[0](note)
        assert again is note, "once per player"


async def test_with_public_url_the_pages_are_mounted_on_the_process_s_http_server(tmp_path: Path) -> None:
    """``bot.process.app.serve``'s wiring: the companion's routes on the one HTTP server (HOST:PORT),
    hardened by their own handlers (the server runs no middleware of a mounted app)."""
    import aiohttp

    from adapters.web.server import CSP
    from bot.process.health import HealthServer

    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    server = HealthServer("127.0.0.1", 0)
    try:
        companion = companion_for(PUBLIC, store.web_links, SystemClock(), server)
        assert isinstance(companion, WebCompanion)
        await server.start()
        async with aiohttp.ClientSession() as http:
            base = f"http://127.0.0.1:{server.port}"
            async with http.get(f"{base}/static/board.js") as r:
                assert r.status == 200 and r.headers["Content-Type"].startswith("text/javascript")
                assert r.headers["Content-Security-Policy"] == CSP
            async with http.get(f"{base}/g/some-game") as r:
                assert r.status == 200 and "Opening your game" in await r.text()
                assert r.headers["Referrer-Policy"] == "no-referrer"
            async with http.get(f"{base}/static/../../bot/config.py") as r:
                assert r.status == 404
            async with http.get(f"{base}/healthz") as r:
                assert r.status == 200
    finally:
        await server.stop()
        await store.close()
