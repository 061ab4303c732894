"""The one rule for what a player typed: only answers and moves are judged and kept.

Every platform hands the core the raw text of each message typed in a channel with a game
(and of each private list); nothing here is decided per adapter. A text is taken only when
the running game's own declaration (:attr:`games.common.protocol.GameInfo.reads`) reads it
as an answer or a move — legal or not: the game judges it, shows its verdict, and its action
log keeps it — and only in the size a move can have. Everything else is chatter: dropped
before anything stores it, in the game's log or in another process's inbox
(:mod:`bot.inbound.routing`), and never judged nor quoted back.
"""

from __future__ import annotations

from collections.abc import Mapping

from games.common.options import OptionValue
from games.common.protocol import GameInfo, MoveReader, Reading

#: Characters a move or a race answer can have: longer text is chatter (typed in the channel)
#: or refused with a reason (``play …``), before any game reads it.
MOVE_LIMIT = 200
#: Characters of a private word list (an Eagle Eyes ``list``).
LIST_LIMIT = 2000


class Moves:
    """What one game (its options and seed) takes from a player's typing."""

    def __init__(self, info: GameInfo, options: Mapping[str, OptionValue], seed: int) -> None:
        self.info = info
        self._reader: MoveReader = info.reads(options, seed)

    def read(self, text: str, *, private: bool = False) -> Reading:
        """The answer or move in ``text`` (``Reading.move``; None: chatter, with a reason).

        ``private``: a word list sent privately. Surrounding whitespace is not part of a move.
        """
        limit, what = (LIST_LIMIT, "list") if private else (MOVE_LIMIT, "move")
        if len(text) > limit:
            size = f"{len(text):,} characters; at most {limit:,}"
            return Reading(None, f"That's too long for a {what} ({size}).")
        text = text.strip()
        if not text:
            return Reading(None, "That list has no words." if private else "Say what to play.")
        reading = self._reader.read(text, private=private)
        if reading.move is not None and len(reading.move) > limit:  # (no game's reading should grow it)
            return Reading(None, f"That's too long for a {what}.")
        return reading

    def move(self, text: str) -> str | None:
        """The answer or move typed in the channel as ``text`` (None: chatter)."""
        return self.read(text).move
