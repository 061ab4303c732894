"""Pacing: a platform's rate limits as data, and a pacer that keeps calls inside them.

Each adapter declares its platform's limits as a :class:`PlatformLimits`: named
buckets (a :class:`Rate` of ``limit`` calls per ``window`` seconds, counted per
channel, per workspace or per bot token) and, for each kind of call the delivery
layer makes (``post``, ``edit``, ``react``, ``private``, ``picture``), the buckets it
draws from. :class:`Pacer` waits *before* a call until every one of its buckets has
room, so a 429 stays exceptional instead of being the way the bot learns it went
too fast.

Each bucket is a sliding window: at most ``limit - spare`` calls in any ``window``
seconds. That is at least as strict as a fixed window of the same size (Discord's
buckets, Slack's per-minute tiers), so pacing to it never trips either. A call's
slot is stamped with the time its answer came back, not the time it left: the
platform saw it at some moment in between, so the next window is counted from no
earlier than the platform's. A call still in flight holds its slot however long it
takes (a picture drawn first, a slow network): the platform may see it at any moment
until its answer comes back, so calls that left in one window and arrive in the next
never add up to more than a window's worth.

Waiters on one bucket are served first come, first served, and a chat sends one
call at a time per lane, so a workspace's (or a token's) budget is shared fairly
between its channels: a busy channel cannot starve a quiet one.

When the platform says the limit is lower than declared (Discord's
``X-RateLimit-Limit`` headers, or a 429), :meth:`Pacer.observe` and
:meth:`Pacer.penalize` lower that bucket's limit and hold it until the platform's
reset, so the next calls fit the limit actually in force. A limit said in a header holds
for the platform's window it was said in; the declared limit is back once that window has
passed (the platform's next answers say it again if it still holds). A 429 lowers the limit by
one per episode (the calls in flight that meet the same block all answer 429: they are
one overrun, not many), and a lowered limit climbs back one step every
:data:`RECOVER_WINDOWS` windows without a 429, so a burst long ago never throttles a
process for good.
"""

from __future__ import annotations

import bisect
import itertools
import math
from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Literal

from bot.core import metrics
from bot.core.clock import Clock
from bot.core.events import ChatKey

Scope = Literal["channel", "workspace", "token"]

#: A limit lowered by a 429 climbs back by one after this many windows (at least
#: :data:`RECOVER_MIN_SECONDS`) without another.
RECOVER_WINDOWS = 30
RECOVER_MIN_SECONDS = 30.0


@dataclass(frozen=True, slots=True)
class Rate:
    """``limit`` calls per ``window`` seconds, counted per ``scope``.

    ``spare`` calls of each window are left unused: room for calls made outside
    the delivery layer (a thread being opened, a slash-command sync) and, on
    Discord, so a bucket's ``Remaining`` never reaches 0 and the client library
    never has to sleep on its own.
    """

    limit: int
    window: float
    scope: Scope
    spare: int = 0

    def __post_init__(self) -> None:
        if self.limit < 1 or self.window <= 0 or not 0 <= self.spare < self.limit:
            raise ValueError(f"a rate needs limit >= 1, window > 0 and 0 <= spare < limit: {self}")

    @property
    def usable(self) -> int:
        """Calls per window the pacer lets through."""
        return self.limit - self.spare


@dataclass(frozen=True, slots=True)
class PlatformLimits:
    """A platform's limits, as an adapter declares them.

    ``calls`` maps each kind of call to the buckets it draws from; a kind that is
    not listed is not paced. ``max_edit_age`` is how old a message may be before
    the platform stops letting the bot edit it freely (Discord: an hour). ``threads_are_channels``:
    a thread counts as a channel of its own in a channel-scoped bucket (Discord: a thread *is* a
    channel); else it shares its channel's (Slack: "1 message per second per channel", its
    threads included).
    """

    platform: str
    buckets: Mapping[str, Rate]
    calls: Mapping[str, tuple[str, ...]]
    max_edit_age: float | None = None
    threads_are_channels: bool = True

    def __post_init__(self) -> None:
        unknown = {name for names in self.calls.values() for name in names} - set(self.buckets)
        if unknown:
            raise ValueError(f"{self.platform}: calls draw from undeclared buckets {sorted(unknown)}")

    def scaled(self, factor: float) -> PlatformLimits:
        """The same limits with every ``limit`` multiplied by ``factor`` (at least 1; for tests)."""
        buckets = {
            name: Rate(max(1, math.floor(rate.limit * factor)), rate.window, rate.scope, 0)
            for name, rate in self.buckets.items()
        }
        return PlatformLimits(
            self.platform, buckets, self.calls, self.max_edit_age, self.threads_are_channels
        )


