"""Lost channels: deleted, archived, or moji removed mid-game. The game ends at once — voided,
recorded as such — and nothing more is sent there; Slack's events and its refusals both count."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

pytest.importorskip("slack_bolt")

from tests.adapters.slack.conftest import CHANNEL, CHAT, Harness, until
from tests.adapters.slack.fakeslack import Call
from tests.adapters.slack.test_game import is_table, latest_table, wrong_word


async def running_game(h: Harness) -> str:
    """A toy game running in C1; returns its id."""
    await h.command("UANN", "start toy")
    await h.slack.wait_for("chat.postMessage")
    await h.clock.advance(1.0)
    await h.command("UANN", "go")
    await h.drain()
    await h.slack.wait_for("chat.postMessage", is_table)
    return h.adapter.runtime.manager.sessions[CHAT].game_id


def in_channel(h: Harness, since: int) -> list[Call]:
    """Calls naming C1 made after the first ``since`` calls."""
    return [c for c in h.slack.calls[since:] if CHANNEL in (c.args.get("channel"), c.args.get("channel_id"))]


async def play_on(h: Harness) -> None:
    """What would make moji talk in the channel if the game still ran: an answer, time passing."""
    await h.say("UANN", wrong_word(latest_table(h)))
    for _ in range(40):
        await h.clock.advance(0.5)
        await h.drain()


Lose = Callable[[Harness], Awaitable[int]]


@pytest.mark.parametrize(
    ("lose", "why"),
    [
        (lambda h: h.channel_deleted(), "channel_deleted"),
        (lambda h: h.channel_archived(), "channel_archive"),
        (lambda h: h.bot_removed(), "member_left_channel"),
    ],
    ids=["deleted", "archived", "bot removed"],
)
async def test_a_lost_channel_ends_its_game_voided_and_silent(h: Harness, lose: Lose, why: str) -> None:
    game = await running_game(h)
    mark = len(h.slack.calls)
    assert await lose(h) == 200
    await until(lambda: CHAT not in h.adapter.runtime.manager.sessions)
    assert h.svc.game_log.voided[game] == f"chat gone: {why}"
    await play_on(h)
    assert in_channel(h, mark) == [], "nothing more is sent to a lost channel"
    assert h.adapter.runtime.manager.errors == []


async def test_someone_else_leaving_changes_nothing(h: Harness) -> None:
    await running_game(h)
    event = {
        "type": "member_left_channel",
        "user": "UBOB",
        "channel": CHANNEL,
        "channel_type": "C",
        "team": "T1",
    }
    assert await h.event(event) == 200
    await h.drain()
    assert CHAT in h.adapter.runtime.manager.sessions


@pytest.mark.parametrize("how", ["deleted", "archived", "removed"])
async def test_a_refusal_mid_game_ends_it_without_the_event(h: Harness, how: str) -> None:
    # Slack's events are not guaranteed: the first call Slack refuses for the channel is enough.
    game = await running_game(h)
    h.slack.lose_channel(CHANNEL, how)
    mark = len(h.slack.calls)
    await play_on(h)
    await until(lambda: CHAT not in h.adapter.runtime.manager.sessions)
    assert game in h.svc.game_log.voided and h.svc.game_log.voided[game].startswith("chat gone: ")
    refused = in_channel(h, mark)
    assert refused and all(c.answer and not c.answer["ok"] for c in refused)
    first = refused[0].at
    assert all(c.at == first for c in refused), (
        "nothing more after the first refusal (save calls already on their way)"
    )
    assert h.adapter.runtime.manager.errors == []


async def test_a_new_game_after_the_channel_came_back(h: Harness) -> None:
    await running_game(h)
    await h.channel_archived()
    await until(lambda: CHAT not in h.adapter.runtime.manager.sessions)
    h.slack.lost.clear()  # unarchived
    mark = len(h.slack.of("conversations.join"))
    await h.command("UANN", "start toy")
    await h.drain()
    await h.slack.wait_for("chat.postMessage", lambda c: "lobby" in str(c.args.get("text")) and c.ok, count=2)
    assert len(h.slack.of("conversations.join")) == mark + 1  # joined again
