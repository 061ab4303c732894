"""Closed direct messages, through discord.py against the fake Discord.

A member who closed their direct messages from the server's members gets 403 / 50007 on every
direct message. moji tries once, remembers it, points the player to **My rack** in the game's
thread (and in every turn message after), and never blames a permission.
"""

from __future__ import annotations

import pytest

from bot.core import views
from bot.core.registry import Registry
from tests.adapters.discord.conftest import Harness, is_lobby
from tests.adapters.discord.fakediscord import CHANNEL_ID

board = pytest.importorskip("games.board")

ANN = ("100000000000000101", "Ann")
BOB = ("100000000000000102", "Bob")


@pytest.fixture
def registry() -> Registry:
    return Registry([board.GAME])


def _buttons(request: object) -> list[str]:
    body = (request if isinstance(request, dict) else getattr(request, "json", None)) or {}
    return [
        c.get("custom_id", "") for row in body.get("components") or [] for c in row.get("components") or []
    ]


async def test_a_player_with_closed_dms_is_pointed_to_my_rack_once(h: Harness) -> None:
    h.fake.dms_closed.add(ANN[0])
    await h.fake.slash(*ANN, "start", {"game": "board", "more": "bots=1"})
    await h.fake.wait_for("POST", r"^/channels/\d+/messages$", is_lobby)
    chat = next(iter(h.manager.sessions))
    thread = chat.thread_id
    await h.fake.slash(*ANN, "go", channel=thread, thread_parent=CHANNEL_ID)
    await h.fake.until(lambda: h.manager.sessions[chat].engine is not None)
    session = h.manager.sessions[chat]

    async def anns_turn() -> None:
        for _ in range(60):  # the computer thinks on the clock
            if session.state.turn_seats() or session.phase.value != "running":
                return
            await h.advance(1.0)
            await h.settle()

    turns = 0
    for _ in range(3):
        await anns_turn()
        await h.drain()
        if session.phase.value != "running":
            break
        if turns == 0:  # My rack answers privately (ephemeral), whatever the direct-message setting
            mid = next(
                m
                for m, p in h.fake.messages.items()
                if p["channel_id"] == thread and views.HAND in _buttons(p)
            )
            iid = await h.fake.press(*ANN, views.HAND, mid, channel=thread, thread_parent=CHANNEL_ID)
            [rack] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
            assert rack.ephemeral and "rack" in rack.text.lower()
        await h.fake.say(*ANN, "pass", channel=thread)
        await h.fake.until(lambda: not session.state.turn_seats() or session.phase.value != "running")
        turns += 1
        await h.drain()
    assert turns >= 2

    refused = [r for r in h.fake.requests if r.status == 403]
    assert len(refused) == 1, "one refusal is remembered: no direct message is tried again"
    assert h.bot.outbox.stats.privates_unreachable >= 2
    posts = [
        r for r in h.fake.of("POST", rf"^/channels/{thread}/messages$") if r.status == 200 and not r.duplicate
    ]
    pointers = [r for r in posts if "can't send you direct messages" in r.text]
    assert len(pointers) == 1 and f"<@{ANN[0]}>" in pointers[0].text
    assert views.HAND in _buttons(pointers[0])
    later_turns = [r for r in posts[posts.index(pointers[0]) :] if "your turn" in r.text]
    assert later_turns and all(views.HAND in _buttons(r) for r in later_turns)
    assert all("My rack" in r.text for r in later_turns)
    shown = [
        r.text.lower() for r in h.fake.requests if r.status == 200 and not r.path.startswith("/applications")
    ]
    assert not [t for t in shown if "permission" in t], "a closed DM is never blamed on permissions"


async def test_other_players_still_get_direct_messages(h: Harness) -> None:
    h.fake.dms_closed.add(ANN[0])
    await h.fake.slash(*ANN, "start", {"game": "board"})
    await h.fake.wait_for("POST", r"^/channels/\d+/messages$", is_lobby)
    chat = next(iter(h.manager.sessions))
    await h.fake.slash(*BOB, "join", channel=chat.thread_id, thread_parent=CHANNEL_ID)
    await h.fake.until(lambda: len(h.manager.sessions[chat].players) == 2)
    await h.fake.slash(*ANN, "go", channel=chat.thread_id, thread_parent=CHANNEL_ID)
    await h.fake.until(lambda: BOB[0] in h.fake.dm_channels)
    bob_dm = h.fake.dm_channels[BOB[0]]
    await h.fake.wait_for("POST", rf"^/channels/{bob_dm}/messages$", lambda r: r.status == 200)
    await h.drain()
    assert h.bot.outbox.unreachable.closed(f"discord:{ANN[0]}")
    assert not h.bot.outbox.unreachable.closed(f"discord:{BOB[0]}")
