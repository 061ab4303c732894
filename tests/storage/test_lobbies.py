"""Open lobbies, kept so a restart can reopen them, on every backend."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

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


async def test_one_active_game_per_chat_whichever_process_asks(make_store: Any) -> None:
    from tests.storage.helpers import record

    one, two = make_store(), make_store()  # two processes on one database
    await one.open()
    await two.open()
    chat = ("discord", "G1", "C1", None)
    assert await one.claim_chat(*chat, "g1", 100.0) is None
    assert await one.claim_chat(*chat, "g1", 101.0) is None  # (claiming again is harmless)
    assert await two.claim_chat(*chat, "g2", 102.0) == "g1", "a fresh claim holds"
    assert await two.claim_chat("discord", "G1", "C1", "T9", "g3", 102.0) is None, "a thread is a chat"
    await one.save_lobby(_lobby("g1", ["u1"]))
    assert await two.claim_chat(*chat, "g2", 1000.0) == "g1", "an open lobby holds its chat"
    rec = replace(
        record("g1", ["u1"], started_at=1001.0), channel_id="C1", workspace_id="G1", platform="discord"
    )
    await one.start_game(rec)
    assert await two.claim_chat(*chat, "g2", 2000.0) == "g1", "a running game holds it"
    await one.finish_game(rec, [], 2001.0)
    assert await two.claim_chat(*chat, "g2", 2002.0) is None, "an ended game does not"
    await two.save_lobby(_lobby("g2", ["u2"]))
    await two.delete_lobby("g2")  # the lobby closed without starting
    assert await one.claim_chat(*chat, "g4", 2003.0) is None
    # a claim whose lobby was never recorded (its process died) frees the chat after a while
    assert await two.claim_chat(*chat, "g5", 2004.0) == "g4"
    assert await two.claim_chat(*chat, "g5", 2004.0 + 31.0) is None


async def test_two_processes_starting_a_game_in_one_chat_at_once_end_with_one(make_store: Any) -> None:
    import asyncio

    stores = [make_store() for _ in range(4)]
    for store in stores:
        await store.open()
    chat = ("slack", "T1", "C1", None)
    answers = await asyncio.gather(
        *(store.claim_chat(*chat, f"g{i}", 500.0) for i, store in enumerate(stores))
    )
    assert sum(answer is None for answer in answers) == 1
    (winner,) = [f"g{i}" for i, answer in enumerate(answers) if answer is None]
    assert all(answer in (None, winner) for answer in answers)
