"""The languages moji plays in, and how each folds what players type to its own letters.

A word game's letters are not a keyboard's: French and Spanish players type accents that
their word games ignore (É is E), yet Spanish Ñ is a letter with a tile of its own, German
Ä Ö Ü are letters while ß is written SS, and Dutch IJ is simply I then J. Every game and
the lexicon fold answers through :meth:`Language.fold`, so a word is spelled one way
everywhere: in the dictionary, on the cards and in what players type.

>>> language("de").fold("Straße")
'strasse'
>>> language("es").fold("Niño")
'niño'
>>> language("fr").fold("Cœur")
'coeur'
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

from games.common.speech import _, _p

ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyz"

#: Accent marks one letter may carry and still fold (Vietnamese "ệ" has two); more is zalgo.
MAX_MARKS = 2

#: Ligatures and letters that fold to more than one letter in every language.
_EXPANSIONS: dict[str, str] = {"œ": "oe", "æ": "ae", "ĳ": "ij", "ß": "ss", "ẞ": "ss"}


@dataclass(frozen=True, slots=True)
class Language:
    """One playing language: its code, its name and its letters.

    ``alphabet`` lists the letters of the language's word games, lower-case, in the
    order tables show them: the 26 ASCII letters, then any letter of its own (German
    ``äöü``, Spanish ``ñ``). ``fold`` maps what players type onto those letters.
    """

    code: str
    name: str
    alphabet: str = ASCII_LETTERS
    _kept: frozenset[str] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_kept", frozenset(self.alphabet) - frozenset(ASCII_LETTERS))

    @property
    def spoken(self) -> str:
        """The language's name as the language being spoken says it (``Dutch``, ``néerlandais``,
        ``Niederländisch``): what players read. :attr:`name` is the English name, for code,
        option aliases and logs."""
        return spoken_name(self.code)

    @property
    def extra_letters(self) -> str:
        """The letters beyond a-z (``"äöü"`` for German), in alphabet order."""
        return "".join(ch for ch in self.alphabet if ch not in ASCII_LETTERS)

    def fold(self, text: str, *, multiword: bool = False) -> str | None:
        """Fold an answer to this language's lower-case letters, or None if it is no answer.

        Case folds; accents fold to the base letter unless the accented letter is one of
        the language's own (``ä`` in German, ``ñ`` in Spanish); ligatures and ß expand.
        Surrounding whitespace and trailing sentence punctuation are ignored. Digits,
        symbols, letters of other scripts, zero-width characters and more than two marks
        on one letter make the text no answer. With ``multiword`` single spaces between
        words are kept and a hyphen separates words like a space (``ice-cream`` -> ``ice cream``).
        """
        text = text.strip().rstrip(".!?")
        if not text or len(text) > 100:
            return None
        if text.isascii() and text.isalpha():
            return text.lower()  # the common case, without the Unicode walk below
        kept = self._kept
        out: list[str] = []
        marks = 0
        for composed in unicodedata.normalize("NFC", text):
            low = composed.lower()
            if len(low) == 1 and low in kept:
                out.append(low)
                marks = 0
                continue
            expansion = _EXPANSIONS.get(low) or _EXPANSIONS.get(composed)
            if expansion is not None:
                out.append(expansion)
                marks = 0
                continue
            for ch in unicodedata.normalize("NFKD", composed):
                if unicodedata.combining(ch):
                    marks += 1
                    if marks > MAX_MARKS:
                        return None  # a pile of marks is zalgo text, not an accent
                    continue
                marks = 0
                if "a" <= ch <= "z":
                    out.append(ch)
                elif "A" <= ch <= "Z":
                    out.append(ch.lower())
                elif (ch == " " or ch == "-") and multiword:
                    if out and out[-1] != " ":
                        out.append(" ")
                else:
                    return None
        word = "".join(out).strip()
        return word or None

    def is_word(self, text: str) -> bool:
        """True if ``text`` is already folded: non-empty, only this language's letters."""
        return bool(text) and all(ch in self.alphabet for ch in text)


ENGLISH = Language("en", "English")

#: Every playing language by code, English first.
LANGUAGES: dict[str, Language] = {
    lang.code: lang
    for lang in (
        ENGLISH,
        Language("nl", "Dutch"),
        Language("fr", "French"),
        Language("de", "German", ASCII_LETTERS + "äöü"),
        Language("es", "Spanish", ASCII_LETTERS + "ñ"),
    )
}

#: Language codes in the order help texts list them.
LANGUAGE_CODES: tuple[str, ...] = tuple(LANGUAGES)


def language(code: str) -> Language:
    """The language for ``code`` (``en``, ``nl``, ``fr``, ``de``, ``es``; names work too).

    Raises ValueError with a reason players can read for anything else.
    """
    key = code.strip().lower()
    found = LANGUAGES.get(key)
    if found is None:
        for lang in LANGUAGES.values():
            if lang.name.lower() == key:
                return lang
        known = ", ".join(f"{c} ({lang.spoken})" for c, lang in LANGUAGES.items())
        if not code.strip():
            known_text = _("moji doesn't play in that language: it knows {languages}.", languages=known)
            raise ValueError(known_text)
        raise ValueError(
            _(
                "moji doesn't play in {language}: it knows {languages}.",
                language=repr(code.strip()),
                languages=known,
            )
        )
    return found


def spoken_name(code: str) -> str:
    """The name of the playing language ``code`` in the language being spoken (the code itself
    for an unknown one)."""
    names = {
        "en": _p("language", "English"),
        "nl": _p("language", "Dutch"),
        "fr": _p("language", "French"),
        "de": _p("language", "German"),
        "es": _p("language", "Spanish"),
    }
    return names.get(code, code)
