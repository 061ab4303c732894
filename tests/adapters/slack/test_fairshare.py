"""Fair share through the real Slack app (issue 29, item 8): signed slash commands from one person
in a flood; everyone else is still answered, the flooder once told, nothing refused executed.

The fake clock stands still throughout, so the allowances never refill: the counts are exact.
"""

from __future__ import annotations

import asyncio

import pytest

pytest.importorskip("slack_bolt")

from bot.fairshare import COMMANDS, MESSAGES, NOTICES
from tests.adapters.slack.conftest import CHAT, Harness, until


def ephemerals(h: Harness, user: str) -> list[str]:
    return [str(c.args.get("text")) for c in h.slack.of("chat.postEphemeral") if c.args.get("user") == user]


def is_notice(text: str) -> bool:
    return "faster than moji can answer" in text


async def test_a_flood_of_signed_commands_leaves_everyone_else_answered(h: Harness) -> None:
    flood = 60
    statuses = await asyncio.gather(*(h.command("UANN", "vote yes") for _ in range(flood)))
    assert set(statuses) == {200}  # each one acknowledged (Slack's 3 s), refused or not
    assert await h.command("UBOB", "help") == 200
    await until(lambda: any("moji commands" in text for text in ephemerals(h, "UBOB")))
    await h.drain()
    ann = ephemerals(h, "UANN")
    assert len(ann) == COMMANDS.burst + 1
    assert [text for text in ann if is_notice(text)] == [NOTICES["commands"].format(wait="1 s")]
    assert all("no game" in text for text in ann if not is_notice(text))
    fair = h.adapter.manager.fair
    assert fair is not None and fair.refused["commands"] == flood - COMMANDS.burst
    # refused before anything was recorded: only the handled commands have a once-only record
    # (Ann's within her allowance, and Bob's help: answered by the adapter, admitted like any other)
    assert len(h.svc.store.deliveries) == COMMANDS.burst + 1
    assert not h.slack.rate_limited()


async def test_answers_keep_their_order_and_refused_commands_do_nothing(h: Harness) -> None:
    for i in range(COMMANDS.burst):  # one at a time: Slack's order is their order
        await h.command("UANN", "rules toy" if i % 2 else "help")
    await h.command("UANN", "start toy")  # over the allowance: refused, not executed
    await h.command("UANN", "nonsense")  # nor are malformed ones answered
    await h.command("UBOB", "help")
    await h.command("UBOB", "rules toy")
    await h.drain()
    ann = ephemerals(h, "UANN")
    expected = ["How to play" if i % 2 else "moji commands" for i in range(COMMANDS.burst)]
    assert [text.startswith(want) for text, want in zip(ann, expected, strict=False)] == [True] * len(
        expected
    )
    assert len(ann) == COMMANDS.burst + 1 and is_notice(ann[-1])
    assert CHAT not in h.adapter.manager.sessions
    assert not h.slack.of("chat.postMessage")  # no lobby
    bob = ephemerals(h, "UBOB")
    assert [text.split("\n")[0][:13] for text in bob] == ["moji commands", "How to play T"]


async def test_a_fast_player_s_words_are_all_read_and_a_flood_of_them_is_not(h: Harness) -> None:
    await h.command("UANN", "start toy")
    await h.slack.wait_for("chat.postMessage", lambda c: "lobby" in str(c.args.get("text")))
    await h.button("UBOB", "moji:join")
    await h.command("UANN", "go")
    await until(lambda: CHAT in h.adapter.manager.sessions and h.adapter.manager.sessions[CHAT].players)
    fair = h.adapter.manager.fair
    assert fair is not None
    for _ in range(MESSAGES.burst):  # a flurry of (wrong) words at once: every one is read
        await h.say("UBOB", "zzz")
    assert fair.refused["messages"] == 0
    for _ in range(30):
        await h.say("UBOB", "zzz")
    await h.drain()
    assert fair.refused["messages"] == 30
    notices = [text for text in ephemerals(h, "UBOB") if "faster than moji" in text]
    assert notices == [NOTICES["messages"].format(wait="1 s")]
