"""Slack's message ``ts`` read exactly: the tie window and "won by N ms" through the real Bolt app.

``float("1795445940.010018") - float("1795445940.000018")`` is 10.0002 ms: read as floats, two
answers exactly 10 ms apart would miss the 10 ms tie window. moji reads a ``ts`` as two integers
(:class:`adapters.slack.stamps.SlackTs`) and the race compares whole microseconds.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters.slack.stamps import SlackTs
from bot.core.registry import Registry
from games.race.base import gap_ms, micros
from tests.adapters.slack.conftest import CHAT, Harness
from tests.adapters.slack.test_game import is_table

race = pytest.importorskip("games.race")
pytest.importorskip("games.lexicon")

SECOND = 1795445940


@given(st.integers(0, 10**12 - 1), st.integers(0, 999_999))
def test_a_ts_reads_as_two_integers(seconds: int, us: int) -> None:
    stamp = SlackTs.parse(f"{seconds}.{us:06d}")
    assert stamp == SlackTs(seconds, us) and str(stamp) == f"{seconds}.{us:06d}"
    assert stamp.total_micros() == seconds * 1_000_000 + us


@given(st.integers(1_600_000_000, 2_100_000_000), st.integers(0, 999_999), st.integers(0, 10**8))
def test_differences_of_parsed_ts_are_exact_in_whole_microseconds(seconds: int, us: int, gap: int) -> None:
    a = SlackTs(seconds, us)
    b_total = a.total_micros() + gap
    b = SlackTs(b_total // 1_000_000, b_total % 1_000_000)
    assert micros(b.seconds_float() - a.seconds_float()) == gap
    assert gap_ms(b.seconds_float() - a.seconds_float()) == (gap + 500) // 1000


@pytest.mark.parametrize("ts", ["", "1700000000", "1700000000.12345", "1e9.000001", "-1.000001", "x.000001"])
def test_a_malformed_ts_is_refused(ts: str) -> None:
    assert SlackTs.parse(ts) is None


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME])


async def two_players_racing(h: Harness) -> str:
    """Ann and Bob in a race without computer players; returns a word that fits the table."""
    await h.command("UANN", "start race cards=5 min=4")
    await h.slack.wait_for("chat.postMessage", lambda c: "lobby" in str(c.args.get("text")))
    await h.button("UBOB", "moji:join")
    await h.slack.wait_for("chat.update", lambda c: "Bob" in str(c.args.get("text")))
    await h.command("UANN", "go")
    await h.drain()
    await h.slack.wait_for("chat.postMessage", is_table)
    for _ in range(200):
        example = h.adapter.runtime.manager.sessions[CHAT].engine._example()  # type: ignore[union-attr]
        if example:
            return str(example)
        await h.clock.advance(0.5)
        await h.drain()
    raise AssertionError("no word fits the table")


async def said(h: Harness, phrase: str) -> bool:
    await h.drain()
    return any(phrase in c.text() for c in h.slack.calls if c.method.startswith("chat."))


@pytest.mark.parametrize(
    ("bob_us", "outcome"),
    [(10_000, "Tie! Ann and Bob answered within 10 ms"), (10_001, "won by 10 ms over Bob")],
)
async def test_answers_exactly_10_ms_apart_tie(h: Harness, bob_us: int, outcome: str) -> None:
    word = await two_players_racing(h)
    second = int(h.clock.now())
    await h.say("UANN", word, ts=f"{second}.000018")
    await h.say("UBOB", word, ts=str(SlackTs(second, 18 + bob_us)))
    await h.clock.advance(0.5)
    assert await said(h, outcome)


async def test_won_by_rounds_half_a_millisecond_up(h: Harness) -> None:
    word = await two_players_racing(h)
    second = int(h.clock.now())
    await h.say("UANN", word, ts=f"{second}.000000")
    await h.say("UBOB", word, ts=f"{second}.011500")  # float() reads 11.4999 ms: "won by 11 ms"
    await h.clock.advance(0.5)
    assert await said(h, "won by 12 ms over Bob")
