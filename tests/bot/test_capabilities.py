"""What a platform can show (bot.core.platform.Capabilities) decides what the core sends it.

A fake platform declares each capability on or off; the core built on it by
:func:`bot.inbound.builder.build` fits every view to it (buttons, a thread of its own),
reaches players as it can (ephemeral replies), takes private words only where it has them, and
words its confirmations for it. Discord, Slack and the terminal declare theirs in their
adapters; with every capability on, nothing changes from what a core without a platform sends.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import AsyncIterator, Callable
from types import SimpleNamespace
from typing import Any

import pytest

from bot.core import views
from bot.core.clock import FakeClock
from bot.core.events import Button, ChatKey, Command, Player, Private, PrivateText
from bot.core.platform import EVERY_CAPABILITY, Capabilities
from bot.core.registry import Registry
from bot.core.views import GO, JOIN
from bot.delivery.delivery import Delivery
from bot.delivery.reach import PrivateRefused, pointer, with_pointer
from bot.features.privacy import FORGET_ME
from bot.features.workspace import Workspace
from bot.hosting.manager import GameManager
from bot.inbound import builder
from bot.inbound.runtime import Runtime
from bot.sessions.gamelog import StoreGameLog
from storage.sqlstore import SQLStore
from tests.bot.conftest import ANN, BOB, CHAT
from tests.bot.test_delivery import Recorder
from tests.bot.test_workspace_store import store
from tests.bot.toygame import TOY
from tests.doubles import MemoryLog
from tests.waiting import eventually

__all__ = ["store"]  # (the fixture, shared with test_workspace_store)

#: The toy as a turn-based game: one that plays in a thread of its own where there are threads.
TURNS = dataclasses.replace(TOY, name="turns", title="Turns", aliases=(), realtime=False)

NOTHING = Capabilities(ephemeral=False, threads=False, buttons=False, timestamp_precision=0.001)


class FakePlatform:
    """A platform declaring ``capabilities``; everyone is an admin."""

    name = "test"
    codec = None

    def __init__(self, capabilities: Capabilities) -> None:
        self.capabilities = capabilities

    def may_adopt(self, chat: ChatKey) -> bool:
        return True

    async def is_admin(
        self, player: Player, chat: ChatKey, *, interaction: object | None = None, fresh: bool = False
    ) -> bool:
        return True


class Refusing(Recorder):
    """A transport whose platform refuses Ann's direct messages (her own setting); with
    ephemeral replies, an answer to her own command still reaches her."""

    ephemeral: bool = True

    async def private(self, message: Private) -> None:
        if message.player == ANN and not (self.ephemeral and message.interaction is not None):
            raise PrivateRefused(ANN)
        await super().private(message)


Build = Callable[..., Runtime]


@pytest.fixture
async def build(clock: FakeClock) -> AsyncIterator[Build]:
    """A runtime wired by :func:`~bot.inbound.builder.build` for a platform of the given capabilities."""
    built: list[Runtime] = []

    def make(capabilities: Capabilities, transport: Recorder | None = None, store: Any = None) -> Runtime:
        registry = Registry([TOY, TURNS])
        services = SimpleNamespace(
            registry=registry,
            workspace=Workspace(store, registry),
            game_log=MemoryLog() if store is None else StoreGameLog(store),
            store=store,
            keep_alive=60.0,
            router=lambda *args, **kwargs: None,
        )
        runtime = builder.build(
            FakePlatform(capabilities),
            transport or Recorder(clock),
            services,  # type: ignore[arg-type]
            clock,
            settle=0.15,
            lobby_timeout=60,
        )
        runtime.manager.rng = random.Random(3)
        built.append(runtime)
        return runtime

    yield make
    for runtime in built:
        await runtime.close()


def cmd(line: str, player: Player = ANN, interaction: object | None = None) -> Command:
    name, *args = line.split()
    return Command(name, tuple(args), CHAT, player, interaction)


def posted(runtime: Runtime) -> list[views.View]:
    transport = runtime.outbox.transport
    assert isinstance(transport, Recorder)
    return [call[2][0] for call in transport.of("post")]  # type: ignore[index]


def test_a_view_fits_the_platform() -> None:
    lobby = views.lobby(TURNS, "Ann", ["Ann"], 0, {})
    assert lobby.buttons and lobby.threaded
    assert EVERY_CAPABILITY.fit(lobby) is lobby  # (nothing to take away: the same view)
    plain = NOTHING.fit(lobby)
    assert plain.buttons == () and not plain.threaded and plain.lines == lobby.lines
    no_threads = dataclasses.replace(EVERY_CAPABILITY, threads=False).fit(lobby)
    assert no_threads.buttons == lobby.buttons and not no_threads.threaded
    assert EVERY_CAPABILITY.plays_in_thread(TURNS) and not EVERY_CAPABILITY.plays_in_thread(TOY)
    assert not NOTHING.plays_in_thread(TURNS)


@pytest.mark.parametrize("capabilities", [EVERY_CAPABILITY, NOTHING], ids=["every", "none"])
async def test_a_lobby_has_buttons_and_a_thread_only_where_the_platform_has_them(
    build: Build, capabilities: Capabilities
) -> None:
    runtime = build(capabilities)
    await runtime.ingest(cmd("start turns"))
    await eventually(lambda: posted(runtime), "the lobby posted")
    (lobby,) = posted(runtime)
    assert lobby.kind == "lobby"
    assert bool(lobby.buttons) is capabilities.buttons
    assert lobby.threaded is capabilities.threads
    # the buttons' commands still work typed: the game starts as it would by the buttons
    await runtime.ingest(cmd("join", BOB))
    await runtime.ingest(cmd("go"))
    session = runtime.session(CHAT)
    assert session is not None and [p.display_name for p in session.players] == ["Ann", "Bob"]


async def test_a_confirmation_says_press_only_where_there_are_buttons(build: Build, store: SQLStore) -> None:
    with_buttons = build(EVERY_CAPABILITY, store=store)
    await with_buttons.ingest(cmd("forget-me"))
    (asked,) = [c[2] for c in with_buttons.outbox.transport.of("private")]  # type: ignore[attr-defined]
    assert "Press the button, or type `forget-me confirm`" in asked.view.plain()
    assert [b.action for b in asked.view.buttons] == [FORGET_ME]

    without = build(NOTHING, store=store)
    await without.ingest(cmd("forget-me"))
    (asked,) = [c[2] for c in without.outbox.transport.of("private")]  # type: ignore[attr-defined]
    text = asked.view.plain()
    assert "Type `forget-me confirm` to go ahead" in text and "button" not in text.lower()
    assert asked.view.buttons == ()
    await without.ingest(cmd("forget-me confirm"))
    (_, done) = [c[2] for c in without.outbox.transport.of("private")]  # type: ignore[attr-defined]
    assert "forgotten you" in done.view.plain()


@pytest.mark.parametrize("ephemeral", [True, False], ids=["ephemeral", "no-ephemeral"])
async def test_an_answer_to_a_players_own_command_bypasses_a_refusal_only_as_an_ephemeral_reply(
    build: Build, clock: FakeClock, ephemeral: bool
) -> None:
    transport = Refusing(clock)
    transport.ephemeral = ephemeral
    runtime = build(dataclasses.replace(EVERY_CAPABILITY, ephemeral=ephemeral), transport)
    outbox = runtime.outbox
    # a note she did not ask for is refused: she is remembered, and pointed to `hand` once
    await outbox.send(Private(CHAT, ANN, views.message("your rack", "info")))
    await eventually(lambda: outbox.stats.privates_unreachable == 1, "the refusal noted")
    await outbox.send(Private(CHAT, ANN, views.message("your rack again", "info"), interaction="i1"))
    if ephemeral:  # shown to her in the channel: no privacy setting stops it
        await eventually(lambda: transport.of("private"), "the answer delivered")
        assert outbox.stats.privates_unreachable == 1
    else:  # a direct message like any other: not tried again while she refuses them
        assert outbox.stats.privates_unreachable == 2 and not transport.of("private")


def test_the_pointer_offers_my_rack_only_where_there_are_buttons() -> None:
    note = pointer(ANN, buttons=False)
    assert note.buttons == () and "`hand`" in note.lines[0] and "My rack" not in note.lines[0]
    assert [b.action for b in pointer(ANN).buttons] == [views.HAND]
    turn = views.turn("test:u1", "Ann, it's your turn.", None, "board")
    unreachable = SimpleNamespace(closed=lambda seat: True)
    assert with_pointer(turn, unreachable, buttons=False) is turn  # type: ignore[arg-type]
    assert with_pointer(turn, unreachable).buttons  # type: ignore[arg-type]


@pytest.mark.parametrize("private_text", [True, False], ids=["private-text", "none"])
async def test_private_words_are_taken_only_where_the_platform_has_them(
    build: Build, clock: FakeClock, private_text: bool
) -> None:
    runtime = build(dataclasses.replace(EVERY_CAPABILITY, private_text=private_text))
    await runtime.ingest(cmd("start toy"))
    await runtime.ingest(Button(CHAT, BOB, JOIN))
    await runtime.ingest(Button(CHAT, ANN, GO))
    assert runtime.plays_here(CHAT, BOB) is private_text
    assert (await runtime.game_of(CHAT.workspace_id, BOB) == CHAT) is private_text
    transport = runtime.outbox.transport
    assert isinstance(transport, Recorder)
    before = len(transport.of("private"))
    elsewhere = ChatKey("test", "w1", "c9")  # (no game there: words sent for it are answered so)
    await runtime.ingest(PrivateText(elsewhere, BOB, "some words", 0.0))
    await clock.advance(5)  # (private notes are paced inside the platform's limits)
    await runtime.outbox.drain(5)
    answers = [call[2] for call in transport.of("private")[before:]]
    if private_text:  # read, and answered
        assert [answer.player for answer in answers] == [BOB]  # type: ignore[attr-defined]
        assert "no game" in answers[0].view.plain().lower()  # type: ignore[attr-defined]
    else:  # such a platform sends none: never read
        assert answers == []


async def test_a_manager_without_a_platform_shows_everything(clock: FakeClock) -> None:
    manager = GameManager(Registry([TOY]), Delivery(Recorder(clock), clock), MemoryLog(), clock)
    assert manager.capabilities == EVERY_CAPABILITY
    assert isinstance(manager.outbox, Delivery) and manager.outbox.capabilities == EVERY_CAPABILITY
    runtime = Runtime(FakePlatform(NOTHING), manager)
    assert runtime.manager.capabilities is NOTHING  # what the platform declares, once it has one
    await manager.shutdown()


async def test_a_race_never_draws_a_line_finer_than_the_platforms_timestamps(build: Build) -> None:
    coarse = build(dataclasses.replace(EVERY_CAPABILITY, timestamp_precision=0.05))
    await coarse.ingest(cmd("start toy"))
    await eventually(lambda: posted(coarse), "the lobby posted")
    await coarse.ingest(cmd("go"))
    session = coarse.session(CHAT)
    assert session is not None and session.engine is not None
    assert session.engine.setup.timestamp_precision == 0.05  # type: ignore[attr-defined]
