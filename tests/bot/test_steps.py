"""The inbound pipeline's steps (bot/inbound/steps.py), each alone, and the order they run in.

Each step gets a :class:`Passage` and drops its event (True or False) or hands it on (None,
maybe changed): these tests say exactly what a step drops, what it hands on, and what it changes.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Button, ChatKey, Command, Inbound, MessageRef, Player, PrivateText, Reaction, Text
from bot.core.fairshare import COMMANDS, FairShare
from bot.core.ordering import Turns
from bot.hosting.manager import GameManager
from bot.inbound.once import Once
from bot.inbound.runtime import Runtime
from bot.inbound.steps import (
    Admit,
    Authorise,
    Chatter,
    Drops,
    InTurn,
    LineUp,
    Passage,
    Pipeline,
    Recovered,
    Redelivered,
    Step,
    Unread,
)
from bot.sessions.moves import Moves
from tests.bot.test_runtime import FakePlatform
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox

CHAT = ChatKey("test", "w1", "c1")
ANN = Player("test", "u1", "Ann")


def text(words: str, mid: str = "m1", *, edited: bool = False) -> Text:
    return Text(CHAT, ANN, words, 1000.0, MessageRef(CHAT, mid), edited)


async def run(step: Step, passage: Passage) -> tuple[bool, list[Inbound]]:
    """What ``step`` did: (what the pipeline returns, [the event handed on] or [])."""
    said = step(passage)
    dropped = said if said is None or isinstance(said, bool) else await said
    return (True, [passage.event]) if dropped is None else (dropped, [])


async def test_unread_drops_private_text_where_the_platform_sends_none() -> None:
    private = PrivateText(CHAT, ANN, "words", 1.0)
    platform = FakePlatform()
    assert await run(Unread(platform, lambda chat: True), Passage(private)) == (True, [private])
    platform.capabilities = replace(platform.capabilities, private_text=False)
    assert await run(Unread(platform, lambda chat: True), Passage(private)) == (True, [])


async def test_unread_drops_messages_and_reactions_where_nothing_listens_but_never_commands() -> None:
    deaf = Unread(FakePlatform(), lambda chat: False)
    reaction = Reaction(CHAT, ANN, "👍", MessageRef(CHAT, "m1"))
    command = Command("help", (), CHAT, ANN)
    assert await run(deaf, Passage(text("hello"))) == (True, [])
    assert await run(deaf, Passage(reaction)) == (True, [])
    assert await run(deaf, Passage(command)) == (True, [command])


async def test_line_up_takes_a_place_that_the_pipeline_lets_go_even_when_a_step_fails() -> None:
    turns = Turns()

    class Failing:
        name = "failing"

        def __call__(self, passage: Passage) -> bool | None:
            assert turns.busy(CHAT)
            raise RuntimeError("boom")

    async def end(passage: Passage) -> bool:
        raise AssertionError("never reached")

    passage = Passage(text("hello"))
    with pytest.raises(RuntimeError):
        await Pipeline([LineUp(turns), Failing()], end)(passage)
    assert passage.turn is not None and not turns.busy(CHAT)


async def test_in_turn_waits_for_the_chats_earlier_event() -> None:
    turns = Turns()
    first = turns.take(CHAT)
    waiting = asyncio.ensure_future(run(InTurn(), Passage(text("second"), turns.take(CHAT))))
    await asyncio.sleep(0)
    assert not waiting.done()
    first.done()
    assert (await waiting)[1] == [text("second")]


async def test_redelivered_drops_a_message_seen_before_by_any_of_its_ids() -> None:
    drops = Drops()
    step = Redelivered(drops)
    assert await run(step, Passage(text("hi"), ids=("event-1", "c1:1.0"))) == (True, [text("hi")])
    assert await run(step, Passage(text("hi"), ids=("event-2", "c1:1.0"))) == (False, [])
    assert drops.counts["repeat"] == 1


async def test_admit_refuses_over_the_allowance_and_drops_repeats(clock: FakeClock) -> None:
    drops = Drops()
    step = Admit(FairShare(clock, FakeOutbox()), Once(None, clock, FakePlatform().codec), drops)
    press = Button(CHAT, ANN, "moji:join", "press-1")
    assert await run(step, Passage(press)) == (True, [press])
    assert await run(step, Passage(press)) == (False, [])  # the same delivery again
    for i in range(COMMANDS.burst):  # (the press took one of the burst)
        await run(step, Passage(Command("help", (), CHAT, ANN, f"i{i}")))
    assert drops.counts == {"chatter": 0, "repeat": 1, "refused": 1}


async def test_recovered_waits_for_the_chats_restore() -> None:
    restored = asyncio.Event()
    waited: list[ChatKey] = []

    async def wait(chat: ChatKey) -> None:
        waited.append(chat)
        await restored.wait()

    pending = asyncio.ensure_future(run(Recovered(lambda chat: True, wait), Passage(text("hi"))))
    await asyncio.sleep(0)
    assert waited == [CHAT] and not pending.done()
    restored.set()
    assert (await pending)[1] == [text("hi")]


async def test_authorise_asks_the_platform_only_where_a_right_is_needed() -> None:
    platform = FakePlatform(admins={"u1"})
    step = Authorise(platform)
    _, [purge] = await run(step, Passage(Command("purge", (), CHAT, ANN)))
    assert isinstance(purge, Command) and purge.player.is_admin
    await run(step, Passage(Command("help", (), CHAT, ANN)))
    await run(step, Passage(text("hello")))
    assert [who for who, _, _ in platform.asked] == ["u1"]


async def test_chatter_hands_on_the_move_the_game_reads_and_drops_the_rest() -> None:
    drops = Drops()
    moves = Moves(TOY, {}, 1)
    step = Chatter(lambda chat: moves, drops)
    _, [move] = await run(step, Passage(text("  plum ")))
    assert isinstance(move, Text) and move.read and move.text == "plum"
    assert await run(step, Passage(text("call me at +1 555 0100"))) == (True, [])
    assert await run(step, Passage(text("plum", edited=True))) == (True, [])
    assert drops.counts["chatter"] == 2


async def test_chatter_leaves_another_processes_game_to_its_router_and_drops_where_none_runs() -> None:
    elsewhere = Chatter(lambda chat: True, Drops())
    nowhere = Chatter(lambda chat: None, Drops())
    assert await run(elsewhere, Passage(text("anything"))) == (True, [text("anything")])
    assert await run(nowhere, Passage(text("anything"))) == (True, [])


async def test_a_pipeline_runs_its_steps_in_order_then_its_end() -> None:
    order: list[str] = []

    class Named:
        def __init__(self, name: str, drops: bool | None = None) -> None:
            self.name = name
            self.drops = drops

        def __call__(self, passage: Passage) -> bool | None:
            order.append(self.name)
            return self.drops

    async def end(passage: Passage) -> bool:
        order.append("end")
        return True

    pipeline = Pipeline([Named("a"), Named("b")], end)
    assert await pipeline(Passage(text("hi")))
    assert order == ["a", "b", "end"] and pipeline.names == ("a", "b")
    order.clear()
    assert await Pipeline([Named("a", False), Named("b")], end)(Passage(text("hi"))) is False
    assert order == ["a"], "a step that drops the event ends its way"


def test_every_event_takes_the_steps_in_the_documented_order(manager: GameManager) -> None:
    assert Runtime(FakePlatform(), manager).pipeline.names == (
        "unread",
        "line up",
        "redelivered",
        "in turn",
        "admit",
        "recovered",
        "authorise",
        "chatter",
    )
