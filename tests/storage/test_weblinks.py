"""Web links and page sessions: single-use across processes, expiring, bound to one grant.

Every test runs on SQLite and (with ``MOJI_TEST_POSTGRES_URL``) PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from storage.sqlstore import SQLStore
from storage.weblinks import WATCH, Grant, digest
from tests.storage.conftest import Factory

ANN = Grant("discord", "G1", "C1", "T1", "game-1", "U0ANN")
WATCHER = Grant("slack", "T0", "C2", None, "game-2", "")


async def test_a_link_opens_one_session_once(store: SQLStore) -> None:
    await store.web_links.add_link(digest("secret"), ANN, 200.0, 100.0)
    assert await store.web_links.exchange(digest("secret"), digest("s1"), 300.0, 110.0) == ANN
    assert await store.web_links.exchange(digest("secret"), digest("s2"), 300.0, 111.0) is None
    assert await store.web_links.session(digest("s1"), 120.0) == ANN
    assert await store.web_links.session(digest("s2"), 120.0) is None
    assert await store.web_links.session(digest("secret"), 120.0) is None, "a link is not a session"


async def test_links_and_sessions_expire(store: SQLStore) -> None:
    await store.web_links.add_link(digest("late"), WATCHER, 200.0, 100.0)
    assert await store.web_links.exchange(digest("late"), digest("s"), 300.0, 201.0) is None
    await store.web_links.add_link(digest("ok"), WATCHER, 200.0, 100.0)
    assert await store.web_links.exchange(digest("ok"), digest("s"), 300.0, 150.0) == WATCHER
    assert WATCHER.watcher and not ANN.watcher
    assert await store.web_links.session(digest("s"), 300.0) == WATCHER
    assert await store.web_links.session(digest("s"), 300.5) is None


async def test_only_hashes_are_stored(store: SQLStore) -> None:
    await store.web_links.add_link(digest("plain-secret"), ANN, 200.0, 100.0)
    async with store.read() as tx:
        rows = await tx.fetch("SELECT * FROM web_links")
    assert "plain-secret" not in repr(rows) and digest("plain-secret") in repr(rows)


async def test_two_processes_racing_for_one_link_get_one_session(make_store: Factory) -> None:
    first, second = make_store(), make_store()
    await first.open()
    await second.open()
    await first.web_links.add_link(digest("race"), ANN, 200.0, 100.0)
    results = await asyncio.gather(
        *(
            store.web_links.exchange(digest("race"), digest(f"s{i}"), 300.0, 110.0)
            for i, store in enumerate((first, second, first, second))
        )
    )
    assert [r for r in results if r is not None] == [ANN]


async def test_forget_me_and_purge_delete_the_rows(store: SQLStore) -> None:
    other = Grant("discord", "G1", "C1", None, "game-1", "U0BOB")
    await store.web_links.add_link(digest("a"), ANN, 200.0, 100.0)
    await store.web_links.add_link(digest("b"), other, 200.0, 100.0)
    await store.forget_player("discord", "G1", "U0ANN")
    assert await store.web_links.exchange(digest("a"), digest("sa"), 300.0, 110.0) is None
    assert await store.web_links.exchange(digest("b"), digest("sb"), 300.0, 110.0) == other
    await store.purge_workspace("discord", "G1")
    assert await store.web_links.session(digest("sb"), 120.0) is None


async def test_a_watch_link_opens_watcher_sessions_again_and_again_until_it_expires(store: SQLStore) -> None:
    await store.web_links.add_link(digest("watch"), WATCHER, 200.0, 100.0, kind=WATCH)
    for i in range(3):
        assert await store.web_links.exchange(digest("watch"), digest(f"w{i}"), 300.0, 110.0 + i) == WATCHER
    assert await store.web_links.exchange(digest("watch"), digest("late"), 300.0, 201.0) is None
    with pytest.raises(ValueError):
        await store.web_links.add_link(digest("seat"), ANN, 200.0, 100.0, kind=WATCH)
