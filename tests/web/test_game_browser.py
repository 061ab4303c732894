"""Mark My Words, Shed and letter dice played from their pages in real headless Chromium (the
Debian ``chromium``; see test_browser.py): in each game one player moves by pointer (mouse, or a
finger on a phone) and the other by keyboard only, every other page follows within a second,
no page shows another player's tiles or hand, and axe finds nothing serious.

One browser serves the module; each test is one short game turn or two. Waits are on the
page's state (Playwright's ``expect``), never on the wall clock. ``MOJI_SCREENSHOTS=DIR`` saves
the pictures of docs/WEB.md."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.core.clock import FakeClock
from bot.core.events import Player
from games.dice.dice import face
from tests.games.shed.helpers import rig
from tests.web.helpers import ANN, BOB, CHAT, Table, nothing_serious, web_table
from tests.web.test_browser import DESKTOP, NEEDS_CHROMIUM, PHONE, SHOTS, tab_to

with contextlib.suppress(ImportError):  # (the dev extra installs it; without it the tests skip)
    from playwright.async_api import Browser, Page, expect

pytestmark = [
    NEEDS_CHROMIUM,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.xdist_group("browser"),
]


@pytest_asyncio.fixture(loop_scope="session")
async def paths(tmp_path: Path) -> AsyncIterator[Table]:
    async with web_table(tmp_path, FakeClock(1_000_000.0), game="paths") as t:
        yield t


@pytest_asyncio.fixture(loop_scope="session")
async def shed(tmp_path: Path) -> AsyncIterator[Table]:
    async with web_table(tmp_path, FakeClock(1_000_000.0), game="shed") as t:
        yield t


@pytest_asyncio.fixture(loop_scope="session")
async def dice(tmp_path: Path) -> AsyncIterator[Table]:
    async with web_table(tmp_path, FakeClock(1_000_000.0), game="dice") as t:
        yield t


async def open_page(browser: Browser, table: Table, who: Player | None, device: dict[str, Any]) -> Page:
    context = await browser.new_context(**device)
    page = await context.new_page()
    await page.goto(await table.link(who))
    await expect(page.locator("#live h1")).to_be_visible()
    assert "#" not in page.url, "the link's secret leaves the address bar"
    return page


async def drag(page: Page, source: str, target: str, *, touch: bool) -> None:
    """Drag ``source`` onto ``target`` (mouse, or a finger on a phone: pointer events either way)."""
    a = await page.locator(source).first.bounding_box()
    b = await page.locator(target).first.bounding_box()
    assert a is not None and b is not None
    x0, y0 = a["x"] + a["width"] / 2, a["y"] + a["height"] / 2
    x1, y1 = b["x"] + b["width"] / 2, b["y"] + b["height"] / 2
    if touch:
        cdp = await page.context.new_cdp_session(page)
        await cdp.send(
            "Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x0, "y": y0}]}
        )
        for step in range(1, 9):
            point = {"x": x0 + (x1 - x0) * step / 8, "y": y0 + (y1 - y0) * step / 8}
            await cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [point]})
        await cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        await cdp.detach()
    else:
        await page.mouse.move(x0, y0)
        await page.mouse.down()
        await page.mouse.move(x1, y1, steps=8)
        await page.mouse.up()


async def private(pages: dict[Player | None, Page], markers: dict[Player, str]) -> None:
    """No page's DOM holds another player's tiles or hand (``markers``: each one's own)."""
    for who, page in pages.items():
        html = await page.content()
        for other, marker in markers.items():
            assert (marker in html) == (other == who), f"{who} and {other}'s {marker}"


def hand_marker(engine: Any, player: Player) -> str:
    """The hand a Shed page shows its player (``data-hand``: letters, ``*`` jokers, ``[skip]``)."""
    cards = engine.hand_of(player.seat_id)
    return (
        'data-hand="'
        + "".join(c.letter.upper() or ("*" if c.kind == "joker" else f"[{c.action}]") for c in cards)
        + '"'
    )


async def close(pages: dict[Player | None, Page]) -> None:
    for page in pages.values():
        await page.context.close()


async def test_paths_one_player_drags_a_tile_the_other_places_and_names_a_word_by_keyboard(
    browser: Browser, paths: Table
) -> None:
    engine: Any = paths.session.engine
    engine.racks[ANN.seat_id], engine.racks[BOB.seat_id] = ["k", "q", "t"], ["a", "q", "z"]
    pages = {who: await open_page(browser, paths, who, DESKTOP) for who in (ANN, BOB, None)}
    ann, bob, watch = pages[ANN], pages[BOB], pages[None]
    marker = {p: f'data-rack="{"".join(engine.racks[p.seat_id]).upper()}?"' for p in (ANN, BOB)}
    await private(pages, marker)
    await expect(ann.locator("#turn")).to_contain_text("Your turn")

    # Ann drags her T onto G7 (the first round: a tile on its own needs no word) and plays it
    await drag(ann, '#rack .rtile[data-tile="T"]', "#sq-G7", touch=False)
    await expect(ann.locator("#sq-G7")).to_have_attribute("data-pending", "yes")
    await expect(ann.locator("#preview")).to_contain_text("G7 T")
    await ann.locator("#play").click()
    await expect(ann.locator("#status")).to_have_text("Played.")
    for page in (ann, bob, watch):
        await expect(page.locator("#sq-G7")).to_have_attribute("aria-label", "G7, T")

    # Bob, keyboard only: A, one square left of the cursor (G7), names AT, plays with Enter
    await expect(bob.locator("#turn")).to_contain_text("Your turn")
    await tab_to(bob, '#rack .rtile[data-tile="A"]')
    await bob.keyboard.press("Enter")
    await expect(bob.locator('#board [role="gridcell"]:focus')).to_have_count(1)
    await bob.keyboard.press("ArrowLeft")
    await bob.keyboard.press("Enter")
    await expect(bob.locator("#words")).to_be_focused()
    await bob.keyboard.type("at")
    await expect(bob.locator("#preview")).to_contain_text("F7 A AT: AT ✓ 1 = 1 point")
    await bob.keyboard.press("Enter")
    await expect(bob.locator("#status")).to_have_text("Played.")
    for page in (ann, bob, watch):
        await expect(page.locator("#sq-F7")).to_have_attribute("aria-label", "F7, A")
        await expect(page.locator("#scores")).to_contain_text("Bob")
    assert engine.scores[BOB.seat_id] == 1
    if SHOTS:
        await bob.screenshot(path=f"{SHOTS}/paths-desktop.png", full_page=True)
    marker = {p: f'data-rack="{"".join(engine.racks[p.seat_id]).upper()}?"' for p in (ANN, BOB)}
    await private(pages, marker)
    await nothing_serious(bob)
    await nothing_serious(watch)
    await close(pages)


async def test_paths_free_tiles_are_placed_from_the_pile_by_keyboard_and_by_dragging(
    browser: Browser, paths: Table
) -> None:
    engine: Any = paths.session.engine
    engine.turns = 2  # (the first round is over)
    engine.squares[0], engine.squares[1] = "a", "t"  # AT on A1-B1
    engine.pile[:] = ["e", "s"]
    pages = {who: await open_page(browser, paths, who, DESKTOP) for who in (ANN, None)}
    ann, watch = pages[ANN], pages[None]
    await expect(ann.locator("#turn")).to_contain_text("Your turn")
    await expect(watch.locator("#pile")).to_have_attribute("data-pile", "ES")

    # keyboard: S from the pile onto the grid, then taken back
    await tab_to(ann, '#pile .ptile[data-tile="S"]')
    await ann.keyboard.press("Enter")
    await expect(ann.locator('#board [role="gridcell"]:focus')).to_have_count(1)
    await ann.keyboard.press("Enter")
    await expect(ann.locator("#preview")).to_contain_text("Free tiles: S on")
    await expect(ann.locator('#pile .ptile[data-tile="S"]')).to_be_disabled()
    await ann.locator("#recall").click()
    await expect(ann.locator("#status")).to_contain_text("back on the pile")
    await expect(ann.locator('#pile .ptile[data-tile="S"]')).to_be_enabled()

    # pointer: E dragged onto C1, ATE named, taken: every page shows it, the pile shrinks
    await drag(ann, '#pile .ptile[data-tile="E"]', "#sq-C1", touch=False)
    await expect(ann.locator("#sq-C1")).to_have_attribute(
        "aria-label", "C1, E from the Free Letter Pile, placed by you"
    )
    await ann.locator("#words").fill("ate")
    await ann.locator("#free").click()
    await expect(ann.locator("#status")).to_contain_text("You took the free tiles")
    for page in (ann, watch):
        await expect(page.locator("#sq-C1")).to_have_attribute("aria-label", "C1, E")
        await expect(page.locator("#pile")).to_have_attribute("data-pile", "S")
    assert engine.pile == ["s"]
    await nothing_serious(ann)
    await close(pages)


async def test_a_page_whose_live_channel_ends_reconnects_by_itself_and_catches_up(
    browser: Browser, paths: Table
) -> None:
    """moji stopping ends every live channel (adapters/web/server.py); the page's EventSource
    reconnects by itself (pick.js) and shows what happened meanwhile."""
    engine: Any = paths.session.engine
    engine.racks[ANN.seat_id] = ["t", "q"]
    watch = await open_page(browser, paths, None, DESKTOP)
    await expect(watch.locator("#live")).to_have_attribute("data-version", re.compile(r"\d+"))
    server = paths.table.server
    await server.end_live_channels()
    for _ in range(10_000):  # (the channel's handler wakes, sees moji stopping, and ends)
        if not server.live:
            break
        await asyncio.sleep(0)
    assert not server.live, "the live channel ended"
    server.closing = False  # (the next process, at the same address)
    server.watch.closing = False
    from bot.core.events import Text

    await paths.table.runtime.ingest(Text(CHAT, ANN, "G7 T", paths.table.runtime.manager.clock.now()))
    assert engine.squares[6 * engine.size + 6] == "t"
    await expect(watch.locator("#sq-G7")).to_have_attribute("aria-label", "G7, T")
    await watch.context.close()


async def test_shed_on_a_phone_cards_are_dragged_into_a_word_and_a_table_word_grows_by_keyboard(
    browser: Browser, shed: Table
) -> None:
    engine: Any = shed.session.engine
    rig(engine, {ANN.seat_id: "c a t x y !skip", BOB.seat_id: "h q z v"}, opened=[BOB.seat_id])
    engine.current = ANN.seat_id
    pages = {
        who: await open_page(browser, shed, who, PHONE if who is ANN else DESKTOP) for who in (ANN, BOB, None)
    }
    ann, bob, watch = pages[ANN], pages[BOB], pages[None]
    marker = {p: hand_marker(engine, p) for p in (ANN, BOB)}
    await private(pages, marker)

    # Ann, with a finger: C, A, T into her word; the game previews it; she plays it
    for letter in "CAT":
        await drag(ann, f'#hand .card[data-letter="{letter}"]:not([disabled])', "#build", touch=True)
    await expect(ann.locator("#preview")).to_have_text("play CAT: You play CAT (3 cards left).")
    # (a button is clicked: a synthetic tap on a loaded machine can turn into a long press)
    await ann.locator("#play").click()
    await expect(ann.locator("#status")).to_have_text("Played.")
    for page in (ann, bob, watch):
        await expect(page.locator("#table")).to_contain_text("CAT")
    if SHOTS:
        await ann.screenshot(path=f"{SHOTS}/shed-phone.png", full_page=True)

    # Bob, keyboard only: the table word CAT, his H, the words it makes: CHAT
    await tab_to(bob, "#tw-1")
    await bob.keyboard.press("Enter")
    await expect(bob.locator("#tw-1")).to_have_attribute("aria-pressed", "true")
    await tab_to(bob, '#hand .card[data-letter="H"]')
    await bob.keyboard.press("Enter")
    await tab_to(bob, "#results")
    await bob.keyboard.type("chat")
    await expect(bob.locator("#preview")).to_contain_text("#1+H -> CHAT: You ")
    await expect(bob.locator("#preview")).to_contain_text("(3 cards left).")
    await bob.keyboard.press("Enter")
    await expect(bob.locator("#status")).to_have_text("Played.")
    for page in (ann, bob, watch):
        await expect(page.locator("#table")).to_contain_text("CHAT")
    assert [tw.text for tw in engine.round.table] == ["chat"]

    # Ann aims her Skip at Bob (the only opponent) from the action card's form
    await ann.locator('#actions .card[data-action="skip"]').click()
    await expect(ann.locator("#target")).to_be_focused()
    await expect(ann.locator("#target")).to_have_value("2")
    await ann.locator("#act").click()
    await expect(ann.locator("#status")).to_have_text("Skip played.")
    await expect(bob.locator("#log")).to_contain_text(re.compile("skip", re.I))
    log = shed.table.runtime.manager.game_log
    assert [a.text for a in log.actions[shed.session.game_id] if a.kind == "say"][-1] == "skip 2"  # type: ignore[attr-defined]
    marker = {p: hand_marker(engine, p) for p in (ANN, BOB)}
    await private(pages, marker)
    await nothing_serious(ann)
    await close(pages)


async def test_dice_one_player_builds_a_word_by_pointer_the_other_crosses_it_by_keyboard(
    browser: Browser, dice: Table
) -> None:
    engine: Any = dice.session.engine
    engine.rolled = [(d, face(ch)) for d, ch in enumerate("oestnocdbz")]
    dice.table.companion.changed(CHAT)
    first = ANN if engine.roller() == ANN.seat_id else BOB
    second = BOB if first is ANN else ANN
    pages = {who: await open_page(browser, dice, who, DESKTOP) for who in (first, second, None)}
    one, two, watch = pages[first], pages[second], pages[None]

    # the first player: S by dragging, then T O N E by clicking
    await drag(one, '#roll .die[data-letter="S"]', "#build", touch=False)
    for letter in "TONE":
        await one.locator(f'#roll .die[data-letter="{letter}"]:not([disabled])').first.click()
    await expect(one.locator("#preview")).to_contain_text("STONE: STONE for 5 points")
    await one.locator("#play").click()
    await expect(one.locator("#status")).to_have_text("Played.")
    for page in (one, two, watch):
        await expect(page.locator("#mat")).to_have_attribute("data-mat", "STONE")

    # a known roll for the second player, who crosses the T of STONE by keyboard only
    engine.rolled = [(d, face(ch)) for d, ch in zip(range(5, 10), "acihz", strict=True)]
    dice.table.companion.changed(CHAT)
    await expect(two.locator("#roll")).to_have_attribute("data-roll", "ACIHZ")
    for key in ('#roll .die[data-letter="C"]', '#roll .die[data-letter="A"]', '#mat .die[data-letter="T"]'):
        await tab_to(two, key)
        await two.keyboard.press("Enter")
    await expect(two.locator("#preview")).to_contain_text("CAT 3 2: CAT for 5 points")
    await tab_to(two, "#play")
    await two.keyboard.press("Enter")
    await expect(two.locator("#status")).to_have_text("Played.")
    for page in (one, two, watch):
        await expect(page.locator("#mat")).to_have_attribute("data-mat", "CAT")
    if SHOTS:
        await one.screenshot(path=f"{SHOTS}/dice-desktop.png", full_page=True)
    await nothing_serious(two)
    await nothing_serious(watch)
    await close(pages)
