"""The App Home tab: the workspace leaderboard and the next word break."""

from __future__ import annotations

from typing import Any

from adapters.slack.blocks import escape, render
from adapters.slack.store import Schedule
from bot.schedule_spec import describe
from bot.views import View


def home_view(leaderboard: View, upcoming: tuple[Schedule, float] | None) -> dict[str, Any]:
    """The ``views.publish`` payload for a user's Home tab."""
    blocks: list[dict[str, Any]] = [
        {"type": "header", "text": {"type": "plain_text", "text": "moji — word breaks", "emoji": True}},
        {
            "type": "section",
            "text": {
                "type": "mrkdwn",
                "text": "Type `/moji start` in a channel to open a game, or `/moji help` for everything.",
            },
        },
        {"type": "divider"},
    ]
    if upcoming is None:
        next_text = "☕ *Next word break:* none scheduled. Try `/moji schedule weekdays 15:00 race`."
    else:
        schedule, when = upcoming
        at = int(when)
        next_text = (
            f"☕ *Next word break:* <!date^{at}^{{date_short_pretty}} at {{time}}|{at}> — "
            f"{escape(describe(schedule))}"
        )
    blocks.append({"type": "section", "text": {"type": "mrkdwn", "text": next_text, "verbatim": True}})
    blocks.append({"type": "divider"})
    blocks.extend(render(leaderboard)[:40])
    return {"type": "home", "blocks": blocks}
