"""Small English helpers for the games' messages: "You play" / "Ann plays", "an A", "1 card".

The terminal's player is called "You" (see adapters/terminal), so a message built as
``f"{name} plays"`` would read "You plays". Every game builds its sentences about a player
with :func:`does` (or :func:`verb`), names a letter or word with :func:`a`, and counts
with :func:`count`, and writes a span of time with :func:`duration`.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.common import speech
from games.common.speech import _n, _p
from games.common.text import plain, user

YOU = "You"
"""The name the terminal gives its own player; a sentence about "You" takes plural verbs."""

# Letters whose spoken name starts with a vowel sound: "an F" (eff), "an H" (aitch), "an X".
_AN_LETTERS = frozenset("AEFHILMNORSX")
# Words spelled with a vowel that start with a consonant sound, and the reverse.
_A_PREFIXES = ("one", "once", "uni", "use", "usu", "uti", "ure", "eu", "ewe", "ubiq", "uku")
_AN_PREFIXES = ("hour", "honest", "honor", "honour", "heir")
_IRREGULAR = {"is": "are", "was": "were", "has": "have", "does": "do", "goes": "go"}


def is_you(subject: str) -> bool:
    """True for the terminal's own player, who is addressed as "You" (in the language being
    spoken: ``_p("player", "You")``). Games write a sentence about this player as a message of
    its own ("Your turn." beside "{name}'s turn."), never by bending an English one."""
    name = plain(subject).strip().lower()
    return name == "you" or name == _p("player", "You").lower()


def _plural_subject(subject: str) -> bool:
    """ "You", "Ann and Bo" and a team "Ann & Bo" all take the plural verb."""
    return is_you(subject) or " and " in subject or " & " in subject


def base_form(singular: str) -> str:
    """``plays`` -> ``play``, ``passes`` -> ``pass``, ``tries`` -> ``try``, ``has`` -> ``have``."""
    if singular in _IRREGULAR:
        return _IRREGULAR[singular]
    if singular.endswith("ies") and len(singular) > 4:
        return singular[:-3] + "y"
    if singular.endswith(("sses", "shes", "ches", "xes", "zzes", "oes")):
        return singular[:-2]
    if singular.endswith("s") and not singular.endswith("ss"):
        return singular[:-1]
    return singular


def verb(subject: str, singular: str, plural: str | None = None) -> str:
    """The form of a verb agreeing with ``subject``: ``verb("Ann", "plays")`` is ``plays``,
    ``verb("You", "plays")`` is ``play`` (``plural`` overrides the derived form)."""
    if not _plural_subject(subject):
        return singular
    return plural if plural is not None else base_form(singular)


def does(subject: str, phrase: str) -> str:
    """``does("Ann", "plays CAT")`` -> ``Ann plays CAT``; for "You": ``You play CAT``.

    Only the first word of ``phrase`` (its verb, in the third person singular) changes."""
    return f"{subject} {agree(subject, phrase)}"


def agree(subject: str, phrase: str) -> str:
    """``phrase`` (led by a verb in the third person singular) made to agree with ``subject``:
    ``agree("You", "plays CAT")`` -> ``play CAT``; ``agree("Ann", "plays CAT")`` -> ``plays CAT``."""
    first, space, rest = phrase.partition(" ")
    word = first.rstrip(".,:;!?")
    return f"{verb(subject, word)}{first[len(word) :]}{space}{rest}"


def possessive(name: str, *, start: bool = True) -> str:
    """``Ann's``; ``Your`` (or ``your`` with ``start=False``) for the terminal's player."""
    if is_you(name):
        return "Your" if start else "your"
    return f"{name}'s"


def their(name: str) -> str:
    """``their`` about another player, ``your`` about the terminal's player ("You played your last tile")."""
    return "your" if is_you(name) else "their"


def article(word: str) -> str:
    """``a`` or ``an`` by sound: letters by their spoken name ("an A", "an F", "a U"),
    words by their first sound ("an apple", "a unicorn", "an hour"), digits as read ("an 8")."""
    text = plain(word).strip().lstrip("*`'\"(")
    if not text:
        return "a"
    if text[0].isdigit():
        digits = text.split()[0].replace(",", "")
        digits = "".join(ch for ch in digits if ch.isdigit())
        eleven = len(digits) % 3 == 2 and digits[:2] in ("11", "18")
        return "an" if digits.startswith("8") or eleven else "a"
    if len(text) == 1 or (len(text) > 1 and not text[1].isalpha() and text[0].isalpha()):
        return "an" if text[0].upper() in _AN_LETTERS else "a"
    low = text.lower()
    if low.startswith(_AN_PREFIXES):
        return "an"
    if low.startswith(_A_PREFIXES):
        return "a"
    return "an" if low[0] in "aeiou" else "a"


def a(word: str) -> str:
    """``a(word)`` -> ``an A``, ``a card``, ``an hour``: the word with its article."""
    return f"{article(word)} {word}"


def plural(noun: str) -> str:
    """``card`` -> ``cards``, ``pass`` -> ``passes``, ``try`` -> ``tries``."""
    if noun.endswith(("s", "x", "z", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and len(noun) > 1 and noun[-2] not in "aeiou":
        return noun[:-1] + "ies"
    return noun + "s"


def count(n: int, noun: str, many: str | None = None) -> str:
    """``1 card``, ``0 cards``, ``3 cards`` (``many`` overrides the derived plural)."""
    return f"{n} {noun if n == 1 else (many or plural(noun))}"


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
    "a",
    "agree",
    "article",
    "base_form",
    "count",
    "does",
    "duration",
    "is_you",
    "listing",
    "plural",
    "possessive",
    "their",
    "verb",
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
