"""The toy game's page (tests/toy_game/web/) in real headless Chromium: a game's page is one
folder of the game's own, named by its registry entry, and found through the registry — nothing
of adapters/web/ names the game. A player's page and a watcher's follow the game live."""

from __future__ import annotations

import contextlib
from pathlib import Path

import pytest

from bot.core.clock import FakeClock
from bot.core.events import MessageRef, Text
from bot.core.registry import Registry, load_default
from tests.toy_game.game import SPELL
from tests.web.helpers import ANN, CHAT, web_table
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
