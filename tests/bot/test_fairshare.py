"""Fair share: per-person inbound allowances and private replies by turns.

Everything on a fake clock: the allowances refill only when a test moves time on.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.core import metrics, views
from bot.core.clock import FakeClock
from bot.core.events import Button, ChatKey, Command, MessageRef, Player, Private, Reaction, Text
from bot.core.fairshare import COMMANDS, MESSAGES, NOTICES, Allowance, FairShare, RoundRobin
from bot.core.registry import Registry
from bot.delivery.delivery import Delivery
from bot.delivery.pacing import PlatformLimits, Rate
from bot.hosting.manager import GameManager
from bot.inbound.runtime import Runtime
from tests.bot.test_runtime import FakePlatform
from tests.bot.toygame import TOY
from tests.doubles import FakeOutbox, MemoryLog

CHAT = ChatKey("test", "w1", "c1")
OTHER_CHAT = ChatKey("test", "w1", "c2")
ANN = Player("test", "u1", "Ann")
BOB = Player("test", "u2", "Bob")
CAT = Player("test", "u3", "Cat")


def cmd(text: str, player: Player = ANN, chat: ChatKey = CHAT) -> Command:
    name, *args = text.split()
    return Command(name, tuple(args), chat, player)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(1000.0)


@pytest.fixture
async def setup(clock: FakeClock) -> tuple[Runtime, FakeOutbox]:
    outbox = FakeOutbox()
    manager = GameManager(
        Registry([TOY]), outbox, MemoryLog(), clock, settle=0.15, lobby_timeout=600, rng=random.Random(3)
    )
    return Runtime(FakePlatform(), manager, fair=FairShare(clock, outbox)), outbox


def answers_to(outbox: FakeOutbox, player: Player) -> list[str]:
    return [p.view.plain() for p in outbox.privates() if p.player == player]


def notices_to(outbox: FakeOutbox, player: Player) -> list[str]:
    return [text for text in answers_to(outbox, player) if "faster than moji" in text]


# ------------------------------------------------------------ inbound allowances


async def test_a_flood_gets_its_burst_answered_and_one_notice(setup: tuple[Runtime, FakeOutbox]) -> None:
    runtime, outbox = setup
    for _ in range(300):
        await runtime.ingest(cmd("help"))
    answers = answers_to(outbox, ANN)
    assert len(answers) == COMMANDS.burst + 1
    assert notices_to(outbox, ANN) == [
        "You're sending commands faster than moji can answer; I'll answer again in 1 s."
    ]
    assert answers[-1] == notices_to(outbox, ANN)[0]  # the notice comes after the burst's answers
    assert runtime.fair is not None
    assert runtime.fair.refused["commands"] == 300 - COMMANDS.burst
    # someone else is answered at once, in the same channel and in another
    await runtime.ingest(cmd("help", BOB))
    await runtime.ingest(cmd("help", CAT, OTHER_CHAT))
    assert len(answers_to(outbox, BOB)) == 1 and "moji commands" in answers_to(outbox, BOB)[0]
    assert len(answers_to(outbox, CAT)) == 1


async def test_a_refused_command_is_not_executed(setup: tuple[Runtime, FakeOutbox], clock: FakeClock) -> None:
    runtime, outbox = setup
    for _ in range(COMMANDS.burst):
        await runtime.ingest(cmd("help"))
    await runtime.ingest(cmd("start toy"))
    assert CHAT not in runtime.manager.sessions
    assert not outbox.posts()  # no lobby
    await clock.advance(1 / COMMANDS.per_second)
    await runtime.ingest(cmd("start toy"))
    assert CHAT in runtime.manager.sessions
    # a button counts as a command: a refused Join leaves the lobby as it was
    for _ in range(COMMANDS.burst):
        await runtime.ingest(Button(CHAT, BOB, views.JOIN))
    await runtime.ingest(Button(CHAT, BOB, views.LEAVE))
    assert runtime.manager.sessions[CHAT].is_player(BOB)


async def test_one_notice_per_episode(setup: tuple[Runtime, FakeOutbox], clock: FakeClock) -> None:
    runtime, outbox = setup
    for _ in range(50):
        await runtime.ingest(cmd("help"))
    assert len(notices_to(outbox, ANN)) == 1
    # a few seconds on, a few are answered again; the flood goes on: no second notice
    await clock.advance(3 / COMMANDS.per_second)
    before = len(answers_to(outbox, ANN))
    for _ in range(50):
        await runtime.ingest(cmd("help"))
    assert len(answers_to(outbox, ANN)) == before + 3
    assert len(notices_to(outbox, ANN)) == 1
    # once the allowance has filled up again (they slowed down), a new flood is told again
    await clock.advance(COMMANDS.burst / COMMANDS.per_second)
    for _ in range(50):
        await runtime.ingest(cmd("help"))
    assert len(notices_to(outbox, ANN)) == 2


async def test_the_notice_says_when_moji_answers_again(clock: FakeClock) -> None:
    outbox = FakeOutbox()
    fair = FairShare(clock, outbox, commands=Allowance(burst=2, per_second=0.25))
    assert [await fair.admit(cmd("help")) for _ in range(4)] == [True, True, False, False]
    await clock.advance(1.0)  # a quarter of a token back: three quarters to go, at 0.25 a second
    assert fair.wait_time(cmd("help")) == pytest.approx(3.0)
    (notice,) = outbox.privates()
    assert notice.view.plain() == NOTICES["commands"].format(wait="4 s")
    assert notice.player == ANN and notice.chat == CHAT
    await clock.advance(3.0)
    assert await fair.admit(cmd("help"))


async def test_people_are_counted_apart_by_workspace(clock: FakeClock) -> None:
    fair = FairShare(clock, FakeOutbox(), commands=Allowance(burst=1, per_second=1.0))
    assert await fair.admit(cmd("help"))
    assert not await fair.admit(cmd("help"))
    assert await fair.admit(cmd("help", BOB))
    assert await fair.admit(cmd("help", chat=ChatKey("test", "w2", "c1")))  # the same id elsewhere
    assert not await fair.admit(cmd("help", chat=OTHER_CHAT))  # the same person, another channel


async def test_a_fast_race_player_is_never_held_back(
    setup: tuple[Runtime, FakeOutbox], clock: FakeClock
) -> None:
    """A flurry of words at new cards, then three words a second for a minute: all read."""
    runtime, _ = setup
    assert runtime.fair is not None
    times = [clock.now() + 0.05 * i for i in range(MESSAGES.burst)]
    times += [times[-1] + 1 + i / 3 for i in range(180)]
    for i, at in enumerate(times):
        await clock.advance_to(at)
        assert await runtime.fair.admit(Text(CHAT, ANN, f"word{i}", at, MessageRef(CHAT, f"m{i}")))
    assert runtime.fair.refused["messages"] == 0


async def test_messages_and_commands_have_their_own_allowances(clock: FakeClock) -> None:
    outbox = FakeOutbox()
    fair = FairShare(clock, outbox)
    for i in range(MESSAGES.burst):
        assert await fair.admit(Text(CHAT, ANN, "hi", clock.now(), MessageRef(CHAT, f"m{i}")))
    ref = MessageRef(CHAT, "m")
    assert not await fair.admit(Reaction(CHAT, ANN, "👍", ref))  # reactions draw from messages
    assert not await fair.admit(Text(CHAT, ANN, "hi", clock.now(), ref))
    assert await fair.admit(cmd("help"))  # commands are still fine
    assert [p.view.plain() for p in outbox.privates()] == [NOTICES["messages"].format(wait="1 s")]


async def test_refusals_are_counted_in_the_metrics(clock: FakeClock, fresh_metrics: metrics.Metrics) -> None:
    fair = FairShare(clock, FakeOutbox(), commands=Allowance(burst=1, per_second=1.0))
    for _ in range(4):
        await fair.admit(cmd("help"))
    value = fresh_metrics.registry.get_sample_value(
        "moji_fair_share_refused_total", {"platform": "test", "kind": "commands"}
    )
    assert value == 3


async def test_routed_events_were_counted_where_they_arrived(setup: tuple[Runtime, FakeOutbox]) -> None:
    runtime, outbox = setup
    for _ in range(COMMANDS.burst + 5):
        await runtime.manager.handle(cmd("help"), routed=True)  # (the pipeline ran where it arrived)
    assert len(answers_to(outbox, ANN)) == COMMANDS.burst + 5


async def test_full_buckets_are_forgotten(clock: FakeClock) -> None:
    fair = FairShare(clock, FakeOutbox())
    for i in range(100):
        await fair.admit(cmd("help", Player("test", f"u{i}", "X")))
    assert len(fair) == 100
    await clock.advance(120.0)
    await fair.admit(cmd("help"))
    assert len(fair) == 1


# ------------------------------------------------------------ private replies by turns


def test_round_robin_takes_one_person_at_a_time() -> None:
    queue: RoundRobin[str, str] = RoundRobin()
    for i in range(5):
        queue.push("ann", f"a{i}")
    queue.push("bob", "b0")
    queue.push("bob", "b1")
    assert queue.pop() == "a0"
    queue.push("cat", "c0")  # a newcomer goes ahead of those served already
    assert [queue.pop() for _ in range(len(queue))] == ["b0", "c0", "a1", "b1", "a2", "a3", "a4"]
    assert not queue
    with pytest.raises(IndexError):
        queue.pop()


@given(st.lists(st.tuples(st.booleans(), st.sampled_from("abcd")), max_size=60))
def test_round_robin_keeps_each_persons_order_and_bounds_the_wait(ops: list[tuple[bool, str]]) -> None:
    """Pushes and pops in any order: each person's items come out in order, none is lost, and a
    person with nothing waiting gets their next item out after at most one item of each other
    person waiting then."""
    queue: RoundRobin[str, tuple[str, int]] = RoundRobin()
    pushed: dict[str, int] = {}
    popped: list[tuple[str, int]] = []
    #: (item, pops so far, others waiting) for each item pushed to an empty queue of its person
    newcomers: list[tuple[tuple[str, int], int, int]] = []
    for push, who in ops:
        if push or not queue:
            item = (who, pushed.get(who, 0))
            if not queue.waiting(who):
                others = sum(1 for other in "abcd" if other != who and queue.waiting(other))
                newcomers.append((item, len(popped), others))
            queue.push(who, item)
            pushed[who] = pushed.get(who, 0) + 1
        else:
            popped.append(queue.pop())
    while queue:
        popped.append(queue.pop())
    for who, count in pushed.items():
        assert [n for w, n in popped if w == who] == list(range(count))
    assert len(popped) == sum(pushed.values())
    for item, before, others in newcomers:
        assert popped.index(item) - before <= others


@dataclass
class SlowPrivates:
    """A transport whose private replies each take the platform's budget (one a second)."""

    clock: FakeClock
    limits: PlatformLimits = field(
        default_factory=lambda: PlatformLimits(
            "test", buckets={"ephemeral": Rate(1, 1.0, "workspace")}, calls={"private": ("ephemeral",)}
        )
    )
    sent: list[tuple[float, Private]] = field(default_factory=list)

    async def post(self, chat: ChatKey, view: views.View, *, picture: bool) -> MessageRef | None:
        return None

    async def edit(self, ref: MessageRef, view: views.View, *, picture: bool) -> object:
        raise NotImplementedError

    async def react(self, ref: MessageRef, mark: object) -> None:
        return None

    async def private(self, message: Private) -> None:
        self.sent.append((self.clock.now(), message))

    def forget(self, chat: ChatKey) -> None:
        return None


