"""Tables never lag behind an answer: the delivery layer in a lively race, on a fake clock.

Every accepted answer's outcome reaches a table, however the game's next states crowd in after
it; a full budget never holds the table back longer than the platform's rules make it; a table
the platform refuses for its picture goes out without it at once. (The whole process against the
rate-limited fakes: bench/bench_lively_race.py, docs/PERFORMANCE.md "A lively race".)
"""

from __future__ import annotations

import asyncio
import random

from bot.core import views
from bot.core.clock import FakeClock
from bot.core.events import MessageRef, Post, React
from bot.core.registry import Registry
from bot.delivery.delivery import Delivery
from bot.delivery.pacing import PlatformLimits, Rate
from bot.delivery.tables import SCROLLED_AWAY
from bot.delivery.transport import EditResult
from bot.hosting.manager import GameManager
from tests.bot.conftest import ANN, BOB
from tests.bot.test_delivery import CHAT, Recorder, run, table
from tests.bot.test_manager import letter, start_two, text
from tests.bot.toygame import TOY
from tests.doubles import MemoryLog


def shown(view: object) -> str:
    assert isinstance(view, views.View)
    return view.plain()


async def test_an_outcome_no_table_showed_survives_the_next_announcement(clock: FakeClock) -> None:
    transport = Recorder(clock)
    delivery = Delivery(transport, clock)
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 0.1)
    # Ann's answer is accepted: its outcome, then the table waiting for her next card to flip
    # (held: the flip replaces it within the pause)…
    await delivery.send(Post(CHAT, views.message("Ann takes A with APE.")))
    await delivery.send(Post(CHAT, table("-", settles_at=clock.now() + 1.5)))
    await run(clock, 0.5)
    # …and before the flip, Bob votes to skip: an announcement of its own, and a table again
    await delivery.send(Post(CHAT, views.message("Bob votes to skip (1/4).")))
    await delivery.send(Post(CHAT, table("-", settles_at=clock.now() + 1.0, score=1)))
    await run(clock, 0.5)
    await delivery.send(Post(CHAT, table("B")))  # the flip
    await run(clock, 0.5)
    [(_, _, (_, view, _))] = transport.of("edit")
    assert "Ann takes A with APE." in shown(view), "Ann's outcome is not lost under Bob's vote"
    assert "Bob votes to skip (1/4)." in shown(view)
    # once shown, an outcome gives way to the next one as before
    await delivery.send(Post(CHAT, views.message("Cat takes B with BEE.")))
    await delivery.send(Post(CHAT, table("C")))
    await run(clock, 0.5)
    _, _, (_, view, _) = transport.of("edit")[-1]
    assert "Cat takes B with BEE." in shown(view) and "Ann takes" not in shown(view)


class Slow(Recorder):
    """A transport whose edits take a second to come back."""

    async def edit(self, ref: MessageRef, view: views.View, *, picture: bool) -> EditResult:
        result = await super().edit(ref, view, picture=picture)
        await self.clock.sleep_until(self.clock.now() + 1.0)
        return result


async def test_a_line_added_while_a_table_is_on_its_way_goes_in_the_next(clock: FakeClock) -> None:
    transport = Slow(clock)
    delivery = Delivery(transport, clock)
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 0.1)
    await delivery.send(Post(CHAT, views.message("Ann takes A with APE.")))
    await delivery.send(Post(CHAT, table("B")))
    await run(clock, 0.2)
    assert len(transport.of("edit")) == 1, "Ann's table is on its way"
    # meanwhile Bob's ✅ cannot go out as a reaction: the table is to show it
    delivery.pacer.penalize("react", CHAT, 60.0, "channel")
    await delivery.send(React(MessageRef(CHAT, "u2"), "accepted", seat="s2", who="Bob", word="bob"))
    await run(clock, 1.0)
    [(_, _, (_, first, _))] = transport.of("edit")
    assert "✅ Bob: BOB" not in shown(first)
    # the game moves on (Cat votes to skip) before another table went out
    await delivery.send(Post(CHAT, views.message("Cat votes to skip (1/4).")))
    await delivery.send(Post(CHAT, table("B", score=1)))
    await run(clock, 2.0)
    _, _, (_, view, _) = transport.of("edit")[-1]
    assert "Cat votes to skip (1/4)." in shown(view)
    assert "✅ Bob: BOB" in shown(view), "the ✅ no table showed is not lost"


