"""Slack's message ``ts``: an id that reads as a time, parsed exactly.

Slack calls ``ts`` "the unique (per-channel) timestamp" of a message
(https://api.slack.com/events/message) and uses it as the message's id in every
method (``chat.update``, ``reactions.add``: "Timestamp of the message"). It is a string such as
``"1700000000.012345"``: whole Unix seconds on Slack's clock, a dot, and six digits that
make it unique within the channel. moji reads those two parts as integers (never through
``float()``), orders a channel's answers by them, and turns them into the game's time with
:meth:`SlackTs.seconds_float`: the nearest double, within 0.12 µs of the exact value, so that
a difference between two answers rounded to whole microseconds
(:func:`games.race.base.micros`) is exact. docs/SLACK.md ("Message times") says what the
precision is and is not.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_TS = re.compile(r"(\d{1,12})\.(\d{6})")


@dataclass(frozen=True, order=True)
class SlackTs:
    """A message ``ts`` as two integers: Unix seconds and the six-digit part (microseconds)."""

    seconds: int
    micros: int

    @classmethod
    def parse(cls, ts: str) -> SlackTs | None:
        """``"1700000000.012345"`` → ``SlackTs(1700000000, 12345)``; ``None`` for anything else."""
        match = _TS.fullmatch(ts.strip())
        if match is None:
            return None
        return cls(int(match[1]), int(match[2]))

    def total_micros(self) -> int:
        """Microseconds since the Unix epoch, exactly."""
        return self.seconds * 1_000_000 + self.micros

    def seconds_float(self) -> float:
        """The time in seconds as the nearest double (the ratio of two integers is correctly
        rounded; ``float(ts)`` of the string is too, but this never reads a malformed one)."""
        return self.total_micros() / 1_000_000

    def __str__(self) -> str:
        return f"{self.seconds}.{self.micros:06d}"
