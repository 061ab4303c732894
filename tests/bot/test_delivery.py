"""The delivery layer on a fake clock: pacing, one live table, latest state wins, marks policy."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

import pytest

from bot.core import views
from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Edit, Mark, MessageRef, Post, Private, React
from bot.delivery.delivery import Delivery
from bot.delivery.marks import MARK_MAX_AGE
from bot.delivery.pacing import RECOVER_MIN_SECONDS, Pacer, PlatformLimits, Rate, RateLimited
from bot.delivery.tables import HOLD_GRACE, MISS_QUIET
from bot.delivery.transport import EditResult
from games.common.protocol import CardFace

CHAT = ChatKey("test", "w1", "c1")
OTHER = ChatKey("test", "w1", "c2")
LIMITS = PlatformLimits(
    "test",
    buckets={
        "create": Rate(5, 5.0, "channel"),
        "edit": Rate(5, 5.0, "channel"),
        "react": Rate(1, 0.25, "channel"),
        "global": Rate(50, 1.0, "token"),
    },
    calls={"post": ("create", "global"), "edit": ("edit", "global"), "react": ("react", "global")},
)


@dataclass
class Recorder:
    """A transport that records each call with the clock's time."""

    clock: FakeClock
    limits: PlatformLimits = LIMITS
    calls: list[tuple[float, str, object]] = field(default_factory=list)
    ids: int = 0
    edit_result: EditResult = EditResult.OK
    limited_once: bool = False

    async def post(self, chat: ChatKey, view: views.View, *, picture: bool) -> MessageRef | None:
        self.ids += 1
        self.calls.append((self.clock.now(), "post", (view, picture)))
        return MessageRef(chat, f"m{self.ids}")

    async def edit(self, ref: MessageRef, view: views.View, *, picture: bool) -> EditResult:
        self.calls.append((self.clock.now(), "edit", (ref.message_id, view, picture)))
        return self.edit_result

    async def react(self, ref: MessageRef, mark: Mark) -> None:
        if self.limited_once:
            self.limited_once = False
            raise RateLimited(0.5)
        self.calls.append((self.clock.now(), "react", (ref.message_id, mark)))

    async def private(self, message: Private) -> None:
        self.calls.append((self.clock.now(), "private", message))

    def forget(self, chat: ChatKey) -> None:
        self.calls.append((self.clock.now(), "forget", chat))

    def of(self, kind: str) -> list[tuple[float, str, object]]:
        return [c for c in self.calls if c[1] == kind]


def table(letter: str, *, settles_at: float | None = None, score: int = 0) -> views.View:
    card = CardFace(letter, "red", 1)
    return views.View(
        kind="table",
        title="race",
        cards=(card,),
        lines=(f"score {score}",),
        settles_at=settles_at,
    )


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1000.0)


@pytest.fixture
async def setup(clock: FakeClock) -> tuple[Delivery, Recorder]:
    transport = Recorder(clock)
    return Delivery(transport, clock), transport


async def run(clock: FakeClock, seconds: float, step: float = 0.05) -> None:
    end = clock.now() + seconds
    while clock.now() < end:
        await clock.advance(step)


async def test_pacer_keeps_a_sliding_window_and_serves_first_come_first_served(clock: FakeClock) -> None:
    pacer = Pacer(LIMITS, clock)
    sent: list[tuple[str, float]] = []

    async def call(name: str) -> None:
        ticket = await pacer.acquire("post", CHAT)
        sent.append((name, clock.now()))
        pacer.release(ticket)

    tasks = [asyncio.ensure_future(call(f"c{i}")) for i in range(12)]
    await run(clock, 12.0)
    await asyncio.gather(*tasks)
    assert [name for name, _ in sent] == [f"c{i}" for i in range(12)]
    times = [at for _, at in sent]
    for i in range(len(times) - 5):
        assert times[i + 5] - times[i] >= 5.0, "never 6 calls within 5 s"
    assert pacer.wait_time("post", OTHER) == 0.0, "another channel has its own bucket"


