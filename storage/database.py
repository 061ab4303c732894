"""The storage primitive every role is built on: a database of portable SQL, and its lifecycle.

A :class:`Database` gives connections and transactions (:class:`Tx`) and knows its
dialect; the backends (:mod:`storage.sqlite`, :mod:`storage.postgres`) implement it. Every
query of the roles is written once, with ``?`` placeholders (PostgreSQL's backend renumbers
them ``$1, $2…``), always parameterised. A module outside storage that keeps a table of its
own (the Slack adapter's installations) writes its SQL on the same primitive.
"""

from __future__ import annotations

import time
from abc import ABC, abstractmethod
from collections.abc import Callable, Coroutine, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar, runtime_checkable

from storage import migrations
from storage.errors import StorageError

Row = Sequence[Any]
T = TypeVar("T")
Body = Callable[["Tx"], Coroutine[Any, Any, T]]

#: The database's clock, in epoch seconds (leases never trust a process's own clock).
DB_NOW: dict[str, str] = {
    "sqlite": "((julianday('now') - 2440587.5) * 86400.0)",
    "postgres": "EXTRACT(EPOCH FROM clock_timestamp())::float8",
}


class Tx(Protocol):
    """A connection inside a transaction (or a read), as the shared SQL sees it."""

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run one statement for each row of arguments."""
        ...

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        """Every row of a query."""
        ...


def check_text(args: Sequence[Any]) -> None:
    """Refuse NUL characters, which PostgreSQL cannot store in text (SQLite follows suit)."""
    for value in args:
        if isinstance(value, str) and "\x00" in value:
            raise StorageError("text containing a NUL character cannot be stored")


def like(text: str) -> str:
    """``text`` for a LIKE pattern with ESCAPE '\\' (its wildcards taken literally)."""
    return text.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


@runtime_checkable
class Lifecycle(Protocol):
    """Opening, migrating and closing the database (the role every store has)."""

    async def open(self) -> None:
        """Connect (creating a SQLite file's folder) and apply pending migrations."""
        ...

    async def migrate(self) -> list[int]:
        """Apply pending migrations; the versions applied now ([] when up to date)."""
        ...

    async def close(self) -> None:
        """Close every connection (safe to call twice, or before :meth:`open`)."""
        ...

    async def ping(self) -> None:
        """A trivial query: returns once the database answers; :class:`StorageError` if it cannot."""
        ...


class Database(ABC):
    """Connections, transactions and migrations: subclasses provide :meth:`write`, :meth:`read`
    and the lifecycle; the roles run their SQL through them."""

    dialect: migrations.Dialect

    def __init__(self, clock: Callable[[], float] = time.time) -> None:
        #: Wall clock for bookkeeping columns (created_at…); never for game or period logic.
        self.clock = clock

    # ------------------------------------------------------------ backend hooks

    @abstractmethod
    def write(self) -> AbstractAsyncContextManager[Tx]:
        """One write transaction: committed on exit, rolled back on an exception."""

    @abstractmethod
    def read(self) -> AbstractAsyncContextManager[Tx]:
        """A connection for reading."""

    async def transaction(self, body: Body[T]) -> T:
        """Run ``body`` as one write transaction; a backend may run it in one round trip.

        ``body`` must only await the :class:`Tx` it is given.
        """
        async with self.write() as tx:
            return await body(tx)

    async def lock_schema(self, tx: Tx) -> None:  # noqa: B027 - optional hook
        """Keep two processes from migrating at once (PostgreSQL takes a lock here)."""

    async def notify(self, tx: Tx, channel: str, payload: str) -> None:  # noqa: B027 - optional hook
        """Wake the processes listening on ``channel`` when the transaction commits (PostgreSQL)."""

    async def listen(self, channel: str, callback: Callable[[str], None]) -> bool:
        """Call ``callback`` (with the payload) whenever ``channel`` is notified; False where the
        backend cannot (SQLite: poll instead)."""
        return False

    def sql(self, template: str, **parts: str) -> str:
        """A statement with the database's clock (``{now}``) and any other ``parts`` filled in."""
        return template.format(now=DB_NOW[self.dialect], **parts)

    # (the names of these hooks before storage was split by role; tests still use them)
    def _write(self) -> AbstractAsyncContextManager[Tx]:
        return self.write()

    def _read(self) -> AbstractAsyncContextManager[Tx]:
        return self.read()

    @abstractmethod
    async def open(self) -> None:
        """Connect and apply pending migrations."""

    @abstractmethod
    async def close(self) -> None:
        """Close every connection."""

    # ------------------------------------------------------------ migrations

    async def migrate(self) -> list[int]:
        """Apply pending migrations, each in its own transaction; the versions applied now."""
        known = migrations.load()
        latest = known[-1].version if known else 0
        applied: list[int] = []
        for migration in known:
            async with self.write() as tx:
                await self.lock_schema(tx)
                await tx.execute(migrations.render(migrations.SCHEMA_VERSION_TABLE, self.dialect))
                rows = await tx.fetch("SELECT version FROM schema_version")
                done = {int(row[0]) for row in rows}
                newest = max(done, default=0)
                if newest > latest:
                    raise StorageError(
                        f"the database has schema version {newest}, newer than this moji knows "
                        f"({latest}): upgrade moji"
                    )
                if migration.version in done:
                    continue
                for statement in migration.statements(self.dialect):
                    await tx.execute(statement)
                await tx.execute(
                    "INSERT INTO schema_version (version, name, applied_at) VALUES (?, ?, ?)",
                    (migration.version, migration.name, self.clock()),
                )
                applied.append(migration.version)
        return applied

    async def ping(self) -> None:
        """``SELECT 1`` (readiness probes): returns once the database answers, else StorageError."""
        async with self.read() as tx:
            await tx.fetch("SELECT 1")

    async def schema_version(self) -> int:
        """The newest migration applied to the database (0: none)."""
        async with self.read() as tx:
            rows = await tx.fetch("SELECT MAX(version) FROM schema_version")
        return int(rows[0][0] or 0) if rows else 0

    async def columns(self) -> dict[str, list[str]]:
        """Every table of the database with its columns, read from the database itself (the
        privacy tests check each one is classified in :mod:`storage.personal`)."""
        async with self.read() as tx:
            if self.dialect == "sqlite":
                rows = await tx.fetch(
                    "SELECT m.name, c.name FROM sqlite_master m JOIN pragma_table_info(m.name) c "
                    "WHERE m.type = 'table' ORDER BY m.name, c.cid"
                )
            else:
                rows = await tx.fetch(
                    "SELECT table_name, column_name FROM information_schema.columns "
                    "WHERE table_schema = current_schema() ORDER BY table_name, ordinal_position"
                )
        found: dict[str, list[str]] = {}
        for table, column in rows:
            found.setdefault(str(table), []).append(str(column))
        return found
