"""What every game's messages share beyond the catalogue: who "You" is, lists, spans of time and
quoted input.

Sentences themselves are whole messages of the catalogue (:mod:`games.common.speech`); no
sentence is bent from English here. The terminal's player is called "You" in the language
spoken, and a sentence about them is a message of its own (``_("Your turn.")`` beside
``_("{name}'s turn.", name=name)``): :func:`is_you` tells which to say.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.common import speech
from games.common.speech import _n, _p
from games.common.text import plain, user

YOU = "You"
"""The name the terminal gives its own player in English (``_p("player", "You")`` in others)."""


def is_you(subject: str) -> bool:
    """True for the terminal's own player, who is addressed as "You" (in the language being
    spoken: ``_p("player", "You")``). Games write a sentence about this player as a message of
    its own ("Your turn." beside "{name}'s turn."), never by bending an English one."""
    name = plain(subject).strip().lower()
    return name == "you" or name == _p("player", "You").lower()


def listing(items: Iterable[str], conjunction: str = "and") -> str:
    """``A``, ``A and B``, ``A, B and C`` in the language being spoken (:func:`speech.listing`);
    ``conjunction="or"`` gives ``A or B``."""
    return speech.listing(items, style="or" if conjunction == "or" else "standard")


def duration(seconds: float) -> str:
    """A span of time, the one way every game and view writes it (:func:`speech.duration`):
    ``45 s``, ``1 min 46 s``, ``2 min``, ``71 h 59 min``, ``72 h``, ``4 days 2 h``."""
    return speech.duration(seconds)


__all__ = [
    "YOU",
    "duration",
    "excerpt",
    "is_you",
    "listing",
]


#: Characters of a player's text an error message quotes at most (see :func:`excerpt`).
EXCERPT = 40


def excerpt(text: str, limit: int = EXCERPT) -> str:
    """A player's text quoted in a message, bounded and on one line: ``'QQQQ…' (2,000
    characters)`` for a long one, so that an error never echoes a whole paste back. Control
    characters become spaces; the quoted part is marked as user text (:mod:`games.common.text`),
    so each renderer escapes it for its own markup."""
    flat = " ".join("".join(ch if ch.isprintable() else " " for ch in plain(text)).split())
    if len(flat) <= limit:
        quoted = repr(flat)
        return quoted[0] + user(quoted[1:-1]) + quoted[-1]
    quoted = f"'{user(flat[: limit - 1])}…'"
    return _n("{quoted} ({count} character)", "{quoted} ({count} characters)", len(text), quoted=quoted)
