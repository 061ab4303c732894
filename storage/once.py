"""Things done once across every process: deliveries handled (a command or button press by its
platform id) and claims held until they expire (a Slack OAuth state's nonce)."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from storage.database import Database


@runtime_checkable
class OnceStore(Protocol):
    """Exactly-once tokens shared by every process."""

    async def first_delivery(self, event_key: str, at: float, prune_before: float | None = None) -> bool:
        """Record that the delivery ``event_key`` (a command's or button press's platform id) is
        handled at ``at``: True for exactly one caller, False for a repeat. ``prune_before``: also
        forget the deliveries recorded before then."""
        ...

    async def claim_once(self, kind: str, key: str, expires_at: float, now: float) -> bool:
        """Atomically claim ``key`` of ``kind`` until ``expires_at``: True for exactly one caller
        (of any process) while the claim lasts. Expired claims are forgotten."""
        ...


class SQLOnce:
    """:class:`OnceStore` in SQL: each is one INSERT that only one caller's row survives."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def first_delivery(self, event_key: str, at: float, prune_before: float | None = None) -> bool:
        """Record that the delivery ``event_key`` is handled: True for exactly one caller."""
        async with self.db.write() as tx:
            if prune_before is not None:
                await tx.execute("DELETE FROM deliveries WHERE seen_at < ?", (float(prune_before),))
            changed = await tx.execute(
                "INSERT INTO deliveries (event_key, seen_at) VALUES (?, ?) ON CONFLICT DO NOTHING",
                (event_key, float(at)),
            )
        return changed > 0

    async def claim_once(self, kind: str, key: str, expires_at: float, now: float) -> bool:
        """Claim ``(kind, key)`` until ``expires_at``: one INSERT that only one caller's row survives."""
        async with self.db.write() as tx:
            await tx.execute("DELETE FROM claimed_once WHERE expires_at < ?", (float(now),))
            added = await tx.execute(
                "INSERT INTO claimed_once (kind, key, expires_at) VALUES (?, ?, ?) "
                "ON CONFLICT (kind, key) DO NOTHING",
                (kind, key, float(expires_at)),
            )
        return added == 1
