"""The toy game's page (tests/toy_game/web/) in real headless Chromium: a game's page is one
folder of the game's own, named by its registry entry, and found through the registry — nothing
of adapters/web/ names the game. A player's page and a watcher's follow the game live (the
player's told what to type by the page's script, in words its folder declares), and the finished
game is replayed move by move on the workspace's pages."""

from __future__ import annotations

import asyncio
import contextlib
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.events import MessageRef, Text
from bot.core.registry import Registry, load_default
from tests.toy_game.game import SPELL
from tests.web.browse_site import ADMIN, browse_site, link_of
from tests.web.helpers import ANN, BOB, CHAT, nothing_serious, web_table
from tests.web.test_browser import NEEDS_CHROMIUM

with contextlib.suppress(ImportError):  # (the dev extra installs it; without it the tests skip)
    from playwright.async_api import Browser, expect

pytestmark = [
    NEEDS_CHROMIUM,
    pytest.mark.asyncio(loop_scope="session"),
    pytest.mark.xdist_group("browser"),
]


async def test_the_toy_games_page_is_found_through_the_registry_and_follows_the_game(
    tmp_path: Path, browser: Browser
) -> None:
    registry = Registry([*load_default(), SPELL])
    clock = FakeClock(1_000_000.0)
    async with web_table(tmp_path, clock, game="spell", options=("target=3",), registry=registry) as table:
        session = table.table.runtime.session(CHAT)
        assert session is not None and session.engine is not None
        engine = session.engine
        ann_context, watcher_context = await browser.new_context(), await browser.new_context()
        try:  # (a context each: a page's session is its cookie)
            mine, watching = await ann_context.new_page(), await watcher_context.new_page()
            await mine.goto(await table.link(ANN))
            await watching.goto(await table.link(None))
            for page in (mine, watching):
                length = page.locator("#length")
                await expect(length).to_have_attribute("data-length", str(engine.length))  # type: ignore[attr-defined]
            await expect(watching.locator(".watching")).to_be_visible()
            await expect(mine.locator(".watching")).to_have_count(0)
            # (the page's script, in the words its folder declares: a player's only)
            await expect(mine.locator("#hint")).to_have_text(
                f"Type a word of {engine.length} letters in the chat: the first one sent scores."  # type: ignore[attr-defined]
            )
            await expect(watching.locator("#hint")).to_have_text("")
            # (its own styles, from its folder)
            await expect(mine.locator("#length")).to_have_css("font-weight", "700")
            # Ann spells a word in the chat: both pages follow (her score, the next length)
            word = "x" * engine.length  # type: ignore[attr-defined]
            await table.table.runtime.ingest(Text(CHAT, ANN, word, clock.now(), MessageRef(CHAT, "m1")))
            await clock.advance(0.5)  # (the settle window)
            for page in (mine, watching):
                await expect(page.locator("#scores tbody tr").first).to_contain_text("1")
                await expect(page.locator("#length")).to_have_attribute(
                    "data-length",
                    str(engine.length),  # type: ignore[attr-defined]
                )
        finally:
            await ann_context.close()
            await watcher_context.close()


async def test_a_finished_toy_game_is_replayed_move_by_move(tmp_path: Path, browser: Browser) -> None:
    registry = Registry([*load_default(), SPELL])
    clock = FakeClock(1_000_000.0)
    async with browse_site(tmp_path, clock, registry=registry) as site:
        ended = asyncio.Event()
        site.table.closed.append(lambda chat: ended.set() if chat == CHAT else None)
        await site.table.start([ANN, BOB], "spell", ("target=2",), chat=CHAT)
        session = site.table.runtime.session(CHAT)
        assert session is not None and session.engine is not None
        game_id, engine = session.game_id, session.engine
        for turn in range(2):  # Ann spells twice: two points, the target
            word = "x" * engine.length  # type: ignore[attr-defined]
            sent = Text(CHAT, ANN, word, clock.now(), MessageRef(CHAT, f"m{turn}"))
            await site.table.runtime.ingest(sent)
            await clock.advance(0.5)  # (the settle window)
        await ended.wait()
        await site.say(ADMIN, "config", "web", "on")
        link = link_of(await site.say(ANN, "leaderboard"))
        assert link is not None
        replay = f"{link.split('/w/', 1)[0]}/w/{link.split('/w/', 1)[1].split('/', 1)[0]}/r/{game_id}"
        context = await browser.new_context()
        try:
            page = await context.new_page()
            await page.goto(replay)
            await expect(page.get_by_role("heading", level=1)).to_have_text("Spell — replay")
            where = page.locator("#where")
            await expect(where).to_contain_text("Step 0 of")
            last = int((await where.inner_text()).rsplit(" ", 1)[1])
            assert last >= 2
            await expect(page.locator("#said")).to_contain_text("The game begins.")
            scores = page.locator("table.board tbody tr", has_text="Ann")
            await expect(scores.locator("td.num")).to_have_text("0")
            await page.get_by_role("link", name="Forward ▶").click()
            await expect(where).to_have_text(f"Step 1 of {last}")
            await expect(scores.locator("td.num")).to_have_text("1")
            await page.get_by_role("link", name="Last »").click()
            await expect(where).to_have_text(f"Step {last} of {last}")
            await expect(scores.locator("td.num")).to_have_text("2")
            await nothing_serious(page)
        finally:
            await context.close()
