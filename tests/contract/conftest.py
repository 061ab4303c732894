"""The contract suite's fixtures: ``platform``, one :class:`~tests.contract.harness.PlatformHarness`
per front door (Discord, Slack, terminal); ``registry``, the games installed (the toy game unless
a module says otherwise); ``database``, the store they run on (a fresh SQLite file unless a
module says otherwise).

``@pytest.mark.needs("people", …)`` skips a test on a platform that lacks one of those
capabilities, with the platform's reason (see :attr:`PlatformHarness.lacks`), before anything starts.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.core.registry import Registry
from storage.sqlstore import SQLStore
from tests.bot.toygame import TOY
from tests.contract.harness import PlatformHarness, open_platform

PLATFORMS = ("discord", "slack", "terminal")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "needs(*capabilities): a contract test that needs these capabilities")


@pytest.fixture
def registry() -> Registry:
    return Registry([TOY])


@pytest.fixture
def database() -> SQLStore | None:
    """The store the platform runs on: None, a fresh SQLite file (a module may give another)."""
    return None


@pytest.fixture(params=PLATFORMS)
async def platform(
    request: pytest.FixtureRequest,
    registry: Registry,
    database: SQLStore | None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[PlatformHarness]:
    from tests.contract.harness import DiscordHarness, SlackHarness, TerminalHarness

    kinds: dict[str, type[PlatformHarness]] = {
        "discord": DiscordHarness,
        "slack": SlackHarness,
        "terminal": TerminalHarness,
    }
    kind = kinds[request.param]
    for marker in request.node.iter_markers("needs"):
        for capability in marker.args:
            if capability in kind.lacks:
                pytest.skip(f"{request.param}: {kind.lacks[capability]}")
    async with open_platform(request.param, registry, tmp_path, monkeypatch, database) as harness:
        yield harness


@pytest.fixture
def p(platform: PlatformHarness) -> PlatformHarness:
    """The platform under test (short name)."""
    return platform
