"""A whole game through the real Bolt app: /moji start … /moji leaderboard."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest

pytest.importorskip("slack_bolt")

from bot.delivery.tables import MISS_DELAY, MISS_QUIET
from tests.adapters.slack.conftest import CHANNEL, CHAT, Harness, tick_until, until
from tests.adapters.slack.fakeslack import Call


def is_table(call: Call) -> bool:
    return any(b.get("type") == "context" and "Letters:" in str(b) for b in call.args.get("blocks") or [])


def letters(call: Call) -> list[str]:
    match = re.search(r"Cards: ([A-Z_ ]+)", str(call.args.get("text")))
    assert match, call.args.get("text")
    return match.group(1).split()


def latest_table(h: Harness) -> Call:
    """The table as the channel shows it now (posted, or edited since)."""
    calls = [c for c in h.slack.calls if c.method in ("chat.postMessage", "chat.update") and c.ok]
    return [c for c in calls if is_table(c)][-1]


def on(ts: str) -> Callable[[Call], bool]:
    """Matches calls about the message ``ts``."""
    return lambda call: call.args.get("timestamp") == ts


def wrong_word(table: Call) -> str:
    """A word without the table's letter."""
    letter = letters(table)[0].lower()
    return next(w for w in ("quiz", "xyz", "jug", "kiwi") if letter not in w)


def lists(who: str, word: str) -> Callable[[Call], bool]:
    """Matches a table that lists ``who``'s refused ``word`` ("Not taken: ✗ Ann: QUIZ")."""
    return lambda call: is_table(call) and f"✗ {who}: {word.upper()}" in call.text()


async def run_until(h: Harness, method: str, where: Callable[[Call], bool], within: float = 10.0) -> Call:
    """Let the clock run in small steps (everything due being sent after each) until a call
    of ``method`` matching ``where`` went out; returns the first. Fails after ``within`` s."""

    def found() -> list[Call]:
        return [c for c in h.slack.of(method) if c.ok and where(c)]

    await tick_until(h.clock, lambda: bool(found()), busy=lambda: h.slack.inflight > 0, within=within)
    return found()[0]


async def claim(h: Harness, user: str, word: str) -> str:
    """``user`` types ``word``; the settle window closes; returns the message ts."""
    session = h.adapter.runtime.manager.sessions[CHAT]
    before = len(session.settle.pending)
    ts = await h.say(user, word)
    await until(lambda: len(session.settle.pending) > before)
    await h.clock.advance(0.2)
    return ts


async def test_whole_game_from_start_to_leaderboard(h: Harness) -> None:
    assert await h.command("UANN", "start toy target=2") == 200
    [lobby] = await h.slack.wait_for("chat.postMessage", lambda c: "lobby" in str(c.args.get("text")))
    buttons = next(b for b in lobby.args["blocks"] if b["type"] == "actions")["elements"]
    assert [b["action_id"] for b in buttons] == ["moji:join", "moji:leave", "moji:go"]
    assert lobby.args["channel"] == CHANNEL and not lobby.args.get("thread_ts")

    assert await h.button("UBOB", "moji:join") == 200
    await h.slack.wait_for("chat.update", lambda c: "Bob" in str(c.args.get("text")))
    [joined] = await h.slack.wait_for("chat.postEphemeral", lambda c: "joined" in str(c.args.get("text")))
    assert joined.args["user"] == "UBOB"

    assert await h.command("UANN", "go") == 200
    await h.drain()  # one chat.postMessage per second per channel: the table waits its turn
    [table] = await h.slack.wait_for("chat.postMessage", is_table)
    assert table.args["text"].startswith("toy")
    assert any("🟥" in str(b) for b in table.args["blocks"])

    for round_ in range(2):
        letter = letters(latest_table(h))[0]
        word = letter.lower() + "zzz"
        ts = await claim(h, "UBOB", word)
        await h.drain()
        [mark] = await h.slack.wait_for("reactions.add", on(ts))
        assert mark.args["name"] == "white_check_mark"
        if round_ == 0:  # the same table message, edited: the outcome is part of it
            [edited] = await h.slack.wait_for("chat.update", is_table)
            assert "takes" in edited.text(), "the outcome is part of the table"
            assert len([c for c in h.slack.of("chat.postMessage") if is_table(c)]) == 1

    await h.drain()
    [over] = await h.slack.wait_for("chat.postMessage", lambda c: "game over" in str(c.args.get("text")))
    assert "Bob — 2 pts 👑" in over.args["text"]
    await until(lambda: CHAT not in h.adapter.runtime.manager.sessions)

    assert await h.command("UANN", "leaderboard") == 200
    [board] = await h.slack.wait_for("chat.postEphemeral", lambda c: "Leaderboard" in str(c.args.get("text")))
    assert "1. Bob — 2 pts" in board.args["text"] and board.args["user"] == "UANN"


