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
from games.common.speech import _, current

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


def _labelled(language: str) -> bool:
    """True when a meaning must say it is English: the glosses of a language other than English
    are English translations, and English words' meanings are English, which only an English
    speaker reads as the word's own (never an English gloss passed off as another
    language's)."""
    return language != "en" or current() != "en"


def note(word: str, gloss: Glosser, language: str = "en") -> str | None:
    """``zax: a tool for cutting slate`` (English) or ``haus, in English: home``; None when
    the meaning of ``word`` is unknown."""
    found = gloss(word.lower())
    if not found:
        return None
    if _labelled(language):
        return _("{word}, in English: {meaning}", word=word.lower(), meaning=found)
    return _("{word}: {meaning}", word=word.lower(), meaning=found)


def hint(word: str, gloss: Glosser, language: str = "en") -> str:
    """A hint's line: ``QUOTH would have worked (quoth: said).``, without the parenthesis when
    the meaning is unknown."""
    found = gloss(word.lower())
    shown, low = word.upper(), word.lower()
    if not found:
        return _("{word} would have worked.", word=shown)
    if _labelled(language):
        return _(
            "{word} would have worked ({lower}, in English: {meaning}).", word=shown, lower=low, meaning=found
        )
    return _("{word} would have worked ({lower}: {meaning}).", word=shown, lower=low, meaning=found)


def sentence(word: str, gloss: Glosser, language: str = "en") -> str:
    """A sentence to add after a computer player's move: `` ZAX: a tool for cutting slate.``
    (with its leading space), or ``""`` when the meaning is unknown."""
    found = gloss(word.lower())
    if not found:
        return ""
    said = found if found.endswith(("…", ".", "!", "?")) else found + "."
    if _labelled(language):
        return " " + _("{word}, in English: {meaning}", word=word.upper(), meaning=said)
    return " " + _("{word}: {meaning}", word=word.upper(), meaning=said)


def described(word: str, gloss: Glosser, language: str = "en") -> str:
    """A whole sentence for a word's meaning (``define``): ``ZAX: a tool for cutting slate.``,
    ``MAISON, in English: house.``, or that no meaning of it is known."""
    return sentence(word, gloss, language).strip() or _("No meaning of {word} is known.", word=word.upper())
