"""Settings, word lists, players and hostile text, on every backend."""

from __future__ import annotations

import pytest

from storage import StorageError
from storage.sqlstore import SQLStore
from tests.storage.helpers import NOW, PLATFORM, WS, play

HOSTILE = [
    "O'Brien",
    'say "hi"',
    "'; DROP TABLE players; --",
    "Robert'); DROP TABLE scores;--",
    "back\\slash %s %(x)s ? $1",
    "émoji 🎉👩‍👩‍👧 ﷽ 中文 עברית",
    "ünïcödé " * 500,  # 4,000 characters
    "\t\n\r tabs and newlines",
    "🦄" * 4000,
]


async def test_settings_round_trip_and_overwrite(store: SQLStore) -> None:
    assert await store.get_settings(PLATFORM, WS) == {}
    await store.set_setting(PLATFORM, WS, "timezone", "Europe/Paris", "u1")
    await store.set_setting(PLATFORM, WS, "race.cards", "5", "u1")
    await store.set_setting(PLATFORM, WS, "timezone", "UTC", "u2")
    assert await store.get_settings(PLATFORM, WS) == {"timezone": "UTC", "race.cards": "5"}
    assert await store.get_settings(PLATFORM, "other") == {}


async def test_word_lists(store: SQLStore) -> None:
    await store.add_word(PLATFORM, WS, "selfie", "u1", NOW)
    await store.ban_word(PLATFORM, WS, "rude", "u1", NOW)
    await store.add_word(PLATFORM, WS, "yeet", "u1", NOW)
    assert await store.word_lists(PLATFORM, WS) == ({"selfie", "yeet"}, {"rude"})
    await store.ban_word(PLATFORM, WS, "yeet", "u2", NOW)  # a ban replaces an addition
    await store.remove_word(PLATFORM, WS, "selfie", "u2", NOW)
    await store.remove_word(PLATFORM, WS, "never-there", "u2", NOW)
    assert await store.word_lists(PLATFORM, WS) == (set(), {"rude", "yeet"})
    assert await store.word_lists(PLATFORM, "other") == (set(), set())


async def test_player_names_stay_fresh(store: SQLStore) -> None:
    await store.upsert_workspace(PLATFORM, WS)
    await store.upsert_player(PLATFORM, "u1", "Ann")
    await play(store, "g1", {"u1": 5})
    await store.upsert_player(PLATFORM, "u1", "Annie")
    (row,) = await store.leaderboard(PLATFORM, WS, None, "all", NOW)
    assert row.display_name == "Annie"


@pytest.mark.parametrize("text", HOSTILE, ids=range(len(HOSTILE)))
async def test_hostile_text_round_trips(store: SQLStore, text: str) -> None:
    await store.upsert_player(PLATFORM, "u1", text)
    await store.add_word(PLATFORM, WS, text, text, NOW)
    await store.set_setting(PLATFORM, WS, text, text, text)
    await play(store, "g-" + text[:50], {"u1": 3}, best={"u1": text}, winners=["u1"])
    assert await store.word_lists(PLATFORM, WS) == ({text}, set())
    assert (await store.get_settings(PLATFORM, WS))[text] == text
    (row,) = await store.leaderboard(PLATFORM, WS, None, "all", NOW)
    assert (row.display_name, row.best_word) == ("U1", text)  # the game's own seat name wins at the end
    await store.upsert_player(PLATFORM, "u1", text)
    stats = await store.player_stats(PLATFORM, WS, "u1")
    assert stats is not None and stats.display_name == text and stats.best_word == text
    # the tables are all still there
    assert await store.schema_version() >= 1


async def test_nul_in_a_word_is_refused_and_dropped_from_names(store: SQLStore) -> None:
    with pytest.raises(StorageError, match="NUL"):
        await store.add_word(PLATFORM, WS, "a\x00b", "u1", NOW)
    await store.upsert_player(PLATFORM, "u1", "An\x00n")
    await play(store, "g1", {"u1": 1})
    await store.upsert_player(PLATFORM, "u1", "An\x00n")
    (row,) = await store.leaderboard(PLATFORM, WS, None, "all", NOW)
    assert row.display_name == "Ann"
