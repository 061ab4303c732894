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
from bot.process.retry import NETWORK_ERRORS, Backoff, keep_trying

if TYPE_CHECKING:
    from bot.core.clock import Clock
    from bot.process.app import Services
    from bot.process.config import Config

__all__ = ["MojiBot", "serve"]

log = logging.getLogger(__name__)

INTENT_HELP = (
    "Discord refused the Message Content intent: open the Developer Portal → your app → Bot, "
    "switch on 'Message Content Intent' under Privileged Gateway Intents, save, and start again"
)
#: Failures of the log-in that a later try may not meet: the network, Discord's own 5xx.
OUT_OF_REACH: tuple[type[BaseException], ...] = (*NETWORK_ERRORS, discord.DiscordServerError)
TOKEN_HELP = "Discord rejected DISCORD_TOKEN: copy the bot token again (Developer Portal → Bot → Reset Token)"


async def serve(
    config: Config, svc: Services, clock: Clock, *, backoff: Backoff | None = None, **options: Any
) -> None:
    """Run moji on Discord until cancelled (``options`` go to the discord.py client).

    A rejected token or a missing privileged intent ends it with a
    :class:`bot.process.app.StartupError` that says what to fix. Discord out of reach at start (no
    network, DNS down, Discord's own 5xx) is one log line per try, tried again after
    ``backoff``'s waits on ``clock``, and ``/readyz`` says why; once logged in, discord.py
    reconnects the gateway by itself.
    """
    from bot.process.app import StartupError

    bot = MojiBot(config, svc, clock, **options)
    svc.on_stop.append(bot.wind_down)
    http = svc.http

    async def log_in() -> None:
        try:
            await bot.login(config.discord_token)
        except OUT_OF_REACH:
            # login's HTTP session is made anew on each try: close this one (and its connector)
            with contextlib.suppress(Exception):
                await bot.http.close()
            bot.http.connector = discord.utils.MISSING
            raise

    try:
        await keep_trying(
            log_in,
            what="Discord",
            clock=clock,
            log=log,
            backoff=backoff,
            retry_on=OUT_OF_REACH,
            failing=(lambda reason: http.pending("discord", reason)) if http is not None else lambda _: None,
        )
        if http is not None:
            http.add_check("discord", bot.connected)  # /readyz: the gateway is ready and open
        await bot.connect(reconnect=True)
    except discord.PrivilegedIntentsRequired:
        raise StartupError(INTENT_HELP) from None
    except discord.LoginFailure:
        raise StartupError(TOKEN_HELP) from None
    finally:
        if http is not None:
            http.fail("discord", "stopped")
        with contextlib.suppress(Exception):
            await bot.close()
