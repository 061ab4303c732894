"""Scheduled games on every platform: ``schedule`` and the scheduler that runs them.

A schedule is "these weekdays at HH:MM (workspace time zone), in this channel,
start this game" — an office's word break on Slack, a server's game night on
Discord. The :class:`Scheduler` reads every schedule of its platform from the
store when it starts (so they survive restarts), sleeps on the injected clock
until the next run and claims each run in the store before starting it, so two
processes (or a restart a minute after a run) never start the same game twice.
:func:`start_scheduled` opens the lobby with a notice that mentions the chosen
group, and starts the game a few minutes later.

This module holds the ``schedule`` command (:class:`Schedules`,
:func:`schedule_command`) and what a due run does (:func:`start_scheduled`). Reading
and describing a schedule, and when it runs next, are in :mod:`bot.features.schedule_spec`; the
:class:`~bot.features.scheduler.Scheduler` and its store are in :mod:`bot.features.scheduler`. Their
names are importable from here too.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.core import views
from bot.core.clock import Clock
from bot.core.commands import CommandError, parse_start
from bot.core.events import ChatKey, Command, Inbound, Player, Post
from bot.core.outbox import Outbox
from bot.core.registry import Registry
from bot.features.daily import REMINDER, is_reminder, reminder
from bot.features.schedule_spec import (
    USAGE,
    describe,
    parse_break,
    zone,
)
from bot.features.scheduler import Scheduler, TimezoneOf
from bot.features.tournaments.spec import parse_tournament
from bot.features.workspace import Workspace
from bot.sessions.session import Session
from games.common.speech import N_, _, speaking
from storage.base import Schedule

# (the names other modules import from here, from before the split)
__all__ = ["JOIN_WINDOW", "Schedules", "TimeText", "schedule_command", "start_scheduled"]

log = logging.getLogger(__name__)

#: A schedule that starts with one of these opens a tournament (``schedule fri 12:00 tournament arena
#: race 30m``) instead of a game's lobby.
TOURNAMENT_WORDS = frozenset({"tournament", "tournaments", "tourney"})

#: How long a scheduled game's lobby stays open before the game starts by itself.
JOIN_WINDOW = 120.0


TimeText = Callable[[float], str]

#: What the ``schedule`` command says, by what the platform calls a schedule (``what``).
SAID: dict[str, dict[str, str]] = {
    "scheduled game": {
        "none": N_("No scheduled games yet. Add one like `schedule weekdays 15:00 race bots=1`."),
        "title": N_("📅 Scheduled games"),
        "admins": N_("Only admins (or the configured admin group or role) can change scheduled games."),
        "which": N_("Say which scheduled game to remove, like `schedule remove 2` (see `schedule list`)."),
        "missing": N_("There is no scheduled game #{number} here."),
        "removed": N_("Scheduled game #{number} removed."),
        "added": N_("Scheduled game #{number} scheduled: {schedule} ({zone} time)."),
    },
    "word break": {
        "none": N_("No word breaks yet. Add one like `schedule weekdays 15:00 race bots=1`."),
        "title": N_("📅 Word breaks"),
        "admins": N_("Only admins (or the configured admin group or role) can change word breaks."),
        "which": N_("Say which word break to remove, like `schedule remove 2` (see `schedule list`)."),
        "missing": N_("There is no word break #{number} here."),
        "removed": N_("Word break #{number} removed."),
        "added": N_("Word break #{number} scheduled: {schedule} ({zone} time)."),
    },
}


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
    said = SAID.get(what, SAID["scheduled game"])
    verb = args[0].lower() if args else "list"
    if verb in {"list", "ls"}:
        found = await scheduler.list(chat.workspace_id)
        if not found:
            return views.message(_(said["none"]), "info")
        lines = [f"#{s.id} — {describe(s)}" for s in found]
        lines.append(_("Times are {zone} (change with `config timezone Europe/Paris`).", zone=timezone))
        return views.View(kind="info", title=_(said["title"]), lines=tuple(lines))
    if not player.is_admin:
        raise CommandError(_(said["admins"]))
    if verb in {"remove", "delete", "rm", "cancel"}:
        number = args[1].lstrip("#") if len(args) > 1 else ""
        if not number.isdigit():
            raise CommandError(_(said["which"]))
        if not await scheduler.remove(chat.workspace_id, int(number)):
            raise CommandError(_(said["missing"], number=number))
        return views.message(_(said["removed"], number=number), "info")
    spec = parse_break(args[1:] if verb in {"add", "new"} else args, mention)
    if is_reminder(spec.args):  # the daily's reminder: one message when due, no game
        if len(spec.args) > 1:
            raise CommandError(
                _(
                    "The daily's reminder takes no options: `schedule daily 09:00 daily` "
                    "(a group may be mentioned)."
                )
                + " "
                + _(USAGE)
            )
        return await _add(
            scheduler,
            chat,
            player,
            spec.days,
            spec.at,
            (REMINDER,),
            spec.mention,
            timezone,
            time_text,
            what,
            _("The reminder is posted here on time; `daily` deals each person's daily privately."),
        )
    if spec.args and spec.args[0].lower() in TOURNAMENT_WORDS:  # a tournament opens when due
        parse_tournament(spec.args[1:], registry)  # (refused now if it can't open then)
        return await _add(
            scheduler,
            chat,
            player,
            spec.days,
            spec.at,
            ("tournament", *spec.args[1:]),
            spec.mention,
            timezone,
            time_text,
            what,
            _("The tournament opens here on time, with you as its creator."),
        )
    info, _options = parse_start(spec.args, registry)  # refuse bad options now, not when it is due
    return await _add(
        scheduler,
        chat,
        player,
        spec.days,
        spec.at,
        spec.args or (info.name,),
        spec.mention,
        timezone,
        time_text,
        what,
        _("You host it: the lobby opens on time and the game starts a few minutes later."),
    )


async def _add(
    scheduler: Scheduler,
    chat: ChatKey,
    player: Player,
    days: tuple[int, ...],
    at: str,
    args: tuple[str, ...],
    mention: str,
    timezone: str,
    time_text: TimeText,
    what: str,
    then: str,
) -> views.View:
    """Keep a schedule; the answer that says when it runs next and ``then`` what happens."""
    saved = await scheduler.add(
        Schedule(
            id=0,
            workspace_id=chat.workspace_id,
            channel_id=chat.channel_id,
            days=days,
            at=at,
            args=args,
            mention=mention,
            created_by=player.user_id,
            created_by_name=player.display_name,
            platform=chat.platform,
        )
    )
    when = scheduler.next.get(saved.id)
    said = SAID.get(what, SAID["scheduled game"])
    tz = zone(timezone).key
    text = _(said["added"], number=str(saved.id), schedule=describe(saved), zone=tz)
    if when:
        text += " " + _("Next: {time}.", time=time_text(when))
    return views.message(f"{text} {then}", "info")


class Starter(Protocol):
    """What a scheduled game's start needs of the game host (:class:`~bot.hosting.host.GameHost`)."""

    @property
    def workspace(self) -> Workspace:
        """The workspace's settings (the chat's language)."""
        ...

    @property
    def outbox(self) -> Outbox:
        """Where the notice goes."""
        ...

    @property
    def clock(self) -> Clock:
        """The core's clock (the Start comes later)."""
        ...

    @property
    def sessions(self) -> Mapping[ChatKey, Session]:
        """The games and lobbies this process runs, by chat."""
        ...

    async def handle(self, event: Inbound, *, routed: bool = False) -> bool:
        """Dispatch a command of the scheduled game's (``start``, ``go``, ``tournament``)."""
        ...

    async def has_game(self, chat: ChatKey) -> bool:
        """Whether ``chat`` has a game or lobby, here or in another process."""
        ...

    def spawn(self, coro: Coroutine[Any, Any, None], name: str, chat: ChatKey | None = None) -> Any:
        """Run ``coro`` as a supervised task."""
        ...


