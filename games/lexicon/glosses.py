"""What a word means: short glosses for ``define``, hints and computer players' words.

>>> from games.lexicon.glosses import gloss, meaning
>>> gloss("zebra")
'any of several fleet black-and-white striped African equines'
>>> meaning("dogs").base
'dog'

English glosses come from WordNet 3.0; German, French, Spanish and Dutch "glosses" are English
translations from Ding and FreeDict (see docs/LEXICON.md, "What a word means"). The data
files (``data/glosses-CODE.dat.gz``, built by :mod:`games.lexicon.build_glosses`) are read
on first use and kept as one block of bytes searched by binary search: no dict of every
word is built. Standard library only; never a network call.
"""

from __future__ import annotations

import gzip
import threading
from array import array
from dataclasses import dataclass
from pathlib import Path

from games.common.languages import LANGUAGES, Language, language

DATA_DIR = Path(__file__).resolve().parent / "data"
FORMAT = b"#moji-glosses 1"

#: English suffix rules to a base form (WordNet's "morphy" rules) with the part of speech of
#: the form, tried in order: nouns, verbs, adjectives. Irregular forms (MICE, WENT) and forms
#: these rules would get wrong (DOES) are in the data file itself.
_POS_RULES: tuple[tuple[str, str, str], ...] = (
    ("s", "", "noun"),
    ("ses", "s", "noun"),
    ("xes", "x", "noun"),
    ("zes", "z", "noun"),
    ("ches", "ch", "noun"),
    ("shes", "sh", "noun"),
    ("men", "man", "noun"),
    ("ies", "y", "noun"),
    ("s", "", "verb"),
    ("ies", "y", "verb"),
    ("es", "e", "verb"),
    ("es", "", "verb"),
    ("ed", "e", "verb"),
    ("ed", "", "verb"),
    ("ing", "e", "verb"),
    ("ing", "", "verb"),
    ("er", "", "adj"),
    ("est", "", "adj"),
    ("er", "e", "adj"),
    ("est", "e", "adj"),
)
#: The rules without their part of speech, in order (the build emulates the reader with them).
_RULES: tuple[tuple[str, str], ...] = tuple(dict.fromkeys((s, e) for s, e, _ in _POS_RULES))


@dataclass(frozen=True, slots=True)
class Sense:
    """One meaning: its part of speech (``noun``, ``verb``, ``adj``, ``adv`` or ``""`` when
    the source doesn't say) and a short gloss (at most 80 characters)."""

    pos: str
    text: str


@dataclass(frozen=True, slots=True)
class Meaning:
    """What :func:`meaning` found: the folded word, the base form whose senses these are
    (None when they are the word's own: ``dogs`` -> ``dog``) and the senses, likeliest first."""

    word: str
    base: str | None
    senses: tuple[Sense, ...]

    @property
    def gloss(self) -> str:
        """The likeliest sense's gloss."""
        return self.senses[0].text


class Glosses:
    """One language's gloss file, read once (use :func:`load`)."""

    def __init__(self, path: Path, lang: Language) -> None:
        blob = gzip.decompress(path.read_bytes())
        header = blob[: blob.find(b"\n")]  # (not partition: that would copy the rest)
        if not header.startswith(FORMAT):
            raise ValueError(f"{path} is no moji gloss file (run `make lexicon`)")
        self.language = lang
        self._blob = blob
        starts = array("I")
        at = len(header) + 1
        end = len(blob)
        while at < end:
            starts.append(at)
            at = blob.index(b"\n", at) + 1
        self._starts = starts

    def __len__(self) -> int:
        return len(self._starts)

    def _line(self, word: str) -> list[str] | None:
        key = word.encode()
        blob, starts = self._blob, self._starts
        lo, hi = 0, len(starts)
        while lo < hi:
            mid = (lo + hi) // 2
            start = starts[mid]
            tab = blob.index(b"\t", start)
            found = blob[start:tab]
            if found < key:
                lo = mid + 1
            elif found > key:
                hi = mid
            else:
                return blob[tab + 1 : blob.index(b"\n", tab)].decode().split("\t")
        return None

    def _own(self, word: str) -> tuple[str | None, tuple[Sense, ...]] | None:
        fields = self._line(word)
        if fields is None:
            return None
        if fields == ["="]:
            return None, ()  # a word with no meaning the suffix rules must not guess one for
        if len(fields) == 1 and fields[0].startswith("="):
            base = fields[0][1:]
            target = self._line(base)
            if target is None or len(target) < 2:
                return None
            fields = target
            return base, tuple(Sense(fields[i], fields[i + 1]) for i in range(0, len(fields) - 1, 2))
        return None, tuple(Sense(fields[i], fields[i + 1]) for i in range(0, len(fields) - 1, 2))

    def meaning(self, word: str) -> Meaning | None:
        """The senses of ``word`` (folded here), or of the base an English inflected form
        comes from; None if the file knows neither."""
        folded = self.language.fold(word)
        if folded is None:
            return None
        own = self._own(folded)
        if own is not None:
            return Meaning(folded, own[0], own[1]) if own[1] else None
        if self.language.code != "en":
            return None
        for suffix, ending in _RULES:
            if folded.endswith(suffix) and len(folded) > len(suffix) + 1:
                base = folded[: len(folded) - len(suffix)] + ending
                found = self._own(base)
                if found is not None and found[1]:
                    # only the base's senses the form can have: HURTER is no form of the verb
                    kinds = {
                        p for s, e, p in _POS_RULES if folded.endswith(s) and folded[: -len(s)] + e == base
                    }
                    fitting = tuple(s for s in found[1] if s.pos in kinds)
                    return Meaning(folded, found[0] or base, fitting) if fitting else None
        return None


_lock = threading.Lock()
_loaded: dict[str, Glosses | None] = {}


def data_file(code: str) -> Path:
    """Where the gloss file of language ``code`` lives."""
    return DATA_DIR / f"glosses-{code}.dat.gz"


def load(code: str = "en") -> Glosses | None:
    """The glosses of language ``code`` (a code or name), read once and cached; None when no
    gloss file is shipped for it. ValueError for an unknown language."""
    lang = language(code)
    if lang.code in _loaded:
        return _loaded[lang.code]
    with _lock:
        if lang.code not in _loaded:
            path = data_file(lang.code)
            _loaded[lang.code] = Glosses(path, lang) if path.exists() else None
    return _loaded[lang.code]


def meaning(word: str, language: str = "en") -> Meaning | None:
    """What ``word`` means in ``language``: its senses, likeliest first (None if unknown)."""
    glosses = load(language)
    return glosses.meaning(word) if glosses is not None else None


def gloss(word: str, language: str = "en") -> str | None:
    """The likeliest sense of ``word`` in ``language`` as a short phrase, or None if unknown.

    English: WordNet's gloss (``gloss("zebra")``); other languages: the English translation
    (``gloss("haus", "de")`` -> ``"home"``)."""
    found = meaning(word, language)
    return found.gloss if found is not None else None


def shipped(language: str) -> bool:
    """True if moji ships glosses for ``language``."""
    return load(language) is not None


def languages() -> tuple[str, ...]:
    """The codes of the languages moji ships glosses for."""
    return tuple(code for code in LANGUAGES if data_file(code).exists())
