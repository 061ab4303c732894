"""Slack's rate limits as data (https://api.slack.com/apis/rate-limits).

- ``chat.postMessage``: about one message per second per channel (short bursts
  are tolerated, but not counted on here);
- Tier 3 methods — ``chat.update``, ``reactions.add`` — about 50 calls per minute
  per method for a whole workspace, shared by all its channels;
- Tier 4 methods — ``chat.postEphemeral``, ``files.getUploadURLExternal``,
  ``files.completeUploadExternal`` — about 100 per minute per workspace.

A tenth of each per-minute budget is kept spare for calls made outside the delivery
layer (the App Home, command replies, scheduled word breaks). A picture uploaded
into a table's thread costs an upload URL, the upload and a completion: the
``picture`` kind draws from both method budgets.
"""

from __future__ import annotations

from bot.pacing import PlatformLimits, Rate

TIER_3 = Rate(50, 60.0, "workspace", spare=5)
TIER_4 = Rate(100, 60.0, "workspace", spare=10)

SLACK_LIMITS = PlatformLimits(
    platform="slack",
    buckets={
        "chat.postMessage": Rate(1, 1.0, "channel"),
        "chat.update": TIER_3,
        "reactions.add": TIER_3,
        "chat.postEphemeral": TIER_4,
        "files.getUploadURLExternal": TIER_4,
        "files.completeUploadExternal": TIER_4,
    },
    calls={
        "post": ("chat.postMessage",),
        "edit": ("chat.update",),
        "react": ("reactions.add",),
        "private": ("chat.postEphemeral",),
        "picture": ("files.getUploadURLExternal", "files.completeUploadExternal"),
    },
)
