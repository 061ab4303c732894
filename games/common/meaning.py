"""A word's short meaning in a game's public text: "QUOTH would have worked (quoth: said)."

Games name a meaning where one is known for the words players may not know: the race's
"would have worked" hint and every word a computer player plays. The meanings are moji's own
data (``games/lexicon/data/glosses-CODE.dat.gz``, WordNet for English, English translations
for the other languages; see docs/LEXICON.md), never what a player typed, and hold no chat
markup, so they go into text unmarked. A game gets its lookup the way it gets its lexicon:
from :attr:`games.common.protocol.Setup.gloss` (tests), else the shipped glosses of its
language, read on first use.
"""

from __future__ import annotations

from collections.abc import Callable

from games.common.protocol import Setup

#: word (folded) -> its likeliest meaning as a short phrase, or None.
Glosser = Callable[[str], str | None]


def no_gloss(word: str) -> str | None:
    """A glosser that knows no word (games whose texts must stay as they are)."""
    return None


def shipped(language: str) -> Glosser:
    """The shipped glosses of ``language``: its file is read on the first word looked up."""

    def lookup(word: str) -> str | None:
        from games.lexicon.glosses import gloss

        return gloss(word, language)

    return lookup


def glosser(setup: Setup, language: str) -> Glosser:
    """The setup's glosser, or the shipped glosses of ``language``."""
    return setup.gloss if setup.gloss is not None else shipped(language)


def note(word: str, gloss: Glosser, language: str = "en") -> str | None:
    """``zax: a tool for cutting slate`` (English) or ``haus, in English: home``; None when
    the meaning of ``word`` is unknown."""
    found = gloss(word.lower())
    if not found:
        return None
    if language == "en":
        return f"{word.lower()}: {found}"
    return f"{word.lower()}, in English: {found}"


def hint(word: str, gloss: Glosser, language: str = "en") -> str:
    """A hint's line: ``QUOTH would have worked (quoth: said).``, without the parenthesis when
    the meaning is unknown."""
    found = note(word, gloss, language)
    return f"{word.upper()} would have worked" + (f" ({found})." if found else ".")


def sentence(word: str, gloss: Glosser, language: str = "en") -> str:
    """A sentence to add after a computer player's move: `` ZAX: a tool for cutting slate.``
    (with its leading space), or ``""`` when the meaning is unknown."""
    found = gloss(word.lower())
    if not found:
        return ""
    end = "" if found.endswith(("…", ".", "!", "?")) else "."
    if language == "en":
        return f" {word.upper()}: {found}{end}"
    return f" {word.upper()}, in English: {found}{end}"
