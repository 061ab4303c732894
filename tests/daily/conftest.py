"""The daily suite's fixtures (storage on both backends: SQLite always, PostgreSQL when configured)."""

from tests.storage.conftest import make_store, store

__all__ = ["make_store", "store"]
