"""The PostgreSQL backend (asyncpg): for several bot processes sharing one database.

A connection pool; every logical write is one transaction on one pooled
connection. Migrations take a transaction-scoped advisory lock, so processes
starting together migrate one at a time. ``?schema=NAME`` in the URL (or
``schema=``) keeps moji's tables in that schema (it must exist).
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from functools import lru_cache
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import asyncpg

from storage.database import Row, Tx, check_text
from storage.errors import StorageError
from storage.sqlstore import SQLStore

log = logging.getLogger(__name__)

#: Key of the advisory lock held while migrating ("moji" in ASCII).
MIGRATION_LOCK = 0x6D6F6A69
_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]{0,62}$")


@lru_cache(maxsize=512)
def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1, $2…`` (moji's SQL has no ``?`` in literals)."""
    count = 0

    def number(_: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


def redact(url: str) -> str:
    """The URL without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.hostname or ""
    if parts.port:
        host += f":{parts.port}"
    return urlunsplit(parts._replace(netloc=f"{parts.username or ''}:***@{host}"))


def _count(status: str) -> int:
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


def _explain(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


class _PgTx:
    """:class:`~storage.database.Tx` over an asyncpg connection."""

    def __init__(self, conn: asyncpg.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        check_text(args)
        status = await self.conn.execute(numbered(sql), *args)
        return _count(str(status))

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        for row in rows:
            check_text(row)
        await self.conn.executemany(numbered(sql), [tuple(row) for row in rows])

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        check_text(args)
        return [tuple(record) for record in await self.conn.fetch(numbered(sql), *args)]


class PostgresStore(SQLStore):
    """A :class:`~storage.base.Store` in PostgreSQL (``postgresql://user:pass@host:port/db``)."""

    dialect = "postgres"

    def __init__(
        self,
        url: str,
        *,
        schema: str | None = None,
        min_size: int = 1,
        max_size: int = 10,
        connect_timeout: float = 10.0,
        clock: Callable[[], float] | None = None,
    ) -> None:
        super().__init__(clock or time.time)
        parts = urlsplit(url)
        query = dict(parse_qsl(parts.query))
        schema = schema or query.pop("schema", None)
        if schema is not None and not _IDENT.match(schema):
            raise StorageError(f"{schema!r} is not a plain PostgreSQL schema name")
        self.url = urlunsplit(parts._replace(scheme="postgresql", query=urlencode(query)))
        self.schema = schema
        self.min_size, self.max_size = min_size, max_size
        self.connect_timeout = connect_timeout
        self._pool: asyncpg.Pool | None = None
        #: The connection LISTENing for notifications (see :meth:`listen`), opened on first use.
        self._listener: asyncpg.Connection | None = None

    async def open(self) -> None:
        """Create the connection pool and apply pending migrations."""
        if self._pool is not None:
            return
        settings = {"search_path": self.schema} if self.schema else None
        try:
            self._pool = await asyncpg.create_pool(
                self.url,
                min_size=self.min_size,
                max_size=self.max_size,
                timeout=self.connect_timeout,
                server_settings=settings,
            )
        except Exception as exc:
            raise StorageError(
                f"cannot connect to PostgreSQL at {redact(self.url)}: {_explain(exc)}"
            ) from exc
        try:
            await self.migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Close the pool (waiting for connections in use to be released)."""
        listener, self._listener = self._listener, None
        if listener is not None:
            try:
                await listener.close()
            except Exception as exc:  # (already broken: nothing to close)
                log.debug("closing the listening connection: %s", exc)
        pool, self._pool = self._pool, None
        if pool is not None:
            await pool.close()

    def _need(self) -> asyncpg.Pool:
        if self._pool is None:
            raise StorageError("the database is not open")
        return self._pool

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        pool = self._need()
        try:
            async with pool.acquire() as conn, conn.transaction():
                yield _PgTx(conn)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise StorageError(f"could not write to PostgreSQL: {_explain(exc)}") from exc

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        pool = self._need()
        try:
            async with pool.acquire() as conn:
                yield _PgTx(conn)
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise StorageError(f"could not read from PostgreSQL: {_explain(exc)}") from exc

    async def lock_schema(self, tx: Tx) -> None:
        await tx.fetch("SELECT pg_advisory_xact_lock(?)", (MIGRATION_LOCK,))

    async def notify(self, tx: Tx, channel: str, payload: str) -> None:
        await tx.fetch("SELECT pg_notify(?, ?)", (channel, payload))

    async def listen(self, channel: str, callback: Callable[[str], None]) -> bool:
        """LISTEN on ``channel`` over a connection of its own; ``callback`` gets each payload.

        If that connection breaks, the callers' polling still finds the work (a notification
        is only a wake-up).
        """
        self._need()
        try:
            if self._listener is None or self._listener.is_closed():
                settings = {"search_path": self.schema} if self.schema else None
                self._listener = await asyncpg.connect(
                    self.url, timeout=self.connect_timeout, server_settings=settings
                )
            await self._listener.add_listener(channel, lambda *args: callback(str(args[-1])))
        except (asyncpg.PostgresError, asyncpg.InterfaceError, OSError) as exc:
            raise StorageError(f"could not listen on PostgreSQL: {_explain(exc)}") from exc
        return True
