"""Prometheus metrics: every series moji exposes at ``/metrics``, defined in one place.

The rest of the code calls the small functions below (``metrics.answer_judged(game,
accepted)``, ``metrics.platform_call(platform, kind)``…); they record into the process's
current :class:`Metrics`, which owns its own ``CollectorRegistry`` (never
prometheus-client's global one). Tests start from a clean slate with :func:`reset`.

Series (all prefixed ``moji_``):

- ``moji_games_running{game}`` and ``moji_lobbies_open{game}``: gauges computed at scrape
  time from the sessions of every watched manager (:class:`Watched`: anything with sessions);
- ``moji_answers_judged_total{game,verdict}``: answers and moves the games judged,
  ``verdict`` ``accepted`` or ``refused``;
- ``moji_platform_calls_total{platform,kind}``: calls made to a chat platform (``post``,
  ``edit``, ``react``, ``private``, ``picture``);
- ``moji_platform_rate_limited_total{platform,kind}``: 429 answers the pacer heard of;
- ``moji_delivery_delay_seconds{platform}``: seconds from a table's new cards being
  produced to their being on the platform;
- ``moji_storage_retries_total``: game-log writes tried again after the database refused;
- ``moji_recoveries_total{outcome}``: games handled at start-up after a restart
  (``resumed``, ``voided``, ``lobbies`` reopened, results ``announced``);
- several processes on one database: ``moji_events_forwarded_total{platform}`` (events sent
  on to the process running their chat), ``moji_forward_delay_seconds{platform}`` (from an
  event's forwarding to its handling by the owner), ``moji_games_adopted_total{platform}``
  (games and lobbies carried on from a process that stopped answering) and
  ``moji_games_dropped_total`` (games this process lost to another one: it fell silent for
  longer than its lease).
"""

from __future__ import annotations

import weakref
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping
from enum import Enum
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Histogram, disable_created_metrics, generate_latest
from prometheus_client import Counter as PromCounter
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector


class _Named(Protocol):
    @property
    def name(self) -> str: ...


class _Counted(Protocol):
    """What the games gauges read of a session (a :class:`~bot.sessions.session.Session`)."""

    @property
    def phase(self) -> Enum: ...  # a session's Phase, read by its value: metrics imports no session

    @property
    def info(self) -> _Named: ...


class Watched(Protocol):
    """What :func:`watch` counts: a manager's sessions by chat (the manager, or any
    :class:`~bot.hosting.host.GameHost`; declared here so that metrics, which nearly every module
    of bot/ imports, imports none of them back)."""

    @property
    def sessions(self) -> Mapping[Any, _Counted]: ...


# no ``*_created`` timestamp series next to every counter: nothing here reads them
disable_created_metrics()  # type: ignore[no-untyped-call]

#: The content type of :meth:`Metrics.exposition` (Prometheus' text format).
CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
#: Restart outcomes, always exposed (at 0 until a restart has something to do).
RECOVERY_OUTCOMES = ("resumed", "voided", "lobbies", "announced")
#: Delivery delay buckets (seconds): a lively table lands within a second or two.
DELAY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 3.0, 5.0, 10.0, 30.0, 60.0)
#: Forwarding delay buckets (seconds): a notification crosses in milliseconds, a poll in ≤ 1 s.
FORWARD_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class _Games(Collector):
    """Running games and open lobbies by game, counted from the managers' sessions when scraped."""

    def __init__(self) -> None:
        self.managers: weakref.WeakSet[Watched] = weakref.WeakSet()

    def collect(self) -> Iterable[Metric]:
        running: Counter[str] = Counter()
        lobbies: Counter[str] = Counter()
        for manager in list(self.managers):
            for session in list(manager.sessions.values()):
                phase = session.phase.value
                if phase == "running":
                    running[session.info.name] += 1
                elif phase == "lobby":
                    lobbies[session.info.name] += 1
        games = GaugeMetricFamily("moji_games_running", "Games being played now, by game.", labels=["game"])
        for name, count in sorted(running.items()):
            games.add_metric([name], count)
        open_ = GaugeMetricFamily(
            "moji_lobbies_open", "Lobbies waiting for players to join, by game.", labels=["game"]
        )
        for name, count in sorted(lobbies.items()):
            open_.add_metric([name], count)
        return [games, open_]

    def describe(self) -> Iterator[Metric]:
        return iter(())