async def test_pacer_learns_from_the_platform(clock: FakeClock) -> None:
    pacer = Pacer(LIMITS, clock)
    # another process already spent 4 of the 5 calls; the platform says so in its headers
    pacer.observe("post", CHAT, limit=5, remaining=1, reset_after=3.0, scope="channel")
    ticket = await pacer.acquire("post", CHAT)
    pacer.release(ticket)
    assert pacer.wait_time("post", CHAT) == pytest.approx(3.0)
    pacer.penalize("react", CHAT, 2.0, "channel")
    assert pacer.wait_time("react", CHAT) == pytest.approx(2.0)
    pacer.observe("edit", CHAT, limit=2, remaining=2, reset_after=5.0, scope="channel")
    assert pacer.limit_of("edit", CHAT)["channel"] == 2


async def test_a_call_in_flight_holds_its_slot_until_its_answer_comes_back(clock: FakeClock) -> None:
    pacer = Pacer(LIMITS, clock)
    tickets = [await pacer.acquire("post", CHAT) for _ in range(5)]
    # a window later the five are still in flight (their pictures are still being drawn, say):
    # the platform may yet see all five in one of its windows, so a sixth must wait
    await run(clock, 6.0)
    assert pacer.wait_time("post", CHAT) > 0.0
    went: list[float] = []

    async def sixth() -> None:
        pacer.release(await pacer.acquire("post", CHAT))
        went.append(clock.now())

    task = asyncio.ensure_future(sixth())
    await run(clock, 6.0)
    assert not went
    for ticket in tickets:
        pacer.release(ticket)
    answered = clock.now()
    await run(clock, 12.0)
    await task
    assert went and went[0] >= answered + 5.0, "a window after the five answers came back"


async def test_a_burst_of_429s_lowers_a_limit_once_and_it_climbs_back(clock: FakeClock) -> None:
    pacer = Pacer(LIMITS, clock)
    for _ in range(40):  # forty calls in flight meet the same global block
        pacer.penalize("post", CHAT, 0.5, "token")
    assert pacer.limit_of("post", CHAT)["token"] == 49
    assert pacer.wait_time("post", CHAT) == pytest.approx(0.5)
    await clock.advance(1.0)
    pacer.penalize("edit", CHAT, 0.5, "token")  # a new block: one more step down
    assert pacer.limit_of("post", CHAT)["token"] == 48
    assert pacer.limit_of("post", CHAT)["channel"] == 5, "a global block leaves the channel's bucket"
    await clock.advance(RECOVER_MIN_SECONDS)
    assert pacer.wait_time("post", CHAT) == 0.0
    assert pacer.limit_of("post", CHAT)["token"] == 49
    await clock.advance(RECOVER_MIN_SECONDS)
    pacer.wait_time("post", CHAT)
    await clock.advance(RECOVER_MIN_SECONDS)
    pacer.wait_time("post", CHAT)
    assert pacer.limit_of("post", CHAT)["token"] == 50, "back to the declared limit, not beyond"


async def test_one_live_table_edited_in_place_with_the_outcome_in_it(
    setup: tuple[Delivery, Recorder], clock: FakeClock
) -> None:
    delivery, transport = setup
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 0.1)
    await delivery.send(Post(CHAT, views.message("Ann takes A with APE.")))
    await delivery.send(Post(CHAT, table("B")))
    await run(clock, 0.1)
    [(_, _, (first, picture))] = transport.of("post")
    assert picture and first.cards[0].letter == "A"
    [(_, _, (mid, view, picture))] = transport.of("edit")
    assert mid == "m1" and picture, "new cards: a new picture"
    assert view.lines[0] == "Ann takes A with APE." and view.cards[0].letter == "B"
    # a status-only change keeps the picture; the outcome stays on the table until the next one
    await delivery.send(Post(CHAT, table("B", score=3)))
    await run(clock, 0.1)
    _, _, (_, view, picture) = transport.of("edit")[-1]
    assert not picture and view.lines[:2] == ("Ann takes A with APE.", "score 3")


@dataclass
class Drawer(Recorder):
    """A transport that draws pictures ahead, slowly (a busy process), before its slot is taken."""

    async def draw(self, chat: ChatKey, view: views.View) -> None:
        self.calls.append((self.clock.now(), "draw", view.cards[0].letter))
        await self.clock.sleep_until(self.clock.now() + 2.0)


