"""Open lobbies, kept so a restart can reopen them, on every backend."""

from __future__ import annotations

from storage.base import LobbyRecord
from storage.sqlstore import SQLStore


def _lobby(game_id: str, players: list[str]) -> LobbyRecord:
    data = {"game": "race", "players": players, "options": {"cards": 5}, "message_id": "m1"}
    return LobbyRecord(game_id, "discord", "G1", "C1", None, data)


async def test_lobbies_are_saved_updated_and_deleted(store: SQLStore) -> None:
    assert await store.open_lobbies() == []
    await store.save_lobby(_lobby("g1", ["Ann"]))
    await store.save_lobby(_lobby("g2", ["Zoë 🎉", "'; DROP TABLE open_lobbies;--"]))
    await store.save_lobby(_lobby("g1", ["Ann", "Bob"]))  # a join updates the row
    found = {lobby.game_id: lobby for lobby in await store.open_lobbies()}
    assert set(found) == {"g1", "g2"}
    assert found["g1"].data["players"] == ["Ann", "Bob"]
    assert found["g2"].data["players"] == ["Zoë 🎉", "'; DROP TABLE open_lobbies;--"]
    assert found["g2"].thread_id is None and found["g2"].data["options"] == {"cards": 5}
    await store.delete_lobby("g1")
    await store.delete_lobby("nope")
    assert [lobby.game_id for lobby in await store.open_lobbies()] == ["g2"]


async def test_starting_the_game_forgets_its_lobby_in_the_same_write(store: SQLStore) -> None:
    from tests.storage.helpers import record

    await store.save_lobby(_lobby("g1", ["u1"]))
    await store.save_lobby(_lobby("g2", ["u2"]))
    await store.start_game(record("g1", ["u1"], started_at=5.0))
    assert [lobby.game_id for lobby in await store.open_lobbies()] == ["g2"]
    assert [g.record.game_id for g in await store.unfinished_games()] == ["g1"]
