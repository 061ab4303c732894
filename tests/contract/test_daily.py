"""The daily on every front door: dealt in the player's own chat with moji (Discord
and Slack direct messages, the terminal itself), played by typing words there, once a day; its
cards and words never appear in the channel, until ``daily share`` posts the numbers."""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.registry import Registry, load_default
from games.common.text import plain
from storage.daily import is_daily_game
from tests.contract.harness import PlatformHarness


@pytest.fixture
def registry() -> Registry:
    return load_default()


def daily_session(p: PlatformHarness) -> Any:
    """The running daily (or None)."""
    return next((s for s in p.manager.sessions.values() if is_daily_game(s.game_id)), None)


def _told(p: PlatformHarness, who: str) -> str:
    """What ``who`` alone sees: their private answers and their own chat with moji (the terminal
    is all theirs)."""
    seen = p.told(who) + (p.channel() if p.name == "terminal" else [])
    return plain("\n".join(seen))


def _channel(p: PlatformHarness) -> str:
    return plain("\n".join(p.channel()))


async def test_a_daily_is_played_privately_once_and_shared_without_a_word(p: PlatformHarness) -> None:
    await p.command("ann", "daily")
    await p.until(
        lambda: (
            daily_session(p) is not None
            and daily_session(p).engine is not None
            and bool(daily_session(p).engine.grid)
        )  # (dealt)
    )
    session = daily_session(p)
    engine = session.engine
    cards = [c.letter for c in engine.grid if c is not None]
    assert len(cards) == 25
    if p.name != "terminal":
        assert session.chat != p.chat, "the daily runs in the player's direct messages"
        await p.until(lambda: "Your daily is in our direct messages" in _told(p, "ann"))

    # a word that takes cards, typed where the daily is played
    plan = engine.planner.plan("hard", engine.groups(), engine.used, p.clock.now())
    assert plan is not None
    word = plan[1]
    await p.say_direct("ann", word)
    try:
        await p.until(lambda: sum(len(v) for v in engine.won.values()) >= 2)
    except AssertionError:
        print(word, p.everything())
        raise
    # then the hourglass runs out: a turn without a word ends the daily
    await p.until(lambda: daily_session(p) is None, most=120)
    await p.until(lambda: "Your words (only you see them)" in _told(p, "ann"))
    told = _told(p, "ann")
    assert word.upper() in told and "streak 1" in told

    platform, user = p.seat("ann").split(":", 1)
    row = await p.store.daily.daily_play(platform, user, _day(p))
    assert row is not None and row.finished and row.cards is not None and row.cards >= 2

    # nothing of the daily in the channel: no word, no card row
    if p.name != "terminal":
        shown = _channel(p)
        assert word.upper() not in shown.upper()
        assert "".join(cards) not in shown
        assert not [t for t in p.channel() if word.upper() in plain(t).upper()]

    # a second attempt the same day is refused, with the result and the wait
    if p.name == "terminal":
        await p.say("ann", "")  # (Enter: the terminal deals again, and is refused)
    else:
        await p.command("ann", "daily")
    await p.until(lambda: "You've played today's daily — the next one in" in _told(p, "ann"))
    assert daily_session(p) is None

    if p.name == "terminal":
        return  # (the terminal's daily ends its session: one a day, so the terminal stops)
    # shared in the channel: the numbers, no word
    await p.command("ann", "daily share")
    await p.until(lambda: "moji daily" in _channel(p))
    line = next(t for t in p.channel() if "moji daily" in t)
    assert word.upper() not in plain(line).upper() and "cards" in line

    await p.command("ann", "leaderboard daily")
    await p.until(lambda: "the daily" in _told(p, "ann") and "Longest current streaks" in _told(p, "ann"))


def _day(p: PlatformHarness) -> str:
    from datetime import UTC, datetime

    return datetime.fromtimestamp(p.clock.now(), UTC).date().isoformat()
