"""moji's storage: one async protocol per role, combined in :class:`~storage.base.Store`; two backends.

``open_store(DATABASE_URL)`` picks the backend:

- ``sqlite:///data/moji.db`` (relative path), ``sqlite:////var/lib/moji.db``
  (absolute), ``sqlite:///:memory:`` (private, in memory) — the default;
- ``postgresql://user:password@host:5432/moji`` (or ``postgres://``) — for
  several bot processes sharing one database.

Call ``await store.open()`` (connects and applies migrations) and
``await store.close()``. See docs/STORAGE.md.
"""

from __future__ import annotations

from urllib.parse import parse_qsl

from storage.base import (
    GameRecord,
    LeaderboardRow,
    PlayerStats,
    Schedule,
    Season,
    SeatRecord,
    SeatScore,
    Store,
    StoredGame,
)
from storage.errors import StorageError
from storage.sqlstore import SQLStore

__all__ = [
    "GameRecord",
    "LeaderboardRow",
    "PlayerStats",
    "SQLStore",
    "Schedule",
    "Season",
    "SeatRecord",
    "SeatScore",
    "StorageError",
    "Store",
    "StoredGame",
    "open_store",
]


def open_store(url: str) -> SQLStore:
    """The store for ``url`` (not connected yet: call ``await store.open()``).

    Raises :class:`StorageError` for a URL it cannot use.
    """
    scheme, sep, rest = url.partition("://")
    scheme = scheme.lower()
    if scheme == "sqlite" and sep:
        from storage.sqlite import SQLiteStore

        path, _, query = rest.partition("?")
        if not path.startswith("/") or path == "/":
            raise StorageError("a SQLite URL looks like sqlite:///data/moji.db (three slashes, then a path)")
        options = dict(parse_qsl(query))
        return SQLiteStore(path[1:], synchronous=options.get("synchronous", "full"))
    if scheme in ("postgresql", "postgres") and sep:
        from storage.postgres import PostgresStore

        return PostgresStore(url)
    kind = f"database kind {scheme!r}" if sep else "database URL"
    raise StorageError(f"unknown {kind}: DATABASE_URL must start with sqlite:/// or postgresql://")