class Metrics:
    """One process's series, in a registry of their own."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._games = _Games()
        self.registry.register(self._games)
        self.answers = PromCounter(
            "moji_answers_judged",
            "Answers and moves judged by the games, by game and verdict (accepted or refused).",
            ["game", "verdict"],
            registry=self.registry,
        )
        self.calls = PromCounter(
            "moji_platform_calls",
            "Calls made to a chat platform, by platform and kind (post, edit, react, private, picture).",
            ["platform", "kind"],
            registry=self.registry,
        )
        self.rate_limited = PromCounter(
            "moji_platform_rate_limited",
            "Calls a chat platform refused for its rate limit (HTTP 429), by platform and kind.",
            ["platform", "kind"],
            registry=self.registry,
        )
        self.fair_share_refused = PromCounter(
            "moji_fair_share_refused",
            "Events refused because their sender was over their allowance (bot/core/fairshare.py), by "
            "platform and kind (commands, messages).",
            ["platform", "kind"],
            registry=self.registry,
        )
        self.delivery_delay = Histogram(
            "moji_delivery_delay_seconds",
            "Seconds from a game table's new cards being produced to their being on the platform.",
            ["platform"],
            buckets=DELAY_BUCKETS,
            registry=self.registry,
        )
        self.storage_retries = PromCounter(
            "moji_storage_retries",
            "Game-log writes tried again after the database refused them.",
            registry=self.registry,
        )
        self.recoveries = PromCounter(
            "moji_recoveries",
            "Games handled after a restart, by outcome (resumed, voided, lobbies reopened, "
            "results announced).",
            ["outcome"],
            registry=self.registry,
        )
        for outcome in RECOVERY_OUTCOMES:
            self.recoveries.labels(outcome)
        self.forwarded = PromCounter(
            "moji_events_forwarded",
            "Events sent on to the process that runs their chat's game, by platform.",
            ["platform"],
            registry=self.registry,
        )
        self.forward_delay = Histogram(
            "moji_forward_delay_seconds",
            "Seconds from an event's forwarding by another process to its handling here, by platform.",
            ["platform"],
            buckets=FORWARD_BUCKETS,
            registry=self.registry,
        )
        self.adopted = PromCounter(
            "moji_games_adopted",
            "Games and lobbies carried on here from a process that stopped answering, by platform.",
            ["platform"],
            registry=self.registry,
        )
        self.dropped = PromCounter(
            "moji_games_dropped",
            "Games dropped here because another process had taken them over.",
            registry=self.registry,
        )

    def watch(self, manager: Watched) -> None:
        """Count ``manager``'s sessions in the games gauges (for as long as it exists)."""
        self._games.managers.add(manager)

    def sessions(self) -> int:
        """Games and lobbies open in every watched manager."""
        return sum(len(manager.sessions) for manager in list(self._games.managers))

    def exposition(self) -> bytes:
        """Every series in Prometheus' text format."""
        return generate_latest(self.registry)


_current: Metrics | None = None


def current() -> Metrics:
    """The process's metrics (created on first use)."""
    global _current
    if _current is None:
        _current = Metrics()
    return _current


def reset() -> Metrics:
    """Start again from empty series (tests); returns the new current metrics."""
    global _current
    _current = Metrics()
    return _current


def watch(manager: Watched) -> None:
    """Count ``manager``'s running games and open lobbies in ``/metrics``."""
    current().watch(manager)


def answer_judged(game: str, accepted: bool) -> None:
    """A game accepted or refused an answer (or a move)."""
    current().answers.labels(game, "accepted" if accepted else "refused").inc()


def platform_call(platform: str, kind: str) -> None:
    """A call to a chat platform is being made."""
    current().calls.labels(platform, kind).inc()


def rate_limited(platform: str, kind: str) -> None:
    """A chat platform answered 429 to a call."""
    current().rate_limited.labels(platform, kind).inc()


def fair_share_refused(platform: str, kind: str) -> None:
    """An event was refused: its sender was over their allowance."""
    current().fair_share_refused.labels(platform, kind).inc()


def delivery_delay(platform: str, seconds: float) -> None:
    """A table's new cards reached the platform ``seconds`` after the game produced them."""
    current().delivery_delay.labels(platform).observe(max(0.0, seconds))


def storage_retry() -> None:
    """A game-log write is being tried again."""
    current().storage_retries.inc()


def recovered(outcome: str, count: int = 1) -> None:
    """``count`` games were handled at start-up with ``outcome`` (see :data:`RECOVERY_OUTCOMES`)."""
    if count:
        current().recoveries.labels(outcome).inc(count)


def forwarded(platform: str) -> None:
    """An event was sent on to the process that runs its chat."""
    current().forwarded.labels(platform).inc()


def forward_delay(platform: str, seconds: float) -> None:
    """A forwarded event was handled here ``seconds`` after it was forwarded."""
    current().forward_delay.labels(platform).observe(max(0.0, seconds))


def adopted(platform: str, count: int = 1) -> None:
    """``count`` games or lobbies were carried on here from a process that stopped answering."""
    if count:
        current().adopted.labels(platform).inc(count)


def dropped() -> None:
    """A game was dropped here: another process had taken it over."""
    current().dropped.inc()
