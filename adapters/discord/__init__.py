"""moji on Discord (discord.py 2.x): ``/moji`` slash commands, lobby buttons, table pictures.

``python -m bot`` with ``DISCORD_TOKEN`` set calls :func:`serve`. See
docs/DISCORD.md for the developer-portal steps, the invite URL and sharding.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

from adapters.discord.client import MojiBot

if TYPE_CHECKING:
    from bot.app import Services
    from bot.clock import Clock
    from bot.config import Config

__all__ = ["MojiBot", "serve"]

log = logging.getLogger(__name__)


async def serve(config: Config, svc: Services, clock: Clock, **options: Any) -> None:
    """Run moji on Discord until cancelled (``options`` go to the discord.py client)."""
    bot = MojiBot(config, svc, clock, **options)
    try:
        await bot.start(config.discord_token)
    finally:
        with contextlib.suppress(Exception):
            await bot.close()
