"""Scheduled games on every platform: ``schedule`` and the scheduler that runs them.

A schedule is "these weekdays at HH:MM (workspace time zone), in this channel,
start this game" — an office's word break on Slack, a server's game night on
Discord. The :class:`Scheduler` reads every schedule of its platform from the
store when it starts (so they survive restarts), sleeps on the injected clock
until the next run and claims each run in the store before starting it, so two
processes (or a restart a minute after a run) never start the same game twice.
:func:`start_scheduled` opens the lobby with a notice that mentions the chosen
group, and starts the game a few minutes later.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import zoneinfo
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, time, timedelta
from typing import TYPE_CHECKING, Protocol

from bot import views
from bot.clock import Clock
from bot.commands import CommandError, parse_start
from bot.events import ChatKey, Command, Player, Post
from bot.registry import Registry
from games.common.grammar import excerpt
from storage.base import Schedule

if TYPE_CHECKING:
    from bot.host import GameHost

log = logging.getLogger(__name__)

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
#: How long a scheduled game's lobby stays open before the game starts by itself.
JOIN_WINDOW = 120.0

#: A run missed by less than this (e.g. the bot restarted at 15:01) still starts, once.
GRACE = 300.0
#: How often the scheduler re-reads the store (breaks added or removed by other processes).
REFRESH_EVERY = 600.0

USAGE = (
    "Schedule a word break like `schedule weekdays 15:00 race bots=1 @team`, "
    "then `schedule list` or `schedule remove N`."
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
            first, _, last = part.partition("-")
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
                f"{excerpt(rest[0])} is not a time or days (weekdays, daily, mon,wed,fri). {USAGE}"
            )
        days = found
        rest.pop(0)
    at = parse_time(rest[0]) if rest else None
    if at is None:
        raise CommandError(f"Say when, like 15:00. {USAGE}")
    rest.pop(0)
    mentions = [word for word in rest if mention.match(word)]
    if len(mentions) > 1:
        raise CommandError("Mention one group at most.")
    start_args = tuple(word for word in rest if not mention.match(word))
    return BreakSpec(days, at, start_args, mentions[0] if mentions else "")


def describe_days(days: Sequence[int]) -> str:
    """Weekday numbers as words: ``weekdays``, ``daily``, ``Mon, Wed``."""
    for name in ("daily", "weekdays", "weekends"):
        if tuple(days) == DAY_SETS[name]:
            return name
    return ", ".join(DAY_NAMES[d].title() for d in days)


def describe(schedule: Schedule) -> str:
    """One line for ``schedule list`` and the App Home."""
    game = views.user(" ".join(schedule.args)) if schedule.args else "the default game"
    mention = f" for {schedule.mention}" if schedule.mention else ""
    return f"{describe_days(schedule.days)} at {schedule.at}: {game} in <#{schedule.channel_id}>{mention}"


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


Fire = Callable[[Schedule, float], Awaitable[None]]
TimezoneOf = Callable[[str], Awaitable[str]]


class ScheduleStore(Protocol):
    """Where schedules are kept (the project's database, or memory)."""

    async def add_schedule(self, schedule: Schedule) -> Schedule:
        """Save a new schedule (its ``id`` is ignored) and return it with its id."""
        ...

    async def list_schedules(self, platform: str, workspace_id: str | None = None) -> list[Schedule]:
        """Every schedule on ``platform`` (optionally of one workspace), oldest first."""
        ...

    async def remove_schedule(self, platform: str, workspace_id: str, schedule_id: int) -> bool:
        """Delete a workspace's schedule; False when it has no such schedule."""
        ...

    async def claim_schedule_run(self, schedule_id: int, run_at: float) -> bool:
        """Atomically claim one run of a schedule: True for exactly one caller per run."""
        ...


class Scheduler:
    """Runs every scheduled game of one platform on time, once, on the injected clock."""

    def __init__(
        self,
        store: ScheduleStore,
        clock: Clock,
        timezone_of: TimezoneOf,
        fire: Fire,
        *,
        platform: str,
        mine: Callable[[Schedule], bool] = lambda schedule: True,
        grace: float = GRACE,
        refresh_every: float = REFRESH_EVERY,
    ) -> None:
        self.store = store
        self.clock = clock
        self.timezone_of = timezone_of
        self.fire = fire
        self.grace = grace
        self.refresh_every = refresh_every
        self.platform = platform
        #: Which schedules this process runs (a Discord process: its shards' servers).
        self.mine = mine
        self.schedules: dict[int, Schedule] = {}
        self.next: dict[int, float] = {}
        self._changed = asyncio.Event()

    async def _next_after(self, schedule: Schedule, after: float) -> float | None:
        return next_run(schedule, zone(await self.timezone_of(schedule.workspace_id)), after)

    async def load(self) -> None:
        """Read every schedule from the store (after a restart, too)."""
        now = self.clock.now()
        self.schedules.clear()
        self.next.clear()
        for schedule in await self.store.list_schedules(self.platform):
            await self._track(schedule, now - self.grace)
        self._changed.set()

    async def _track(self, schedule: Schedule, after: float) -> None:
        if not self.mine(schedule):
            return
        self.schedules[schedule.id] = schedule
        when = await self._next_after(schedule, after)
        if when is None:
            self.next.pop(schedule.id, None)
        else:
            self.next[schedule.id] = when

    async def add(self, schedule: Schedule) -> Schedule:
        """Save a new schedule and plan its first run."""
        saved = await self.store.add_schedule(schedule)
        await self._track(saved, self.clock.now())
        self._changed.set()
        return saved

    async def remove(self, workspace_id: str, schedule_id: int) -> bool:
        """Delete one of a workspace's schedules."""
        removed = await self.store.remove_schedule(self.platform, workspace_id, schedule_id)
        if removed:
            self.schedules.pop(schedule_id, None)
            self.next.pop(schedule_id, None)
            self._changed.set()
        return removed

    def forget_workspace(self, workspace_id: str) -> None:
        """A workspace's data was purged: its schedules are gone from the store, and from here."""
        for sid, schedule in list(self.schedules.items()):
            if schedule.workspace_id == workspace_id:
                self.schedules.pop(sid, None)
                self.next.pop(sid, None)
        self._changed.set()

    async def list(self, workspace_id: str) -> list[Schedule]:
        """A workspace's schedules, oldest first."""
        return await self.store.list_schedules(self.platform, workspace_id)

    def upcoming(self, workspace_id: str) -> tuple[Schedule, float] | None:
        """The workspace's next break and when it runs."""
        runs = [
            (when, self.schedules[sid])
            for sid, when in self.next.items()
            if sid in self.schedules and self.schedules[sid].workspace_id == workspace_id
        ]
        if not runs:
            return None
        when, schedule = min(runs, key=lambda item: (item[0], item[1].id))
        return schedule, when

    async def refresh(self) -> None:
        """Pick up schedules other processes added or removed since we last looked."""
        stored = {s.id: s for s in await self.store.list_schedules(self.platform)}
        for sid in list(self.schedules):
            if sid not in stored:
                self.schedules.pop(sid, None)
                self.next.pop(sid, None)
        now = self.clock.now()
        for sid, schedule in stored.items():
            if sid not in self.schedules:
                await self._track(schedule, now)

    async def run(self) -> None:
        """Load the schedules, then start each break when its time comes, forever."""
        await self.load()
        await self.loop()

    async def loop(self) -> None:
        """Start each break when its time comes; re-read the store every ``refresh_every`` s."""
        refresh_at = self.clock.now() + self.refresh_every
        while True:
            self._changed.clear()
            if self.clock.now() >= refresh_at:
                try:
                    await self.refresh()
                except Exception:
                    log.exception("could not re-read the word breaks")
                refresh_at = self.clock.now() + self.refresh_every
            due = min(self.next.items(), key=lambda item: (item[1], item[0])) if self.next else None
            wake = min(due[1], refresh_at) if due else refresh_at
            sleeper = asyncio.ensure_future(self.clock.sleep_until(wake))
            changed = asyncio.ensure_future(self._changed.wait())
            try:
                await asyncio.wait({sleeper, changed}, return_when=asyncio.FIRST_COMPLETED)
            finally:
                for task in (sleeper, changed):
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            if due is None:
                continue
            sid, when = due
            if self.clock.now() < when or self.next.get(sid) != when:
                continue  # not yet, or a schedule changed: plan again
            await self._due(self.schedules[sid], when)

    async def _due(self, schedule: Schedule, when: float) -> None:
        planned = await self._next_after(schedule, when - 1)
        await self._track(schedule, max(when, self.clock.now()))
        if planned != when:
            return  # the workspace's time zone changed since this run was planned
        try:
            current = await self.store.list_schedules(self.platform, schedule.workspace_id)
            if all(s.id != schedule.id for s in current):
                self.schedules.pop(schedule.id, None)  # removed by another process
                self.next.pop(schedule.id, None)
                return
            claimed = await self.store.claim_schedule_run(schedule.id, when)
        except Exception:
            log.exception("could not claim word break %s at %s", schedule.id, when)
            return
        if not claimed:
            log.info("word break %s at %s was already started elsewhere", schedule.id, when)
            return
        try:
            await self.fire(schedule, when)
        except Exception:
            log.exception("word break %s failed to start", schedule.id)


TimeText = Callable[[float], str]


@dataclass(frozen=True)
class Schedules:
    """A platform's scheduled games, as the ``schedule`` command needs them."""

    scheduler: Scheduler
    timezone_of: TimezoneOf
    #: What a group mention looks like on the platform (a Slack user group, a Discord role).
    mention: re.Pattern[str]
    #: A time written so that the platform shows it in each reader's own time zone.
    time_text: TimeText
    #: What the platform calls them ("word break", "scheduled game").
    what: str = "scheduled game"

    def forget_workspace(self, workspace_id: str) -> None:
        """A workspace's data was purged: its scheduled games no longer run."""
        self.scheduler.forget_workspace(workspace_id)

    async def command(
        self, registry: Registry, chat: ChatKey, player: Player, args: Sequence[str]
    ) -> views.View:
        """Answer ``schedule …`` (privately)."""
        timezone = await self.timezone_of(chat.workspace_id)
        return await schedule_command(
            self.scheduler,
            registry,
            chat,
            player,
            args,
            timezone,
            mention=self.mention,
            time_text=self.time_text,
            what=self.what,
        )


async def schedule_command(
    scheduler: Scheduler,
    registry: Registry,
    chat: ChatKey,
    player: Player,
    args: Sequence[str],
    timezone: str,
    *,
    mention: re.Pattern[str],
    time_text: TimeText,
    what: str = "scheduled game",
) -> views.View:
    """``schedule …``: add, list or remove scheduled games; the answer (shown privately).

    ``time_text`` writes a time the way the platform localises it for each reader.
    """
    verb = args[0].lower() if args else "list"
    if verb in {"list", "ls"}:
        found = await scheduler.list(chat.workspace_id)
        if not found:
            return views.message(
                f"No {what}s yet. Add one like `schedule weekdays 15:00 race bots=1`.", "info"
            )
        lines = [f"#{s.id} — {describe(s)}" for s in found]
        lines.append(f"Times are {timezone} (change with `config timezone Europe/Paris`).")
        return views.View(kind="info", title=f"📅 {what.capitalize()}s", lines=tuple(lines))
    if not player.is_admin:
        raise CommandError(f"Only admins (or the configured admin group or role) can change {what}s.")
    if verb in {"remove", "delete", "rm", "cancel"}:
        number = args[1].lstrip("#") if len(args) > 1 else ""
        if not number.isdigit():
            raise CommandError(f"Say which {what} to remove, like `schedule remove 2` (see `schedule list`).")
        if not await scheduler.remove(chat.workspace_id, int(number)):
            raise CommandError(f"There is no {what} #{number} here.")
        return views.message(f"{what.capitalize()} #{number} removed.", "info")
    spec = parse_break(args[1:] if verb in {"add", "new"} else args, mention)
    info, _ = parse_start(spec.args, registry)  # refuse bad options now, not when it is due
    saved = await scheduler.add(
        Schedule(
            id=0,
            workspace_id=chat.workspace_id,
            channel_id=chat.channel_id,
            days=spec.days,
            at=spec.at,
            args=spec.args or (info.name,),
            mention=spec.mention,
            created_by=player.user_id,
            created_by_name=player.display_name,
            platform=chat.platform,
        )
    )
    when = scheduler.next.get(saved.id)
    next_text = f" Next: {time_text(when)}." if when else ""
    tz = zone(timezone).key
    return views.message(
        f"{what.capitalize()} #{saved.id} scheduled: {describe(saved)} ({tz} time).{next_text} "
        "You host it: the lobby opens on time and the game starts a few minutes later.",
        "info",
    )


async def start_scheduled(
    manager: GameHost, schedule: Schedule, when: float, notice: str, *, join_window: float = JOIN_WINDOW
) -> None:
    """A scheduled game is due: a notice that mentions its group, the lobby, and Start later.

    Skipped when a game is already on in the channel. The notice goes through the
    delivery layer like every other message, so it is paced and comes before the lobby.
    """
    chat = ChatKey(schedule.platform, schedule.workspace_id, schedule.channel_id)
    if await manager.has_game(chat):
        log.info("scheduled game %s skipped: a game is already on in %s", schedule.id, chat.label())
        return
    host = Player(schedule.platform, schedule.created_by, schedule.created_by_name or schedule.created_by)
    mentions = (schedule.mention,) if schedule.mention else ()
    await manager.outbox.send(Post(chat, views.View(kind="info", lines=(notice,), mentions=mentions)))
    # (here, where the schedule's run was claimed: the Start comes from here too)
    await manager.handle(Command("start", schedule.args, chat, host), routed=True)
    session = manager.sessions.get(chat)
    if session is not None and session.engine is None:
        manager.spawn(_go_later(manager, chat, session, when + join_window), f"scheduled go {chat.label()}")


async def _go_later(manager: GameHost, chat: ChatKey, session: object, at: float) -> None:
    await manager.clock.sleep_until(at)
    current = manager.sessions.get(chat)
    if current is session and current is not None and current.engine is None:
        starter = Player(chat.platform, current.host.user_id, current.host.display_name, is_admin=True)
        await manager.handle(Command("go", (), chat, starter))
