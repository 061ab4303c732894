"""Game ownership between processes: leases on the database's clock, fencing, adoption, the inbox.

Every test runs on SQLite and (with ``MOJI_TEST_POSTGRES_URL``) on PostgreSQL, with two
store objects on one database standing for two processes. A lease's lapse is made by moving
its expiry into the past in the database (what the clock would do), never by waiting.
"""

from __future__ import annotations

import asyncio
import secrets
from typing import Any

import pytest

from storage.base import Lease
from storage.errors import Fenced
from storage.sqlstore import SQLStore
from tests.storage.helpers import PLATFORM, WS, record
from tests.waiting import eventually

CHAT = (PLATFORM, WS, "c1", None)


async def lapse(store: SQLStore, owner: str) -> None:
    """Everything ``owner`` holds is past its lease (as if it stopped renewing long ago)."""
    async with store.write() as tx:
        await tx.execute("UPDATE active_games SET lease_until = 0 WHERE owner = ?", (owner,))
        await tx.execute("UPDATE instances SET seen_until = 0 WHERE instance_id = ?", (owner,))


async def two(make_store: Any) -> tuple[SQLStore, SQLStore]:
    one, other = make_store(), make_store()
    await one.open()
    await other.open()
    return one, other


async def test_a_claim_gives_a_lease_and_every_write_carries_it(make_store: Any) -> None:
    a, b = await two(make_store)
    lease = await a.lease_chat(*CHAT, "g1", 100.0, "A")
    assert lease == Lease("g1", "A", 1)
    assert await b.lease_chat(*CHAT, "g2", 101.0, "B") == "g1", "one active game per chat"
    await a.start_game(record("g1"), lease)
    await a.append_action("g1", 0, {"kind": "begin"}, lease)
    owner = await b.chat_owner(*CHAT)
    assert owner is not None and (owner.game_id, owner.owner, owner.epoch, owner.live) == ("g1", "A", 1, True)
    # what the game is, so another process can tell its answers from chatter before forwarding
    assert (owner.game, dict(owner.options), owner.seed) == ("race", {"cards": 5}, 42)
    assert await b.adopt_game("g1", "B") is None, "a live lease is never adopted"
    assert await b.orphaned_games(PLATFORM) == []


async def test_an_adopted_game_fences_its_old_owner(make_store: Any) -> None:
    a, b = await two(make_store)
    old = await a.lease_chat(*CHAT, "g1", 100.0, "A")
    assert isinstance(old, Lease)
    await a.start_game(record("g1"), old)
    await a.append_action("g1", 0, {"kind": "begin"}, old)
    await lapse(a, "A")
    [orphan] = await b.orphaned_games(PLATFORM)
    assert (orphan.game_id, orphan.owner, orphan.live) == ("g1", "A", False)
    new = await b.adopt_game("g1", "B")
    assert new == Lease("g1", "B", 2)
    assert await a.adopt_game("g1", "C") is None, "adopted once: the new lease is alive"
    # the old owner wakes up and writes: refused loudly, nothing of it stored
    with pytest.raises(Fenced):
        await a.append_action("g1", 1, {"kind": "claims", "by": "A"}, old)
    with pytest.raises(Fenced):
        await a.finish_game(record("g1"), [], 200.0, "", old)
    await b.append_action("g1", 1, {"kind": "claims", "by": "B"}, new)
    [game] = await b.unfinished_games()
    assert [a["kind"] for a in game.actions] == ["begin", "claims"] and game.actions[1]["by"] == "B"
    assert await b.finish_game(record("g1"), [], 300.0, "", new)
    assert await b.chat_owner(*CHAT) is None, "a finished game frees its chat"


async def test_renewals_keep_a_lease_and_report_the_games_taken(make_store: Any) -> None:
    a, b = await two(make_store)
    leases = []
    for n in (1, 2):
        lease = await a.lease_chat(PLATFORM, WS, f"c{n}", None, f"g{n}", 100.0, "A")
        assert isinstance(lease, Lease)
        await a.start_game(record(f"g{n}"), lease)
        leases.append(lease)
    assert await a.renew_leases(leases, 150.0) == []
    assert [g.alive_at for g in await a.unfinished_games()] == [150.0, 150.0]
    await lapse(a, "A")
    assert await b.adopt_game("g2", "B") is not None
    assert await a.renew_leases(leases, 160.0) == ["g2"], "g2 is B's now"
    owner = await b.chat_owner(PLATFORM, WS, "c1", None)
    assert owner is not None and owner.live, "the renewal revived A's own lease on g1"
    await a.release_leases([leases[0]])
    assert [o.game_id for o in await b.orphaned_games(PLATFORM)] == ["g1"], "released: adoptable at once"


async def test_a_restarted_process_of_the_same_name_takes_its_games_back_at_once(make_store: Any) -> None:
    a, again = await two(make_store)
    lease = await a.lease_chat(*CHAT, "g1", 100.0, "local")
    assert isinstance(lease, Lease)
    await a.save_lobby(_lobby("g1"), lease)
    taken = await again.adopt_game("g1", "local")
    assert taken == Lease("g1", "local", 2), "its own name: no wait for the lease"
    with pytest.raises(Fenced):
        await a.save_lobby(_lobby("g1"), lease)  # the previous incarnation is fenced all the same


async def test_of_several_processes_adopting_at_once_exactly_one_wins(make_store: Any) -> None:
    stores = [make_store() for _ in range(4)]
    for store in stores:
        await store.open()
    lease = await stores[0].lease_chat(*CHAT, "g1", 100.0, "dead")
    await stores[0].start_game(record("g1"), lease if isinstance(lease, Lease) else None)
    await lapse(stores[0], "dead")
    won = await asyncio.gather(*(s.adopt_game("g1", f"p{i}") for i, s in enumerate(stores[1:])))
    assert sum(lease is not None for lease in won) == 1