class RateLimited(Exception):
    """The platform refused a call for its rate limit (a 429 that the client gave up on)."""

    def __init__(self, retry_after: float, scope: Scope | None = None) -> None:
        super().__init__(f"rate limited for {retry_after:g} s")
        self.retry_after = retry_after
        self.scope = scope


def scope_key(scope: Scope, chat: ChatKey, threads_are_channels: bool = True) -> str:
    """Which chats share a bucket of this scope."""
    if scope == "token":
        return ""
    if scope == "workspace":
        return chat.workspace_id
    if not threads_are_channels:
        return f"{chat.workspace_id}/{chat.channel_id}"
    return f"{chat.workspace_id}/{chat.thread_id or chat.channel_id}"


@dataclass
class Window:
    """One bucket instance (a rate in one channel, workspace or token)."""

    rate: Rate
    limit: int
    #: When each recent call's answer came back (sorted).
    stamps: list[float] = field(default_factory=list)
    #: Calls that left and whose answer has not come back: each holds a slot until it does.
    inflight: int = 0
    blocked_until: float = 0.0
    waiters: deque[int] = field(default_factory=deque)
    #: When a 429 last lowered ``limit`` (it climbs back from there).
    lowered_at: float = 0.0
    #: When the platform's window in which it said its limit was lower ends: the limit it said
    #: holds for that window only (0: none said).
    said_until: float = 0.0

    def prune(self, now: float) -> None:
        cut = bisect.bisect_right(self.stamps, now - self.rate.window)
        if cut:
            del self.stamps[:cut]
        if self.said_until and now >= self.said_until:
            self.said_until = 0.0
            if not self.lowered_at:  # (a limit a 429 lowered climbs back on its own terms)
                self.limit = self.rate.usable
        if self.limit < self.rate.usable and self.lowered_at:
            recover = max(RECOVER_MIN_SECONDS, RECOVER_WINDOWS * self.rate.window)
            if now - self.lowered_at >= recover:
                self.limit += 1
                self.lowered_at = now if self.limit < self.rate.usable else 0.0

    def ready_at(self, now: float, ahead: int, *, estimate: bool = False) -> float:
        """When ``ahead + 1`` more calls fit (the caller being the last of them).

        With more callers ahead than slots, the callers ahead take the slots that free
        first: by default the answer is when to look again (one window on), with
        ``estimate`` when this caller's turn comes if every window is used in full.
        """
        self.prune(now)
        # a call in flight may be answered any moment: its slot lasts at least a window from now
        stamps = self.stamps + [now] * self.inflight if self.inflight else self.stamps
        need = len(stamps) + ahead + 1 - self.limit
        if need <= 0:
            at = now
        elif need <= len(stamps):
            at = stamps[need - 1] + self.rate.window
        elif not estimate:
            at = (stamps[-1] if stamps else now) + self.rate.window
        else:
            rounds = ahead // self.limit + 1  # windows the callers ahead fill first
            first = len(stamps) + ahead - rounds * self.limit
            if first >= 0:
                at = stamps[first] + rounds * self.rate.window
            else:
                at = now + (rounds - 1) * self.rate.window
        return max(at, self.blocked_until)


@dataclass
class Ticket:
    """Slots held by one call in flight."""

    windows: tuple[Window, ...]
    sent_at: float


