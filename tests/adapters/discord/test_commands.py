"""The /moji group: options → the shared grammar, autocomplete, guild sync, no flooding."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import AsyncIterator

import pytest

from adapters.discord.commands import option_choices, start_args
from bot.core.clock import FakeClock
from bot.core.registry import Registry
from bot.delivery.tables import SCROLLED_AWAY
from bot.process.app import Services
from games.common.options import OptionSpec
from tests.adapters.discord.conftest import ANN, CHAT, Harness, is_lobby, is_table, make_config, start_bot
from tests.adapters.discord.fakediscord import GUILD_ID, FakeDiscord
from tests.bot.toygame import TOY

MESSAGES = r"^/channels/\d+/messages$"

THEMED = dataclasses.replace(
    TOY,
    name="themed",
    title="Themed",
    aliases=(),
    options=(
        *TOY.options,
        OptionSpec("themes", "set", (), "themes", choices=("animals", "food", "nouns")),
        OptionSpec("placement", "choice", "anywhere", "where", choices=("anywhere", "start", "end")),
    ),
)


def test_start_options_become_the_shared_grammar() -> None:
    given = {"bots": 1, "cards": None, "themes": "nouns,animals"}
    assert start_args("race", given, "hourglass=20 general") == (
        "race",
        "bots=1",
        "themes=nouns,animals",
        "hourglass=20",
        "general",
    )
    assert start_args(None, {}, None) == ()


def test_option_autocomplete_from_the_games_declarations() -> None:
    registry = Registry([TOY, THEMED])
    assert [c.value for c in option_choices(registry, "themed", "placement", "")] == [
        "anywhere",
        "start",
        "end",
    ]
    assert [c.value for c in option_choices(registry, "themed", "themes", "nouns,a")] == ["nouns,animals"]
    assert option_choices(registry, "toy", "themes", "") == []


@pytest.fixture
def registry() -> Registry:
    return Registry([TOY, THEMED])


async def test_autocomplete_answers_from_discord(h: Harness) -> None:
    iid = await h.fake.autocomplete(*ANN, "start", {"game": "themed", "themes": "f"}, focused="themes")
    [answer] = await h.fake.wait_for("POST", rf"/interactions/{iid}/")
    assert answer.json["type"] == 8
    assert [c["value"] for c in answer.json["data"]["choices"]] == ["food"]
    iid = await h.fake.autocomplete(*ANN, "config", {"key": "reas"}, focused="key")
    [answer] = await h.fake.wait_for("POST", rf"/interactions/{iid}/")
    assert [c["value"] for c in answer.json["data"]["choices"]] == ["reasons"]


async def test_the_live_table_is_edited_until_it_scrolls_away(h: Harness) -> None:
    await h.fake.slash(*ANN, "start", {"game": "toy"})
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)
    await h.fake.until(lambda: not h.manager.sessions[CHAT]._lock.locked() and h.fake.inflight == 0)
    await h.advance(10.5)  # the hourglass runs out: a new letter, nobody wrote in between
    await h.fake.wait_for("PATCH", r"^/channels/\d+/messages/\d+$", is_table)
    assert len([r for r in h.fake.channel_posts() if is_table(r)]) == 1
    # a little chatter under it changes nothing
    await h.fake.say("100000000000000009", "Zed", "hello there")
    await h.fake.until(lambda: h.bot.outbox._chats[CHAT].below == 1)
    await h.fake.until(lambda: not h.manager.sessions[CHAT]._lock.locked() and h.fake.inflight == 0)
    await h.advance(10.5)
    await h.drain()
    await h.fake.wait_for("PATCH", r"^/channels/\d+/messages/\d+$", is_table, count=2)
    assert len([r for r in h.fake.channel_posts() if is_table(r)]) == 1
    # once the table has scrolled away, the next cards come in a new message at the bottom
    for _ in range(SCROLLED_AWAY):
        await h.fake.say("100000000000000009", "Zed", "hello there")
    await h.fake.until(lambda: h.bot.outbox._chats[CHAT].below == 1 + SCROLLED_AWAY)
    for _ in range(4):  # (the toy may draw the same letter again: new cards are what move a table)
        await h.fake.until(lambda: not h.manager.sessions[CHAT]._lock.locked() and h.fake.inflight == 0)
        await h.advance(10.5)
        await h.fake.until(lambda: not h.manager.sessions[CHAT]._lock.locked())
        await h.drain()
        if len([r for r in h.fake.channel_posts() if is_table(r)]) == 2:
            break
    assert len([r for r in h.fake.channel_posts() if is_table(r)]) == 2


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord()
    await server.start()
    server.patch(monkeypatch)
    yield server
    await server.close()


async def test_commands_sync_to_one_server_when_asked(fake: FakeDiscord, services: Services) -> None:
    h = await start_bot(fake, FakeClock(time.time()), services, make_config(DISCORD_GUILD_ID=GUILD_ID))
    try:
        assert fake.of("PUT", rf"^/applications/\d+/guilds/{GUILD_ID}/commands$")
        assert not fake.of("PUT", r"^/applications/\d+/commands$")
        await fake.slash(*ANN, "start", {"game": "toy"})
        await fake.wait_for("POST", MESSAGES, is_lobby)
    finally:
        await h.stop()


async def test_start_options_are_built_from_the_declarations_within_discords_limits() -> None:
    from adapters.discord.commands import MOST_OPTIONS, start_command

    ran: list[tuple[str, tuple[str, ...]]] = []

    async def run(interaction: object, verb: str, words: tuple[str, ...]) -> None:
        ran.append((verb, words))

    many = OptionSpec("colour", "choice", "c00", "a colour", choices=tuple(f"c{i:02}" for i in range(30)))
    crowd = [
        dataclasses.replace(
            TOY,
            name=f"g{i}",
            aliases=(),
            options=(
                *TOY.options,
                many,
                OptionSpec("class", "bool", False, "a Python keyword"),
                OptionSpec("go-fast", "bool", False, "a hyphenated name"),
                OptionSpec(f"only{i}", "int", 1, "its own", low=1, high=2),
            ),
        )
        for i in range(30)
    ]
    command = start_command(Registry([THEMED, *crowd]), run)
    params = {p.display_name: p for p in command.parameters}
    assert len(params) == MOST_OPTIONS and {"game", "more"} <= set(params)
    assert params["game"].autocomplete and not params["game"].choices  # 31 games: more than 25 choices
    assert params["colour"].autocomplete and not params["colour"].choices  # 30 colours, likewise
    assert [c.value for c in params["placement"].choices] == ["anywhere", "start", "end"]
    assert params["themes"].autocomplete  # a set: each game's own, as typed so far
    assert (params["target"].min_value, params["target"].max_value) == (1, 10)
    assert params["go-fast"].name == "go_fast"  # a Python name, Discord's own shown
    assert params["target"].description == "Points to win"
    assert params["class"].name.startswith("option_")  # not a Python name: one is made up

    await command.callback(None, game="themed", target=3, go_fast=True, more="crash")  # type: ignore[arg-type, call-arg]
    assert ran == [("start", ("themed", "target=3", "go-fast=True", "crash"))]
