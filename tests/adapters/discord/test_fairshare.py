"""Fair share through the real discord.py client (issue 29, item 8): one person's flood of slash
commands; everyone else is still answered, the flooder once told, nothing refused executed.

The fake clock stands still throughout, so the allowances never refill: the counts are exact.
"""

from __future__ import annotations

import asyncio

from bot.fairshare import COMMANDS, NOTICES
from tests.adapters.discord.conftest import ANN, BOB, CHAT, Harness

FOLLOW_UP = r"^/webhooks/\d+/token-\d+$"


def answer_of(h: Harness, interaction: str) -> str | None:
    """The text of the private answer to an interaction (a follow-up after "thinking…", or the
    interaction's first response); None while it has none."""
    for request in h.fake.replies_to(interaction):
        if request.method != "POST":
            continue
        body = request.json if isinstance(request.json, dict) else {}
        if request.path.endswith(f"token-{interaction}") or body.get("type") == 4:
            assert request.ephemeral
            return request.text
    return None


async def test_a_flood_of_slash_commands_leaves_everyone_else_answered(h: Harness) -> None:
    flood = 60
    sent = [await h.fake.slash(*ANN, "vote", {"choice": "yes"}) for _ in range(flood)]
    bob = await h.fake.slash(*BOB, "help")
    told = sent[: COMMANDS.burst + 1]  # the allowance's answers, then the notice
    await h.fake.until(lambda: all(answer_of(h, i) is not None for i in [*told, bob]), within=60)
    await h.settle()
    answers = [answer_of(h, i) for i in sent]
    assert all("no game" in str(a) for a in answers[: COMMANDS.burst])
    assert NOTICES["commands"].format(wait="1 s") in str(answers[COMMANDS.burst])
    # the rest were refused quietly: on arrival, not even deferred (Discord says the app did not
    # respond), or, those that arrived before the allowance was seen to be spent, after their
    # "thinking…", which is then removed
    for iid in sent[COMMANDS.burst + 1 :]:
        calls = [(r.method, r.path.rsplit("/", 1)[-1]) for r in h.fake.replies_to(iid)]
        assert calls in ([], [("POST", "callback"), ("DELETE", "@original")])
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
