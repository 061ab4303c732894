"""Every test starts with empty metrics (bot.metrics keeps one set per process), and leaves the
root logger as it found it. Under pytest-xdist (``make test`` runs two workers), the tests that
run moji as real processes on leases and timeouts share one worker, one after another."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot import metrics

#: Tests that start bot processes (several each, on real leases): run one at a time, on one worker,
#: while the other worker runs the rest (see ``make test``).
PROCESS_TESTS = (
    "tests/hardening/test_processes_discord.py",
    "tests/hardening/test_processes_slack.py",
    "tests/hardening/test_kill9.py",
    "tests/hardening/test_sigterm.py",
    "tests/hardening/test_soak_smoke.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.nodeid.startswith(PROCESS_TESTS):
            item.add_marker(pytest.mark.xdist_group("processes"))


@pytest.fixture(autouse=True)
def fresh_metrics() -> Iterator[metrics.Metrics]:
    """A new :class:`~bot.metrics.Metrics` for each test (the one every counter records into)."""
    yield metrics.reset()
    metrics.reset()


@pytest.fixture(autouse=True)
def root_logger_restored() -> Iterator[None]:
    """The root logger's handlers and level as they were before the test: a test that runs
    ``python -m bot``'s ``main`` in-process sets them up (``bot.logs.setup``), and a handler
    left on a closed capture stream, or a changed level, would change what later tests see."""
    import logging

    root = logging.getLogger()
    handlers, level = list(root.handlers), root.level
    yield
    for handler in list(root.handlers):
        if handler not in handlers:
            root.removeHandler(handler)
    for handler in handlers:
        if handler not in root.handlers:
            root.addHandler(handler)
    root.setLevel(level)
