"""A SQLite database that cannot be opened leaves nothing running behind its clear error.

aiosqlite stops a connection's worker thread without waiting for it when the connection
fails to open; the thread then answers the event loop. ``python -m bot`` exits right after
its one-line "cannot open the database" message, and the thread, finding the loop closed,
printed "Event loop is closed" tracebacks under it (now and then: a race).
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from storage import StorageError, open_store


@pytest.mark.parametrize("kind", ["a folder", "not a database"])
def test_no_thread_outlives_the_loop(tmp_path: Path, kind: str) -> None:
    path = tmp_path / "moji.db"
    if kind == "a folder":
        path.mkdir()
    else:
        path.write_bytes(b"this is not a SQLite database file, it is some text " * 10)
    failures: list[threading.ExceptHookArgs] = []
    hook, threading.excepthook = threading.excepthook, failures.append

    async def open_it() -> str:
        store = open_store(f"sqlite:///{path}")
        try:
            await store.open()
        except StorageError as exc:
            return str(exc)
        finally:
            await store.close()
        return "opened"

    try:
        before = set(threading.enumerate())
        for _ in range(5):
            message = asyncio.run(open_it())
            assert message.startswith(f"cannot open the SQLite database {path}")
            # the moment asyncio.run has closed its loop, no worker thread is left to answer it
            assert set(threading.enumerate()) <= before
        assert failures == []
    finally:
        threading.excepthook = hook
