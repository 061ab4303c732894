"""Every test starts with empty metrics (bot.core.metrics keeps one set per process), leaves the
root logger as it found it, and makes no request to the fakes that the platforms' published specs
refuse (tests/specs). Under pytest-xdist (``make test``), the tests that run moji as real processes
on leases and timeouts run one after another within each of two groups."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from bot.core import metrics
from tests import specs

#: Tests that start bot processes (several each, on real leases), in two xdist groups of about
#: four minutes each: within a group one at a time, on one worker (each group goes first, as the
#: largest unit of work). They mostly wait on leases and on races run on the wall clock.
PROCESS_TESTS = {
    "tests/hardening/test_processes_discord.py": "processes-discord",
    "tests/hardening/test_web_processes.py": "processes-discord",
    "tests/hardening/test_processes_slack.py": "processes-other",
    "tests/hardening/test_kill9.py": "processes-other",
    "tests/hardening/test_kill9_tournament.py": "processes-other",
    "tests/hardening/test_sigterm.py": "processes-other",
    "tests/hardening/test_soak_smoke.py": "processes-other",
}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        group = PROCESS_TESTS.get(item.nodeid.split("::", 1)[0])
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    terminalreporter.write_line(specs.status())


@pytest.fixture(autouse=True)
def published_specs_kept(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every request the fake Discord and fake Slack served during the test (its fixtures' too)
    is one Discord's OpenAPI spec, Slack's Web API spec and Block Kit take."""
    specs.ready()
    specs.take()
    yield
    refused = list(dict.fromkeys(map(str, specs.take())))
    shown = "\n  ".join(refused[:20]) + (f"\n  … and {len(refused) - 20} more" if len(refused) > 20 else "")
    assert not refused, f"{request.node.nodeid} made requests the published specs refuse:\n  {shown}"


@pytest.fixture(autouse=True)
def fresh_metrics() -> Iterator[metrics.Metrics]:
    """A new :class:`~bot.core.metrics.Metrics` for each test (the one every counter records into)."""
    yield metrics.reset()
    metrics.reset()


@pytest.fixture(autouse=True)
def root_logger_restored() -> Iterator[None]:
    """The root logger's handlers and level as they were before the test: a test that runs
    ``python -m bot``'s ``main`` in-process sets them up (``bot.process.logs.setup``), and a handler
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


def _sqlite_workers() -> list[object]:
    """aiosqlite's worker threads still running (one per connection not closed yet)."""
    import threading

    return [
        thread
        for thread in threading.enumerate()
        if getattr(thread, "_target", None) is not None
        and getattr(thread._target, "__name__", "") == "_connection_worker_thread"  # type: ignore[attr-defined]
    ]


@pytest.fixture(autouse=True)
def no_connection_left_open(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test leaves no aiosqlite connection open: its worker thread is not a daemon, so one left
    running would keep the test process from ever exiting (a pytest-xdist worker too)."""
    before = set(map(id, _sqlite_workers()))
    yield
    left = [thread for thread in _sqlite_workers() if id(thread) not in before]
    if left:
        import gc
        import time

        gc.collect()
        deadline = time.monotonic() + 10.0  # (a close may still be on its way through the thread)
        while left and time.monotonic() < deadline:
            time.sleep(0.01)
            left = [thread for thread in left if thread.is_alive()]  # type: ignore[attr-defined]
    assert not left, f"{request.node.nodeid} left {len(left)} SQLite connection(s) open"
