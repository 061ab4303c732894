"""Watching a race in real headless Chromium (Playwright, the Debian ``chromium``, as
tests/web/test_browser.py): a race of Ann and Bob played through the chat's runtime while a
watcher's page follows its cards, takes and scores to the end; watch pages never show private
data (an Eagle Eyes list, a hand), neither in the DOM nor in any response; axe finds nothing
serious on them. Waits are on the page's state (``expect``), never on the wall clock; the game's
time is the injected clock. ``MOJI_SCREENSHOTS=DIR`` saves the race's watch page (docs/WEB.md)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from playwright.async_api import Browser, Page, expect

from bot.core.events import PrivateText
from bot.core.platform import Capabilities
from tests.web.helpers import ANN, BOB, CHAT, nothing_serious
from tests.web.racing import Game, game_table
from tests.web.test_browser import DESKTOP, NEEDS_CHROMIUM, PHONE, SHOTS, Seen

pytestmark = [
    NEEDS_CHROMIUM,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.xdist_group("browser"),
]
# (the pages are waited on, never timed: the one-second budget is bench_web_watchers.py's)


async def watch_page(browser: Browser, game: Game, device: dict[str, Any]) -> tuple[Page, Seen]:
    context = await browser.new_context(**device)
    page = await context.new_page()
    seen = Seen(page)
    await page.goto(await game.watch_link())
    # (a race's watch page; a game with a page of its own is watched on it, without a hand)
    await expect(page.locator("#watch, #game").first).to_be_visible()
    assert "#" not in page.url, "the link's secret leaves the address bar"
    return page, seen


def cards_of(game: Game) -> str:
    return "".join(card.letter or "?" for card in game.session.snapshot(None).cards)


def score_of(game: Game, seat: str) -> int:
    return next(s.score for s in game.session.snapshot(None).seats if s.seat == seat)


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
async def test_a_watcher_s_page_follows_a_race_s_cards_takes_and_scores_to_the_end(
    browser: Browser,
    tmp_path: Path,
    device: dict[str, Any],
) -> None:
    async with game_table(tmp_path, "race", ("bots=0", "cards=4")) as game:
        page, seen = await watch_page(browser, game, device)
        await expect(page.locator("#cards")).to_have_attribute("data-cards", cards_of(game))
        # the hourglass: 30 s of the game's time, counting down in the browser's
        await expect(page.locator("#clock")).to_have_text(re.compile(r"^0:[0-3][0-9]$"))
        await expect(page.locator("#scores")).to_contain_text("Ann")

        # takes, as they happen: the cards go, the take is listed and announced, the score moves
        for player in (ANN, BOB):
            took = await game.take(player)
            await expect(page.locator("#log li").first).to_have_text(took)
            await expect(page.locator("#latest")).to_have_text(took)
            row = page.locator("#scores tr", has_text=player.display_name)
            await expect(row).to_contain_text(str(score_of(game, player.seat_id)))
            await game.clock.advance(3.0)  # the taken stacks flip their next cards
            await expect(page.locator("#cards")).to_have_attribute("data-cards", cards_of(game))
        if SHOTS:
            name = "phone" if device.get("has_touch") else "desktop"
            await page.screenshot(path=f"{SHOTS}/race-watch-{name}.png", full_page=True)

        # the hourglass runs out until the stacks are played out: the page shows the result
        for _ in range(20):
            if game.table.runtime.session(CHAT) is None:
                break
            await game.clock.advance(31.0)
        assert game.table.runtime.session(CHAT) is None, "the race is over"
        await expect(page.locator(".ended")).to_contain_text("game over")
        assert all("Your list" not in body for body in seen.bodies)
        await page.context.close()


async def test_watch_pages_never_show_a_list_or_a_hand_in_the_dom_or_any_response(
    browser: Browser,
    tmp_path: Path,
) -> None:
    async with game_table(tmp_path / "eagle", "race", ("bots=0", "variation=eagle-eyes")) as game:
        platform: Any = game.table.runtime.platform  # (private words: a DM, a form)
        platform.capabilities = Capabilities(
            ephemeral=True, threads=False, buttons=True, timestamp_precision=0.001, private_text=True
        )
        page, seen = await watch_page(browser, game, DESKTOP)
        engine: Any = game.session.engine
        words = engine.planner.candidates([engine.cards], engine.used, 3, "normal")
        await game.table.runtime.ingest(PrivateText(CHAT, ANN, " ".join(words), game.clock.now()))
        await game.table.runtime.ingest(PrivateText(CHAT, ANN, "done", game.clock.now()))
        await game.clock.advance(0.5)
        listed = ", ".join(w.upper() for w in words)
        assert listed in "\n".join(game.session.snapshot(ANN.seat_id).lines), "Ann's list is kept"
        await expect(page.locator("#scores")).to_contain_text("done")  # Ann is done
        for text in (await page.content(), *seen.bodies):
            assert "Your list" not in text and listed not in text
        await page.context.close()

    async with game_table(tmp_path / "shed", "shed") as game:
        page, seen = await watch_page(browser, game, PHONE)
        await expect(page.locator("#scores")).to_contain_text("Bob")
        public = set(game.session.snapshot(None).lines)
        hands = [
            line
            for player in (ANN, BOB)
            for line in game.session.snapshot(player.seat_id).lines
            if line not in public
        ]
        assert hands, "each player has a private line (their hand)"
        for text in (await page.content(), *seen.bodies):
            assert not [line for line in hands if line in text]
        await page.context.close()


async def test_axe_finds_nothing_serious_on_a_race_s_watch_page_nor_a_board_game_s(
    browser: Browser,
    tmp_path: Path,
) -> None:
    for name, device in (("race", DESKTOP), ("paths", PHONE), ("dice", DESKTOP)):
        async with game_table(tmp_path / name, name) as game:
            page, _ = await watch_page(browser, game, device)
            if name == "race":
                took = await game.take(ANN)
                await expect(page.locator("#latest")).to_have_text(took)
            await nothing_serious(page)
            await page.context.close()
