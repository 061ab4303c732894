"""A tournament's page in real headless Chromium (Playwright, the Debian ``chromium`` package):
reached from the browsing pages' navigation, scanned by axe-core (no violation at all, on a
desktop and a phone), and kept up to date by its script: a result stored while the page is
open shows on it without a reload, and a finished tournament stops refreshing.

Waits are on the page's state (Playwright's ``expect``), never on the wall clock: the page's
refresh period is made short through the pages' ``refresh`` setting."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.core.clock import FakeClock
from tests.web.browse_site import Site, browse_site
from tests.web.test_browser import CHROMIUM, DESKTOP, NEEDS_CHROMIUM, PHONE
from tests.web.tournament_data import HOSTILE, NOW, arena, finish, swiss

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
async def tour_browser() -> AsyncIterator[Browser]:
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        await launched.close()


@pytest_asyncio.fixture(loop_scope="session")
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with browse_site(tmp_path, FakeClock(NOW)) as s:
        yield s


async def no_violations(page: Page) -> None:
    """axe-core finds no violation at all on ``page`` (of any impact)."""
    try:
        from axe_playwright_python.async_playwright import Axe
    except ImportError:  # pragma: no cover - the dev extra installs it
        pytest.skip("axe-playwright-python is not installed (the dev extra)")
    results = await Axe().run(page)
    found = [
        (v["id"], v.get("impact"), v["help"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
    ]
    assert found == [], (page.url, found)


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_the_tournament_pages_pass_axe_and_are_reached_from_the_navigation(
    tour_browser: Browser, site: Site, device: dict[str, Any]
) -> None:
    await swiss(site.store)
    await arena(site.store)
    token = await site.store.browse.turn_on("web", "W1", NOW)
    context = await tour_browser.new_context(**device)
    page = await context.new_page()
    try:
        await page.goto(f"{site.url}/w/{token}/games")
        await page.get_by_role("link", name="Tournaments").click()
        await expect(page.get_by_role("heading", level=1)).to_have_text("Tournaments")
        await no_violations(page)
        await page.get_by_role("link", name="MOJO · Swiss").click()
        await expect(page.get_by_role("heading", level=1)).to_have_text("MOJO · Swiss")
        await expect(page.locator("table.standings tbody tr")).to_have_count(5)
        await expect(page.locator("table.cross")).to_be_visible()
        await expect(page.locator("table.standings")).to_contain_text(HOSTILE)  # as text, not markup
        assert await page.locator("script:not([src]):not([type='application/json'])").count() == 0
        await no_violations(page)
        await page.go_back()
        await page.get_by_role("link", name="MOJO · arena").click()
        await expect(page.get_by_role("img", name="on fire")).to_have_count(1)
        await no_violations(page)
    finally:
        await context.close()


async def test_a_result_stored_while_the_page_is_open_shows_without_a_reload(
    tour_browser: Browser, site: Site
) -> None:
    await swiss(site.store)
    token = await site.store.browse.turn_on("web", "W1", NOW)
    assert site.browse.tournaments is not None
    site.browse.tournaments.refresh = 0.1
    context = await tour_browser.new_context(**DESKTOP)
    page = await context.new_page()
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    try:
        await page.goto(f"{site.url}/w/{token}/tournaments/sw1")
        await page.evaluate("document.body.dataset.loaded = 'once'")  # (gone if the page reloads)
        board_one = page.locator("table.pairings").first.locator("tbody tr").first
        await expect(board_one.locator("td.result")).to_have_text("playing")

        standings = page.get_by_role("region", name="Standings")
        await standings.focus()

        await finish(site.store, "sw1", 3, 1, [("ann", 300, 1, 1.0), ("eve", 100, 2, 0.0)])
        await expect(board_one.locator("td.result")).to_have_text("1–0")
        await expect(standings).to_be_focused()  # (the part was replaced; focus stays where it was)
        await expect(page.locator("table.standings tbody tr").first.locator("td").nth(1)).to_have_text("3")
        await expect(page.locator("#live-status")).to_have_text(
            "The tournament's standings and results are updated."
        )
        assert await page.evaluate("document.body.dataset.loaded") == "once"

        # finished: the page says so, and its script stops asking (it asks while data-live is true)
        assert any(url.endswith("/tournaments/sw1/live") for url in requests)
        await site.store.tournaments.end_tournament("sw1", "finished", NOW + 20_000)
        await expect(page.locator("p.state strong")).to_have_text("finished")
        await expect(page.locator("#tournament-live")).to_have_attribute("data-live", "false")
        await no_violations(page)
    finally:
        await context.close()
