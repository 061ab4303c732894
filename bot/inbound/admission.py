"""Admission: an event's sender's fair share, then once-only handling (the pipeline's ``admit`` step).

An event over its sender's allowance (:mod:`bot.core.fairshare`) is refused before anything
else, even the database's once-only record (:mod:`bot.inbound.once`), so a flood costs little;
a repeat of a delivery handled before takes nothing from its sender's allowance.
"""

from __future__ import annotations

import enum

from bot.core.events import Inbound
from bot.core.fairshare import FairShare
from bot.inbound.once import Once


class Admission(enum.Enum):
    """What becomes of an arriving event."""

    #: Handle it (it has taken its share of its sender's allowance).
    TAKEN = "taken"
    #: Its sender is over their allowance: dropped (the first of an episode was told why).
    REFUSED = "refused"
    #: A delivery handled before (a replay, a redelivery): dropped silently.
    REPEAT = "repeat"


async def admit(event: Inbound, fair: FairShare | None, once: Once) -> Admission:
    """Put ``event`` through its sender's allowance and the once-only record."""
    if fair is not None and not fair.room(event):
        await fair.refuse(event)
        return Admission.REFUSED
    if not await once.first(event):
        return Admission.REPEAT
    if fair is not None:
        fair.take(event)
    return Admission.TAKEN
