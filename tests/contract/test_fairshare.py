"""Fair share: one person's flood of commands or words; everyone else is still
answered, the flooder told once, nothing refused is executed or recorded, and what is answered
keeps its order.

The fake clock stands still while a flood arrives (waits here do not move it), so the allowances
never refill meanwhile: the counts are exact.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from bot.core.fairshare import COMMANDS, MESSAGES, NOTICES
from tests.contract.harness import PEOPLE_CAP, PlatformHarness, game_session
from tests.storage.scan import every_row
from tests.waiting import eventually


def is_notice(text: str) -> bool:
    """A fair-share notice (for commands: "…faster than moji can answer"; for words: "…can read")."""
    return "faster than moji can" in text


async def meanwhile(p: PlatformHarness, predicate: Callable[[], object], what: str) -> None:
    """Wait for ``predicate()`` in real time, the fake clock standing still (no allowance refills)."""
    await eventually(predicate, what)
    await p.settle()


@pytest.mark.needs(PEOPLE_CAP)
async def test_a_flood_of_commands_leaves_everyone_else_answered(p: PlatformHarness) -> None:
    flood = 60
    for _ in range(flood):
        await p.command("ann", "vote yes")
    await p.command("bob", "help")
    fair = p.runtime.fair
    assert fair is not None
    await meanwhile(p, lambda: fair.refused["commands"] == flood - COMMANDS.burst, "the flood refused")
    await meanwhile(p, lambda: any("moji commands" in t for t in p.told("bob")), "Bob answered")
    await meanwhile(p, lambda: any(is_notice(t) for t in p.told("ann")), "Ann told")
    await p.drain()
    ann = p.told("ann")
    # the allowance's answers and one notice; the notice is refused on arrival, outside the
    # chat's line, so on a busy machine it may overtake answers still being sent
    assert len(ann) == COMMANDS.burst + 1, ann
    [notice] = [t for t in ann if is_notice(t)]
    assert NOTICES["commands"].format(wait="1 s") in notice
    assert all("no game" in t for t in ann if t != notice)
    assert fair.refused["commands"] == flood - COMMANDS.burst
    # refused before anything was recorded: only the handled commands have a once-only record
    # (Ann's within her allowance, and Bob's help, admitted like any other)
    assert len((await every_row(p.store))["deliveries"]) == COMMANDS.burst + 1
    assert p.rate_limited() == []
    assert not p.manager.errors


@pytest.mark.needs(PEOPLE_CAP)
async def test_answers_keep_their_order_and_refused_commands_do_nothing(p: PlatformHarness) -> None:
    for i in range(COMMANDS.burst):  # one at a time: the platform's order is their order
        await p.command("ann", "rules toy" if i % 2 else "help")
    await p.command("ann", "start toy")  # over the allowance: refused, not executed
    await p.command("ann", p.malformed)  # nor are malformed ones answered
    await p.command("bob", "help")
    await p.command("bob", "rules toy")
    fair = p.runtime.fair
    await meanwhile(p, lambda: fair.refused["commands"] == 2, "Ann's last two refused")
    await meanwhile(p, lambda: len(p.told("bob")) == 2, "Bob answered")
    await p.drain()
    told = p.told("ann")
    # The notice is refused on arrival, outside the chat's line (a flood must cost little), so
    # on a busy machine it may overtake the answer to her last admitted command: the answers keep
    # their order among themselves, and the notice comes once.
    ann = [text for text in told if not is_notice(text)]
    expected = ["How to play" if i % 2 else "moji commands" for i in range(COMMANDS.burst)]
    assert [want in text for text, want in zip(ann, expected, strict=False)] == [True] * len(expected), told
    assert len(ann) == COMMANDS.burst and len(told) == COMMANDS.burst + 1, told
    assert game_session(p) is None
    assert p.channel() == []  # no lobby
    bob = p.told("bob")
    assert ["moji commands" in bob[0], "How to play Toy" in bob[1]] == [True, True], bob


@pytest.mark.needs(PEOPLE_CAP)
async def test_a_fast_player_s_words_are_all_read_and_a_flood_of_them_is_not(p: PlatformHarness) -> None:
    await p.command("ann", "start toy")
    await p.until(lambda: game_session(p) is not None)
    await p.command("bob", "join")
    await p.until(lambda: len(game_session(p).players) == 2)
    await p.command("ann", "go")
    await p.until(lambda: game_session(p).engine is not None)
    await p.drain()
    fair = p.runtime.fair
    assert fair is not None
    for _ in range(MESSAGES.burst):  # a flurry of (wrong) words at once: every one is read
        await p.say("bob", "zzz")
    await p.settle()
    assert fair.refused["messages"] == 0
    for _ in range(30):
        await p.say("bob", "zzz")
    await meanwhile(p, lambda: fair.refused["messages"] == 30, "the flood of words refused")
    await p.drain()
    assert fair.refused["messages"] == 30
    notices = [t for t in p.told("bob") if is_notice(t)]
    assert len(notices) == 1 and NOTICES["messages"].format(wait="1 s") in notices[0], notices
