"""One storage suite, two backends: SQLite files always, PostgreSQL when configured.

Set ``MOJI_TEST_POSTGRES_URL`` (``.ci/postgres.sh`` starts a throwaway server
and prints it) to run every test against PostgreSQL too; each test gets a
fresh schema there, dropped afterwards.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import AsyncIterator, Callable
from pathlib import Path

import pytest

from storage.sqlstore import SQLStore

POSTGRES_URL = os.environ.get("MOJI_TEST_POSTGRES_URL", "")
BACKENDS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgres",
        id="postgres",
        marks=[
            pytest.mark.postgres,
            pytest.mark.skipif(
                not POSTGRES_URL,
                reason="MOJI_TEST_POSTGRES_URL is not set (.ci/postgres.sh starts one)",
            ),
        ],
    ),
]

Factory = Callable[[], SQLStore]


@pytest.fixture(params=BACKENDS)
async def make_store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Factory]:
    """A factory of unopened stores that all share one fresh database."""
    made: list[SQLStore] = []
    if request.param == "sqlite":
        from storage.sqlite import SQLiteStore

        path = tmp_path / "data" / "moji.db"

        def factory() -> SQLStore:
            store = SQLiteStore(path)
            made.append(store)
            return store

        yield factory
    else:
        import asyncpg

        from storage.postgres import PostgresStore

        schema = f"test_{secrets.token_hex(6)}"
        conn = await asyncpg.connect(POSTGRES_URL)
        try:
            await conn.execute(f"CREATE SCHEMA {schema}")

            def factory() -> SQLStore:
                store = PostgresStore(POSTGRES_URL, schema=schema, max_size=4)
                made.append(store)
                return store

            yield factory
        finally:
            for store in made:
                await store.close()
            await conn.execute(f"DROP SCHEMA {schema} CASCADE")
            await conn.close()
    for store in made:
        await store.close()


@pytest.fixture
async def store(make_store: Factory) -> AsyncIterator[SQLStore]:
    """An open store on a fresh database."""
    opened = make_store()
    await opened.open()
    yield opened
    await opened.close()
