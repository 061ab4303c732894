"""Two people play MOJO from their pages in real headless Chromium (Playwright for Python, the
Debian ``chromium`` package: Playwright never downloads a browser), one by dragging tiles and
one by keyboard only, on a desktop and a phone viewport, while a watcher's page follows; no
page ever shows another player's rack.

One browser serves the whole session. Without Chromium the tests skip (outside CI only: with
``CI=true`` they fail, so CI always runs them). Waits are on the page's state (Playwright's
``expect``), never on the wall clock. ``MOJI_SCREENSHOTS=DIR`` saves the pages' screenshots
(docs/WEB.md's pictures)."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.core.clock import FakeClock
from bot.core.events import Player
from tests.web.helpers import ANN, BOB, CHAT, Table, current, give, nothing_serious, web_table

CHROMIUM = os.environ.get("MOJI_CHROMIUM", "/usr/bin/chromium")
try:
    from playwright.async_api import Browser, Page, async_playwright, expect
except ImportError:  # pragma: no cover - the dev extra installs it
    async_playwright = None  # type: ignore[assignment]

MISSING = async_playwright is None or shutil.which(CHROMIUM) is None
if MISSING and os.environ.get("CI") == "true":
    raise RuntimeError(
        f"CI must run the browser tests: install Playwright (dev extra) and chromium ({CHROMIUM})"
    )

#: Every browser test's skip: outside CI only (with CI=true a missing Chromium fails, above).
NEEDS_CHROMIUM = pytest.mark.skipif(
    MISSING, reason=f"no Chromium at {CHROMIUM} (apt-get install chromium) or no playwright"
)

pytestmark = [
    NEEDS_CHROMIUM,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.xdist_group("browser"),
]

DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 900}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
SHOTS = os.environ.get("MOJI_SCREENSHOTS", "")


# (the ``browser`` fixture, one Chromium for every browser test: tests/web/conftest.py)


@pytest_asyncio.fixture(loop_scope="session")
async def table(tmp_path: Path) -> AsyncIterator[Table]:
    async with web_table(tmp_path, FakeClock(1_000_000.0)) as t:
        yield t


class Seen:
    """Every response body a page received (documents, scripts, fetches), for the privacy check."""

    def __init__(self, page: Page) -> None:
        self.bodies: list[str] = []
        page.on("response", self._take)

    async def _take(self, response: Any) -> None:
        if "/events" in response.url:  # (the live channel never ends; its updates are in the DOM)
            return
        try:
            self.bodies.append((await response.body()).decode("utf-8", "replace"))
        except Exception:  # a redirect or a body the browser did not keep
            return


async def open_page(
    browser: Browser, table: Table, who: Player | None, device: dict[str, Any]
) -> tuple[Page, Seen]:
    context = await browser.new_context(**device)
    page = await context.new_page()
    seen = Seen(page)
    await page.goto(await table.link(who))
    await expect(page.locator("#board")).to_be_visible()
    assert "#" not in page.url, "the link's secret leaves the address bar"
    return page, seen


async def drag(page: Page, tile: str, square: str, *, touch: bool) -> None:
    """Drag the rack's first free ``tile`` onto ``square`` (mouse, or a finger on a phone)."""
    source = page.locator(f'#rack .rtile[data-tile="{tile}"]:not([disabled])').first
    target = page.locator(f"#sq-{square}")
    a, b = await source.bounding_box(), await target.bounding_box()
    assert a is not None and b is not None
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    if touch:
        cdp = await page.context.new_cdp_session(page)
        await cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
        )
        for step in range(1, 9):
            x, y = x0 + (x1 - x0) * step / 8, y0 + (y1 - y0) * step / 8
            await cdp.send(
                "Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y}]}
            )
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        await cdp.detach()
    else:
        await page.mouse.move(x0, y0)
        await page.mouse.down()
        await page.mouse.move(x1, y1, steps=8)
        await page.mouse.up()
    await expect(page.locator(f"#sq-{square}")).to_have_attribute("data-pending", "yes")


async def tab_to(page: Page, selector: str, limit: int = 400) -> None:
    """Press Tab (keyboard only) until the focused element matches ``selector``."""
    for _ in range(limit):
        if await page.evaluate("(s) => document.activeElement?.matches(s) ?? false", selector):
            return
        await page.keyboard.press("Tab")
    raise AssertionError(f"Tab never reached {selector}")


async def key_place(page: Page, tile: str, moves: list[str]) -> None:
    """Keyboard only: select ``tile`` on the rack, walk the board with ``moves``, place it."""
    await tab_to(page, f'#rack .rtile[data-tile="{tile}"]:not([disabled])')
    await page.keyboard.press("Enter")
    await expect(page.locator('#board [role="gridcell"]:focus')).to_have_count(1)
    for key in moves:
        await page.keyboard.press(key)
    await page.keyboard.press("Enter")


