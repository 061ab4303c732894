"""Slack's request signatures, checked on the raw bytes before anything is parsed.

Slack signs every HTTP delivery (events, slash commands, interactive payloads) with the
app's signing secret: ``X-Slack-Signature: v0=hex(HMAC-SHA256(secret, "v0:" + timestamp +
":" + body))`` and ``X-Slack-Request-Timestamp``. :func:`verify_signature` checks both
without trusting either header's shape (slack-sdk's verifier calls ``int()`` on the
timestamp and fails with an exception on anything else) and without decoding the body.
"""

from __future__ import annotations

import hashlib
import hmac
import re
from collections.abc import Mapping

#: How far (s) a request's timestamp may be from now: Slack's own window against replays.
MAX_AGE = 300
_TIMESTAMP = re.compile(r"[0-9]{1,12}")


def verify_signature(secret: str, body: bytes, headers: Mapping[str, str], now: float) -> str:
    """Why the request is not Slack's (a short fixed reason), or ``""`` when it is signed.

    ``headers`` is looked up case-insensitively only if it is (aiohttp's are).
    """
    if not secret:
        return "no signing secret is configured"
    timestamp = headers.get("X-Slack-Request-Timestamp")
    signature = headers.get("X-Slack-Signature")
    if not timestamp or not signature:
        return "not signed"
    if not _TIMESTAMP.fullmatch(timestamp):
        return "malformed timestamp"
    if abs(now - int(timestamp)) > MAX_AGE:
        return "stale timestamp"
    base = b"v0:" + timestamp.encode("ascii") + b":" + body
    expected = "v0=" + hmac.new(secret.encode(), base, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected.encode(), signature.encode("utf-8", "replace")):
        return "wrong signature"
    return ""
