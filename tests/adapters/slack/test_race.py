"""The main end-to-end test: a whole moji flip race on Slack, /moji start to /moji leaderboard.

The real race engine and lexicon behind the real Bolt app; Bob answers with
words the engine itself says fit the table, a computer player races him, and
the hourglass and flips run on the fake clock.
"""

from __future__ import annotations

import pytest

from bot.core.registry import Registry
from bot.delivery.tables import SCROLLED_AWAY
from tests.adapters.slack.conftest import CHANNEL, CHAT, Harness, until
from tests.adapters.slack.test_game import is_table

race = pytest.importorskip("games.race")
pytest.importorskip("games.lexicon")


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME])


async def settle(h: Harness) -> None:
    """Let the session finish talking to Slack before time moves on."""
    await h.clock.settle()
    await until(lambda: h.slack.inflight == 0)
    await h.clock.settle()


async def test_a_whole_race(h: Harness) -> None:
    await h.command("UANN", "start race bots=1 cards=5 min=4")
    await h.slack.wait_for("chat.postMessage", lambda c: "lobby" in str(c.args.get("text")))
    await h.button("UBOB", "moji:join")
    await h.slack.wait_for("chat.update", lambda c: "Bob" in str(c.args.get("text")))
    await h.command("UANN", "go")
    await h.drain()
    [table] = await h.slack.wait_for("chat.postMessage", is_table)
    assert "Letters: " in str(table.args["blocks"]) and "Cards: " in table.args["text"]

    claimed: list[str] = []
    for _ in range(3000):
        session = h.adapter.runtime.manager.sessions.get(CHAT)
        if session is None:
            break
        example = getattr(session.engine, "_example", lambda: None)()
        if example and len(claimed) < 10:
            claimed.append(await h.say("UBOB", example))
        await settle(h)
        await h.clock.advance(0.5)
        await settle(h)
    assert CHAT not in h.adapter.runtime.manager.sessions, "the race never ended"
    await h.drain()  # the result waits for the channel's next chat.postMessage slot
    [over] = await h.slack.wait_for("chat.postMessage", lambda c: "game over" in str(c.args.get("text")))
    assert "pts" in over.args["text"]
    assert claimed, "nobody but the computer ever answered"
    marks = {c.args["timestamp"]: c.args["name"] for c in h.slack.of("reactions.add")}
    assert "white_check_mark" in [marks.get(ts) for ts in claimed]
    assert "Bob" in over.args["text"]

    # One live table, edited in place: outcomes ("Bob takes …") are its lines, not posts; a fresh
    # table only once enough messages scrolled the old one away. Every call fit Slack's limits.
    posts = [c for c in h.slack.of("chat.postMessage") if c.args.get("channel") == CHANNEL]
    tables = [c for c in posts if is_table(c)]
    edits = [c for c in h.slack.of("chat.update") if is_table(c)]
    assert [c for c in posts if not is_table(c)] == [posts[0], over]  # the lobby and the result
    assert len(edits) > len(tables) and len(tables) <= 1 + len(claimed) // SCROLLED_AWAY
    assert any("takes" in c.text() for c in edits)
    assert h.slack.rate_limited() == []

    await h.command("UANN", "leaderboard race")
    [board] = await h.slack.wait_for("chat.postEphemeral", lambda c: "Leaderboard" in str(c.args.get("text")))
    assert "Bob" in board.args["text"] and "Ann" in board.args["text"]
