"""The SQLite backend (aiosqlite): the default, one file, no server.

- WAL journal, so reads never wait for the writer; ``busy_timeout`` for
  other processes (e.g. ``python -m bot migrate`` while the bot runs);
  ``foreign_keys=ON``; ``synchronous=FULL`` by default (a committed game end
  survives a power cut, not just a crash; ``?synchronous=normal`` in the URL
  trades that for speed).
- One writer connection behind an :class:`asyncio.Lock`: every logical write is
  one ``BEGIN IMMEDIATE … COMMIT`` and writes from many sessions queue up
  without blocking the event loop (aiosqlite runs each connection in its own
  thread). Reads use a second connection.
- Checkpoints (copying the WAL back into the database file, two disk syncs)
  never run inside a game's write: the writer's automatic checkpoint is off,
  and a third connection runs a ``PASSIVE`` checkpoint in the background once
  writes have paused for ``checkpoint_idle`` seconds, or at the latest after
  ``checkpoint_every`` writes. Passive checkpoints never block writers or
  readers, but they compete for the disk, so they wait for a quiet moment;
  ``journal_size_limit`` trims the WAL file afterwards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
import threading
import time
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.database import Body, Row, Tx, check_text
from storage.errors import StorageError
from storage.sqlstore import SQLStore

T = TypeVar("T")

log = logging.getLogger(__name__)

MEMORY = ":memory:"
#: Bytes the WAL file is trimmed to after a checkpoint.
WAL_SIZE_LIMIT = 32 * 1024 * 1024
_SYNCHRONOUS = {"off", "normal", "full", "extra"}


async def _worker_stopped(conn: aiosqlite.Connection) -> None:
    """Wait for the worker thread of a connection that failed to open (or was closed for it) to end.

    aiosqlite stops it without waiting: the thread then answers the event loop, and when the
    process exits at once (a bad ``DATABASE_URL`` is one line and exit 2) the loop may be closed
    by then, and the thread prints "Event loop is closed" tracebacks under the clear line.
    """
    thread = conn if isinstance(conn, threading.Thread) else getattr(conn, "_thread", None)
    if isinstance(thread, threading.Thread) and thread.is_alive():
        await asyncio.to_thread(thread.join, 5.0)


class _SQLiteTx:
    """:class:`~storage.database.Tx` over an aiosqlite connection."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self.conn = conn

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        check_text(args)
        cursor = await self.conn.execute(sql, tuple(args))
        return max(cursor.rowcount, 0)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        for row in rows:
            check_text(row)
        await self.conn.executemany(sql, [tuple(row) for row in rows])

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        check_text(args)
        return list(await self.conn.execute_fetchall(sql, tuple(args)))


class _ThreadTx:
    """:class:`~storage.database.Tx` on the raw connection, inside aiosqlite's thread.

    Its methods never suspend, so a whole transaction body runs to completion
    in one call on the connection's thread (one round trip from the event loop).
    """

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw

    async def execute(self, sql: str, args: Sequence[Any] = ()) -> int:
        check_text(args)
        return max(self.raw.execute(sql, tuple(args)).rowcount, 0)

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        for row in rows:
            check_text(row)
        self.raw.executemany(sql, [tuple(row) for row in rows])

    async def fetch(self, sql: str, args: Sequence[Any] = ()) -> list[Row]:
        check_text(args)
        return list(self.raw.execute(sql, tuple(args)).fetchall())


def _run_transaction(raw: sqlite3.Connection, body: Body[T]) -> T:
    """``BEGIN IMMEDIATE``, the body, ``COMMIT`` (``ROLLBACK`` on any error), on the connection's thread."""
    raw.execute("BEGIN IMMEDIATE")
    try:
        coro = body(_ThreadTx(raw))
        try:
            coro.send(None)
        except StopIteration as done:
            value: T = done.value
        else:
            coro.close()
            raise RuntimeError("a SQLite transaction body awaited something other than its Tx")
        raw.execute("COMMIT")
        return value
    except BaseException:
        if raw.in_transaction:
            raw.execute("ROLLBACK")
        raise