async def test_an_answers_outcome_never_goes_out_with_the_cards_it_took(clock: FakeClock) -> None:
    # The game announces an accepted answer, then marks the answers that lost to it, then sends
    # its new table. Marking a refusal reads the workspace's setting (a database read: the
    # session yields there), and the table's lane may run meanwhile: it must not show the
    # outcome on the old table (a wrong table, and a call of the chat's budget spent on it).
    transport = Recorder(clock)

    async def reasons(chat: object) -> bool:
        await asyncio.sleep(0)  # (the setting is read from the database)
        return False

    delivery = Delivery(transport, clock, refusal_marks=reasons)
    manager = GameManager(
        Registry([TOY]), delivery, MemoryLog(), clock, settle=0.15, lobby_timeout=60, rng=random.Random(7)
    )
    try:
        await start_two(manager, "target=9")
        await run(clock, 0.5)
        for _ in range(5):
            old, mark = letter(manager), len(transport.calls)
            now = clock.now()
            await manager.handle(text(f"{old}ab", now, ANN))
            await manager.handle(text(f"{old}ba", now + 0.02, BOB))  # too late: refused
            await run(clock, 1.0)
            score = manager.sessions[CHAT].engine.scores[ANN.seat_id]
            for _, kind, call in transport.calls[mark:]:
                view = call[0] if kind == "post" else call[1] if kind == "edit" else None  # type: ignore[index]
                if isinstance(view, views.View) and f"takes {old.upper()} with" in view.plain():
                    [ann] = [seat for seat in view.seats if seat.seat == ANN.seat_id]
                    assert ann.score == score, f"the outcome went out on the old table: {view.plain()}"
    finally:
        await manager.shutdown()


#: The longest a table may keep a change of the game back (the budget: tables within 2.5 s).
BUDGET = 2.5
#: Slack's limits as moji paces them: one post a second per channel, 10 edits in 13.3 s for the
#: whole workspace (adapters/slack/limits.py).
SLACKISH = PlatformLimits(
    "test",
    buckets={"post": Rate(1, 1.0, "channel"), "update": Rate(10, 13.333, "workspace")},
    calls={"post": ("post",), "edit": ("update",)},
)


async def test_a_status_change_never_waits_a_whole_window_of_the_edit_budget(clock: FakeClock) -> None:
    # A lively race has spent the workspace's edits (votes, refusals listed, new cards): when
    # Cat then votes to skip, the table shows it within the budget, as a fresh post if the edit
    # budget would keep it back longer — the race never stands still for want of edits.
    transport = Recorder(clock, limits=SLACKISH)
    delivery = Delivery(transport, clock)
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 1.0)
    for n in range(10):  # ten status changes: the edit budget of the window is spent
        await delivery.send(Post(CHAT, views.message(f"someone votes to skip ({n})")))
        await delivery.send(Post(CHAT, table("A", score=n)))
        await run(clock, 0.05)
    assert len(transport.of("edit")) == 10 and delivery.pacer.wait_time("edit", CHAT) > 10.0
    voted = clock.now()
    await delivery.send(Post(CHAT, views.message("Cat votes to skip (3/4).")))
    await delivery.send(Post(CHAT, table("A", score=99)))
    await run(clock, BUDGET + 0.5)
    shown = [
        at
        for at, kind, call in transport.calls
        if kind in ("post", "edit") and "Cat votes to skip (3/4)." in shown_text(kind, call)
    ]
    assert shown and shown[0] - voted <= BUDGET, "the vote shows within the budget"
    # …and once the budget is back, status changes are edits again, in the new table
    await run(clock, 15.0)
    await delivery.send(Post(CHAT, views.message("Dan votes to skip (4/4).")))
    await delivery.send(Post(CHAT, table("A", score=100)))
    await run(clock, 0.5)
    assert transport.calls[-1][1] == "edit" and "Dan votes" in shown_text("edit", transport.calls[-1][2])
    assert delivery.stats.rate_limited == 0


def view_of(kind: str, call: object) -> views.View:
    """The view a recorded post or edit showed."""
    view = call[0] if kind == "post" else call[1]  # type: ignore[index]
    assert isinstance(view, views.View)
    return view


def shown_text(kind: str, call: object) -> str:
    return view_of(kind, call).plain()


async def test_new_cards_far_below_never_wait_for_the_post_budget_when_an_edit_is_free(
    clock: FakeClock,
) -> None:
    # The chat is lively: every few seconds the table has scrolled away and new cards come as a
    # fresh post — until the channel's post budget is spent. The next new cards then go out at
    # once as an edit of the live table, not a whole post window later.
    transport = Recorder(clock)  # 5 posts and 5 edits per 5 s in a channel
    delivery = Delivery(transport, clock)
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 0.1)
    for letter_ in "BCDE":
        for _ in range(SCROLLED_AWAY):
            delivery.saw_message(CHAT)
        await delivery.send(Post(CHAT, table(letter_)))
        await run(clock, 0.1)
    assert [kind for _, kind, _ in transport.calls] == ["post"] * 5
    assert delivery.pacer.wait_time("post", CHAT) > 4.0 and delivery.pacer.wait_time("edit", CHAT) == 0.0
    for _ in range(SCROLLED_AWAY):
        delivery.saw_message(CHAT)
    made = clock.now()
    await delivery.send(Post(CHAT, table("F")))
    await run(clock, 6.0)
    [at] = [
        at
        for at, kind, call in transport.calls
        if kind in ("post", "edit") and view_of(kind, call).cards[0].letter == "F"
    ]
    assert at - made <= 0.5, f"the new cards went out {at - made:.1f} s after they came"
