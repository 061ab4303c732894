"""Eagle Eyes lists through a modal, turn-based games in their own thread, sharding."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import AsyncIterator

import discord
import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey
from bot.core.registry import Registry
from bot.process.app import Services
from bot.sessions.gamelog import load_unfinished
from games.common.protocol import Snapshot
from tests.adapters.discord.conftest import (
    ANN,
    BOB,
    CHAT,
    Harness,
    is_lobby,
    is_table,
    make_config,
    start_bot,
)
from tests.adapters.discord.fakediscord import BOT_PERMS, CHANNEL_ID, GUILD_ID, FakeDiscord, Fault
from tests.bot.toygame import TOY, ToyEngine

MESSAGES = r"^/channels/\d+/messages$"
OTHER_GUILD = str(int(GUILD_ID) + (1 << 22))  # the next shard's guild


class TurnEngine(ToyEngine):
    """The toy game, shown as if it were the first player's turn."""

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        snap = super().snapshot(viewer)
        seats = tuple(dataclasses.replace(s, active=i == 0) for i, s in enumerate(snap.seats))
        return dataclasses.replace(snap, seats=seats)


TURNS = dataclasses.replace(TOY, name="turns", title="Turns", create=TurnEngine, realtime=False, aliases=())


@pytest.fixture
def registry() -> Registry:
    return Registry([TOY, TURNS])


async def test_eagle_eyes_list_through_a_modal(h: Harness) -> None:
    await h.fake.slash(*ANN, "start", {"game": "toy"})
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)
    iid = await h.fake.slash(*ANN, "list")
    [opened] = await h.fake.wait_for("POST", rf"/interactions/{iid}/")
    assert opened.json["type"] == 9  # a modal
    sid = await h.fake.submit_modal(*ANN, opened.json["data"], ["cat dog\nbird"])
    [thanks] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{sid}$")
    assert thanks.ephemeral and "Got your list" in thanks.text
    [(_, actions)] = await load_unfinished(h.svc.store)
    said = [a for a in actions if a.kind == "say"]
    assert [(a.text, a.private) for a in said] == [("cat dog\nbird", True)]
    assert not [r for r in h.fake.channel_posts() if "bird" in r.text]

    # someone not playing gets a private refusal, not a modal
    iid = await h.fake.slash(*BOB, "list")
    [refused] = await h.fake.wait_for("POST", rf"/interactions/{iid}/")
    assert refused.json["type"] == 4 and refused.ephemeral


async def test_turn_based_games_get_a_thread_and_a_turn_ping(h: Harness) -> None:
    iid = await h.fake.slash(*ANN, "start", {"game": "turns"})
    [thread] = await h.fake.wait_for("POST", rf"^/channels/{CHANNEL_ID}/threads$")
    assert "Turns" in thread.json["name"]
    await h.fake.until(lambda: bool(h.bot.threads))
    thread_id = next(iter(h.bot.threads))
    await h.fake.wait_for("POST", rf"^/channels/{thread_id}/messages$", is_lobby)
    chat = ChatKey("discord", GUILD_ID, CHANNEL_ID, str(thread_id))
    assert chat in h.manager.sessions
    await h.fake.wait_for("DELETE", rf"token-{iid}/messages/@original$")
    # commands typed in the thread reach the thread's game
    await h.fake.slash(*ANN, "go", channel=str(thread_id), thread_parent=CHANNEL_ID)
    [table] = await h.fake.wait_for("POST", rf"^/channels/{thread_id}/messages$", is_table)
    assert f"<@{ANN[0]}>" not in str(table.json), "a mention on the board would never notify when edited"
    # the turn is a new message of its own, which mentions the player: Discord notifies them
    [ping] = await h.fake.wait_for(
        "POST", rf"^/channels/{thread_id}/messages$", lambda r: "your turn" in r.text
    )
    assert ping.json["content"].startswith(f"<@{ANN[0]}> Ann, it's your turn")
    assert "users" in str(ping.json.get("allowed_mentions")), "user mentions are allowed to notify"
    assert "<t:" in ping.json["content"] and ":F>" in ping.json["content"], "the deadline as a local date"
    assert not [r for r in h.fake.channel_posts() if is_lobby(r) or is_table(r)]


@pytest.fixture
async def fake(monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[FakeDiscord]:
    server = FakeDiscord(guilds=(GUILD_ID, OTHER_GUILD))
    await server.start()
    server.patch(monkeypatch)
    yield server
    await server.close()


async def test_a_process_runs_only_its_shards(fake: FakeDiscord, services: Services) -> None:
    fake.shard_count = 2
    mine = fake.shard_of(GUILD_ID)
    assert fake.shard_of(OTHER_GUILD) != mine
    config = make_config(SHARD_COUNT="2", SHARD_IDS=str(mine))
    h = await start_bot(fake, FakeClock(time.time()), services, config)
    try:
        assert [i["shard"] for i in fake.identifies] == [[mine, 2]]
        assert h.bot.mine(CHAT)
        assert not h.bot.mine(ChatKey("discord", OTHER_GUILD, "1"))
    finally:
        await h.stop()


async def test_without_thread_permissions_the_game_stays_in_the_channel(h: Harness) -> None:
    no_threads = discord.Permissions(BOT_PERMS.value & ~discord.Permissions(create_public_threads=True).value)
    iid = await h.fake.slash(*ANN, "start", {"game": "turns"}, app_permissions=no_threads)
    [note] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert note.ephemeral and "Create Public Threads" in note.text
    await h.fake.wait_for("POST", rf"^/channels/{CHANNEL_ID}/messages$", is_lobby)
    assert CHAT in h.manager.sessions
    assert not h.fake.of("DELETE", rf"token-{iid}/messages/@original$")


async def test_a_refused_lobby_post_is_explained_to_the_starter(h: Harness) -> None:
    h.fake.faults.append(Fault("POST", MESSAGES, "403"))
    iid = await h.fake.slash(*ANN, "start", {"game": "toy"})
    [note] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert note.ephemeral and "couldn't post the game" in note.text
