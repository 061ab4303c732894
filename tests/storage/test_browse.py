"""storage/browse.py on both backends: a workspace's web address (on, off, a new one), a player's
page, the finished games a replay may show (never a voided one, nor one without its log), and
forget-me and purge taking a person off them."""

from __future__ import annotations

from storage.sqlstore import SQLStore
from tests.storage.helpers import NOW, PLATFORM, WS, play, record


async def test_a_workspace_s_address_is_minted_once_and_forgotten_when_turned_off(store: SQLStore) -> None:
    assert await store.browse.token(PLATFORM, WS) is None
    first = await store.browse.turn_on(PLATFORM, WS, 1.0)
    assert len(first) >= 32 and await store.browse.turn_on(PLATFORM, WS, 2.0) == first
    assert await store.browse.token(PLATFORM, WS) == first
    assert await store.browse.workspace(first) == (PLATFORM, WS)
    assert await store.browse.workspace("x" * 200) is None and await store.browse.workspace("") is None
    assert await store.browse.turn_off(PLATFORM, WS) and not await store.browse.turn_off(PLATFORM, WS)
    assert await store.browse.workspace(first) is None and await store.browse.token(PLATFORM, WS) is None
    second = await store.browse.turn_on(PLATFORM, WS, 3.0)
    assert second != first and await store.browse.turn_on(PLATFORM, "w2", 3.0) != second


async def test_a_player_s_page_and_the_replayable_games(store: SQLStore) -> None:
    await play(store, "g1", {"u1": 10, "u2": 4}, winners=["u1"], best={"u1": "quartz", "u2": "cat"})
    await play(store, "g2", {"u1": 3, "u2": 8}, game="board", winners=["u2"], best={"u1": "zebras"})
    await store.append_action("g1", 0, {"kind": "begin", "now": 1.0})
    await store.append_action("g1", 1, {"kind": "say", "now": 2.0, "seat": "test:u1", "text": "quartz"})
    voided = record("g3", ["u1", "u2"])
    await store.start_game(voided)
    await store.append_action("g3", 0, {"kind": "begin", "now": 1.0})
    assert await store.void_game("g3", "stopped", NOW.timestamp())

    page = await store.browse.player(PLATFORM, WS, "u1")
    assert page is not None and page.display_name == "U1"
    assert {(t.game, t.games, t.wins, t.points) for t in page.tallies} == {
        ("race", 1, 1, 10),
        ("board", 1, 0, 3),
    }
    assert page.best_words == (("quartz", "race"), ("zebras", "board"))
    # (both ended at NOW: newest first, then by id)
    assert [(g.game_id, g.replayable) for g in page.recent] == [("g1", True), ("g2", False)]
    assert await store.browse.player(PLATFORM, WS, "nobody") is None

    listed = await store.browse.finished_games(PLATFORM, WS)
    assert [g.game_id for g in listed] == ["g1"] and listed[0].seats == ("U1", "U2")
    stored = await store.browse.finished_game(PLATFORM, WS, "g1")
    assert stored is not None and len(stored.actions) == 2 and stored.record.game == "race"
    for missing in ("g2", "g3", "nope"):  # no log; voided; unknown
        assert await store.browse.finished_game(PLATFORM, WS, missing) is None
    assert await store.browse.finished_game(PLATFORM, "w2", "g1") is None  # another workspace's

    await store.forget_player(PLATFORM, WS, "u2")
    assert await store.browse.player(PLATFORM, WS, "u2") is None
    assert await store.browse.finished_games(PLATFORM, WS) == []  # (their games' logs went)
    token = await store.browse.turn_on(PLATFORM, WS, 1.0)
    await store.purge_workspace(PLATFORM, WS)
    assert await store.browse.workspace(token) is None
    assert await store.browse.player(PLATFORM, WS, "u1") is None
