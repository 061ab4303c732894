"""Fair share on Discord's wire: what a refused slash command looks like.

(That a flood leaves everyone else answered, the flooder told once and nothing refused executed,
on every platform, is the contract suite's: tests/contract/test_fairshare.py.)

The fake clock stands still throughout, so the allowances never refill: the counts are exact.
"""

from __future__ import annotations

from bot.core.fairshare import COMMANDS
from tests.adapters.discord.conftest import ANN, Harness


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


async def test_refused_slash_commands_are_not_answered_and_the_notice_is_ephemeral(h: Harness) -> None:
    flood = COMMANDS.burst + 10
    sent = [await h.fake.slash(*ANN, "vote", {"choice": "yes"}) for _ in range(flood)]
    fair = h.bot.runtime.fair
    assert fair is not None
    told = sent[: COMMANDS.burst + 1]  # the allowance's answers, then the notice
    await h.fake.until(lambda: all(answer_of(h, i) is not None for i in told), within=60)
    await h.fake.until(lambda: fair.refused["commands"] == flood - COMMANDS.burst, within=60)
    await h.settle()
    assert "faster than moji" in str(answer_of(h, sent[COMMANDS.burst]))  # (answer_of: ephemeral)
    # the rest were refused quietly: on arrival, not even deferred (Discord says the app did not
    # respond), or, those that arrived before the allowance was seen to be spent, after their
    # "thinking…", which is then removed
    for iid in sent[COMMANDS.burst + 1 :]:
        calls = [(r.method, r.path.rsplit("/", 1)[-1]) for r in h.fake.replies_to(iid)]
        assert calls in ([], [("POST", "callback"), ("DELETE", "@original")])
