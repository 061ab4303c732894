"""The daily: one deal a day per language, the same for everyone on a deployment.

The day's deal is derived from the date (UTC) and the language only, keyed by a deployment
secret so that nobody can compute tomorrow's cards from the open source:
``seed = HMAC-SHA256(secret, "YYYY-MM-DD|language")`` read as a 63-bit number (like every
game's). The seed is an ordinary race seed: the daily is the race's Off the Grid for one
player (a 5 x 5 grid of the seed's cards, turns of 30 seconds: the rulebook's hourglass), so
a daily is a recorded game like any other and replays from its seed and actions.

Everything here is pure (no clock, storage or asyncio): the caller passes the date and the
secret (``DAILY_SECRET``, docs/DAILY.md says where it comes from and what changing it does).
"""

from __future__ import annotations

import hashlib
import hmac
import random
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from games.common.languages import language as language_named
from games.common.options import OptionValue
from games.common.speech import _, _n, duration
from games.race.cards import Card, shuffled_deck
from games.race.grid import OffTheGrid, grid_side
from games.race.options import RaceConfig

#: The daily's options: Off the Grid alone against the 30-second hourglass, no challenge drawn
#: (a challenge of the round would be drawn from the seed too, but the daily keeps one rule set).
DAILY_VARIATION = "off-the-grid"
#: Seconds per turn: the rulebook's hourglass.
DAILY_TURN = 30
#: Cards on the day's grid (one player: 5 x 5).
DAILY_CARDS = grid_side(1) ** 2


@dataclass(frozen=True, slots=True)
class DailyDeal:
    """The day's deal in one language: its date, seed and the game options that play it."""

    day: date
    language: str
    seed: int

    @property
    def options(self) -> dict[str, OptionValue]:
        """The race options of the daily (with :attr:`seed`, they determine the whole deal)."""
        return daily_options(self.language)

    def cards(self) -> list[Card]:
        """The grid's cards, in the order the game lays them (row by row)."""
        return daily_cards(self.seed, self.language)


def daily_options(language: str) -> dict[str, OptionValue]:
    """The race options of the daily in ``language`` (a code or a name; ValueError otherwise)."""
    code = language_named(language).code
    return {"variation": (DAILY_VARIATION,), "turn": DAILY_TURN, "language": code}


def daily_seed(secret: bytes, day: date, language: str) -> int:
    """The day's seed: HMAC-SHA256 of ``"YYYY-MM-DD|code"`` under ``secret``: its first 8 bytes
    (big-endian) shifted right by one, a 63-bit number like every game's seed.

    Depends on nothing else (no workspace, process or clock), so every workspace of a deployment
    gets the same deal on the same day, before and after a restart.
    """
    code = language_named(language).code
    message = f"{day.isoformat()}|{code}".encode()
    digest = hmac.new(secret, message, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def daily_deal(secret: bytes, day: date, language: str) -> DailyDeal:
    """The deal of ``day`` in ``language`` under the deployment's ``secret``."""
    return DailyDeal(day, language_named(language).code, daily_seed(secret, day, language))


def daily_cards(seed: int, language: str) -> list[Card]:
    """The grid the race lays for a one-player Off the Grid game with ``seed``.

    It follows the engine's own draws (the options first, then the shuffle), so the test suite
    checks it against a real game; the cards are hidden until the player starts the daily.
    """
    options = daily_options(language)
    rng = random.Random(seed)
    cfg = RaceConfig.for_game(options, rng)
    deck = shuffled_deck(rng, cfg.lang)
    return [deck.pop() for _i in range(DAILY_CARDS)]


def daily_day(now: datetime) -> date:
    """The daily's date at ``now``: days turn at midnight UTC (a naive ``now`` is UTC)."""
    if now.tzinfo is not None:
        now = now.astimezone(UTC)
    return now.date()


def until_next(now: datetime) -> timedelta:
    """Time from ``now`` until the next daily (the next midnight UTC)."""
    if now.tzinfo is None:
        now = now.replace(tzinfo=UTC)
    now = now.astimezone(UTC)
    midnight = datetime.combine(daily_day(now) + timedelta(days=1), datetime.min.time(), UTC)
    return midnight - now


def wait_text(wait: timedelta) -> str:
    """A wait as players read it: ``5 h 12 min`` (minutes rounded up, so never ``0 min``)."""
    minutes = max(1, -(-int(wait.total_seconds()) // 60))
    return duration(minutes * 60)


@dataclass(frozen=True, slots=True)
class DailyResult:
    """What a finished daily may tell others: numbers only, never a word or a letter.

    ``seconds`` is the time from the deal to the end; ``streak`` the dates in a row the player
    finished, this one included.
    """

    day: date
    language: str
    cards: int
    points: int
    seconds: float
    streak: int
    of_cards: int = DAILY_CARDS


def taken(engine: OffTheGrid, seat_id: str) -> tuple[int, int]:
    """(cards taken, points) of ``seat_id`` in a daily's game so far."""
    won = engine.won.get(seat_id, [])
    return len(won), sum(card.points for card in won)


def duration_text(seconds: float) -> str:
    """A time as the share line says it: ``3 min 05 s`` (whole seconds, rounded down)."""
    whole = max(0, int(seconds))
    minutes, secs = divmod(whole, 60)
    if minutes:
        return _("{minutes} min {seconds} s", minutes=minutes, seconds=str(secs).zfill(2))
    return _("{seconds} s", seconds=secs)


def share_line(result: DailyResult) -> str:
    """The spoiler-free line ``daily share`` posts: the date, the language, cards taken, time,
    points and streak. It is made from :class:`DailyResult` alone, which holds no word, so it
    can't reveal one (the tests check it for any game)."""
    name = language_named(result.language).spoken
    streak = (
        _("streak {count} \N{FIRE}", count=result.streak)
        if result.streak > 1
        else _("streak {count}", count=1)
    )
    return _(
        "moji daily {date} ({language}): {cards}/{of_cards} cards · {time} · {points} · {streak}",
        date=result.day.isoformat(),
        language=name,
        cards=result.cards,
        of_cards=result.of_cards,
        time=duration_text(result.seconds),
        points=_n("{count} point", "{count} points", result.points),
        streak=streak,
    )
