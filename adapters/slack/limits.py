"""Slack's rate limits as data (https://api.slack.com/apis/rate-limits), for every Web API call.

Slack's tiers are per method and per workspace: Tier 2 "20+ per minute", Tier 3 "50+ per minute",
Tier 4 "100+ per minute", each with "sporadic bursts welcome" — and no burst size. Slack
answers a call over the limit with HTTP 429 and ``Retry-After``. ``chat.postMessage`` is
"special": about one message per second per channel ("short bursts >1 allowed").

moji assumes each tier is a **token bucket** whose burst is a fifth of its minute (:data:`BURST`:
Tier 2 → 4, Tier 3 → 10, Tier 4 → 20, ``chat.postMessage`` → 1 per channel) refilling at the
tier's rate, and paces to it conservatively as a sliding window — at most ``burst`` calls in any
``burst / rate`` seconds — which a token-bucket server with that burst never refuses (in any
``T`` seconds the window lets at most ``burst·⌈T·rate/burst⌉ ≤ burst + rate·T`` calls through,
what the bucket allows). The rate used is 90 % of the documented one (45 a minute for Tier 3): the
rest is margin for clock differences and calls the process does not see (another moji process
on the same workspace). A whole minute's budget therefore never leaves in one burst.

Every call goes through these buckets: the delivery layer's (posts, edits, reactions, private
notes, picture uploads; its *kinds* below) and every other call the adapter makes (``users.info``,
``conversations.join``, the App Home, DMs…: one kind per method, paced by
:class:`adapters.slack.paced.PacedWebClient`). A picture uploaded into a table's thread costs an
upload URL, the upload and a completion: the ``picture`` kind draws from both method budgets.
"""

from __future__ import annotations

from bot.delivery.pacing import PlatformLimits, Rate, Scope

#: The share of each documented rate moji uses.
USE = 0.9
#: The burst moji assumes each tier allows (a fifth of its minute; Slack documents no size).
BURST = {"tier2": 4, "tier3": 10, "tier4": 20}


def bucket(per_minute: int, burst: int, scope: Scope = "workspace") -> Rate:
    """A token bucket of ``burst`` refilling at ``per_minute × USE`` a minute, as the sliding
    window the pacer keeps: ``burst`` calls per ``burst / rate`` seconds."""
    rate = per_minute * USE / 60.0
    return Rate(burst, round(burst / rate, 3), scope)


TIER_2 = bucket(20, BURST["tier2"])
TIER_3 = bucket(50, BURST["tier3"])
TIER_4 = bucket(100, BURST["tier4"])
#: auth.test: "Special … hundreds of requests per minute" (Bolt caches it: one per token).
SPECIAL_AUTH = bucket(100, BURST["tier4"])

#: Each Web API method moji calls and the bucket it draws from (methods not listed are not paced:
#: none are called).
METHODS: dict[str, Rate] = {
    "chat.postMessage": Rate(1, 1.0, "channel"),
    "chat.update": TIER_3,
    "reactions.add": TIER_3,
    "chat.postEphemeral": TIER_4,
    "files.getUploadURLExternal": TIER_4,
    "files.completeUploadExternal": TIER_4,
    "users.info": TIER_4,
    "usergroups.list": TIER_2,
    "usergroups.users.list": TIER_2,
    "conversations.join": TIER_3,
    "conversations.leave": TIER_3,
    "views.publish": TIER_4,
    "auth.test": SPECIAL_AUTH,
}

SLACK_LIMITS = PlatformLimits(
    platform="slack",
    buckets=METHODS,
    calls={
        "post": ("chat.postMessage",),
        "edit": ("chat.update",),
        "react": ("reactions.add",),
        "private": ("chat.postEphemeral",),
        "picture": ("files.getUploadURLExternal", "files.completeUploadExternal"),
        # every other call, by method (see adapters/slack/paced.py)
        **{method: (method,) for method in METHODS},
    },
    threads_are_channels=False,  # (a thread's messages count in its channel's second)
)
