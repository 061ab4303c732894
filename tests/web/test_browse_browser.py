"""Browsing a workspace in real headless Chromium (Playwright, the Debian ``chromium`` package):
an admin turns the web on in the chat, the leaderboard's link opens its page, a player's page
follows from it, a finished game is replayed move by move (links and keyboard), and turning the
web off makes the same pages answer 404. axe-core scans every kind of page: nothing serious.

Without Chromium the tests skip (outside CI only: with ``CI=true`` they fail, as
tests/web/test_browser.py's do). Waits are on the page's state, never on the wall clock."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.core.clock import FakeClock
from tests.web.browse_site import ADMIN, ANN, Site, browse_site, link_of
from tests.web.helpers import nothing_serious
from tests.web.test_browser import CHROMIUM, DESKTOP, NEEDS_CHROMIUM, PHONE, SHOTS

try:
    from playwright.async_api import Browser, Page, async_playwright, expect
except ImportError:  # pragma: no cover - the dev extra installs it
    async_playwright = None  # type: ignore[assignment]

pytestmark = [
    NEEDS_CHROMIUM,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.xdist_group("browser"),
]


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browse_browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        await launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with browse_site(tmp_path, FakeClock(1_000_000.0)) as s:
        yield s


async def shot(page: Page, name: str) -> None:
    if SHOTS:
        await page.screenshot(path=f"{SHOTS}/{name}.png", full_page=True)


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_from_chat_to_a_leaderboard_a_player_and_a_replay_move_by_move(
    browse_browser: Browser, site: Site, device: dict[str, Any]
) -> None:
    game_id = await site.play_a_game()
    await site.say(ADMIN, "config", "web", "on")
    link = link_of(await site.say(ANN, "leaderboard"))
    assert link is not None
    context = await browse_browser.new_context(**device)
    page = await context.new_page()
    try:
        # the leaderboard, from the chat's link
        await page.goto(link)
        board = page.locator("table.board")
        await expect(board.locator("caption")).to_contain_text("Leaderboard — all games, all time")
        await expect(board.locator('th[scope="col"]').first).to_have_text("Rank")
        await nothing_serious(page)
        await shot(page, f"browse-leaderboard-{'phone' if device is PHONE else 'desktop'}")

        # a player's page, followed from the board (by keyboard: focus is visible on the link)
        ann = page.get_by_role("link", name="Ann")
        await ann.focus()
        outline = await ann.evaluate("(a) => getComputedStyle(a).outlineStyle")
        assert outline != "none", "focus is visible"
        await page.keyboard.press("Enter")
        await expect(page.get_by_role("heading", level=1)).to_have_text("Ann")
        await expect(page.locator("caption", has_text="Recent games")).to_be_visible()
        await nothing_serious(page)
        await shot(page, f"browse-player-{'phone' if device is PHONE else 'desktop'}")

        # the game, replayed move by move: links, then the arrow keys
        await page.get_by_role("link", name="Replay the MOJO game").first.click()
        where = page.locator("#where")
        await expect(where).to_contain_text("Step 0 of")
        last = int((await where.inner_text()).rsplit(" ", 1)[1])
        assert game_id in page.url and last >= 3
        await expect(page.locator("td.tile")).to_have_count(0)
        await nothing_serious(page)
        # (each step is a page of its own: a key is pressed once its script has run, which it
        # says by making the steps' line focusable; a key pressed before would go unheard)
        ready = where.and_(page.locator("[tabindex='-1']"))
        await page.get_by_role("link", name="Forward ▶").click()
        await expect(where).to_have_text(f"Step 1 of {last}")
        await expect(ready).to_be_visible()
        placed = await page.locator("td.tile").count()
        assert placed > 0
        await page.keyboard.press("ArrowRight")
        await expect(where).to_have_text(f"Step 2 of {last}")
        await expect(ready).to_be_visible()
        assert await page.locator("td.tile").count() > placed
        await page.keyboard.press("ArrowLeft")
        await expect(where).to_have_text(f"Step 1 of {last}")
        await expect(ready).to_be_visible()
        await expect(page.locator("td.tile")).to_have_count(placed)
        await page.keyboard.press("End")
        await expect(where).to_have_text(f"Step {last} of {last}")
        await expect(ready).to_be_visible()
        await expect(page.locator("#said")).to_contain_text("resign")
        await page.keyboard.press("Home")
        await expect(where).to_have_text(f"Step 0 of {last}")
        assert "Your rack" not in await page.content()
        await shot(page, f"browse-replay-{'phone' if device is PHONE else 'desktop'}")

        await page.get_by_role("link", name="Finished games").click()
        await expect(page.locator("caption")).to_contain_text("Finished games")
        await nothing_serious(page)

        # the web turned off in chat: the same pages answer 404
        await site.say(ADMIN, "config", "web", "off")
        for url in (link, page.url):
            response = await page.goto(url)
            assert response is not None and response.status == 404
            await expect(page.get_by_role("heading", level=1)).to_have_text("Nothing here")
        await nothing_serious(page)
    finally:
        await context.close()
