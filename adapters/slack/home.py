"""The App Home tab: the workspace leaderboard and the next word break."""

from __future__ import annotations

from typing import Any

from adapters.slack.blocks import date_token, escape, render
from adapters.slack.store import Schedule
from bot.core.views import View
from bot.features.schedule_spec import describe
from games.common.speech import _


def home_view(leaderboard: View, upcoming: tuple[Schedule, float] | None) -> dict[str, Any]:
    """The ``views.publish`` payload for a user's Home tab: one person's page, in the language
    spoken where it is made (theirs)."""
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": _("moji — word breaks"), "emoji": True}},
        {
            "type": "section",
            "text": {
                "type": "mrkdwn",
                "text": _("Type `/moji start` in a channel to open a game, or `/moji help` for everything."),
            },
        },
        {"type": "divider"},
    ]
    if upcoming is None:
        next_text = _("☕ *Next word break:* none scheduled. Try `/moji schedule weekdays 15:00 race`.")
    else:
        schedule, when = upcoming
        at = int(when)
        next_text = _(
            "☕ *Next word break:* {when} — {what}",
            when=date_token(at, "date_short_pretty", "time", str(at)),
            what=escape(describe(schedule)),
        )
    blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": next_text, "verbatim": True}})
    blocks.append({"type": "divider"})
    blocks.extend(render(leaderboard)[:40])
    return {"type": "home", "blocks": blocks}
