"""Every column of the real schema is known to the privacy code (storage/personal.py).

Read from the database itself after every migration, on SQLite and (with
``MOJI_TEST_POSTGRES_URL``) PostgreSQL: a migration that adds a column nobody classified
fails here until it says whether the column can hold a person's id, name or words.
"""

from __future__ import annotations

import re

from storage import personal
from storage.sqlstore import _PURGE, SQLStore


async def test_every_column_of_every_table_is_classified(store: SQLStore) -> None:
    schema = await store.columns()
    assert "players" in schema and "display_name" in schema["players"], "introspection reads the schema"
    assert personal.unclassified(schema) == [], (
        "classify these columns in storage/personal.py (kind user_id, name, text or none) "
        "and make forget-me and purge reach the personal ones"
    )


async def test_a_column_added_by_a_migration_is_caught(store: SQLStore) -> None:
    async with store.write() as tx:
        await tx.execute("ALTER TABLE games ADD COLUMN stopped_by TEXT")
        await tx.execute("CREATE TABLE nicknames (user_id TEXT, nickname TEXT)")
    assert personal.unclassified(await store.columns()) == [
        "games.stopped_by",
        "nicknames.nickname",
        "nicknames.user_id",
    ]


def test_every_personal_column_says_how_it_is_forgotten() -> None:
    found = personal.personal_columns()
    assert ("players", "display_name", personal.COLUMNS["players"]["display_name"]) in found
    assert ("games", "void_reason") not in {(t, c) for t, c, _ in found}, "a neutral reason since 0011"
    for table, column, what in found:
        assert what.kind in personal.PERSONAL
        words = what.what.lower()
        assert "forget-me" in words or "deleted when" in words or "goes" in words, (table, column)
        assert "purge" in words or "goes" in words or "uninstall" in words, (table, column)


async def test_purge_reaches_every_table_of_a_workspace_or_a_person(store: SQLStore) -> None:
    schema = await store.columns()
    purged = {m.group(1) for m in (re.match(r"DELETE FROM (\w+)", sql) for sql in _PURGE) if m}
    purged |= {"players", "slack_installations"}  # (every unranked name; the team's installations)
    of_a_workspace = {table for table, columns in schema.items() if "workspace_id" in columns}
    of_a_person = {table for table, _, _ in personal.personal_columns()}
    assert of_a_workspace | of_a_person <= purged