async def test_wrong_answer_is_listed_in_the_table_and_why_is_private(h: Harness) -> None:
    await h.command("UANN", "start toy target=2")
    await h.command("UANN", "go")
    await h.drain()
    [table] = await h.slack.wait_for("chat.postMessage", is_table)
    wrong = wrong_word(table)
    await claim(h, "UANN", wrong)
    # Nothing else happens: the table lists the refusal on its own, in place, within seconds.
    listed = await run_until(h, "chat.update", lists("Ann", wrong), within=MISS_DELAY + MISS_QUIET)
    assert table.answer is not None and listed.args["ts"] == table.answer["ts"]
    assert letters(listed) == letters(table) and "has no" not in listed.text()  # no reason: not asked for
    assert [c for c in h.slack.of("chat.postMessage") if is_table(c)] == [table]
    assert h.slack.of("reactions.add") == [], "refusals are not marked by default (the budget is for ✅)"
    await h.command("UANN", "why")
    [why] = await h.slack.wait_for("chat.postEphemeral", lambda c: "has no" in str(c.args.get("text")))
    assert why.args["user"] == "UANN"
    assert not [c for c in h.slack.of("chat.postMessage") if "has no" in c.text()]


async def test_edits_bot_messages_and_strangers_never_count(h: Harness) -> None:
    await h.command("UANN", "start toy target=2")
    await h.command("UANN", "go")
    await h.drain()
    [table] = await h.slack.wait_for("chat.postMessage", is_table)
    word = letters(table)[0].lower() + "zz"
    session = h.adapter.runtime.manager.sessions[CHAT]
    await h.say("UANN", word, subtype="message_changed")
    await h.say("UANN", word, bot_id="B9")
    await h.say("UBOB", word)  # Bob never joined
    await h.command("UANN", "help")  # a later request, handled after the three above
    await h.slack.wait_for("chat.postEphemeral", lambda c: "moji commands" in str(c.args.get("text")))
    await h.clock.advance(0.2)
    assert not session.settle.pending and h.slack.of("reactions.add") == []


async def test_command_errors_and_help_are_ephemeral(h: Harness) -> None:
    assert await h.command("UANN", "frobnicate") == 200
    [err] = await h.slack.wait_for("chat.postEphemeral")
    assert "don't know the command" in err.args["text"] and err.args["user"] == "UANN"
    await h.command("UANN", "")
    [helped] = await h.slack.wait_for(
        "chat.postEphemeral", lambda c: "moji commands" in str(c.args.get("text"))
    )
    assert "/moji schedule" in helped.args["text"]
    assert h.slack.of("chat.postMessage") == []


async def test_health_endpoint(h: Harness) -> None:
    async with h.http.get(h.url + "/health") as resp:
        assert resp.status == 200
        assert (await resp.json())["status"] == "ok"


async def test_reasons_setting_marks_and_explains_in_the_game_thread(h: Harness) -> None:
    h.svc.store.settings[("slack", "T1")] = {"reasons": "on", "quiet": "on"}
    await h.command("UANN", "start toy target=2")
    await h.command("UANN", "go")
    await h.drain()
    [table] = await h.slack.wait_for("chat.postMessage", is_table)
    assert table.args["thread_ts"] == h.adapter.transport.threads[CHAT]
    wrong = wrong_word(table)
    ts = await claim(h, "UANN", wrong)
    await h.drain()
    [mark] = await h.slack.wait_for("reactions.add", on(ts))
    assert mark.args["name"] == "x"
    # The reason shows in the table itself (edited in its thread), not in a message of its own.
    why = await run_until(h, "chat.update", lists("Ann", wrong), within=MISS_DELAY + MISS_QUIET)
    assert f"has no {letters(table)[0]}" in why.text()
    assert table.answer is not None and why.args["ts"] == table.answer["ts"]
    assert [c for c in h.slack.of("chat.postMessage") if is_table(c)] == [table]
    assert not [c for c in h.slack.of("chat.postMessage") if "has no" in c.text()]
    # A second refused word of the same player, same table: listed, but only one ❌ per table.
    second = next(
        w for w in ("quiz", "xyz", "jug", "kiwi") if w != wrong and letters(table)[0].lower() not in w
    )
    ts2 = await claim(h, "UANN", second)
    await run_until(h, "chat.update", lists("Ann", second), within=MISS_DELAY + MISS_QUIET)
    assert [c for c in h.slack.of("reactions.add") if c.args.get("timestamp") == ts2] == []
    assert len(h.slack.of("reactions.add")) == 1
