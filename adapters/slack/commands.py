"""``/moji <text>``: the shared command grammar, plus Slack's ``schedule``.

Everything but ``schedule`` is the shared grammar (:mod:`bot.core.commands`) and
goes to the game manager as a neutral command. ``schedule`` is Slack's own
(office word breaks) and is answered here.
"""

from __future__ import annotations

from adapters.slack.blocks import date_token
from bot.core import views
from bot.core.commands import help_lines, split
from bot.core.registry import Registry
from games.common.speech import _

SLASH = "/moji"
SCHEDULE_WORDS = frozenset({"schedule", "schedules", "break", "breaks"})


def parse_slash(text: str, registry: Registry | None = None) -> tuple[str, tuple[str, ...]]:
    """The command name and arguments in ``/moji`` text, with ``registry``'s games' own verbs
    (None: every installed game's); raises :class:`CommandError`."""
    words = text.split()
    if words and words[0].lower().lstrip("/") == "moji":
        words = words[1:]
    if words and words[0].lower() in SCHEDULE_WORDS:
        return "schedule", tuple(words[1:])
    return split(text, registry)


def help_view(registry: Registry) -> views.View:
    """The help, with Slack's extra commands (in the language spoken)."""
    lines = [f"`{SLASH} " + line[1:] if line.startswith("`") else line for line in help_lines(registry)]
    return views.View(kind="help", title=_("moji commands"), lines=tuple(lines))


def slack_time(when: float) -> str:
    """A time as Slack shows it in each reader's own time zone (in the language spoken)."""
    return date_token(when, "date_short_pretty", "time", _("soon"))
