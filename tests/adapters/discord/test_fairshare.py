"""Fair share through the real discord.py client (issue 29, item 8): one person's flood of slash
commands; everyone else is still answered, the flooder once told, nothing refused executed, and
no refused command is left "thinking…".

The fake clock stands still throughout, so the allowances never refill: the counts are exact.
"""

from __future__ import annotations

import asyncio

from bot.fairshare import COMMANDS, NOTICES
from tests.adapters.discord.conftest import ANN, BOB, CHAT, Harness

FOLLOW_UP = r"^/webhooks/\d+/token-\d+$"


def answer_of(h: Harness, interaction: str) -> str | None:
    """The text of the private answer to an interaction; "" when its 'thinking…' was removed
    without one; None while it has neither."""
    for request in h.fake.replies_to(interaction):
        if request.method == "POST" and request.path.endswith(f"token-{interaction}"):
            assert request.ephemeral
            return request.text
        if request.method == "DELETE" and request.path.endswith("@original"):
            return ""
    return None


async def test_a_flood_of_slash_commands_leaves_everyone_else_answered(h: Harness) -> None:
    flood = 60
    sent = [await h.fake.slash(*ANN, "vote", {"choice": "yes"}) for _ in range(flood)]
    bob = await h.fake.slash(*BOB, "help")
    await h.fake.until(lambda: all(answer_of(h, i) is not None for i in [*sent, bob]), within=60)
    await h.settle()
    answers = [answer_of(h, i) for i in sent]
    assert all(answers[: COMMANDS.burst]) and all("no game" in str(a) for a in answers[: COMMANDS.burst])
    assert NOTICES["commands"].format(wait="1 s") in str(answers[COMMANDS.burst])
    assert answers[COMMANDS.burst + 1 :] == [""] * (flood - COMMANDS.burst - 1)  # refused quietly
    assert "moji commands" in str(answer_of(h, bob))
    fair = h.manager.fair
    assert fair is not None and fair.refused["commands"] == flood - COMMANDS.burst


async def test_a_refused_command_is_not_executed(h: Harness) -> None:
    for _ in range(COMMANDS.burst):
        await h.fake.slash(*ANN, "rules")
    start = await h.fake.slash(*ANN, "start", {"game": "toy"})
    await h.fake.until(lambda: answer_of(h, start) is not None, within=60)
    await asyncio.sleep(0)
    await h.settle()
    assert CHAT not in h.manager.sessions
    assert not h.fake.channel_posts()  # no lobby
    assert "faster than moji" in str(answer_of(h, start))
