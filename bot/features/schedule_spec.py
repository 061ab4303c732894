"""What a schedule says: ``schedule …`` read into days, a time and a game, and when it runs next.

Pure functions over text and dates, shared by the ``schedule`` command
(:mod:`bot.features.schedule`), the :class:`~bot.features.scheduler.Scheduler` that runs the saved
schedules (:func:`next_run`, :func:`zone`) and the adapters that list them (Slack's App
Home: :func:`describe`). A platform says what a group mention looks like on it
(:data:`SLACK_MENTION`, :data:`DISCORD_MENTION`).
"""

from __future__ import annotations

import logging
import re
import zoneinfo
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta

from bot.core import views
from bot.core.commands import CommandError
from games.common.grammar import excerpt
from games.common.speech import CLOSE, N_, OPEN, PSEUDO, _, babel_locale, current
from storage.base import Schedule

# (the scheduled games' logger, as before they were split into modules)
log = logging.getLogger("bot.features.schedule")

DAY_NAMES = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
FULL_DAY_NAMES = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
DAY_SETS: dict[str, tuple[int, ...]] = {
    "daily": (0, 1, 2, 3, 4, 5, 6),
    "everyday": (0, 1, 2, 3, 4, 5, 6),
    "every-day": (0, 1, 2, 3, 4, 5, 6),
    "weekdays": (0, 1, 2, 3, 4),
    "workdays": (0, 1, 2, 3, 4),
    "weekends": (5, 6),
}
_TIME = re.compile(r"^(\d{1,2})(?::(\d{2}))?\s*(am|pm)?$", re.IGNORECASE)
#: Slack: a user group (``<!subteam^S1|@team>``, ``@team``), ``<!here>`` or ``<!channel>``.
SLACK_MENTION = re.compile(r"^(<!subteam\^[A-Z0-9]+(\|[^>]*)?>|<!here>|<!channel>|@[\w.-]+)$", re.IGNORECASE)
#: Discord: a role (``<@&123>``).
DISCORD_MENTION = re.compile(r"^<@&\d+>$")

USAGE = N_(
    "Schedule a word break like `schedule weekdays 15:00 race bots=1 @team` (or the daily's "
    "reminder: `schedule daily 09:00 daily @team`), then `schedule list` or `schedule remove N`."
)


@dataclass(frozen=True, slots=True)
class BreakSpec:
    """A parsed ``schedule …`` request (not saved yet)."""

    days: tuple[int, ...]
    at: str
    args: tuple[str, ...]
    mention: str


def _day(word: str) -> int | None:
    """``mon``, ``monday``, ``mondays``, ``thurs`` → 0…6."""
    word = word.lower()
    for number, full in enumerate(FULL_DAY_NAMES):
        if len(word) >= 3 and (full.startswith(word) or word == full + "s"):
            return number
    return None


def parse_days(word: str) -> tuple[int, ...] | None:
    """``weekdays``, ``daily``, ``mon,wed,fri``, ``mon-thu``, ``friday`` → weekday numbers."""
    word = word.lower()
    if word in DAY_SETS:
        return DAY_SETS[word]
    days: set[int] = set()
    for part in word.split(","):
        if "-" in part:
            first, _dash, last = part.partition("-")
            a, b = _day(first), _day(last)
            if a is None or b is None:
                return None
            days.update((a + i) % 7 for i in range((b - a) % 7 + 1))
        else:
            day = _day(part)
            if day is None:
                return None
            days.add(day)
    return tuple(sorted(days)) if days else None


def parse_time(word: str) -> str | None:
    """``15:00``, ``9:30``, ``3pm``, ``3:30pm`` → ``HH:MM`` (24 h), or None."""
    match = _TIME.match(word.strip())
    if not match:
        return None
    hour, minute = int(match.group(1)), int(match.group(2) or 0)
    suffix = (match.group(3) or "").lower()
    if suffix:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if suffix == "pm" else 0)
    elif match.group(2) is None:
        return None  # a bare number is not a time
    if not (0 <= hour <= 23 and 0 <= minute <= 59):
        return None
    return f"{hour:02d}:{minute:02d}"


def parse_break(args: Sequence[str], mention: re.Pattern[str] = SLACK_MENTION) -> BreakSpec:
    """Read ``[days] HH:MM [game] [option=value …] [@group]``; raises :class:`CommandError`.

    ``mention`` says what a group mention looks like on the platform.
    """
    rest = list(args)
    days = DAY_SETS["weekdays"]
    if rest and parse_time(rest[0]) is None:
        found = parse_days(rest[0])
        if found is None:
            raise CommandError(
                _("{word} is not a time or days (weekdays, daily, mon,wed,fri).", word=excerpt(rest[0]))
                + " "
                + _(USAGE)
            )
        days = found
        rest.pop(0)
    at = parse_time(rest[0]) if rest else None
    if at is None:
        raise CommandError(_("Say when, like 15:00.") + " " + _(USAGE))
    rest.pop(0)
    mentions = [word for word in rest if mention.match(word)]
    if len(mentions) > 1:
        raise CommandError(_("Mention one group at most."))
    start_args = tuple(word for word in rest if not mention.match(word))
    return BreakSpec(days, at, start_args, mentions[0] if mentions else "")


def describe_days(days: Sequence[int]) -> str:
    """Weekday numbers as words: ``weekdays``, ``daily``, ``Mon, Wed``."""
    for name, said in DAY_SET_NAMES.items():
        if tuple(days) == DAY_SETS[name]:
            return _(said)
    names = babel_locale().days["format"]["abbreviated"]
    shown = [str(names[d]) for d in days]
    if current() == PSEUDO:
        shown = [f"{OPEN}{name}{CLOSE}" for name in shown]
    return ", ".join(shown)


#: How ``schedule list`` names the sets of days (Babel's abbreviations name single days).
DAY_SET_NAMES = {"daily": N_("daily"), "weekdays": N_("weekdays"), "weekends": N_("weekends")}


def describe(schedule: Schedule) -> str:
    """One line for ``schedule list`` and the App Home."""
    game = views.user(" ".join(schedule.args)) if schedule.args else _("the default game")
    if schedule.args and schedule.args[0].lower() in {"daily", "daily-reminder"}:
        game = _("the daily's reminder")
    days, channel = describe_days(schedule.days), f"<#{schedule.channel_id}>"
    if schedule.mention:
        return _(
            "{days} at {time}: {game} in {channel} for {group}",
            days=days,
            time=schedule.at,
            game=game,
            channel=channel,
            group=schedule.mention,
        )
    return _("{days} at {time}: {game} in {channel}", days=days, time=schedule.at, game=game, channel=channel)


def zone(name: str) -> zoneinfo.ZoneInfo:
    """The time zone called ``name``; UTC when unknown."""
    try:
        return zoneinfo.ZoneInfo(name or "UTC")
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        log.warning("unknown time zone %r; using UTC", name)
        return zoneinfo.ZoneInfo("UTC")


def next_run(schedule: Schedule, tz: zoneinfo.ZoneInfo, after: float) -> float | None:
    """The first run strictly after ``after`` (epoch seconds), in the time zone ``tz``."""
    if not schedule.days:
        return None
    hour, minute = (int(part) for part in schedule.at.split(":"))
    start = datetime.fromtimestamp(after, tz).date()
    for offset in range(8):
        day = start + timedelta(days=offset)
        if day.weekday() not in schedule.days:
            continue
        when = datetime.combine(day, time(hour, minute), tzinfo=tz).timestamp()
        if when > after:
            return when
    return None
