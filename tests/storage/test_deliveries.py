"""Commands and button presses handled once (bot.inbound.once): the ``deliveries`` record, shared by
every process on one database. SQLite always, PostgreSQL with ``MOJI_TEST_POSTGRES_URL``."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Any

from bot.core.clock import FakeClock
from bot.core.events import Button, ChatKey, Command, Player, Text
from bot.inbound.once import KEEP, PRUNE_EVERY, Once

CHAT = ChatKey("slack", "T1", "C1")
ANN = Player("slack", "UANN", "Ann")


class Codec:
    """An adapter's interactions: a string that is the platform's id for the delivery."""

    def dump(self, interaction: object) -> dict[str, Any] | None:
        return {"id": interaction}

    def load(self, data: Mapping[str, Any]) -> object:
        return data["id"]

    def key(self, interaction: object) -> str | None:
        return str(interaction) if interaction else None


def command(trigger: str | None) -> Command:
    return Command("words", ("add", "zzyzx"), CHAT, ANN, trigger)


async def rows(store: Any) -> int:
    async with store.read() as tx:
        found = await tx.fetch("SELECT COUNT(*) FROM deliveries", ())
    return int(found[0][0])


async def test_one_process_of_two_takes_a_delivery(make_store: Any) -> None:
    a, b = make_store(), make_store()
    await a.open()
    await b.open()
    results = await asyncio.gather(*(s.first_delivery("slack:9.9.9", 10.0) for s in (a, b, a, b)))
    assert sorted(results) == [False, False, False, True]


async def test_a_repeat_is_dropped_in_another_process_and_after_a_restart(make_store: Any) -> None:
    clock = FakeClock(1000.0)
    first, second = make_store(), make_store()
    await first.open()
    await second.open()
    here, there = Once(first, clock, Codec()), Once(second, clock, Codec())
    assert await here.first(command("1.2.3"))
    assert not await here.first(command("1.2.3"))  # (this process remembers it)
    assert not await there.first(command("1.2.3"))  # another process, one database
    restarted = Once(first, clock, Codec())
    assert not await restarted.first(command("1.2.3"))
    assert await restarted.first(command("1.2.4"))  # a new command
    assert await here.first(Button(CHAT, ANN, "moji:join", "1.2.5"))
    assert not await there.first(Button(CHAT, ANN, "moji:join", "1.2.5"))
    assert (here.dropped, there.dropped, restarted.dropped) == (1, 2, 1)
    # what has no platform id of its own is never recorded (messages have their own rules)
    assert await here.first(command(None)) and await here.first(command(None))
    assert await here.first(Text(CHAT, ANN, "word", 1.0)) and await here.first(Text(CHAT, ANN, "word", 1.0))
    assert await rows(first) == 3


async def test_deliveries_are_forgotten_after_an_hour(make_store: Any) -> None:
    clock = FakeClock(1000.0)
    store = make_store()
    await store.open()
    once = Once(store, clock, Codec())
    assert await once.first(command("old"))
    await clock.advance(KEEP + PRUNE_EVERY)
    assert await once.first(command("new"))  # (cleans up on the way)
    assert await rows(store) == 1
    assert not await Once(store, clock, Codec()).first(command("new"))


async def test_without_the_database_this_process_still_remembers(make_store: Any) -> None:
    store = make_store()
    await store.open()
    once = Once(store, FakeClock(0.0), Codec())
    await store.close()  # the database is gone
    assert await once.first(command("1.2.3"))
    assert not await once.first(command("1.2.3"))
