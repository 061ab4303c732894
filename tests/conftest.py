"""Every test starts with empty metrics (bot.metrics keeps one set per process)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot import metrics


@pytest.fixture(autouse=True)
def fresh_metrics() -> Iterator[metrics.Metrics]:
    """A new :class:`~bot.metrics.Metrics` for each test (the one every counter records into)."""
    yield metrics.reset()
    metrics.reset()
