"""The daily in chat: where it is played, and what its end keeps and says.

The daily is an ordinary recorded race (the day's seed, :func:`games.race.daily.daily_deal`)
whose chat is one person's own: a direct-message chat with moji where the platform can open
one (``Capabilities.direct_chats``: Discord, Slack; the adapter hands the :class:`Dailies` a
:class:`DirectChats`), or the chat itself where every chat is its one person's
(``Capabilities.own_chat``: the terminal). Nobody else sees the cards before they play, nor the
words they find. Its game id starts with :data:`~storage.daily.DAILY_GAME_PREFIX`, so the game
log records its end without points or a rating (the daily has its own board), on every process
and after a restart; recovery resumes it like any game.

:class:`Dailies` is the manager's part for the daily: the deployment's key, the adapter's
:class:`DirectChats`, and what a daily's end does (:meth:`Dailies.finished`, awaited by the
session before it closes: the result kept in ``daily_plays`` with its streak, and told to the
player privately, with their words; :meth:`Dailies.closed`: a stopped daily ends without a
result). The ``daily`` command is :mod:`bot.hosting.handlers.daily`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from datetime import UTC, datetime, timedelta
from typing import Any, Protocol

from babel.dates import format_date

from bot.core import views
from bot.core.clock import Clock
from bot.core.events import ChatKey, Player
from bot.core.outbox import Outbox
from bot.features.workspace import Workspace
from bot.features.workspace_settings import language_name
from bot.sessions.session import Session
from games.common.speech import N_, _, _n, babel_locale, duration
from games.race.daily import (
    DAILY_CARDS,
    DailyResult,
    daily_day,
    share_line,
    taken,
    until_next,
)
from games.race.grid import OffTheGrid
from storage.daily import DailyPlay, DailyStore, is_daily_game

log = logging.getLogger(__name__)

#: Where the daily is played, as the player is told in the channel they asked in.
IN_DMS = N_("Your daily is in our direct messages: type your words there. Only you see it.")
#: Direct messages refused by the player's own settings (Discord's 50007).
DMS_CLOSED = N_(
    "I can't send you direct messages, and the daily is played there (only you see its cards and "
    "your words). Allow direct messages from this server's members (Discord: the server's name → "
    "Privacy Settings → Direct Messages), then try `daily` again."
)


#: A schedule whose "game" is this is the daily's reminder (``schedule daily 09:00 daily @team``):
#: when due, it posts :func:`reminder` in its channel instead of opening a lobby.
REMINDER = "daily"


def is_reminder(args: tuple[str, ...]) -> bool:
    """Whether a schedule's ``args`` (what it starts) are the daily's reminder."""
    return bool(args) and args[0].lower() in {REMINDER, "daily-reminder"}


def reminder(mention: str = "") -> views.View:
    """The daily's reminder, posted in a channel (mentioning ``mention``'s group, if any)."""
    text = _(
        "☀️ Today's daily is out: the same {cards} cards for everyone, once a day, alone against the "
        "hourglass. `daily` deals yours in our direct messages (only you see it); `daily share` "
        "posts your line here afterwards, without a word. `leaderboard daily` shows today's best.",
        cards=DAILY_CARDS,
    )
    return views.View(kind="info", lines=(text,), mentions=(mention,) if mention else ())


class NoDirectChat(Exception):
    """The platform could not open a direct-message chat just now (an outage, a refused call)."""


class DirectChats(Protocol):
    """A platform's direct-message chats with moji (an adapter's; :attr:`Dailies.direct`)."""

    async def open(self, chat: ChatKey, player: Player, greeting: views.View) -> ChatKey:
        """Open ``player``'s direct-message chat with moji (asked from ``chat``, whose workspace
        the daily counts in) and post ``greeting`` there: the chat a game can run in. Raises
        :class:`~bot.delivery.reach.PrivateRefused` when the player's settings refuse direct messages,
        :class:`NoDirectChat` when the platform fails otherwise."""
        ...


class DailyHost(Protocol):
    """What the daily's end needs of the game host (the manager)."""

    clock: Clock
    outbox: Outbox
    workspace: Workspace

    def spawn(
        self, coro: Coroutine[Any, Any, None], name: str, chat: ChatKey | None = None
    ) -> asyncio.Task[None]:
        """Run ``coro`` as a supervised task."""
        ...


def today(clock: Clock) -> datetime:
    """The clock's time as an aware UTC datetime (the daily's days turn at midnight UTC)."""
    return datetime.fromtimestamp(clock.now(), UTC)


