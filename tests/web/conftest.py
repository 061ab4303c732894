"""The one headless Chromium the browser tests of every game share (test_browser.py,
test_game_browser.py…): launched once per test session (per xdist worker; the browser tests
share the ``browser`` xdist group). And moji's services with the web companion, for the tests
of a game on Discord (tests/web/on_discord.py; the module's ``registry`` picks its games)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio

from bot.core.registry import Registry
from bot.process.app import Services
from tests.web.on_discord import web_services

CHROMIUM = os.environ.get("MOJI_CHROMIUM", "/usr/bin/chromium")

try:  # (pages are waited on, never timed: a loaded 2-core machine may take a few seconds to
    # render and deliver an update; an update's latency is bench/bench_web_watchers.py's)
    from playwright.async_api import expect

    expect.set_options(timeout=20_000)
except ImportError:  # pragma: no cover - the dev extra installs it
    pass


@pytest_asyncio.fixture(scope="session", loop_scope="session")
async def browser() -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright

    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield launched
        await launched.close()


@pytest.fixture
async def services(tmp_path: Path, registry: Registry) -> AsyncIterator[Services]:
    async with web_services(tmp_path, registry) as svc:
        yield svc
