"""moji on Slack: slash command, Block Kit tables, office word breaks.

``serve`` is what ``python -m bot`` runs when ``SLACK_BOT_TOKEN`` is set: Socket
Mode when ``SLACK_APP_TOKEN`` is set too, otherwise HTTP on ``HOST:PORT``
(``/slack/events``). See docs/SLACK.md.
"""

from __future__ import annotations

from typing import Any

from bot.clock import Clock


async def serve(config: Any, svc: Any, clock: Clock) -> None:
    """Run the Slack adapter until cancelled (recovering unfinished games first)."""
    from adapters.slack.app import SlackAdapter
    from adapters.slack.settings import settings_from_config

    adapter = SlackAdapter(settings_from_config(config), svc, clock)
    await adapter.run()


__all__ = ["serve"]
