"""Two people finish a MOJO game on Discord from their pages, in real headless Chromium: one drags
tiles on a phone (touch), the other plays by keyboard only on a desktop, while the fake Discord's
thread shows every move as a typed one would show, and a watcher's page, opened from the table's
Watch live button, follows. The bot is moji's real discord.py client against the fake Discord
(tests/adapters/discord); the pages are served by the companion the bot hands its links out with.

Waits are on the page's state (Playwright's ``expect``) and on the fake Discord's requests, never
on the wall clock: the delivery layer's pacing runs on the test's clock (``h.drain``)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestServer
from playwright.async_api import Browser, Page, expect

from adapters.web.server import WebServer
from bot.core import views
from bot.core.events import Player
from tests.adapters.discord.conftest import Harness, running_bot
from tests.web.helpers import give
from tests.web.on_discord import companion, link_buttons, only, start_game, thread_text, web_services
from tests.web.test_browser import (
    DESKTOP,
    NEEDS_CHROMIUM,
    PHONE,
    Seen,
    drag,
    key_place,
    only_their_own_racks,
    tab_to,
)

pytestmark = [
    NEEDS_CHROMIUM,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.xdist_group("browser"),
]


@pytest_asyncio.fixture(loop_scope="session")
async def h(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> AsyncIterator[Harness]:
    """The bot on Discord with its web companion, on the browser's event loop."""
    async with web_services(tmp_path, only("board")) as svc, running_bot(monkeypatch, svc) as harness:
        yield harness


@pytest_asyncio.fixture(loop_scope="session")
async def site(h: Harness) -> AsyncIterator[str]:
    """The companion's pages, served on 127.0.0.1: the base of every link the bot hands out."""
    web = companion(h)
    server = TestServer(WebServer(web, h.clock, "http://127.0.0.1").app(), host="127.0.0.1")
    await server.start_server()
    url = f"http://127.0.0.1:{server.port}"
    web.links.public_url = url
    try:
        yield url
    finally:
        await server.close()


async def open_page(browser: Browser, link: str, device: dict[str, Any]) -> tuple[Page, Seen]:
    context = await browser.new_context(**device)
    page = await context.new_page()
    seen = Seen(page)
    await page.goto(link)
    await expect(page.locator("#board")).to_be_visible()
    assert "#" not in page.url, "the link's secret leaves the address bar"
    return page, seen


async def shown_in_thread(h: Harness, thread: str, text: str, times: int = 1) -> None:
    """Let what is queued go out (the thread's rate limit runs on the test's clock), then check
    the thread shows ``text`` (at least ``times`` times)."""
    await h.drain()
    await h.fake.until(lambda: sum(text in t for t in thread_text(h, thread)) >= times, within=30)


async def test_two_players_finish_a_discord_mojo_game_from_their_pages_while_the_thread_shows_every_move(
    browser: Browser, h: Harness, site: str
) -> None:
    chat, thread, session = await start_game(h, "board")
    engine = session.engine
    assert engine is not None
    [dragger] = [p for p in session.players if session.state.turn_seats() == {p.seat_id}]
    [typist] = [p for p in session.players if p != dragger]
    give(session, {dragger: "QUIZAEO", typist: "UITSAEO"})

    web = companion(h)
    links: dict[Player | None, str] = {}
    for who in (dragger, typist):
        link = await web.link(chat, who)
        assert link is not None
        links[who] = link
    # the watcher comes through the table's Watch live button, as anyone in the channel would
    posted = [
        r
        for r in h.fake.of("POST", rf"^/channels/{thread}/messages$")
        if r.status == 200 and views.HAND in r.text
    ]
    [watch] = {b["url"] for r in posted for b in link_buttons(r) if b["label"] == "Watch live"}
    assert watch.startswith(f"{site}/g/{session.game_id}#")
    links[None] = watch
    devices: dict[Player | None, dict[str, Any]] = {dragger: PHONE, typist: DESKTOP, None: DESKTOP}
    pages = {who: await open_page(browser, link, devices[who]) for who, link in links.items()}
    drags, keys, watcher = (pages[who][0] for who in (dragger, typist, None))

    await expect(drags.locator("#turn")).to_contain_text("Your turn")
    await only_their_own_racks(engine, pages)

    # on the phone: QUIZ dragged by touch from H8 across, previewed, played
    for i, letter in enumerate("QUIZ"):
        await drag(drags, letter, f"{'HIJK'[i]}8", touch=True)
    await expect(drags.locator("#preview")).to_contain_text("H8 across QUIZ: QUIZ")
    # (clicked: Chromium swallows a synthetic tap that follows a synthetic touch drag within a
    # moment, a quirk of its gesture recogniser, not of the page)
    await drags.locator("#play").click()
    for page in (drags, keys, watcher):
        await expect(page.locator("#sq-K8")).to_have_attribute("aria-label", "K8, Z, 10 points")
    await shown_in_thread(h, thread, "plays H8 across QUIZ")

    # on the desktop, keyboard only: U I T under the Q (QUIT down)
    await expect(keys.locator("#turn")).to_contain_text("Your turn")
    for letter in "UIT":
        await key_place(keys, letter, ["ArrowDown"])
    await expect(keys.locator("#preview")).to_contain_text("H8 down QUIT")
    await tab_to(keys, "#play")
    await keys.keyboard.press("Enter")
    for page in (drags, keys, watcher):
        await expect(page.locator("#sq-H11")).to_have_attribute("aria-label", "H11, T, 1 point")
    await shown_in_thread(h, thread, "plays H8 down QUIT")
    await only_their_own_racks(engine, pages)

    # out of turn: refused on the page, in the game's words, and nothing about it in the thread
    sent = len(h.fake.requests)
    await keys.locator("#pass").click()
    await expect(keys.locator("#status")).to_contain_text("turn, not yours")
    await h.drain()
    assert not [r for r in h.fake.requests[sent:] if "turn, not yours" in r.text]

    # the dragger passes; the typist resigns by keyboard: the game ends on every page and in the thread
    await drags.locator("#pass").click()
    await expect(keys.locator("#turn")).to_contain_text("Your turn")
    await shown_in_thread(h, thread, f"{dragger.display_name} passes")
    keys.once("dialog", lambda dialog: dialog.accept())
    await tab_to(keys, "#resign")
    await keys.keyboard.press("Enter")
    await h.fake.until(lambda: chat not in h.manager.sessions, within=30)
    await h.drain()  # (the result goes out on the thread's rate limit, on the test's clock)
    for page in (drags, keys, watcher):
        await expect(page.locator(".ended")).to_contain_text("wins")
    await shown_in_thread(h, thread, f"{typist.display_name} resigned")
    await shown_in_thread(h, thread, f"{dragger.display_name} wins")
    assert chat not in h.manager.sessions, "the game is over"
    for page, _ in pages.values():
        await page.context.close()