async def test_pictures_are_drawn_before_the_call_takes_its_slot(clock: FakeClock) -> None:
    transport = Drawer(clock)
    delivery = Delivery(transport, clock)
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 0.5)
    # while the picture is drawn, the call holds no slot yet
    assert [c[1] for c in transport.calls] == ["draw"]
    assert delivery.pacer.wait_time("post", CHAT) == 0.0
    await run(clock, 2.0)
    assert [c[1] for c in transport.calls] == ["draw", "post"]
    await delivery.send(Post(CHAT, table("A", score=3)))  # status only: the picture is kept
    await run(clock, 0.5)
    await delivery.send(Post(CHAT, table("B")))  # new cards: drawn again, then edited in
    await run(clock, 3.0)
    assert [(c[1], c[2] if c[1] == "draw" else None) for c in transport.calls] == [
        ("draw", "A"),
        ("post", None),
        ("edit", None),
        ("draw", "B"),
        ("edit", None),
    ]


async def test_latest_state_wins_and_a_passing_state_waits_for_its_successor(
    setup: tuple[Delivery, Recorder], clock: FakeClock
) -> None:
    delivery, transport = setup
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 0.1)
    flip = clock.now() + 1.5
    await delivery.send(Post(CHAT, table("-", settles_at=flip)))  # waiting for the next flip
    await run(clock, 1.0)
    assert not transport.of("edit"), "the passing state is not sent on its own"
    await delivery.send(Post(CHAT, table("C")))
    await delivery.send(Post(CHAT, table("D")))  # superseded before it could be sent
    await run(clock, 1.0)
    edits = transport.of("edit")
    assert [e[2][1].cards[0].letter for e in edits] == ["D"]  # type: ignore[index]
    assert edits[0][0] <= flip + HOLD_GRACE
    assert delivery.stats.superseded_tables >= 1


async def test_a_passing_state_shows_when_nothing_replaces_it(
    setup: tuple[Delivery, Recorder], clock: FakeClock
) -> None:
    delivery, transport = setup
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 0.1)
    await delivery.send(Post(CHAT, table("-", settles_at=clock.now() + 1.0)))
    await run(clock, 1.5)
    assert [e[2][1].cards[0].letter for e in transport.of("edit")] == ["-"]  # type: ignore[index]


async def test_a_scrolled_away_or_deleted_table_is_posted_anew(
    setup: tuple[Delivery, Recorder], clock: FakeClock
) -> None:
    delivery, transport = setup
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 0.1)
    for _ in range(6):
        delivery.saw_message(CHAT)
    await delivery.send(Post(CHAT, table("A", score=1)))  # same cards: an edit is enough
    await run(clock, 0.1)
    await delivery.send(Post(CHAT, table("B")))  # new cards, far below: a new message
    await run(clock, 0.1)
    assert [kind for _, kind, _ in transport.calls] == ["post", "edit", "post"]
    transport.edit_result = EditResult.GONE
    await delivery.send(Post(CHAT, table("B", score=2)))
    await run(clock, 0.1)
    assert [kind for _, kind, _ in transport.calls][-2:] == ["edit", "post"]


async def test_edits_are_paced_and_coalesced(setup: tuple[Delivery, Recorder], clock: FakeClock) -> None:
    delivery, transport = setup
    await delivery.send(Post(CHAT, table("A")))
    for i in range(40):
        await delivery.send(Post(CHAT, table("A", score=i)))
        await run(clock, 0.1)
    await run(clock, 6.0)
    stamps = [at for at, kind, _ in transport.calls if kind in ("edit", "post")]
    assert len(stamps) < 40, "states superseded while the budget was spent are never sent"
    for kind in ("edit", "post"):  # an edit budget spent: a fresh post beats waiting for it
        times = [at for at, done, _ in transport.calls if done == kind]
        assert all(times[i + 5] - times[i] >= 5.0 for i in range(len(times) - 5))
    last = transport.calls[-1][2]
    assert "score 39" in last[-2].lines  # type: ignore[index]


