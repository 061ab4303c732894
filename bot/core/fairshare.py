"""Fair share: no one person can crowd everyone else out of moji, on any platform.

Two guarantees, both here once for every adapter:

- **Inbound, per person** (:class:`FairShare`): each person (platform, workspace, user) has two
  token buckets, one for commands and one for messages. :meth:`GameManager.handle
  <bot.hosting.manager.GameManager.handle>` asks :meth:`FairShare.admit` before it does anything with an
  event; an event over its bucket is refused: not executed, not answered, not stored. The first
  refusal of an episode gets one private notice ("You're sending commands faster than moji can
  answer; I'll answer again in 3 s"); the following refusals are silent, until the person's
  bucket has filled up again (they slowed down for a while), which ends the episode.
- **Outbound, per person** (:class:`RoundRobin`): private replies waiting for the platform's
  budget (Slack's ``chat.postEphemeral``: about 100 a minute for a whole workspace) are taken one
  person at a time, in turn, so the replies to a person who sent many commands wait behind the
  others' rather than in front of them. Each person's replies keep their order.

The allowances (:data:`COMMANDS`, :data:`MESSAGES`) are generous for people and tight for
scripts:

- **commands** (slash commands, buttons, private lists): a burst of 10, then one a second.
  Starting, joining and voting take a few; a burst of 10 covers anything a person does in a
  row. One a second is below what a workspace's private replies can carry on Slack (1.5 a
  second), so one person sending commands non-stop cannot use up that budget alone.
- **messages** (words typed in a channel with a game, reactions): a burst of 20, then four a
  second. A fast race player types a word a second or two at most, and a flurry of words at a
  new card is well inside 20; messages cost moji little (a race's refused words are listed on
  its table, not answered one by one).

Buckets live in the process (with several processes behind one URL, each keeps its own: a
person spread over them gets each one's allowance) and are forgotten once full.
"""

from __future__ import annotations

import logging
import math
from collections import Counter, OrderedDict, deque
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from bot.core import metrics, views
from bot.core.clock import Clock
from bot.core.events import Button, Command, Inbound, Private, PrivateText
from bot.core.outbox import Outbox
from games.common.speech import N_, _, current, speaking, spoken_from

log = logging.getLogger(__name__)

Kind = Literal["commands", "messages"]


@dataclass(frozen=True, slots=True)
class Allowance:
    """A token bucket: ``burst`` events at once, refilled at ``per_second``."""

    burst: int
    per_second: float

    def __post_init__(self) -> None:
        if self.burst < 1 or self.per_second <= 0:
            raise ValueError(f"an allowance needs burst >= 1 and per_second > 0: {self}")


#: Slash commands, button presses and private lists, per person.
COMMANDS = Allowance(burst=10, per_second=1.0)
#: Messages in a channel with a game (answers, moves, chatter) and reactions, per person.
MESSAGES = Allowance(burst=20, per_second=4.0)
#: Seconds between sweeps of the buckets that have filled up (and so can be forgotten).
SWEEP_EVERY = 60.0

NOTICES: dict[Kind, str] = {
    "commands": N_("You're sending commands faster than moji can answer; I'll answer again in {wait}."),
    "messages": N_(
        "You're sending messages faster than moji can read them; I'll read yours again in {wait}."
    ),
}


def kind_of(event: Inbound) -> Kind:
    """Which allowance an event draws from."""
    if isinstance(event, Command | Button | PrivateText):
        return "commands"
    return "messages"


@dataclass
class _Bucket:
    tokens: float
    at: float
    #: The person was told, and has not filled the bucket up since.
    noticed: bool = False


def _seconds(wait: float) -> str:
    whole = max(1, math.ceil(wait - 1e-9))
    return f"{whole} s"


