"""Hostile input on every inbound path of the bot core: command text, options, config values,
buttons, reactions, answers and private messages.

Each example runs a real manager (every registered game, the real lexicon, a real SQLite
workspace store) through a race in progress and feeds it a hostile event sequence. Nothing
may escape (``manager.errors`` stays empty), nothing poisoned is marked correct, every
refusal says why, and only admins change settings or word lists.
"""

from __future__ import annotations

import asyncio
import itertools
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core.clock import FakeClock
from bot.core.commands import COMMANDS, CommandError, parse_start, split
from bot.core.events import (
    Button,
    ChatKey,
    Command,
    MessageRef,
    Player,
    Private,
    PrivateText,
    React,
    Reaction,
    Text,
)
from bot.core.registry import load_default
from bot.core.views import GO, JOIN
from bot.features.workspace import Workspace
from bot.features.workspace_settings import WORKSPACE_SETTINGS
from bot.hosting.handlers.buttons import BUTTONS
from bot.hosting.manager import GameManager
from games.common.options import OptionError, parse_options
from storage import open_store
from tests.doubles import FakeOutbox, MemoryLog
from tests.hardening.hostile import fuzz, hostile, is_poisoned

REGISTRY = load_default()
CHAT = ChatKey("test", "w1", "c1")
ANN = Player("test", "u1", "Ann")
BOB = Player("test", "u2", "Bob")
BOSS = Player("test", "u9", "Boss", is_admin=True)
NAMES = sorted({spec.name for spec in COMMANDS})


# ------------------------------------------------------------------ pure parsers


@fuzz(normal=200, long=5000)
@given(text=st.one_of(hostile(), st.builds(lambda a, b: f"{a} {b}", st.sampled_from(NAMES), hostile())))
def test_command_text_parses_or_explains(text: str) -> None:
    try:
        name, args = split(text)
    except CommandError as exc:
        assert str(exc).strip()
        return
    assert name in NAMES
    assert all(isinstance(a, str) for a in args)


@pytest.mark.parametrize("game", REGISTRY.names())
@fuzz(normal=60, long=1000)
@given(args=st.lists(st.one_of(hostile(), st.builds("{}={}".format, hostile(), hostile())), max_size=5))
def test_start_options_parse_or_explain(game: str, args: list[str]) -> None:
    try:
        info, options = parse_start([game, *args], REGISTRY)
    except CommandError as exc:
        assert str(exc).strip()
        return
    assert info.name == game
    assert set(options) == {spec.name for spec in info.options}


@pytest.mark.parametrize("game", REGISTRY.names())
@fuzz(normal=40, long=1000)
@given(data=st.data())
def test_every_option_value_parses_or_explains(game: str, data: st.DataObject) -> None:
    info = REGISTRY.get(game)
    spec = data.draw(st.sampled_from(info.options))
    value = data.draw(hostile())
    try:
        parsed = parse_options(info.options, [f"{spec.name}={value}"])
    except OptionError as exc:
        assert str(exc).strip()
        return
    if spec.kind in ("int", "choice", "bool"):
        # a look-alike or invisible character never sneaks into a number or a choice
        assert not is_poisoned(value), (spec.name, value, parsed[spec.name])


@fuzz(normal=80, long=2000)
@given(
    key=st.one_of(
        st.sampled_from([s.name for s in WORKSPACE_SETTINGS]),
        st.sampled_from([f"{g}.{o.name}" for g in REGISTRY for o in g.options]),
        hostile(),
    ),
    value=hostile(),
)
def test_config_values_validate_or_explain(key: str, value: str) -> None:
    workspace = Workspace(None, REGISTRY)
    try:
        name, stored = workspace._validate_setting(key.lower(), value)
    except CommandError as exc:
        assert str(exc).strip()
        return
    assert isinstance(stored, str) and name
    kinds = {s.name: s.kind for s in WORKSPACE_SETTINGS}
    if kinds.get(name, "text") != "text":
        assert not is_poisoned(value), (key, value, stored)


# ------------------------------------------------------------------ through the manager


