"""The one headless Chromium the browser tests of every game share (test_browser.py,
test_game_browser.py): launched once per test session (per xdist worker; the browser tests
share the ``browser`` xdist group)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio

CHROMIUM = os.environ.get("MOJI_CHROMIUM", "/usr/bin/chromium")


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        await launched.close()
