"""A game between computer players only, played out at once on the game's own clock.

A pairing of two computer players (a Swiss filled with them, a round-robin's seat taken by
one) needs no chat: nobody watches a turn, so moji plays it to its end in simulated time, as
the session would (its ticks, its computer players' claims and moves), and keeps the result.
The same options, seats and seed always play the same game.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from games.common.options import OptionValue
from games.common.protocol import Action, GameInfo, Result, Seat, Setup

#: A game that has not ended after this many steps is ended where it stands (never seen: every
#: game ends; the limit keeps a bug from holding a worker thread for ever).
MOST_STEPS = 20_000


def autoplay(info: GameInfo, options: Mapping[str, OptionValue], seats: Sequence[Seat], seed: int) -> Result:
    """Play a game of computer players (every seat's ``bot`` set) to its end: its result."""
    engine = info.create(Setup(options, tuple(seats), seed))
    now = 0.0
    engine.apply(Action("begin", now))
    for _step in range(MOST_STEPS):
        if engine.finished:
            break
        times = [t for t in (engine.next_bot_time(), engine.next_deadline()) if t is not None]
        if not times:
            break
        now = max(now, min(times))
        claims = engine.bot_claims(now)
        if claims and info.realtime:
            engine.apply(Action("claims", now, claims=tuple(claims)))
        elif claims:
            for claim in claims:
                engine.apply(Action("say", now, seat=claim.seat, text=claim.text))
        else:
            engine.apply(Action("tick", now))
    return engine.result()


__all__ = ["MOST_STEPS", "autoplay"]
