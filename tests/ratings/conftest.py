"""The storage suite's fixtures (both backends: SQLite always, PostgreSQL when configured)."""

from tests.storage.conftest import make_store, store

__all__ = ["make_store", "store"]
