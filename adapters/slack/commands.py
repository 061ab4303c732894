"""``/moji <text>``: the shared command grammar, plus Slack's ``schedule``.

Everything but ``schedule`` is the shared grammar (:mod:`bot.commands`) and
goes to the game manager as a neutral command. ``schedule`` is Slack's own
(office word breaks) and is answered here.
"""

from __future__ import annotations

from collections.abc import Sequence

from adapters.slack.schedule import BreakSpec, Scheduler, describe, parse_break, zone
from adapters.slack.store import PLATFORM, Schedule
from bot import views
from bot.commands import CommandError, help_lines, parse_start, split
from bot.events import ChatKey, Player
from bot.registry import Registry

SLASH = "/moji"
SCHEDULE_WORDS = frozenset({"schedule", "schedules", "break", "breaks"})
#: Commands whose answer depends on admin rights (asked of Slack only for these).
ADMIN_COMMANDS = frozenset({"config", "words", "stop", "go", "schedule"})

SCHEDULE_HELP = (
    "`schedule [weekdays|daily|mon,wed,fri] HH:MM [game] [option=value …] [@group]` — "
    "a recurring word break in this channel (admins)",
    "`schedule list` — this workspace's word breaks · `schedule remove N` — delete one (admins)",
)


def parse_slash(text: str) -> tuple[str, tuple[str, ...]]:
    """The command name and arguments in ``/moji`` text; raises :class:`CommandError`."""
    words = text.split()
    if words and words[0].lower().lstrip("/") == "moji":
        words = words[1:]
    if words and words[0].lower() in SCHEDULE_WORDS:
        return "schedule", tuple(words[1:])
    return split(text)


def help_view(registry: Registry) -> views.View:
    """The help, with Slack's extra commands."""
    lines = [f"`{SLASH} " + line[1:] if line.startswith("`") else line for line in help_lines(registry)]
    lines[-2:-2] = [f"`{SLASH} " + line[1:] for line in SCHEDULE_HELP]
    return views.View(kind="help", title="moji commands", lines=tuple(lines))


async def schedule_command(
    scheduler: Scheduler,
    registry: Registry,
    chat: ChatKey,
    player: Player,
    args: Sequence[str],
    timezone: str,
) -> views.View:
    """``schedule …``: add, list or remove word breaks; the answer (shown privately)."""
    verb = args[0].lower() if args else "list"
    if verb in {"list", "ls"}:
        found = await scheduler.list(chat.workspace_id)
        if not found:
            return views.message("No word breaks yet. " + SCHEDULE_HELP[0].split(" — ")[0], "info")
        lines = [f"#{s.id} — {describe(s)}" for s in found]
        lines.append(f"Times are {timezone} (change with `config timezone Europe/Paris`).")
        return views.View(kind="info", title="☕ Word breaks", lines=tuple(lines))
    if not player.is_admin:
        raise CommandError("Only workspace admins (or the configured admin group) can change word breaks.")
    if verb in {"remove", "delete", "rm", "cancel"}:
        number = args[1].lstrip("#") if len(args) > 1 else ""
        if not number.isdigit():
            raise CommandError("Say which break to remove, like `schedule remove 2` (see `schedule list`).")
        if not await scheduler.remove(chat.workspace_id, int(number)):
            raise CommandError(f"There is no word break #{number} in this workspace.")
        return views.message(f"Word break #{number} removed.", "info")
    spec: BreakSpec = parse_break(args[1:] if verb in {"add", "new"} else args)
    info, _ = parse_start(spec.args, registry)  # refuse bad options now, not at 15:00
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
            platform=PLATFORM,
        )
    )
    when = scheduler.next.get(saved.id)
    next_text = f" Next: <!date^{int(when)}^{{date_short_pretty}} at {{time}}|soon>." if when else ""
    tz = zone(timezone).key
    return views.message(
        f"Word break #{saved.id} scheduled: {describe(saved)} ({tz} time).{next_text} "
        f"You host it: the lobby opens on time and the game starts a few minutes later.",
        "info",
    )