def result_of(play: DailyPlay) -> DailyResult | None:
    """A finished daily's numbers (None: not finished, or ended without a result)."""
    if not play.finished or play.cards is None:
        return None
    return DailyResult(
        datetime.fromisoformat(play.day).date(),
        play.language,
        play.cards,
        int(play.points or 0),
        float(play.seconds or 0.0),
        int(play.streak or 1),
        DAILY_CARDS,
    )


def result_text(result: DailyResult) -> str:
    """A finished daily's numbers as its player reads them (no word, no letter)."""
    if result.streak > 1:
        streak = _("streak {streak} \N{FIRE}", streak=result.streak)
    else:
        streak = _("streak {streak}", streak=result.streak)
    return " · ".join(
        (
            _n("{cards}/{count} card", "{cards}/{count} cards", result.of_cards, cards=result.cards),
            duration(int(result.seconds)),
            _n("{count} point", "{count} points", result.points),
            streak,
        )
    )


class Dailies:
    """The daily's part of the game host (see the module's doc)."""

    def __init__(self, host: DailyHost, secret: bytes = b"") -> None:
        self._host = host
        #: The deployment's key of the day's deal (``DAILY_SECRET``: docs/DAILY.md).
        self.secret = secret
        #: The platform's direct-message chats (None where it has none, or in a test without).
        self.direct: DirectChats | None = None

    def store(self) -> DailyStore | None:
        """The daily's table (None without a database, or on a store without the daily's table:
        the in-memory stores of some adapters' tests)."""
        daily: DailyStore | None = getattr(self._host.workspace.store, "daily", None)
        return daily

    async def chat_of_direct(self, platform: str, user_id: str, channel_id: str) -> ChatKey | None:
        """The chat of the daily ``user_id`` is playing in their direct-message channel
        ``channel_id`` (a platform whose DMs belong to no workspace, Discord, asks here which
        workspace the daily counts in); None when they play none. A daily begun before midnight
        (UTC) may still be running after it."""
        store = self.store()
        if store is None:
            return None
        day = daily_day(today(self._host.clock))
        for when in (day, day - timedelta(days=1)):
            play = await store.daily_play(platform, user_id, when.isoformat())
            if play is not None and play.playing:
                return ChatKey(platform, play.workspace_id, channel_id)
        return None

    def closed(self, session: Session) -> None:
        """A session ended: a daily that did not finish (stopped) ends without a result (one that
        finished was kept by :meth:`finished`, before it closed)."""
        engine = session.engine
        if is_daily_game(session.game_id) and (engine is None or not engine.finished):
            self._host.spawn(self._void(session.game_id), f"daily {session.game_id} ended")

    async def _void(self, game_id: str) -> None:
        store = self.store()
        if store is not None:
            await store.void_daily(game_id, self._host.clock.now())

    async def finished(self, session: Session) -> views.View | None:
        """A daily's game finished and is recorded: keep its result and streak, and say it to its
        player privately (the view, posted in their own chat after the result), with the words
        they found. None when it was kept already (by another process, or before a restart)."""
        store = self.store()
        engine, start = session.engine, session.state.start_record
        if store is None or start is None or not isinstance(engine, OffTheGrid):
            log.warning("daily %s has no result to keep", session.game_id)
            return None
        now = self._host.clock.now()
        cards, points = taken(engine, start.seats[0].id)
        seconds = max(0.0, now - start.started_at - session.state.paused)
        play = await store.finish_daily(session.game_id, cards, points, seconds, now)
        result = None if play is None else result_of(play)
        if result is None:
            return None
        words = sorted(views.user(w.upper()) for w in engine.used)
        lang = language_name(result.language)
        wait = until_next(today(self._host.clock))
        minutes = max(1, -(-int(wait.total_seconds()) // 60))  # rounded up: never "0 min"
        lines = (
            result_text(result),
            _("Your words (only you see them): {words}", words=", ".join(words) if words else _("none")),
            _(
                "Type `daily share` in a channel to post your line there: the numbers only, no word "
                "and no letter."
            ),
            _("The next daily in {duration}.", duration=duration(minutes * 60)),
        )
        day = format_date(result.day, format="medium", locale=babel_locale())
        return views.View(
            kind="private", title=_("Your daily — {day} ({language})", day=day, language=lang), lines=lines
        )


__all__ = [
    "DMS_CLOSED",
    "IN_DMS",
    "REMINDER",
    "Dailies",
    "DailyHost",
    "DirectChats",
    "NoDirectChat",
    "daily_day",
    "is_reminder",
    "reminder",
    "result_of",
    "result_text",
    "share_line",
    "today",
]
