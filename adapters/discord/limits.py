"""Discord's rate limits as data, and what its ``X-RateLimit-*`` headers say back.

Documented limits (https://discord.com/developers/docs/topics/rate-limits) and the
per-route buckets Discord has long answered with:

- 50 requests per second per bot token, for every route except interaction
  callbacks and follow-ups (the webhook routes of an interaction token);
- creating messages: 5 per 5 s per channel; editing messages: 5 per 5 s per channel;
- reactions: 1 per 0.25 s per channel.

One request of each window is kept spare (``Rate.spare``): room for calls made
outside the delivery layer (opening a thread, a direct-message channel, the slash
command sync) and, for the per-channel buckets, so ``X-RateLimit-Remaining`` never
reaches 0 and discord.py never has to sleep on a bucket itself.

:func:`header_trace` reads the headers of every REST answer discord.py receives: a
limit lower than declared, an exhausted bucket or a 429 goes to the pacer, so the
next calls fit the limits actually in force. A 429 of a *shared* resource limit
(``X-RateLimit-Scope: shared``, not counted against the bot) lowers nothing, and a limit
read in the headers holds for Discord's window it was read in (:mod:`bot.delivery.pacing`).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import aiohttp

from bot.core import metrics
from bot.core.events import ChatKey
from bot.delivery.pacing import Pacer, PlatformLimits, Rate

log = logging.getLogger(__name__)

#: Discord's global limit for a bot token, requests a second (docs/topics/Rate_Limits.md,
#: "Global Rate Limit"). Discord raises it for big bots on request ("reach out to support to
#: see if you qualify for increased global rate limits"): ``DISCORD_GLOBAL_RATE`` says so.
GLOBAL_RATE = 50


def discord_limits(global_rate: int = GLOBAL_RATE) -> PlatformLimits:
    """Discord's limits for a token allowed ``global_rate`` requests a second.

    A tenth of the global limit (at least one request) is kept spare for calls made outside
    the delivery layer."""
    return PlatformLimits(
        platform="discord",
        buckets={
            "global": Rate(global_rate, 1.0, "token", spare=max(1, global_rate // 10)),
            "message create": Rate(5, 5.0, "channel", spare=1),
            "message edit": Rate(5, 5.0, "channel", spare=1),
            "reaction": Rate(1, 0.25, "channel"),
        },
        calls={
            "post": ("message create", "global"),
            "edit": ("message edit", "global"),
            "react": ("reaction", "global"),
            # interaction answers are exempt; a direct message (rare) fits the global spare
            "private": (),
        },
        # Discord limits edits of messages older than an hour (error 30046): post a fresh table.
        max_edit_age=3600.0,
    )


DISCORD_LIMITS = discord_limits()


def process_share(global_rate: int, shard_ids: tuple[int, ...] | None, shard_count: int | None) -> int:
    """This process's share of the token's global limit: all of it, or, when the shards are
    split over processes (``SHARD_IDS``), the fraction of the shards this process runs.

    The global limit is the token's, whichever process calls; Discord sends no headers for it
    before a 429, so processes sharing a token must split it up front."""
    if not shard_ids or not shard_count:
        return global_rate
    return max(1, global_rate * len(shard_ids) // shard_count)


_ROUTES: tuple[tuple[str, re.Pattern[str], str], ...] = (
    ("POST", re.compile(r"/channels/(\d+)/messages$"), "post"),
    ("PATCH", re.compile(r"/channels/(\d+)/messages/\d+$"), "edit"),
    ("PUT", re.compile(r"/channels/(\d+)/messages/\d+/reactions/"), "react"),
)


def classify(method: str, path: str) -> tuple[str, int] | None:
    """The delivery call kind and channel id of a REST request, if the pacer paces it."""
    for want, pattern, kind in _ROUTES:
        if method == want:
            match = pattern.search(path)
            if match:
                return kind, int(match.group(1))
    return None


def is_shared(headers: Any) -> bool:
    """A 429 of a shared resource limit (``X-RateLimit-Scope: shared``), not one of the bot's."""
    return str(headers.get("X-RateLimit-Scope", "")).lower() == "shared"


def _number(headers: Any, name: str) -> float | None:
    try:
        value = headers.get(name)
        return float(value) if value is not None else None
    except (TypeError, ValueError):
        return None


def header_trace(
    pacer: Callable[[], Pacer | None], chat_of: Callable[[int], ChatKey | None]
) -> aiohttp.TraceConfig:
    """An aiohttp trace for discord.py's session that tells the pacer what Discord's headers say."""
    trace = aiohttp.TraceConfig()

    async def on_end(session: aiohttp.ClientSession, context: SimpleNamespace, params: Any) -> None:
        target = pacer()
        response = params.response
        found = classify(params.method, params.url.path)
        headers = response.headers
        if target is None:
            return
        if response.status == 429:
            retry = _number(headers, "Retry-After") or 1.0
            if is_shared(headers):
                # a limit on the resource for everyone (docs/topics/Rate_Limits.md: "429 errors
                # returned with X-RateLimit-Scope: shared are not counted against you"): no limit
                # of moji's is lower for it; discord.py waits Retry-After and tries the call again
                log.info(
                    "discord: %s %s met a shared resource limit (retry after %.2f s)",
                    params.method,
                    params.url.path,
                    retry,
                )
                metrics.rate_limited("discord", "shared")
                return
            is_global = headers.get("X-RateLimit-Global", "").lower() == "true"
            log.warning(
                "discord answered 429 (%s, retry after %.2f s) to %s %s",
                "global" if is_global else headers.get("X-RateLimit-Scope", "route"),
                retry,
                params.method,
                params.url.path,
            )
            if found is not None and (chat := chat_of(found[1])) is not None:
                target.penalize(found[0], chat, retry, "token" if is_global else "channel")  # counts it
            else:  # a call the pacer does not pace (a thread, a command sync…)
                metrics.rate_limited("discord", found[0] if found is not None else "other")
            return
        if found is None or (chat := chat_of(found[1])) is None:
            return
        limit = _number(headers, "X-RateLimit-Limit")
        remaining = _number(headers, "X-RateLimit-Remaining")
        reset_after = _number(headers, "X-RateLimit-Reset-After")
        if limit is None or remaining is None:
            return
        target.observe(
            found[0],
            chat,
            limit=int(limit),
            remaining=int(remaining),
            reset_after=reset_after or 0.0,
            scope="channel",
        )

    trace.on_request_end.append(on_end)
    return trace