class FairShare:
    """Per-person inbound limits (see the module's docs)."""

    def __init__(
        self,
        clock: Clock,
        outbox: Outbox,
        *,
        commands: Allowance = COMMANDS,
        messages: Allowance = MESSAGES,
    ) -> None:
        self.clock = clock
        self.outbox = outbox
        self.allowances: dict[Kind, Allowance] = {"commands": commands, "messages": messages}
        self._buckets: dict[tuple[Kind, str, str, str], _Bucket] = {}
        self._swept = clock.now()
        #: Events refused, and notices sent, by kind (for tests and benchmarks).
        self.refused: Counter[Kind] = Counter()
        self.notices: Counter[Kind] = Counter()

    def _bucket(self, kind: Kind, event: Inbound, now: float) -> _Bucket:
        key = (kind, event.chat.platform, event.chat.workspace_id, event.player.user_id)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(float(self.allowances[kind].burst), now)
        return bucket

    def _refill(self, kind: Kind, bucket: _Bucket, now: float) -> None:
        allowance = self.allowances[kind]
        if now > bucket.at:
            bucket.tokens = min(
                float(allowance.burst), bucket.tokens + (now - bucket.at) * allowance.per_second
            )
            bucket.at = now
        if bucket.tokens >= allowance.burst:
            bucket.noticed = False  # they slowed down: a next flood is a new episode

    async def admit(self, event: Inbound) -> bool:
        """True: handle ``event`` (it has taken its share). False: its sender is over their
        allowance; drop it (the first refusal of an episode has sent them a notice)."""
        if not self.room(event):
            await self.refuse(event)
            return False
        self.take(event)
        return True

    def room(self, event: Inbound) -> bool:
        """Whether ``event``'s sender has room for it now (nothing is taken)."""
        now = self.clock.now()
        self._sweep(now)
        kind = kind_of(event)
        bucket = self._bucket(kind, event, now)
        self._refill(kind, bucket, now)
        return bucket.tokens >= 1.0

    def take(self, event: Inbound) -> None:
        """``event`` is being handled: it takes its share of its sender's allowance."""
        now = self.clock.now()
        kind = kind_of(event)
        bucket = self._bucket(kind, event, now)
        self._refill(kind, bucket, now)
        bucket.tokens = max(0.0, bucket.tokens - 1.0)

    async def refuse(self, event: Inbound) -> None:
        """``event`` is dropped for its sender's allowance: counted, and the first of an episode
        tells them when moji answers again."""
        now = self.clock.now()
        kind = kind_of(event)
        bucket = self._bucket(kind, event, now)
        self.refused[kind] += 1
        metrics.fair_share_refused(event.chat.platform, kind)
        if bucket.noticed:
            return
        bucket.noticed = True
        self.notices[kind] += 1
        wait = (1.0 - bucket.tokens) / self.allowances[kind].per_second
        log.info(
            "%s: %s from one person over their allowance; refused for %.1f s",
            event.chat.label(),
            kind,
            wait,
        )
        # (the sender's own language where the platform tells it: no chat's settings are read here)
        with speaking(spoken_from(event.player.locale, current())):
            text = _(NOTICES[kind], wait=_seconds(wait))
        try:
            await self.outbox.send(
                Private(event.chat, event.player, views.message(text, kind="info"), _interaction(event))
            )
        except Exception:
            log.exception("could not send a fair-share notice in %s", event.chat.label())

    def wait_time(self, event: Inbound) -> float:
        """Seconds until an event like ``event`` would be admitted (0: now)."""
        now = self.clock.now()
        kind = kind_of(event)
        key = (kind, event.chat.platform, event.chat.workspace_id, event.player.user_id)
        bucket = self._buckets.get(key)
        if bucket is None:
            return 0.0
        allowance = self.allowances[kind]
        tokens = min(float(allowance.burst), bucket.tokens + max(0.0, now - bucket.at) * allowance.per_second)
        return max(0.0, (1.0 - tokens) / allowance.per_second)

    def __len__(self) -> int:
        """People with a bucket that is not full (and so is remembered)."""
        return len(self._buckets)

    def _sweep(self, now: float) -> None:
        if now - self._swept < SWEEP_EVERY:
            return
        self._swept = now
        for key, bucket in list(self._buckets.items()):
            self._refill(key[0], bucket, now)
            if bucket.tokens >= self.allowances[key[0]].burst:
                del self._buckets[key]


def _interaction(event: Inbound) -> object | None:
    return event.interaction if isinstance(event, Command | Button) else None


K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


class RoundRobin(Generic[K, T]):
    """A queue served one key (a person) at a time, in turn; each key's items in their order.

    :meth:`pop` takes the oldest item of the key whose turn it is, then sends that key to the
    back of the line (if it has more). A key that had nothing waiting goes ahead of the keys
    served already (behind other such newcomers, in their order): a person who asked once is
    next, however many replies another has waiting. So a key with many items delays each other
    key by one item at most (the one being sent).
    """

    def __init__(self) -> None:
        self._queues: dict[K, deque[T]] = {}
        #: Keys not served since they last had nothing waiting, in arrival order…
        self._fresh: OrderedDict[K, None] = OrderedDict()
        #: …and keys served already, in turn.
        self._served: OrderedDict[K, None] = OrderedDict()
        self._size = 0

    def push(self, key: K, item: T) -> None:
        """Queue ``item`` behind ``key``'s earlier ones."""
        queue = self._queues.get(key)
        if queue is None:
            queue = self._queues[key] = deque()
            self._fresh[key] = None
        queue.append(item)
        self._size += 1

    def pop(self) -> T:
        """The next item, round-robin over keys; raises IndexError when empty."""
        line = self._fresh or self._served
        if not line:
            raise IndexError("pop from an empty RoundRobin")
        key, _ = line.popitem(last=False)
        queue = self._queues[key]
        item = queue.popleft()
        self._size -= 1
        if queue:
            self._served[key] = None
        else:
            del self._queues[key]
        return item

    def __len__(self) -> int:
        return self._size

    def __bool__(self) -> bool:
        return self._size > 0

    def waiting(self, key: K) -> int:
        """Items of ``key`` waiting."""
        queue = self._queues.get(key)
        return len(queue) if queue is not None else 0
