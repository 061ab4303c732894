"""Leaderboard periods: which bucket a finished game falls in.

Scores are added up when a game ends into one row per period bucket
(``all``, ``season:3``, ``month:2025-05``, ``week:2025-W19``,
``day:2025-05-07``), so a leaderboard is one indexed read however many games
were played. Day, week (ISO, Monday first) and month are calendar periods in
the workspace's time zone (a zoneinfo name, ``UTC`` by default).
"""

from __future__ import annotations

import zoneinfo
from datetime import UTC, datetime, tzinfo
from typing import Literal, get_args

Period = Literal["day", "week", "month", "season", "all"]
PERIODS: tuple[Period, ...] = get_args(Period)


def zone(name: str | None) -> tzinfo:
    """The time zone called ``name``; UTC when empty or unknown."""
    if not name or name.upper() == "UTC":
        return UTC
    try:
        return zoneinfo.ZoneInfo(name)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return UTC


def bucket(period: Period, when: datetime, tz: tzinfo = UTC, season: int = 1) -> str:
    """The bucket key of ``period`` that contains ``when`` (an aware datetime)."""
    if period == "all":
        return "all"
    if period == "season":
        return f"season:{season}"
    local = when.astimezone(tz)
    if period == "day":
        return f"day:{local.date().isoformat()}"
    if period == "week":
        year, week, _ = local.isocalendar()
        return f"week:{year:04d}-W{week:02d}"
    if period == "month":
        return f"month:{local.year:04d}-{local.month:02d}"
    raise ValueError(f"unknown period {period!r}")


def buckets(when: datetime, tz: tzinfo = UTC, season: int = 1) -> list[str]:
    """Every bucket a game ending at ``when`` counts in."""
    return [bucket(period, when, tz, season) for period in PERIODS]


def from_epoch(seconds: float) -> datetime:
    """Epoch seconds as an aware UTC datetime."""
    return datetime.fromtimestamp(seconds, UTC)
