"""moji on Discord (discord.py 2.x): ``/moji`` slash commands, lobby buttons, table pictures.

``python -m bot`` with ``DISCORD_TOKEN`` set calls :func:`serve`. See
docs/DISCORD.md for the developer-portal steps, the invite URL and sharding.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord

from adapters.discord.client import MojiBot

if TYPE_CHECKING:
    from bot.app import Services
    from bot.clock import Clock
    from bot.config import Config

__all__ = ["MojiBot", "serve"]

log = logging.getLogger(__name__)

INTENT_HELP = (
    "Discord refused the Message Content intent: open the Developer Portal → your app → Bot, "
    "switch on 'Message Content Intent' under Privileged Gateway Intents, save, and start again"
)
TOKEN_HELP = "Discord rejected DISCORD_TOKEN: copy the bot token again (Developer Portal → Bot → Reset Token)"


async def serve(config: Config, svc: Services, clock: Clock, **options: Any) -> None:
    """Run moji on Discord until cancelled (``options`` go to the discord.py client).

    A rejected token or a missing privileged intent ends it with a
    :class:`bot.app.StartupError` that says what to fix.
    """
    from bot.app import StartupError

    bot = MojiBot(config, svc, clock, **options)
    svc.on_stop.append(bot.wind_down)
    http = svc.http
    if http is not None:
        http.add_check("discord", bot.connected)  # /readyz: the gateway is ready and open
    try:
        await bot.start(config.discord_token)
    except discord.PrivilegedIntentsRequired:
        raise StartupError(INTENT_HELP) from None
    except discord.LoginFailure:
        raise StartupError(TOKEN_HELP) from None
    finally:
        if http is not None:
            http.fail("discord", "stopped")
        with contextlib.suppress(Exception):
            await bot.close()