async def test_marks_policy(clock: FakeClock) -> None:
    transport = Recorder(clock)
    marks = {"on": False}

    async def refusal_marks(chat: ChatKey) -> bool:
        return marks["on"]

    delivery = Delivery(transport, clock, refusal_marks=refusal_marks)
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 0.1)
    ok = MessageRef(CHAT, "u1")
    await delivery.send(React(ok, "accepted", seat="s1"))
    await delivery.send(
        React(MessageRef(CHAT, "u2"), "rejected", "not a word", seat="s2", who="Bob", word="xq")
    )
    await delivery.send(React(MessageRef(CHAT, "u3"), "late", "too late", seat="s3", who="Cat", word="ape"))
    await run(clock, 0.5)
    assert [c[2] for c in transport.of("react")] == [("u1", "accepted")], "refusals: no reaction by default"
    await run(clock, MISS_QUIET)
    _, _, (_, view, _) = transport.of("edit")[-1]
    assert "Not taken: ✗ Bob: XQ · ⏱ Cat: APE — too late" in view.plain()  # type: ignore[attr-defined]
    # with the workspace's `reasons` setting: one reaction per player and table
    marks["on"] = True
    for i in range(3):
        await delivery.send(
            React(MessageRef(CHAT, f"b{i}"), "rejected", "nope", seat="s2", who="Bob", word="zz")
        )
    await run(clock, 1.0)
    assert [c[2] for c in transport.of("react")][1:] == [("b0", "rejected")]


async def test_a_rate_limited_mark_is_tried_again_never_dropped(clock: FakeClock) -> None:
    transport = Recorder(clock, limited_once=True)
    delivery = Delivery(transport, clock)
    await delivery.send(React(MessageRef(CHAT, "u1"), "accepted"))
    await run(clock, 1.0)
    assert [c[2] for c in transport.of("react")] == [("u1", "accepted")]
    assert delivery.stats.rate_limited == 1


async def test_lobby_posts_return_their_reference_and_edits_coalesce(
    setup: tuple[Delivery, Recorder], clock: FakeClock
) -> None:
    delivery, transport = setup
    ref = await delivery.send(Post(CHAT, views.View(kind="lobby", title="lobby")))
    assert ref == MessageRef(CHAT, "m1")
    for name in ("Ann", "Ann, Bob", "Ann, Bob, Cat"):
        await delivery.send(Edit(ref, views.View(kind="lobby", title=name)))
    await run(clock, 0.1)
    assert [c[2][1].title for c in transport.of("edit")] == ["Ann, Bob, Cat"]  # type: ignore[index]
    delivery.closed(CHAT)
    await run(clock, 0.1)
    assert transport.calls[-1][1] == "forget"


async def test_an_accepted_mark_that_cannot_go_out_is_shown_on_the_table(
    setup: tuple[Delivery, Recorder], clock: FakeClock
) -> None:
    delivery, transport = setup
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 0.1)
    delivery.pacer.penalize("react", CHAT, 60.0, "channel")  # reactions are held for a minute
    await delivery.send(React(MessageRef(CHAT, "u1"), "accepted", seat="s1", who="Ann", word="ape"))
    await delivery.send(Post(CHAT, table("B")))
    await run(clock, MARK_MAX_AGE + 1.0, step=0.5)
    await delivery.send(Post(CHAT, table("C")))
    await run(clock, 0.5)
    assert not transport.of("react"), "the reaction never went out…"
    _, _, (_, view, _) = transport.of("edit")[-1]
    assert "✅ Ann: APE" in view.plain(), "…so the table shows the ✅"  # type: ignore[attr-defined]
    assert delivery.stats.accepted_left_to_table == 1


async def test_a_game_taken_over_elsewhere_gets_no_more_calls_from_here(
    setup: tuple[Delivery, Recorder], clock: FakeClock
) -> None:
    delivery, transport = setup
    ours = True

    async def gate(chat: ChatKey) -> bool:
        return ours

    delivery.gate = gate
    await delivery.send(Post(CHAT, table("A")))
    await run(clock, 0.1)
    assert len(transport.of("post")) == 1
    ours = False  # another process adopted the game: its table must not be overwritten from here
    await delivery.send(Post(CHAT, table("B")))
    await delivery.send(Post(CHAT, views.message("a notice")))
    await delivery.send(React(MessageRef(CHAT, "u1"), "accepted"))
    await run(clock, 1.0)
    assert len(transport.of("post")) == 1 and transport.of("edit") == [] and transport.of("react") == []
    # …and the new owner's table is edited in place by it: resume_table then an edit, no post
    other = Delivery(Recorder(clock), clock)
    other.resume_table(MessageRef(CHAT, "m1"))
    await other.send(Post(CHAT, table("C")))
    await run(clock, 0.1)
    assert isinstance(other.transport, Recorder)
    assert [c[1] for c in other.transport.calls] == ["edit"] and other.transport.of("edit")[0][2][0] == "m1"
