"""The platform runtime (bot/inbound/runtime.py): the one inbound pipeline every front door goes through.

A fake platform stands in for Discord, Slack or the terminal: it only answers who is an admin
(and counts the questions) and names its interactions' deliveries. Everything else — the order
of a chat's events, once-only handling, chatter dropped unstored — is the runtime's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from types import SimpleNamespace
from typing import Any

import pytest

from bot.core.clock import FakeClock
from bot.core.events import Button, ChatKey, Command, Inbound, MessageRef, Player, PrivateText, Text
from bot.core.platform import Capabilities
from bot.core.registry import Registry
from bot.core.views import GO, JOIN
from bot.delivery.delivery import Delivery
from bot.hosting.manager import GameManager
from bot.inbound.routing import Router
from bot.inbound.runtime import Runtime
from bot.inbound.wiring import connect
from bot.sessions.state import Phase
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_delivery import Recorder
from tests.bot.toygame import TOY, ToyEngine
from tests.doubles import FakeOutbox, MemoryLog

OTHER = ChatKey("test", "w1", "c2")
CHATTER = "my salary is too low, call me at +1 555 0100"


class Codec:
    """Interactions are plain strings naming their delivery."""

    def dump(self, interaction: object) -> dict[str, Any] | None:
        return {"id": interaction}

    def load(self, data: Mapping[str, Any]) -> object:
        return data["id"]

    def key(self, interaction: object) -> str | None:
        return str(interaction) if interaction else None


class FakePlatform:
    name = "test"
    capabilities = Capabilities(
        ephemeral=True, threads=False, buttons=True, timestamp_precision=0.001, private_text=True
    )

    def __init__(self, admins: set[str] | None = None) -> None:
        self.codec = Codec()
        self.admins = admins or set()
        #: (user id, chat, fresh) of every question asked
        self.asked: list[tuple[str, ChatKey, bool]] = []

    def may_adopt(self, chat: ChatKey) -> bool:
        return True

    async def is_admin(
        self, player: Player, chat: ChatKey, *, interaction: object | None = None, fresh: bool = False
    ) -> bool:
        self.asked.append((player.user_id, chat, fresh))
        return player.user_id in self.admins


@pytest.fixture
def platform() -> FakePlatform:
    return FakePlatform()


@pytest.fixture
def runtime(manager: GameManager, platform: FakePlatform) -> Runtime:
    return Runtime(platform, manager)


def cmd(line: str, player: Player = ANN, chat: ChatKey = CHAT, interaction: object | None = None) -> Command:
    name, *args = line.split()
    return Command(name, tuple(args), chat, player, interaction)


def said(player: Player, text: str, mid: str, at: float = 0.0) -> Text:
    return Text(CHAT, player, text, at, MessageRef(CHAT, mid))


async def running(runtime: Runtime, options: str = "target=5") -> str:
    """A toy game between Ann and Bob; returns the letter its answers must start with."""
    await runtime.ingest(cmd(f"start toy {options}"))
    await runtime.ingest(Button(CHAT, BOB, JOIN))
    await runtime.ingest(Button(CHAT, ANN, GO))
    session = runtime.session(CHAT)
    assert session is not None and session.phase is Phase.RUNNING
    assert isinstance(session.engine, ToyEngine)
    return session.engine.letter


async def test_a_chats_events_are_handled_in_arrival_order_whoever_awaits_first(
    runtime: Runtime, manager: GameManager
) -> None:
    # a start arrives first, but its adapter still awaits something (a defer, a user lookup)
    first = runtime.ticket(CHAT)
    looked_up = asyncio.Event()

    async def slow_start() -> bool:
        await looked_up.wait()
        return await runtime.ingest(cmd("start toy"), turn=first)

    starting = asyncio.ensure_future(slow_start())
    joining = asyncio.ensure_future(runtime.ingest(Button(CHAT, BOB, JOIN)))
    elsewhere = await runtime.ingest(cmd("start toy", BOB, OTHER))  # another chat never waits
    assert elsewhere and runtime.runs(OTHER)
    await asyncio.sleep(0)
    assert not joining.done() and not runtime.runs(CHAT)  # Bob's join waits for the start before it
    looked_up.set()
    assert await starting and await joining
    session = runtime.session(CHAT)
    assert session is not None and [p.display_name for p in session.players] == ["Ann", "Bob"]
    assert not manager.turns.busy(CHAT)


async def test_chatter_is_dropped_unstored_and_an_answer_is_kept(
    runtime: Runtime, manager: GameManager, game_log: MemoryLog, clock: FakeClock
) -> None:
    letter = await running(runtime)
    assert await runtime.ingest(said(ANN, CHATTER, "m1"))
    assert await runtime.ingest(said(BOB, "+1 555 0100", "m2"))
    assert runtime.dropped["chatter"] == 2
    await runtime.ingest(said(ANN, letter + "x", "m3", clock.now()))
    await clock.advance(0.2)  # the settle window closes
    (game_id,) = game_log.started
    logged = repr(game_log.actions[game_id])
    assert "555" not in logged and "salary" not in logged
    assert letter + "x" in logged
    assert not manager.errors


async def test_a_message_with_no_game_in_its_chat_is_not_even_lined_up(
    runtime: Runtime, manager: GameManager
) -> None:
    assert await runtime.ingest(said(ANN, "hello", "m1"))
    assert not manager.turns.busy(CHAT) and runtime.dropped["chatter"] == 0  # (not read at all)


async def test_an_edited_message_is_never_an_answer(runtime: Runtime, game_log: MemoryLog) -> None:
    letter = await running(runtime)
    edited = Text(CHAT, ANN, letter + "x", 0.0, MessageRef(CHAT, "m1"), edited=True)
    assert await runtime.ingest(edited)
    assert runtime.dropped["chatter"] == 1


async def test_a_redelivered_message_is_dropped_by_its_platform_ids(runtime: Runtime) -> None:
    letter = await running(runtime)
    assert await runtime.ingest(said(ANN, letter + "x", "m1"), ids=("event-1", "c1:m1"))
    assert not await runtime.ingest(said(ANN, letter + "x", "m1"), ids=("event-2", "c1:m1"))
    assert runtime.dropped["repeat"] == 1


async def test_a_command_delivered_twice_is_handled_once(runtime: Runtime, outbox: FakeOutbox) -> None:
    assert await runtime.ingest(cmd("help", interaction="trigger-1"))
    assert not await runtime.ingest(cmd("help", interaction="trigger-1"))
    assert await runtime.ingest(cmd("help", interaction="trigger-2"))
    assert len(outbox.privates()) == 2
    assert runtime.dropped["repeat"] == 1


async def test_the_platform_is_asked_about_admins_only_where_it_matters(
    manager: GameManager, outbox: FakeOutbox
) -> None:
    platform = FakePlatform(admins={BOB.user_id})
    runtime = Runtime(platform, manager)
    await runtime.ingest(cmd("start toy"))
    await runtime.ingest(cmd("help", BOB))
    await runtime.ingest(Button(CHAT, BOB, JOIN))
    assert platform.asked == []  # nothing there depends on anyone's rights
    await runtime.ingest(Button(CHAT, BOB, GO))  # not the host: an admin may start it
    assert platform.asked == [(BOB.user_id, CHAT, False)]
    session = runtime.session(CHAT)
    assert session is not None and session.phase is Phase.RUNNING
    await runtime.ingest(cmd("stop", ANN))  # the host's own; asked afresh (it ends the game for all)
    assert platform.asked[-1] == (ANN.user_id, CHAT, True)
    assert not runtime.runs(CHAT)


async def test_what_a_player_claims_about_themselves_is_not_what_counts(
    runtime: Runtime, platform: FakePlatform
) -> None:
    await runtime.ingest(cmd("start toy"))
    await runtime.ingest(Button(CHAT, BOB, JOIN))
    posing = Player(BOB.platform, BOB.user_id, BOB.display_name, is_admin=True)
    await runtime.ingest(Button(CHAT, posing, GO))
    session = runtime.session(CHAT)
    assert session is not None and session.phase is Phase.LOBBY  # the platform said no


async def test_an_event_the_adapter_answers_itself_is_admitted_like_any_other(
    manager: GameManager, outbox: FakeOutbox
) -> None:
    runtime = Runtime(FakePlatform(), manager)
    answered: list[Inbound] = []

    async def answer(event: Inbound) -> None:
        answered.append(event)

    assert await runtime.ingest(cmd("help", interaction="t1"), answer=answer)
    assert not await runtime.ingest(cmd("help", interaction="t1"), answer=answer)  # a replay
    assert len(answered) == 1 and outbox.sent == []  # the manager never saw it


async def test_queries_adapters_use_instead_of_the_managers_sessions(runtime: Runtime) -> None:
    await running(runtime)
    thread = ChatKey("test", "w1", "c1", "t9")
    await runtime.ingest(cmd("start toy", ANN, thread))
    assert set(runtime.chats()) == {CHAT, thread}
    assert runtime.chats("w1", "t9") == [thread] and runtime.chats("w2") == []
    assert set(runtime.chats("w1", "c1")) == {CHAT, thread}  # a channel's threads too
    assert await runtime.game_of("w1", BOB) == CHAT  # (a running game; the thread's is a lobby)
    assert await runtime.game_of("w2", BOB) is None
    assert runtime.plays_here(CHAT, BOB) and not runtime.plays_here(CHAT, Player("test", "u9", "Eve"))
    assert not runtime.plays_here(OTHER, BOB)


async def test_a_private_list_goes_through_the_pipeline(runtime: Runtime, outbox: FakeOutbox) -> None:
    await runtime.ingest(PrivateText(CHAT, ANN, "some words", 0.0))
    (reply,) = outbox.privates()
    assert "no game" in reply.view.plain().lower()


async def test_a_router_changes_nothing_until_the_runtime_connects_it(
    clock: FakeClock, game_log: MemoryLog
) -> None:
    delivery = Delivery(Recorder(clock), clock)
    manager = GameManager(Registry([TOY]), delivery, game_log, clock)
    router = Router(manager, None, SimpleNamespace(owner="here"), "test")  # type: ignore[arg-type]
    assert manager.router is None and delivery.gate is None
    connect(manager, router)
    assert manager.router is router and delivery.gate == router.still_ours
    await manager.shutdown()