async def test_forwarded_events_reach_the_owner_once_and_in_order(make_store: Any) -> None:
    a, b = await two(make_store)
    lease = await a.lease_chat(*CHAT, "g1", 100.0, "A")
    await a.start_game(record("g1"), lease if isinstance(lease, Lease) else None)
    for n in range(3):
        assert await b.forward_event(*CHAT, f"text:{n}", {"n": n}, 100.0 + n, "A")
    assert not await b.forward_event(*CHAT, "text:1", {"n": 1}, 104.0, "A"), "a redelivery is dropped"
    assert await b.inbox("B") == [], "B runs nothing"
    items = await a.inbox("A")
    assert [item.payload["n"] for item in items] == [0, 1, 2]
    assert (items[0].platform, items[0].channel_id, items[0].thread_id) == (PLATFORM, "c1", None)
    assert await a.take_inbox(items[0].id, 110.0)
    assert not await b.take_inbox(items[0].id, 110.0), "taken once"
    assert [item.payload["n"] for item in await a.inbox("A")] == [1, 2]
    # the game changes hands: its waiting events go with it
    await lapse(a, "A")
    await b.adopt_game("g1", "B")
    assert [item.payload["n"] for item in await b.inbox("B")] == [1, 2]
    assert await a.inbox("A") == [], "sent to A, but the game is B's now: so are its events"
    # a chat without a game: an event goes to the process it was sent to (a start, sent to the
    # process running the workspace's other games)
    assert await a.forward_event(PLATFORM, WS, "c2", None, "start:c2", {"n": 9}, 120.0, "B")
    assert [item.payload["n"] for item in await b.inbox("B")] == [1, 2, 9]
    assert await b.workspace_owner(PLATFORM, WS) == "B"
    assert await b.workspace_owner(PLATFORM, "elsewhere") is None


async def test_processes_see_each_other_alive(make_store: Any) -> None:
    a, b = await two(make_store)
    await a.join_instances("A")
    await b.join_instances("B")
    assert await a.live_instances() == ["A", "B"]
    await lapse(a, "A")
    assert await b.live_instances() == ["B"], "A stopped saying it is alive"
    await b.leave_instances("B")
    assert await a.live_instances() == []


async def test_a_process_s_address_for_pages_is_known_while_it_lives(make_store: Any) -> None:
    a, b = await two(make_store)
    await a.set_instance_web("A", "http://10.0.0.5:3000", "key-a")  # (before its router starts)
    assert await b.instance_web("A") is None, "not alive yet"
    assert await b.live_instances() == [], "telling its address does not make a process alive"
    await a.join_instances("A", announce=True)
    assert await b.instance_web("A") == ("http://10.0.0.5:3000", "key-a")
    await a.join_instances("A")  # (a renewal keeps the address)
    await a.set_instance_web("A", "http://10.0.0.5:3001", "key-a2")  # (a restart: a new key)
    assert await b.instance_web("A") == ("http://10.0.0.5:3001", "key-a2")
    await b.join_instances("B")  # a process without pages
    assert await a.instance_web("B") is None
    await lapse(a, "A")
    assert await b.instance_web("A") is None, "a dead process serves no pages"


async def test_notifications_wake_a_listener(make_store: Any) -> None:
    a, b = await two(make_store)
    # PostgreSQL's notification channels are the whole database's, not the test's schema: another
    # run on the same server may notify too, so this test's platform and instances have names
    # of their own and only those are counted
    platform, renewed, started = (f"{name}-{secrets.token_hex(4)}" for name in ("test", "B", "B2"))
    heard: list[str] = []
    if not await a.listen("moji_inbox", heard.append):
        pytest.skip("this backend has no notifications (its processes poll)")
    chat = (platform, *CHAT[1:])
    lease = await a.lease_chat(*chat, "g1", 100.0, "A")
    assert isinstance(lease, Lease)
    await b.forward_event(*chat, "k1", {"n": 1}, 100.0, "A")
    await eventually(lambda: platform in heard, "a notification")  # (it crosses a real server)
    assert [p for p in heard if p == platform] == [platform]
    joined: list[str] = []
    await a.listen("moji_instances", joined.append)
    await b.join_instances(renewed)  # a renewal: nobody is woken
    await b.join_instances(started, announce=True)  # a process starting: everyone hears of it
    await eventually(lambda: started in joined, "a notification")
    assert [j for j in joined if j in (renewed, started)] == [started]


def _lobby(game_id: str) -> Any:
    from storage.base import LobbyRecord

    return LobbyRecord(game_id, PLATFORM, WS, "c1", None, {"game": "race", "players": []})


async def test_a_players_running_games_are_found_for_a_direct_message(store: SQLStore) -> None:
    await store.start_game(record("g1", ["u1", "u2"], started_at=10.0))
    await store.start_game(record("g2", ["u1_x"], started_at=20.0))  # (a LIKE wildcard in an id)
    assert await store.player_games(PLATFORM, WS, f"{PLATFORM}:u1") == [("c1", None)]
    assert await store.player_games(PLATFORM, WS, f"{PLATFORM}:u1_x") == [("c1", None)]
    assert await store.player_games(PLATFORM, WS, f"{PLATFORM}:u1%") == []
    assert await store.player_games(PLATFORM, "elsewhere", f"{PLATFORM}:u1") == []
    await store.finish_game(record("g1", ["u1", "u2"]), [], 30.0)
    assert await store.player_games(PLATFORM, WS, f"{PLATFORM}:u2") == []
