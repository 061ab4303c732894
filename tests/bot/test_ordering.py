"""Per-chat arrival order and redelivery detection."""

from __future__ import annotations

import asyncio

from bot.core.events import ChatKey
from bot.core.ordering import Recent, Turns

A = ChatKey("slack", "T1", "C1")
B = ChatKey("slack", "T1", "C2")


async def test_turns_run_in_arrival_order_per_chat() -> None:
    turns = Turns()
    done: list[str] = []

    async def work(name: str, chat: ChatKey, delay_steps: int) -> None:
        turn = turns.take(chat)
        try:
            for _ in range(delay_steps):  # slow lookups before the work
                await asyncio.sleep(0)
            await turn.wait()
            done.append(name)
        finally:
            turn.done()

    await asyncio.gather(work("a1", A, 5), work("a2", A, 0), work("b1", B, 3), work("a3", A, 1))
    assert [n for n in done if n.startswith("a")] == ["a1", "a2", "a3"]
    assert done.index("b1") < done.index("a1")  # another chat never waits
    assert turns.last == {}


async def test_a_failed_turn_still_lets_the_next_go() -> None:
    turns = Turns()
    first, second = turns.take(A), turns.take(A)
    first.done()  # e.g. its listener raised
    await asyncio.wait_for(second.wait(), 1)
    second.done()
    assert turns.last == {}


def test_recent_remembers_a_bounded_number_of_keys() -> None:
    recent = Recent(size=3)
    assert recent.first_time("e1", "C1:1")
    assert not recent.first_time("e2", "C1:1")  # same message, new event id
    assert not recent.first_time("e1")
    assert recent.first_time("e3")
    assert recent.first_time("e9", "")
    assert recent.first_time("C1:1")  # forgotten: only the last three keys are kept
