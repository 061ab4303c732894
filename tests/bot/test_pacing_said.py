"""A limit the platform says in a header holds for the platform's window, then the declared one is back."""

from __future__ import annotations

from bot.core.clock import FakeClock
from bot.core.events import ChatKey
from bot.delivery.pacing import Pacer, PlatformLimits, Rate

CHAT = ChatKey("test", "w1", "c1")
LIMITS = PlatformLimits("test", {"edits": Rate(5, 5.0, "channel")}, {"edit": ("edits",)})


async def test_a_lower_limit_said_in_a_header_is_restored_when_its_window_passes() -> None:
    clock = FakeClock()
    pacer = Pacer(LIMITS, clock)
    pacer.observe("edit", CHAT, limit=2, remaining=2, reset_after=5.0, scope="channel")
    assert pacer.limit_of("edit", CHAT) == {"channel": 2}
    await clock.advance(4.9)
    pacer.wait_time("edit", CHAT)
    assert pacer.limit_of("edit", CHAT) == {"channel": 2}
    await clock.advance(0.1)
    pacer.wait_time("edit", CHAT)  # (looking again prunes)
    assert pacer.limit_of("edit", CHAT) == {"channel": 5}, "not cut for the process's life"
    # said again in the next window: adopted again, for that window
    pacer.observe("edit", CHAT, limit=3, remaining=3, reset_after=5.0, scope="channel")
    assert pacer.limit_of("edit", CHAT) == {"channel": 3}


async def test_a_limit_a_429_lowered_still_climbs_back_on_its_own_terms() -> None:
    clock = FakeClock()
    pacer = Pacer(LIMITS, clock)
    pacer.penalize("edit", CHAT, 1.0, "channel")
    pacer.observe("edit", CHAT, limit=4, remaining=0, reset_after=1.0, scope="channel")
    await clock.advance(2.0)
    pacer.wait_time("edit", CHAT)
    assert pacer.limit_of("edit", CHAT) == {"channel": 4}
