"""Opening stores: URLs, migrations and friendly errors."""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from storage import StorageError, open_store
from storage.migrations import load
from storage.postgres import PostgresStore, numbered, redact
from storage.sqlite import SQLiteStore
from storage.sqlstore import SQLStore
from tests.storage.conftest import Factory
from tests.storage.helpers import NOW, PLATFORM, WS, play


async def test_migrations_are_idempotent(make_store: Factory) -> None:
    first = make_store()
    await first.open()
    assert await first.migrate() == []
    assert await first.schema_version() == load()[-1].version
    await play(first, "g1", {"u1": 3})
    await first.close()
    again = make_store()
    await again.open()  # a restart applies nothing and keeps the data
    assert await again.migrate() == []
    assert [r.points for r in await again.leaderboard(PLATFORM, WS, None, "all", NOW)] == [3]
    await again.close()
    await again.close()  # closing twice is fine


async def test_processes_opening_together_migrate_once(make_store: Factory) -> None:
    stores = [make_store() for _ in range(3)]
    await asyncio.gather(*(store.open() for store in stores))
    assert [await store.schema_version() for store in stores] == [load()[-1].version] * 3


async def test_a_newer_database_is_refused(store: SQLStore) -> None:
    async with store.write() as tx:
        await tx.execute("INSERT INTO schema_version (version, name, applied_at) VALUES (9999, 'future', 0)")
    with pytest.raises(StorageError, match="newer"):
        await store.migrate()


def test_urls_pick_the_backend(tmp_path: Path) -> None:
    relative = open_store("sqlite:///data/moji.db")
    assert isinstance(relative, SQLiteStore) and relative.path == "data/moji.db"
    absolute = open_store(f"sqlite:///{tmp_path}/moji.db?synchronous=normal")
    assert isinstance(absolute, SQLiteStore) and absolute.path == f"{tmp_path}/moji.db"
    assert absolute.synchronous == "normal"
    assert isinstance(open_store("sqlite:///:memory:"), SQLiteStore)
    assert isinstance(open_store("postgresql://u:p@localhost/moji"), PostgresStore)
    assert isinstance(open_store("postgres://u:p@localhost:5433/moji?schema=bot"), PostgresStore)


@pytest.mark.parametrize(
    "url",
    [
        "mysql://u:secret@host/db",
        "sqlite:/moji.db",
        "sqlite://",
        "nonsense",
        "sqlite:///x.db?synchronous=bad",
    ],
)
def test_bad_urls_get_one_friendly_line(url: str) -> None:
    with pytest.raises(StorageError) as info:
        open_store(url)
    message = str(info.value)
    assert "\n" not in message and "secret" not in message


async def test_memory_database_works() -> None:
    store = open_store("sqlite:///:memory:")
    await store.open()
    assert await play(store, "g1", {"u1": 2})
    assert len(await store.leaderboard(PLATFORM, WS, None, "all", NOW)) == 1
    await store.close()


async def test_sqlite_open_creates_the_folder_and_uses_wal(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/a/b/moji.db")
    await store.open()
    assert (tmp_path / "a" / "b" / "moji.db").exists()
    async with store.read() as tx:
        assert (await tx.fetch("PRAGMA journal_mode"))[0][0] == "wal"
        assert (await tx.fetch("PRAGMA foreign_keys"))[0][0] == 1
        assert (await tx.fetch("PRAGMA busy_timeout"))[0][0] == 5000
    assert isinstance(store, SQLiteStore) and await store.integrity_check() == "ok"
    await store.close()


async def test_an_unusable_sqlite_path_is_a_storage_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    store = open_store(f"sqlite:///{blocker}/moji.db")
    with pytest.raises(StorageError, match="cannot open"):
        await store.open()
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"this is not a database" * 100)
    store = open_store(f"sqlite:///{garbage}")
    with pytest.raises(StorageError):
        await store.open()
    assert sqlite3.sqlite_version


async def test_an_unreachable_postgres_is_a_storage_error_without_the_password() -> None:
    store = open_store("postgresql://moji:hunter2@127.0.0.1:1/moji")
    with pytest.raises(StorageError) as info:
        await store.open()
    message = str(info.value)
    assert "hunter2" not in message and "\n" not in message
    assert "127.0.0.1:1" in message


async def test_a_store_that_is_not_open_says_so() -> None:
    with pytest.raises(StorageError, match="not open"):
        await open_store("sqlite:///:memory:").get_settings(PLATFORM, WS)


def test_placeholders_and_redaction() -> None:
    assert numbered("SELECT ? , ?, ?") == "SELECT $1 , $2, $3"
    assert redact("postgresql://moji:pw@db:5432/x") == "postgresql://moji:***@db:5432/x"
    assert redact("postgresql://db/x") == "postgresql://db/x"


async def test_sqlite_checkpoints_run_in_the_background_not_in_a_write(tmp_path: Path) -> None:
    path = tmp_path / "moji.db"
    store = SQLiteStore(path, checkpoint_every=5, checkpoint_idle=3600)  # only the write count triggers
    await store.open()
    async with store.write() as tx:
        assert (await tx.fetch("PRAGMA wal_autocheckpoint"))[0][0] == 0  # the writer never checkpoints
    await store.wait_for_checkpoint()  # (opening may already have written enough for one)
    size_before = path.stat().st_size
    games = 80  # more than the free room in the pages the schema already has
    for i in range(games):
        assert await play(store, f"g{i}", {"u1": 3 + i, "u2": 1})
    await store.wait_for_checkpoint()
    assert store.checkpoints >= 1
    assert path.stat().st_size > size_before  # pages were copied back into the database file
    board = await store.leaderboard(PLATFORM, WS, None, "all", NOW, 10)
    assert [row.points for row in board][:1] == [sum(3 + i for i in range(games))]
    await store.close()
    reopened = SQLiteStore(path)
    await reopened.open()
    assert await reopened.integrity_check() == "ok"
    await reopened.close()


async def test_sqlite_checkpoints_once_writes_pause(tmp_path: Path) -> None:
    path = tmp_path / "moji.db"
    store = SQLiteStore(path, checkpoint_every=10_000, checkpoint_idle=0)
    await store.open()
    assert await play(store, "g1", {"u1": 3, "u2": 1})
    for _ in range(5):  # the idle timer fires on the next turns of the event loop (no wall-clock wait)
        await asyncio.sleep(0)
    await store.wait_for_checkpoint()
    assert store.checkpoints >= 1
    await store.close()
