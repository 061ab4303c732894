"""The web companion's links and sessions, shared by every process on the database.

A link in chat carries a random secret; a page exchanges it, once, for a session of its own.
Only the SHA-256 of each secret is stored (:func:`digest`), so the table never holds anything
that opens a page. Exchanging a link is one UPDATE that only one caller's can change (the row
is marked used), so a link is used once across every process; a session is read by its hash.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from storage.database import Database, Row

LINK = "link"
SESSION = "session"
#: A watch link: the game's public view only, so it may be used again and again until it expires.
WATCH = "watch"


def digest(secret: str) -> str:
    """The stored form of a link's or session's secret (SHA-256, hex)."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True, slots=True)
class Grant:
    """What a link or session opens: one game of one chat, as one player ('' user: a watcher)."""

    platform: str
    workspace_id: str
    channel_id: str
    thread_id: str | None
    game_id: str
    user_id: str

    @property
    def watcher(self) -> bool:
        """A watch link: the game's public view only."""
        return not self.user_id


@runtime_checkable
class WebLinkStore(Protocol):
    """Links and sessions of web pages."""

    async def add_link(
        self, secret_hash: str, grant: Grant, expires_at: float, now: float, *, kind: str = LINK
    ) -> None:
        """Keep a new link's hash until ``expires_at`` (and forget the rows expired by ``now``);
        ``kind`` :data:`WATCH`: a watcher's link, usable again and again (its grant has no player)."""
        ...

    async def exchange(
        self, link_hash: str, session_hash: str, session_expires_at: float, now: float
    ) -> Grant | None:
        """Use the link once (a watch link: again): its grant, now held by a new session (None:
        no such link, it was used already, or it expired)."""
        ...

    async def session(self, session_hash: str, now: float) -> Grant | None:
        """The grant of a live session (None: unknown or expired)."""
        ...


_INSERT = (
    "INSERT INTO web_links (token_hash, kind, platform, workspace_id, channel_id, thread_key, game_id, "
    "user_id, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
_GRANT_BY_HASH = (
    "SELECT platform, workspace_id, channel_id, thread_key, game_id, user_id FROM web_links "
    "WHERE token_hash = ?"
)


def _grant(row: Row) -> Grant:
    platform, workspace, channel, thread, game, user = (str(v) for v in row)
    return Grant(platform, workspace, channel, thread or None, game, user)


class SQLWebLinks:
    """:class:`WebLinkStore` in SQL."""

    def __init__(self, db: Database) -> None:
        self.db = db

    async def add_link(
        self, secret_hash: str, grant: Grant, expires_at: float, now: float, *, kind: str = LINK
    ) -> None:
        """Keep a new link's hash (see :class:`WebLinkStore`)."""
        if kind == WATCH and not grant.watcher:
            raise ValueError("a watch link opens no player's seat")
        async with self.db.write() as tx:
            await tx.execute("DELETE FROM web_links WHERE expires_at < ?", (float(now),))
            await tx.execute(_INSERT, (secret_hash, kind, *_values(grant), float(expires_at)))

    async def exchange(
        self, link_hash: str, session_hash: str, session_expires_at: float, now: float
    ) -> Grant | None:
        """Use a link once (see :class:`WebLinkStore`): one UPDATE only one caller's changes."""
        async with self.db.write() as tx:
            used = await tx.execute(
                "UPDATE web_links SET used_at = ? WHERE token_hash = ? "
                "AND ((kind = ? AND used_at IS NULL) OR kind = ?) AND expires_at >= ?",
                (float(now), link_hash, LINK, WATCH, float(now)),
            )
            if used != 1:
                return None
            rows = await tx.fetch(_GRANT_BY_HASH, (link_hash,))
            grant = _grant(rows[0])
            await tx.execute(
                _INSERT,
                (session_hash, SESSION, *_values(grant), float(session_expires_at)),
            )
        return grant

    async def session(self, session_hash: str, now: float) -> Grant | None:
        """A live session's grant (see :class:`WebLinkStore`)."""
        async with self.db.read() as tx:
            rows = await tx.fetch(
                _GRANT_BY_HASH + " AND kind = ? AND expires_at >= ?",
                (session_hash, SESSION, float(now)),
            )
        return _grant(rows[0]) if rows else None


def _values(grant: Grant) -> tuple[str, ...]:
    return (
        grant.platform,
        grant.workspace_id,
        grant.channel_id,
        grant.thread_id or "",
        grant.game_id,
        grant.user_id,
    )