async def test_private_replies_are_taken_by_turns(clock: FakeClock) -> None:
    transport = SlowPrivates(clock)
    delivery = Delivery(transport, clock)  # type: ignore[arg-type]
    try:
        for i in range(30):
            await delivery.send(Private(CHAT, ANN, views.message(f"ann {i}")))
        await clock.settle()
        await delivery.send(Private(CHAT, BOB, views.message("bob 0")))
        await delivery.send(Private(CHAT, BOB, views.message("bob 1")))
        while not delivery.idle():
            await clock.advance(0.5)
        texts = [m.view.plain() for _, m in transport.sent]
        assert texts[:5] == ["ann 0", "bob 0", "ann 1", "bob 1", "ann 2"]
        assert [t for t in texts if t.startswith("ann")] == [f"ann {i}" for i in range(30)]
        bob_at = [at for at, m in transport.sent if m.player == BOB]
        assert bob_at[0] - 1000.0 <= 1.0  # one reply ahead of Bob's first: the one being sent
    finally:
        await delivery.close()


async def test_a_flood_on_a_paced_platform_keeps_others_replies_prompt(clock: FakeClock) -> None:
    """The two together: one person floods, the replies go one a second; Bob's help is sent
    within two of them, and Ann's replies keep their order."""
    transport = SlowPrivates(clock)
    delivery = Delivery(transport, clock)  # type: ignore[arg-type]
    manager = GameManager(Registry([TOY]), delivery, MemoryLog(), clock, rng=random.Random(1))
    runtime = Runtime(FakePlatform(), manager, fair=FairShare(clock, delivery))
    try:
        for i in range(300):
            await runtime.ingest(cmd("rules toy" if i % 2 else "help"))
        asked = clock.now()
        await runtime.ingest(cmd("help", BOB))
        while not delivery.idle():
            await clock.advance(0.25)
        await asyncio.sleep(0)
        ann = [m.view.plain() for _, m in transport.sent if m.player == ANN]
        assert len(ann) == COMMANDS.burst + 1
        titles = ["How to play" if i % 2 else "moji commands" for i in range(COMMANDS.burst)]
        assert [a.startswith(t) for a, t in zip(ann, titles, strict=False)] == [True] * COMMANDS.burst
        assert "faster than moji" in ann[-1]
        (bob_at,) = [at for at, m in transport.sent if m.player == BOB]
        assert bob_at - asked <= 2.0
    finally:
        await manager.shutdown()
        await delivery.close()