class Pacer:
    """Keeps calls inside a platform's declared (and observed) limits."""

    def __init__(self, limits: PlatformLimits, clock: Clock) -> None:
        self.limits = limits
        self.clock = clock
        self._windows: dict[tuple[str, str], Window] = {}
        self._numbers = itertools.count()
        #: Calls that waited, and how long in all (seconds), per kind.
        self.waits: dict[str, int] = {}
        self.waited: dict[str, float] = {}

    def paced(self, kind: str) -> bool:
        """True when calls of ``kind`` draw from any bucket."""
        return bool(self.limits.calls.get(kind))

    def _windows_for(self, kind: str, chat: ChatKey) -> tuple[Window, ...]:
        out = []
        for name in self.limits.calls.get(kind, ()):
            rate = self.limits.buckets[name]
            key = (name, scope_key(rate.scope, chat, self.limits.threads_are_channels))
            window = self._windows.get(key)
            if window is None:
                window = self._windows[key] = Window(rate, rate.usable)
            out.append(window)
        return tuple(out)

    def wait_time(self, kind: str, chat: ChatKey) -> float:
        """How long a call of ``kind`` in ``chat`` would wait if asked now (queued callers first)."""
        now = self.clock.now()
        windows = self._windows_for(kind, chat)
        ready = max((w.ready_at(now, len(w.waiters), estimate=True) for w in windows), default=now)
        return max(0.0, ready - now)

    async def acquire(self, kind: str, chat: ChatKey) -> Ticket:
        """Wait until a call of ``kind`` fits every bucket it draws from, and hold its slots."""
        windows = self._windows_for(kind, chat)
        number = next(self._numbers)
        for window in windows:
            window.waiters.append(number)
        started = self.clock.now()
        try:
            while True:
                now = self.clock.now()
                ready = max((w.ready_at(now, w.waiters.index(number)) for w in windows), default=now)
                if ready <= now:
                    break
                await self.clock.sleep_until(ready)
        finally:
            for window in windows:
                window.waiters.remove(number)
        now = self.clock.now()
        if now > started:
            self.waits[kind] = self.waits.get(kind, 0) + 1
            self.waited[kind] = self.waited.get(kind, 0.0) + (now - started)
        for window in windows:
            window.inflight += 1
        return Ticket(windows, now)

    def release(self, ticket: Ticket) -> None:
        """The call's answer came back: its slots count from now."""
        now = self.clock.now()
        for window in ticket.windows:
            window.inflight = max(0, window.inflight - 1)
            bisect.insort(window.stamps, now)

    def penalize(self, kind: str, chat: ChatKey, retry_after: float, scope: Scope | None = None) -> None:
        """The platform answered 429: hold the buckets (of ``scope``, if known) and lower their limit."""
        metrics.rate_limited(self.limits.platform, kind)
        now = self.clock.now()
        until = now + max(0.0, retry_after)
        for window in self._windows_for(kind, chat):
            if scope is None or window.rate.scope == scope:
                if window.blocked_until <= now:  # the first 429 of this block: one step down
                    window.limit = max(1, window.limit - 1)
                    window.lowered_at = now
                window.blocked_until = max(window.blocked_until, until)

    def observe(
        self, kind: str, chat: ChatKey, *, limit: int, remaining: int, reset_after: float, scope: Scope
    ) -> None:
        """What the platform said about a bucket (Discord's ``X-RateLimit-*`` headers).

        A lower limit than declared is adopted; calls the platform counted that this
        pacer did not (another process on the same token, or this one before a restart)
        are added to the window as if made when the platform's window began, so they
        free up when the platform's bucket resets.
        """
        now = self.clock.now()
        for window in self._windows_for(kind, chat):
            if window.rate.scope != scope:
                continue
            window.prune(now)
            if 0 < limit < window.limit:
                # for the platform's window only: its next answers say again if it still holds
                window.limit = limit
                window.said_until = max(window.said_until, now + max(0.0, reset_after))
            unseen = (limit - max(0, remaining)) - len(window.stamps) - window.inflight
            if unseen > 0:
                began = min(now, max(now - window.rate.window, now + reset_after - window.rate.window))
                for _ in range(unseen):
                    bisect.insort(window.stamps, began)
            if remaining <= 0:
                window.blocked_until = max(window.blocked_until, now + max(0.0, reset_after))

    def limit_of(self, kind: str, chat: ChatKey) -> dict[str, int]:
        """The limits in force for ``kind`` in ``chat``, by scope (for logs and tests)."""
        return {w.rate.scope: w.limit for w in self._windows_for(kind, chat)}