@dataclass(frozen=True)
class Event:
    kind: str  # text | command | raw | button | reaction | private
    who: int
    text: str
    name: str = "help"


def events() -> st.SearchStrategy[list[Event]]:
    one = st.one_of(
        st.builds(Event, st.just("text"), st.integers(0, 2), hostile()),
        st.builds(Event, st.just("command"), st.integers(0, 2), hostile(), st.sampled_from(NAMES)),
        st.builds(Event, st.just("raw"), st.integers(0, 2), hostile()),
        st.builds(
            Event,
            st.just("button"),
            st.integers(0, 2),
            st.one_of(hostile(), st.sampled_from(sorted(BUTTONS))),
        ),
        st.builds(
            Event,
            st.just("reaction"),
            st.integers(0, 2),
            st.one_of(hostile(), st.sampled_from(["👍", "👎", "+1", "-1"])),
        ),
        st.builds(Event, st.just("private"), st.integers(0, 2), hostile()),
    )
    return st.lists(one, min_size=1, max_size=12)


_WORKSPACES = itertools.count()
_DB = Path(tempfile.mkdtemp(prefix="moji-fuzz-")) / "fuzz.db"


async def scenario(game: str, plan: list[Event], seed: int) -> None:
    store = open_store(f"sqlite:///{_DB}")
    await store.open()
    clock, outbox = FakeClock(), FakeOutbox()
    ws = Workspace(store, REGISTRY)
    manager = GameManager(
        REGISTRY, outbox, MemoryLog(), clock, workspace=ws, settle=0.15, rng=random.Random(seed)
    )
    chat = ChatKey("test", f"w{next(_WORKSPACES)}", "c1")
    people = (ANN, BOB, BOSS)
    try:
        await manager.handle(Command("start", (game, "bots=1"), chat, ANN))
        await manager.handle(Button(chat, BOB, JOIN))
        await manager.handle(Button(chat, ANN, GO))
        poisoned_refs: set[str] = set()
        for i, event in enumerate(plan):
            who = people[event.who]
            if event.kind == "text":
                ref = MessageRef(chat, f"m{i}")
                if is_poisoned(event.text):
                    poisoned_refs.add(ref.message_id)
                await manager.handle(Text(chat, who, event.text, clock.now(), ref))
            elif event.kind == "command":
                args = tuple(event.text.split()[:6])
                if event.name == "start":
                    args = (game, *args)
                await manager.handle(Command(event.name, args, chat, who))
            elif event.kind == "raw":
                try:
                    name, args = split(event.text)
                except CommandError:
                    continue
                await manager.handle(Command(name, args, chat, who))
            elif event.kind == "button":
                await manager.handle(Button(chat, who, event.text))
            elif event.kind == "reaction":
                await manager.handle(Reaction(chat, who, event.text, MessageRef(chat, "m0")))
            else:
                await manager.handle(PrivateText(chat, who, event.text, clock.now()))
            await clock.advance(0.2)
        await clock.advance(1.0)
        assert not manager.errors, manager.errors
        for message in outbox.sent:
            if isinstance(message, React) and message.mark == "accepted":
                assert message.ref.message_id not in poisoned_refs, message
            if isinstance(message, Private):
                assert message.view.plain().strip(), "an empty private reply"
        # settings and word lists: only the admin's changes can be stored
        admin_changed = any(
            e.who == 2
            and (e.kind in ("command", "raw"))
            and ("config" in (e.name, *e.text.split()[:2]) or "words" in (e.name, *e.text.split()[:2]))
            for e in plan
        )
        if not admin_changed:
            assert await store.get_settings(chat.platform, chat.workspace_id) == {}
            assert await store.word_lists(chat.platform, chat.workspace_id) == (set(), set())
    finally:
        await manager.shutdown()
        await store.close()


@pytest.mark.parametrize("game", REGISTRY.names())
@fuzz(normal=12, long=300)
@given(plan=events(), seed=st.integers(0, 2**20))
def test_hostile_events_through_the_manager(game: str, plan: list[Event], seed: int) -> None:
    asyncio.run(scenario(game, plan, seed))
