"""moji on Slack: slash command, Block Kit tables, office word breaks.

``serve`` is what ``python -m bot`` runs when ``SLACK_BOT_TOKEN`` is set: Socket
Mode when ``SLACK_APP_TOKEN`` is set too, otherwise HTTP (``/slack/events``, on the
process's HTTP server at ``HOST:PORT``). See docs/SLACK.md.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.core.clock import Clock
from bot.core.views import View
from bot.process.retry import Backoff


def card_pictures() -> Callable[[View], bytes | None] | None:
    """The shared Pillow card renderer (``adapters.pictures``), when this build has it."""
    try:
        from adapters.pictures import render_view
    except ImportError:
        return None
    return render_view  # type: ignore[no-any-return, unused-ignore]


async def serve(config: Any, svc: Any, clock: Clock, *, backoff: Backoff | None = None) -> None:
    """Run the Slack adapter until cancelled (checking its tokens, then recovering unfinished
    games); ``backoff``: the waits between tries while Slack is out of reach at start."""
    from adapters.slack.app import SlackAdapter
    from adapters.slack.settings import settings_from_config

    adapter = SlackAdapter(settings_from_config(config), svc, clock, renderer=card_pictures())
    if backoff is not None:
        adapter.backoff = backoff
    svc.on_stop.append(adapter.wind_down)
    await adapter.run(getattr(svc, "http", None))  # the process's HTTP server, when there is one


__all__ = ["card_pictures", "serve"]
