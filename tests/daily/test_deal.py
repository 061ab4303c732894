"""The daily's deal: from the date, the language and the deployment secret only."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.common.languages import LANGUAGE_CODES
from games.common.protocol import Action, Seat, Setup
from games.race import create
from games.race.daily import (
    DAILY_CARDS,
    daily_cards,
    daily_day,
    daily_deal,
    daily_options,
    daily_seed,
    until_next,
    wait_text,
)
from games.race.grid import OffTheGrid
from tests.games.race.helpers import ListJudge

days = st.dates(min_value=date(2000, 1, 1), max_value=date(2100, 12, 31))
languages = st.sampled_from(LANGUAGE_CODES)
secrets = st.binary(min_size=1, max_size=64)


@given(secrets, days, languages)
def test_the_deal_is_a_function_of_date_language_and_secret(secret: bytes, day: date, lang: str) -> None:
    # two workspaces (or processes, or a process before and after a restart) compute it alike:
    # nothing else goes in
    first, second = daily_deal(secret, day, lang), daily_deal(bytes(secret), day, lang)
    assert first == second
    assert first.cards() == second.cards()
    assert 0 <= first.seed < 2**63  # a 63-bit seed, like every game's


@given(secrets, days, languages)
def test_another_day_language_or_secret_is_another_deal(secret: bytes, day: date, lang: str) -> None:
    seed = daily_seed(secret, day, lang)
    assert daily_seed(secret, day + timedelta(days=1), lang) != seed
    assert daily_seed(secret + b"x", day, lang) != seed
    other = next(code for code in LANGUAGE_CODES if code != lang)
    assert daily_seed(secret, day, other) != seed


def test_the_seed_is_the_published_hmac() -> None:
    # HMAC-SHA256(secret, "YYYY-MM-DD|code"), first 8 bytes big-endian, >> 1 (docs/DAILY.md)
    import hashlib
    import hmac

    digest = hmac.new(b"s3cret", b"2026-11-27|en", hashlib.sha256).digest()
    assert daily_seed(b"s3cret", date(2026, 11, 27), "en") == int.from_bytes(digest[:8], "big") >> 1
    assert daily_seed(b"s3cret", date(2026, 11, 27), "English") == daily_seed(
        b"s3cret", date(2026, 11, 27), "en"
    )


@given(secrets, days, languages)
def test_the_cards_are_the_grid_the_race_lays(secret: bytes, day: date, lang: str) -> None:
    deal = daily_deal(secret, day, lang)
    engine = create(Setup(deal.options, [Seat("u:ann", "Ann")], deal.seed, judge=ListJudge()))
    assert isinstance(engine, OffTheGrid)
    engine.apply(Action("begin", 0.0))
    assert engine.grid == deal.cards()
    assert len(deal.cards()) == DAILY_CARDS == 25
    assert len({c.id for c in deal.cards()}) == DAILY_CARDS
    assert engine.cfg.turn == 30 and engine.language.code == lang and not engine.cfg.drawn


def test_an_unknown_language_is_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="doesn't play in 'klingon'"):
        daily_options("klingon")


def test_daily_cards_depend_on_the_seed() -> None:
    assert daily_cards(1, "en") != daily_cards(2, "en")


@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2100, 1, 1)))
def test_the_next_daily_is_at_the_next_midnight_utc(now: datetime) -> None:
    wait = until_next(now)
    assert timedelta(0) < wait <= timedelta(days=1)
    assert daily_day(now + wait) == daily_day(now) + timedelta(days=1)


def test_days_turn_at_midnight_utc_whatever_the_zone() -> None:
    east = timezone(timedelta(hours=9))
    assert daily_day(datetime(2026, 11, 28, 8, 0, tzinfo=east)) == date(2026, 11, 27)
    assert until_next(datetime(2026, 11, 27, 18, 48, tzinfo=UTC)) == timedelta(hours=5, minutes=12)


@pytest.mark.parametrize(
    ("wait", "text"),
    [
        (timedelta(hours=5, minutes=12), "5 h 12 min"),
        (timedelta(hours=5, minutes=11, seconds=1), "5 h 12 min"),
        (timedelta(seconds=3), "1 min"),
        (timedelta(hours=2), "2 h"),
        (timedelta(minutes=59), "59 min"),
    ],
)
def test_the_wait_reads_in_hours_and_minutes(wait: timedelta, text: str) -> None:
    assert wait_text(wait) == text


def test_the_secret_is_the_setting_or_derived_from_a_deployment_secret() -> None:
    from bot.process.config import load_config

    set_ = load_config({"DAILY_SECRET": "k3y"}, env_file=None)
    assert set_.daily_secret == b"k3y"
    assert "k3y" not in repr(set_)
    discord = load_config({"DISCORD_TOKEN": "t" * 40}, env_file=None)
    again = load_config({"DISCORD_TOKEN": "t" * 40, "LOG_LEVEL": "DEBUG"}, env_file=None)
    other = load_config({"DISCORD_TOKEN": "u" * 40}, env_file=None)
    # every process of one deployment (the same settings) has the same key; the token itself
    # is never the key
    assert discord.daily_secret == again.daily_secret != other.daily_secret
    assert b"t" * 40 not in discord.daily_secret
    terminal = load_config({}, env_file=None)
    assert terminal.daily_secret and terminal.daily_secret != discord.daily_secret
