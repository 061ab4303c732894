"""Gateway resumes and invalid sessions, through discord.py.

When the connection drops, Discord keeps the session's events and replays them after a RESUME
(docs/topics/Gateway.md: "the Gateway will send the missed events in order, finishing with a
Resumed event"); after an INVALID_SESSION nothing is replayed. moji keeps the settle windows of
the shard's races open meanwhile, judges a replayed answer by its snowflake time, and after an
invalid session reads the races' channels back (message history) for the answers it missed.
"""

from __future__ import annotations

from typing import Any

from bot.sessions.settle import HOLD_MOST
from tests.adapters.discord.conftest import ANN, BOB, CHAT, Harness, mark_of
from tests.adapters.discord.fakediscord import CHANNEL_ID
from tests.adapters.discord.test_resilience import start_game


async def race_to_one_card(h: Harness) -> tuple[Any, str, float]:
    await start_game(h)
    await h.drain()
    session = h.manager.sessions[CHAT]
    return session, str(session.engine.letter), h.clock.now()


async def judged(h: Harness, session: Any, *mids: str) -> None:
    await h.fake.until(lambda: not session.settle.holds)
    await h.advance(0.2)  # the settle window closes
    await h.fake.until(lambda: not any(session.announcer.awaits_mark(m) for m in mids))
    await h.drain()


async def test_an_answer_replayed_after_a_resume_is_judged_by_when_it_was_typed(h: Harness) -> None:
    session, letter, t0 = await race_to_one_card(h)
    bob = await h.fake.say(*BOB, letter + "bb", at=t0)  # typed second, but it arrives first
    await h.fake.until(lambda: any(c.ref == bob for c in session.settle.pending))
    await h.fake.drop_connection(hold=True)
    await h.fake.until(lambda: session.settle.holds > 0)  # moji saw the connection drop
    ann = await h.fake.say(*ANN, letter + "aa", at=t0 - 0.02)  # typed first: kept for the replay
    await h.advance(1.0)  # far past the 150 ms settle window
    await h.settle()
    assert [c.ref for c in session.settle.pending] == [bob], "Bob's answer waits for what was missed"
    h.fake.let_in()
    await h.fake.connected(within=60)
    assert h.fake.resumes and len(h.fake.identifies) == 1
    await judged(h, session, ann, bob)
    assert mark_of(h, ann) == ["✅"], "typed first, replayed later: it wins"
    assert mark_of(h, bob) == []
    assert not h.manager.errors


async def test_after_an_invalid_session_the_race_channel_is_read_back(h: Harness) -> None:
    session, letter, t0 = await race_to_one_card(h)
    bob = await h.fake.say(*BOB, letter + "bb", at=t0)
    await h.fake.until(lambda: any(c.ref == bob for c in session.settle.pending))
    await h.fake.invalidate_session(hold=True)
    await h.fake.until(lambda: session.settle.holds > 0 and 0 not in h.fake.sockets)
    ann = await h.fake.say(*ANN, letter + "aa", at=t0 - 0.02)  # lost with the session
    await h.advance(1.0)
    await h.settle()
    h.fake.let_in()
    await h.fake.connected(within=60)
    assert len(h.fake.identifies) == 2, "a new session: nothing replayed"
    await judged(h, session, ann, bob)
    [read] = h.fake.of("GET", rf"^/channels/{CHANNEL_ID}/messages$")
    assert int(read.query["after"]) < int(ann)
    assert mark_of(h, ann) == ["✅"], "found in the channel's history, judged by when it was typed"
    assert mark_of(h, bob) == []
    assert not h.manager.errors


async def test_a_connection_that_stays_down_holds_the_race_for_ten_seconds_at_most(h: Harness) -> None:
    session, letter, t0 = await race_to_one_card(h)
    bob = await h.fake.say(*BOB, letter + "bb", at=t0)
    await h.fake.until(lambda: any(c.ref == bob for c in session.settle.pending))
    await h.fake.drop_connection(hold=True)
    await h.fake.until(lambda: session.settle.holds > 0)
    await h.advance(HOLD_MOST - 0.5)
    await h.settle()
    assert [c.ref for c in session.settle.pending] == [bob]
    await h.advance(0.5)
    await h.fake.until(lambda: not session.announcer.awaits_mark(bob))  # judged without waiting any longer
    h.fake.let_in()
    await h.fake.connected(within=60)
    await h.fake.until(lambda: not session.settle.holds)
    await h.drain()
    assert mark_of(h, bob) == ["✅"]