def _explain(exc: BaseException) -> str:
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


class SQLiteStore(SQLStore):
    """A :class:`~storage.base.Store` in one SQLite file (or in memory: ``:memory:``)."""

    dialect = "sqlite"

    def __init__(
        self,
        path: str | Path,
        *,
        synchronous: str = "full",
        busy_timeout_ms: int = 5000,
        clock: Callable[[], float] | None = None,
        checkpoint_every: int = 1000,
        checkpoint_idle: float = 0.25,
    ) -> None:
        super().__init__(clock or time.time)
        if synchronous.lower() not in _SYNCHRONOUS:
            raise StorageError(f"synchronous must be one of {', '.join(sorted(_SYNCHRONOUS))}")
        self.path = str(path)
        self.synchronous = synchronous.lower()
        self.busy_timeout_ms = busy_timeout_ms
        self._writer: aiosqlite.Connection | None = None
        self._reader: aiosqlite.Connection | None = None
        self._checkpointer: aiosqlite.Connection | None = None
        self._lock = asyncio.Lock()
        self.checkpoint_every = max(1, checkpoint_every)
        self._writes_since_checkpoint = 0
        self._checkpoint_task: asyncio.Task[None] | None = None
        self.checkpoint_idle = max(0.0, checkpoint_idle)
        self._idle_timer: asyncio.TimerHandle | None = None
        self.checkpoints = 0  # background checkpoints completed (for tests and logs)

    @property
    def memory(self) -> bool:
        """True for a private in-memory database."""
        return self.path == MEMORY

    async def _connect(self, *, read_only: bool, checkpoints: bool = False) -> aiosqlite.Connection:
        connecting = aiosqlite.connect(self.path, isolation_level=None)
        try:
            conn = await connecting
        except BaseException:
            await _worker_stopped(connecting)
            raise
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(self.busy_timeout_ms)}")
            await conn.execute("PRAGMA foreign_keys = ON")
            if checkpoints:  # the writer has switched the file to WAL (a lasting setting) already
                await conn.execute(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}")
                return conn
            if not self.memory and not read_only and await self._switch_to_wal(conn) != "wal":
                raise StorageError(f"cannot switch {self.path} to WAL mode")
            await conn.execute(f"PRAGMA synchronous = {self.synchronous.upper()}")
            if not self.memory and not read_only:
                await conn.execute("PRAGMA wal_autocheckpoint = 0")  # see _after_write
                await conn.execute(f"PRAGMA journal_size_limit = {WAL_SIZE_LIMIT}")
            if read_only:
                await conn.execute("PRAGMA query_only = ON")
        except BaseException:
            await conn.close()
            await _worker_stopped(conn)
            raise
        return conn

    async def _switch_to_wal(self, conn: aiosqlite.Connection) -> str:
        """Set WAL mode (a lasting setting of the file); returns the journal mode now in force.

        The switch needs an exclusive lock, and SQLite answers "database is locked" at once,
        without its busy handler, when several processes open a new file together; so the
        switch is tried again for up to the busy timeout.
        """
        deadline = time.monotonic() + self.busy_timeout_ms / 1000
        delay = 0.01
        while True:
            try:
                rows = list(await conn.execute_fetchall("PRAGMA journal_mode = WAL"))
                return str(rows[0][0]).lower() if rows else ""
            except sqlite3.OperationalError as exc:
                if "locked" not in str(exc) or time.monotonic() >= deadline:
                    raise
            await asyncio.sleep(delay)
            delay = min(delay * 2, 0.2)

    async def open(self) -> None:
        """Create the file's folder, connect (writer, then reader) and apply migrations."""
        if self._writer is not None:
            return
        try:
            if not self.memory:
                Path(self.path).parent.mkdir(parents=True, exist_ok=True)
            self._writer = await self._connect(read_only=False)
            self._reader = self._writer if self.memory else await self._connect(read_only=True)
            if not self.memory:
                self._checkpointer = await self._connect(read_only=False, checkpoints=True)
        except (OSError, sqlite3.Error) as exc:
            await self.close()
            raise StorageError(f"cannot open the SQLite database {self.path}: {_explain(exc)}") from exc
        try:
            await self.migrate()
        except BaseException:
            await self.close()
            raise

    async def close(self) -> None:
        """Close the connections (the WAL is checkpointed by SQLite on the last close)."""
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        task, self._checkpoint_task = self._checkpoint_task, None
        if task is not None:
            with contextlib.suppress(Exception):
                await task
        writer, reader, checkpointer = self._writer, self._reader, self._checkpointer
        self._writer = self._reader = self._checkpointer = None
        if checkpointer is not None:
            await checkpointer.close()
        if reader is not None and reader is not writer:
            await reader.close()
        if writer is not None:
            await writer.close()

    def _need(self, conn: aiosqlite.Connection | None) -> aiosqlite.Connection:
        if conn is None:
            raise StorageError("the database is not open")
        return conn

    @asynccontextmanager
    async def write(self) -> AsyncIterator[Tx]:
        async with self._lock:
            conn = self._need(self._writer)
            try:
                await conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise StorageError(f"cannot write to {self.path}: {_explain(exc)}") from exc
            try:
                yield _SQLiteTx(conn)
                await conn.execute("COMMIT")
                self._after_write()
            except BaseException as exc:
                with contextlib.suppress(sqlite3.Error):  # SQLite may have rolled back already
                    await conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise StorageError(f"could not write to {self.path}: {_explain(exc)}") from exc
                raise

    async def transaction(self, body: Body[T]) -> T:
        """The whole transaction in one hop to the writer's thread (the hot paths use this)."""
        async with self._lock:
            conn = self._need(self._writer)
            try:
                result: T = await conn._execute(_run_transaction, conn._conn, body)  # type: ignore[no-untyped-call]
            except sqlite3.Error as exc:
                raise StorageError(f"could not write to {self.path}: {_explain(exc)}") from exc
            self._after_write()
            return result

    def _after_write(self) -> None:
        """Count a committed write and plan a background checkpoint (see the module doc)."""
        if self._checkpointer is None:
            return
        self._writes_since_checkpoint += 1
        if self._idle_timer is not None:
            self._idle_timer.cancel()
            self._idle_timer = None
        if self._writes_since_checkpoint >= self.checkpoint_every:
            self._start_checkpoint()
        else:
            self._idle_timer = asyncio.get_running_loop().call_later(
                self.checkpoint_idle, self._start_checkpoint
            )

    def _start_checkpoint(self) -> None:
        self._idle_timer = None
        busy = self._checkpoint_task is not None and not self._checkpoint_task.done()
        if busy or self._checkpointer is None or not self._writes_since_checkpoint:
            return
        self._writes_since_checkpoint = 0
        self._checkpoint_task = asyncio.get_running_loop().create_task(
            self._checkpoint(), name=f"checkpoint {self.path}"
        )

    async def _checkpoint(self) -> None:
        conn = self._checkpointer
        if conn is None:
            return
        try:
            await conn.execute("PRAGMA wal_checkpoint(PASSIVE)")
            self.checkpoints += 1
        except sqlite3.Error as exc:  # housekeeping: the next one will catch up
            log.warning("background checkpoint of %s failed: %s", self.path, _explain(exc))

    async def wait_for_checkpoint(self) -> None:
        """Wait for a background checkpoint in progress (tests, shutdown)."""
        task = self._checkpoint_task
        if task is not None:
            await task

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        conn = self._need(self._reader)
        try:
            yield _SQLiteTx(conn)
        except sqlite3.Error as exc:
            raise StorageError(f"could not read {self.path}: {_explain(exc)}") from exc

    async def integrity_check(self) -> str:
        """``PRAGMA integrity_check``: ``"ok"`` for a healthy file."""
        async with self.read() as tx:
            rows = await tx.fetch("PRAGMA integrity_check")
        return "; ".join(str(row[0]) for row in rows)