async def start_scheduled(
    manager: Starter, schedule: Schedule, when: float, notice: str, *, join_window: float = JOIN_WINDOW
) -> None:
    """A scheduled game is due: a notice that mentions its group, the lobby, and Start later.

    Skipped when a game is already on in the channel. The notice goes through the
    delivery layer like every other message, so it is paced and comes before the lobby.
    """
    chat = ChatKey(schedule.platform, schedule.workspace_id, schedule.channel_id)
    if is_reminder(schedule.args):  # the daily's reminder: one message, whatever runs there
        settings = await manager.workspace.settings(chat)
        with speaking(str(settings.get("language") or "en")):  # the whole chat reads it
            said = reminder(schedule.mention)
        await manager.outbox.send(Post(chat, said))
        return
    host = Player(schedule.platform, schedule.created_by, schedule.created_by_name or schedule.created_by)
    mentions = (schedule.mention,) if schedule.mention else ()
    if schedule.args and schedule.args[0].lower() in TOURNAMENT_WORDS:  # (an arena waits for a game)
        settings = await manager.workspace.settings(chat)
        with speaking(str(settings.get("language") or "en")):  # the whole chat reads it
            call = _("📅 Tournament time! `tournament join` to play.")
        await manager.outbox.send(Post(chat, views.View(kind="info", lines=(call,), mentions=mentions)))
        await manager.handle(Command("tournament", schedule.args[1:], chat, host), routed=True)
        return
    if await manager.has_game(chat):
        log.info("scheduled game %s skipped: a game is already on in %s", schedule.id, chat.label())
        return
    await manager.outbox.send(Post(chat, views.View(kind="info", lines=(notice,), mentions=mentions)))
    # (here, where the schedule's run was claimed: the Start comes from here too)
    await manager.handle(Command("start", schedule.args, chat, host), routed=True)
    session = manager.sessions.get(chat)
    if session is not None and session.engine is None:
        manager.spawn(_go_later(manager, chat, session, when + join_window), f"scheduled go {chat.label()}")


async def _go_later(manager: Starter, chat: ChatKey, session: object, at: float) -> None:
    await manager.clock.sleep_until(at)
    current = manager.sessions.get(chat)
    if current is session and current is not None and current.engine is None:
        starter = Player(chat.platform, current.host.user_id, current.host.display_name, is_admin=True)
        await manager.handle(Command("go", (), chat, starter))
