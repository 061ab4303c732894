"""Shared-scope 429s and limits read in headers.

Discord answers 429 with ``X-RateLimit-Scope: shared`` when a *resource* is limited for
everyone; those are "not counted against you" (docs/topics/Rate_Limits.md) and say nothing about
moji's own pace. A limit read in a ``X-RateLimit-Limit`` header holds for Discord's window.
"""

from __future__ import annotations

import pytest

from tests.adapters.discord.conftest import ANN, CHAT, Harness, answer, is_lobby, is_table, mark_of
from tests.adapters.discord.fakediscord import DiscordLimits, Fault, RouteLimit
from tests.adapters.discord.test_fake_limits import serve

MESSAGES = r"^/channels/\d+/messages$"
EDITS = r"^/channels/\d+/messages/\d+$"


async def test_the_fake_limits_a_busy_message_as_a_shared_resource() -> None:
    async with serve() as c:
        mid = (await c.post()).body["id"]
        # ten members react to one message within a second (no bot connected to tell)
        c.fake._reactions.setdefault(mid, []).extend([c.clock.now()] * 10)
        refused = await c.react(mid)
        assert refused.status == 429
        assert refused.body == {
            "message": "The resource is being rate limited.",
            "retry_after": 1.0,
            "global": False,
        }
        assert refused.headers["X-RateLimit-Scope"] == "shared"
        assert refused.headers["X-RateLimit-Remaining"] != "0" and refused.headers["Via"] == "1.1 google"
        assert c.fake.invalid_requests == 0, "shared 429s are not counted against the bot"
        assert c.fake.rate_limited() == [], "nor are they the bot's own limit"
        await c.clock.advance(1.0)
        assert (await c.react(mid)).status == 204


async def started(h: Harness) -> str:
    await h.fake.slash(*ANN, "start", {"game": "toy"})
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    await h.fake.slash(*ANN, "go")
    await h.fake.wait_for("POST", MESSAGES, is_table)
    return str(h.manager.sessions[CHAT].engine.letter)


@pytest.mark.parametrize("times", [1, 5])
async def test_a_shared_429_lowers_none_of_mojis_limits(h: Harness, times: int) -> None:
    letter = await started(h)
    before = h.bot.outbox.pacer.limit_of("react", CHAT)
    # times=1: discord.py waits Retry-After and the ✅ goes through; times=5: discord.py gives up
    h.fake.faults.append(Fault("PUT", r"/reactions/", "shared", times=times, retry_after=0.01))
    mid = await answer(h, ANN, letter + "ab")
    await h.drain()
    assert mark_of(h, mid) == (["✅"] if times == 1 else [])
    assert [r.shared for r in h.fake.requests if r.status == 429] == [True] * times
    assert h.bot.outbox.pacer.limit_of("react", CHAT) == before
    assert h.bot.outbox.stats.rate_limited == 0
    assert h.fake.invalid_requests == 0


async def test_a_lower_limit_in_discords_headers_holds_for_discords_window_only(h: Harness) -> None:
    letter = await started(h)
    before = h.bot.outbox.pacer.limit_of("edit", CHAT)
    assert before["channel"] > 2
    # Discord says this channel's edits are 2 per 5 s for now (a busy token, another process)
    h.fake.limits = DiscordLimits(message_edit=RouteLimit(2, 5.0))
    edits = len(h.fake.of("PATCH", EDITS))
    await answer(h, ANN, letter + "ab")  # the table is edited with the answer's outcome
    await h.fake.until(lambda: len(h.fake.of("PATCH", EDITS)) > edits)
    await h.settle()
    assert h.bot.outbox.pacer.limit_of("edit", CHAT)["channel"] == 2, "the lower limit is adopted"
    # …and it no longer holds once Discord's window has passed
    h.fake.limits = DiscordLimits()
    await h.advance(5.5)
    await h.settle()
    h.bot.outbox.pacer.wait_time("edit", CHAT)  # (a look prunes the passed window)
    assert h.bot.outbox.pacer.limit_of("edit", CHAT) == before, "not cut for the process's life"
    assert h.bot.outbox.stats.rate_limited == 0 and not h.fake.rate_limited()
