"""Read a whole moji database as text, every table it has (from its own catalogue), to search it.

A table added by a later migration is read too, without anyone listing it here.
"""

from __future__ import annotations

from storage.sqlstore import SQLStore


async def table_names(store: SQLStore) -> list[str]:
    """Every table of the store's database (its schema, on PostgreSQL)."""
    async with store.read() as tx:
        if store.dialect == "sqlite":
            rows = await tx.fetch("SELECT name FROM sqlite_master WHERE type = 'table'")
        else:
            rows = await tx.fetch(
                "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
            )
    return sorted(str(row[0]) for row in rows)


async def every_row(store: SQLStore) -> dict[str, list[str]]:
    """Table name → each of its rows, every column as text."""
    out: dict[str, list[str]] = {}
    for table in await table_names(store):
        async with store.read() as tx:
            rows = await tx.fetch(f'SELECT * FROM "{table}"')
        out[table] = [" | ".join("" if value is None else str(value) for value in row) for row in rows]
    return out


async def every_text(store: SQLStore) -> str:
    """The whole database as one text: ``table: row`` lines."""
    rows = await every_row(store)
    return "\n".join(f"{table}: {row}" for table, lines in rows.items() for row in lines)