async def check_privacy(table: Table, pages: dict[Player | None, tuple[Page, Seen]]) -> None:
    """No page's DOM nor any response it received holds a rack that is not its own."""
    engine: Any = table.session.engine
    await only_their_own_racks(engine, pages)


async def only_their_own_racks(engine: Any, pages: dict[Player | None, tuple[Page, Seen]]) -> None:
    """Each player's page shows their own rack (``engine``'s now); no page's DOM nor any response
    it received holds another's; a watcher's page has no rack at all."""
    racks = {p: "".join(engine.racks[p.seat_id]) for p in pages if p is not None}
    for who, (page, seen) in pages.items():
        html = await page.content()
        for other, rack in racks.items():
            marker = f'data-rack="{rack}"'
            if other == who:
                assert marker in html
            else:
                assert marker not in html, f"{who} sees {other}'s rack"
                assert all(marker not in body for body in seen.bodies), f"{who} received {other}'s rack"
        if who is None:
            assert await page.locator("#rack").count() == 0


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_two_players_play_from_their_pages_by_dragging_and_by_keyboard(
    browser: Browser, table: Table, device: dict[str, Any]
) -> None:
    dragger = current(table)
    typist = BOB if dragger is ANN else ANN
    give(table.session, {dragger: "QUIZAEO", typist: "UITSAEO"})
    pages = {who: await open_page(browser, table, who, device) for who in (dragger, typist, None)}
    drags, _ = pages[dragger]
    keys, _ = pages[typist]
    watch, _ = pages[None]
    await expect(drags.locator("#turn")).to_contain_text("Your turn")
    await check_privacy(table, pages)

    # the dragger lays QUIZ from H8 across, sees the preview, and plays it
    for i, letter in enumerate("QUIZ"):
        await drag(drags, letter, f"{'HIJK'[i]}8", touch=bool(device.get("has_touch")))
    await expect(drags.locator("#preview")).to_contain_text("H8 across QUIZ: QUIZ")
    await drags.locator("#play").click()
    for page in (drags, keys, watch):  # every page follows within a second (the live channel)
        await expect(page.locator("#sq-K8")).to_have_attribute("aria-label", "K8, Z, 10 points")
    await expect(keys.locator("#turn")).to_contain_text("Your turn")

    # the typist, keyboard only, lays U I T under the Q (QUIT down) and plays it
    await key_place(keys, "U", ["ArrowDown"])  # the cursor starts on H8: H9
    await key_place(keys, "I", ["ArrowDown"])  # H10
    await key_place(keys, "T", ["ArrowDown"])  # H11
    await expect(keys.locator("#preview")).to_contain_text("H8 down QUIT")
    await tab_to(keys, "#play")
    await keys.keyboard.press("Enter")
    for page in (drags, keys, watch):
        await expect(page.locator("#sq-H11")).to_have_attribute("aria-label", "H11, T, 1 point")
    if SHOTS:
        name = "phone" if device.get("has_touch") else "desktop"
        await drags.screenshot(path=f"{SHOTS}/board-{name}.png", full_page=True)
    await check_privacy(table, pages)

    # a move out of turn is refused in the game's words, on the page
    if device.get("has_touch"):
        await keys.locator("#pass").tap()
    else:
        await keys.locator("#pass").click()
    await expect(keys.locator("#status")).to_contain_text("turn, not yours")

    # the dragger passes; the typist resigns by keyboard: the game ends on every page
    await drags.locator("#pass").click()
    await expect(keys.locator("#turn")).to_contain_text("Your turn")
    keys.once("dialog", lambda dialog: dialog.accept())
    await tab_to(keys, "#resign")
    await keys.keyboard.press("Enter")
    for page in (drags, keys, watch):
        await expect(page.locator(".ended")).to_contain_text("wins")
    assert table.table.runtime.session(CHAT) is None, "the game is over"
    for page, _ in pages.values():
        await page.context.close()


async def test_axe_finds_nothing_serious_on_a_player_s_page_nor_a_watcher_s(
    browser: Browser, table: Table
) -> None:
    """axe-core (vendored by axe-playwright-python, never fetched from a CDN) on each page, a
    game under way and a tile placed but not played."""
    mover = current(table)
    give(table.session, {mover: "QUIZAEO"})
    player, _ = await open_page(browser, table, mover, DESKTOP)
    watcher, _ = await open_page(browser, table, None, PHONE)
    await drag(player, "Q", "H8", touch=False)
    await expect(player.locator("#preview")).not_to_contain_text("Place tiles")
    for page in (player, watcher):
        await nothing_serious(page)
        await page.context.close()
