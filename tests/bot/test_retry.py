"""bot.process.retry: trying a platform again while the network is not there, on an injected clock."""

from __future__ import annotations

import asyncio
import logging

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.clock import FakeClock
from bot.process.retry import Backoff, keep_trying, why


@given(
    failures=st.integers(1, 60),
    first=st.floats(0.1, 10),
    most=st.floats(10, 600),
    jitter=st.floats(0, 0.5),
    draw=st.floats(0, 1),
)
def test_waits_grow_up_to_the_most_within_the_jitter(
    failures: int, first: float, most: float, jitter: float, draw: float
) -> None:
    backoff = Backoff(first=first, factor=2, most=most, jitter=jitter)
    base = min(most, first * 2 ** (failures - 1))
    wait = backoff.delay(failures, lambda: draw)
    assert base * (1 - jitter) - 1e-9 <= wait <= base * (1 + jitter) + 1e-9
    assert Backoff(first=1, jitter=0).delay(1) == 1 and Backoff(first=1, jitter=0).delay(4) == 8


def test_why_is_one_short_line() -> None:
    assert why(OSError("Cannot connect\n  to host")) == "Cannot connect to host"
    assert why(TimeoutError()) == "no answer in time"
    assert why(ConnectionRefusedError()) == "ConnectionRefusedError"
    assert len(why(OSError("x" * 1000))) == 200


async def test_network_failures_are_tried_again_after_each_wait(caplog: pytest.LogCaptureFixture) -> None:
    clock = FakeClock(0)
    tries: list[float] = []
    reasons: list[str] = []

    async def attempt() -> str:
        tries.append(clock.now())
        if len(tries) < 4:
            raise ConnectionRefusedError(111, "Connect call failed ('127.0.0.1', 9)")
        return "connected"

    with caplog.at_level(logging.WARNING):
        task = asyncio.ensure_future(
            keep_trying(
                attempt,
                what="Example",
                clock=clock,
                log=logging.getLogger("test.retry"),
                backoff=Backoff(first=2, factor=3, jitter=0),
                failing=reasons.append,
            )
        )
        await clock.advance(100)
        assert await task == "connected"
    assert tries == [0, 2, 8, 26]  # waits of 2, 6 and 18 s
    # /readyz's reason: no error text (hosts, ports); the log has it
    assert reasons[0] == "cannot reach Example; try 1 failed, trying again in 2 s"
    assert [r.getMessage() for r in caplog.records] == [
        f"cannot reach Example ([Errno 111] Connect call failed ('127.0.0.1', 9)); trying again in {s} s"
        for s in (2, 6, 18)
    ]
    assert all(r.exc_info is None for r in caplog.records)


async def test_a_refusal_is_not_tried_again() -> None:
    clock = FakeClock(0)
    calls = 0

    async def attempt() -> None:
        nonlocal calls
        calls += 1
        raise PermissionError("token rejected")

    with pytest.raises(PermissionError):
        await keep_trying(
            attempt, what="X", clock=clock, log=logging.getLogger("t"), retry_on=(ConnectionError,)
        )
    assert calls == 1


def test_socket_modes_reconnection_traceback_is_one_line(caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("slack_bolt")
    from adapters.slack.app import bolt_log

    with caplog.at_level(logging.INFO, logger=bolt_log.name):
        try:
            raise OSError("Cannot connect to host slack.com:443 ssl:default [Name or service not known]")
        except OSError as exc:
            bolt_log.exception(f"Failed to connect (error: {exc}); Retrying...")
    [record] = caplog.records
    assert record.levelno == logging.WARNING and record.exc_info is None
    assert "\n" not in caplog.text.strip()
