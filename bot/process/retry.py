"""Reaching a platform at start-up when the network is not there (yet).

A bot started before the network is up (a container on a host still booting, a laptop
offline, DNS down) keeps trying instead of dying with a traceback: each failed try is one
log line saying what failed and when the next comes, the waits grow (:class:`Backoff`),
and ``/readyz`` says why it is not ready. Only network failures are retried: a platform
that answers "no" (a rejected token) ends the start at once, with its own clear line.
The waits go through the injected :class:`~bot.core.clock.Clock`, so tests never sleep.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import aiohttp

from bot.core.clock import Clock
from bot.core.views import duration

T = TypeVar("T")

#: What "the network is not there" raises: DNS failures, refused or reset connections, TLS
#: failures, timeouts (aiohttp's connection errors are ``OSError``\s too).
NETWORK_ERRORS: tuple[type[BaseException], ...] = (OSError, TimeoutError, aiohttp.ClientError)


@dataclass(frozen=True)
class Backoff:
    """Waits between tries: ``first``, then ``factor`` times longer each time, at most ``most``
    seconds, each moved by up to ±``jitter`` of itself (so that several processes started
    together do not all try again at the same moment)."""

    first: float = 1.0
    factor: float = 2.0
    most: float = 60.0
    jitter: float = 0.1

    def delay(self, failures: int, rng: Callable[[], float] = random.random) -> float:
        """Seconds to wait after the ``failures``-th failure in a row (1, 2, …)."""
        base = min(self.most, self.first * self.factor ** max(0, failures - 1))
        return base * (1 + self.jitter * (2 * rng() - 1))


def why(exc: BaseException) -> str:
    """An exception as the one short phrase a log line or ``/readyz`` shows."""
    text = " ".join(str(exc).split())
    if not text:
        return "no answer in time" if isinstance(exc, TimeoutError) else type(exc).__name__
    return text[:200]


async def keep_trying(
    attempt: Callable[[], Awaitable[T]],
    *,
    what: str,
    clock: Clock,
    log: logging.Logger,
    backoff: Backoff | None = None,
    retry_on: tuple[type[BaseException], ...] = NETWORK_ERRORS,
    failing: Callable[[str], None] = lambda reason: None,
) -> T:
    """``await attempt()`` until it does not raise one of ``retry_on``, waiting longer each time.

    Each failure is logged as one line ("cannot reach Discord (…); trying again in 4 s") and
    handed to ``failing`` without the error's text, which may name hosts and ports ("cannot
    reach Discord; try 3 failed, trying again in 4 s", for ``/readyz``, which anyone may ask);
    any other exception ends the tries.
    """
    backoff = backoff or Backoff()
    failures = 0
    while True:
        try:
            return await attempt()
        except retry_on as exc:
            failures += 1
            wait = backoff.delay(failures)
            reason = f"cannot reach {what} ({why(exc)})"
            failing(f"cannot reach {what}; try {failures} failed, trying again in {duration(wait)}")
            log.warning("%s; trying again in %s", reason, duration(wait))
            await clock.sleep_until(clock.now() + wait)
