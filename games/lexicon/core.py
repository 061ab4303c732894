"""The run-time lexicon: loading the data file, judging words, letter queries and examples."""

from __future__ import annotations

import gzip
import json
import re
import sys
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from itertools import combinations
from pathlib import Path
from typing import overload

from games.common.languages import ENGLISH, Language
from games.common.languages import language as _language
from games.common.placement import Placement, match_letters
from games.common.speech import N_, _, _n, current, listing
from games.common.words import (
    LIFTING_THEMES,
    MULTIWORD_THEMES,
    NEEDS_VOTE,
    THEME_WORDS,
    TITLE_THEMES,
    Verdict,
    WordRules,
    normalize,
)
from games.lexicon import _format as F

DATA_DIR = Path(__file__).resolve().parent / "data"
DATA_FILE = DATA_DIR / "lexicon.dat.gz"


def data_file(code: str) -> Path:
    """The data file of language ``code`` (English's is ``lexicon.dat.gz``)."""
    return DATA_FILE if code == ENGLISH.code else DATA_DIR / f"lexicon-{code}.dat.gz"


#: The dictionaries :func:`load` knows.
DICTIONARIES: tuple[str, ...] = ("casual", "tournament")

#: Why a lexicon of another language refuses rules with themes.
THEMES_ENGLISH_ONLY = "Themes are English-only for now."

#: Bans a lifting theme (movies, food, books, persons) lifts.
LIFTED_BANS = frozenset({"proper", "names", "non-place", "plural-s", "ing", "ed"})

#: Themes whose words may be rows of their own, outside both dictionaries (see _format).
_THEME_ONLY_BITS = F.FOOD | F.ANIMAL

#: Curated lists under data/ (persons.txt adds people of the last decades to WordNet's names).
_THEME_LISTS = {"movies": "movies.txt", "books": "books.txt", "persons": "persons.txt"}

_PLACEMENTS = (Placement.ANYWHERE, Placement.FIRST_OR_LAST, Placement.FIRST_AND_LAST, Placement.IN_BETWEEN)
#: ``Verdict(...)`` without the named tuple's Python-level ``__new__`` (3x faster; hot path).
_new_verdict: Callable[[type[Verdict], tuple[bool, str | None, str]], Verdict] = tuple.__new__
_VERDICT_CACHE = 50_000  # verdicts kept per rule set
_TOURNAMENT_PLAIN = F.TOURNAMENT_PLAIN
_BASE_STRIP_SHIFT, _BASE_END_SHIFT, _BASE_LISTED = F.BASE_STRIP_SHIFT, F.BASE_END_SHIFT, F.BASE_LISTED
_BASE_ENDINGS = F.BASE_ENDINGS
assert F.BASE_STRIP_MASK == F.BASE_END_MASK == 7
_MAX_LEN = 24  # words longer than this share the last length bitmap


#: A word's lowest ban bit -> (reason code, its message, its message naming the base word or
#: None when no base is named). The lowest bit is the first ban in ``F.BAN_FLAGS`` order.
_BAN_TEXT: dict[int, tuple[str, str, str | None]] = {
    F.PROPER: ("proper", N_("{word} is a proper noun, banned in this game."), None),
    F.ABBREV: ("abbrev", N_("{word} is an abbreviation, banned in this game."), None),
    F.CONTRACTION: ("contraction", N_("{word} is a contraction, banned in this game."), None),
    F.FOREIGN: ("foreign", N_("{word} is a foreign word, banned in this game."), None),
    F.PLURAL_S: (
        "plural-s",
        N_("{word} is a plural ending in -s, banned in this game."),
        # TRANSLATORS: {base} is the word {word} is the plural of (CATS from CAT).
        N_("{word} is a plural ending in -s (from {base}), banned in this game."),
    ),
    F.ING: (
        "ing",
        N_("{word} is a verb ending in -ing, banned in this game."),
        # TRANSLATORS: {base} is the verb {word} comes from (WALKING from WALK).
        N_("{word} is a verb ending in -ing (from {base}), banned in this game."),
    ),
    F.ED: (
        "ed",
        N_("{word} is past tense ending in -ed, banned in this game."),
        # TRANSLATORS: {base} is the verb {word} comes from (WALKED from WALK).
        N_("{word} is past tense ending in -ed (from {base}), banned in this game."),
    ),
    F.PERSONAL_NAME: ("names", N_("{word} is a personal name, banned in this game."), None),
    F.NON_PLACE: ("non-place", N_("{word} is a proper noun (not a place), banned in this game."), None),
}
assert list(F.BAN_FLAGS.values()) == sorted(F.BAN_FLAGS.values()) == sorted(_BAN_TEXT)

#: (playing language, dictionary) -> (a word in it, a word not in it): whole sentences, as the
#: language's name is an adjective in many languages. A language missing here: _DICTIONARY_NAMED.
_DICTIONARY_TEXT: dict[tuple[str, str], tuple[str, str]] = {
    ("en", "casual"): (N_("{word} is in the casual dictionary."), N_("{word} isn't in the dictionary.")),
    ("en", "tournament"): (
        N_("{word} is in the tournament dictionary."),
        N_("{word} isn't in the tournament dictionary."),
    ),
    ("nl", "casual"): (
        N_("{word} is in the Dutch casual dictionary."),
        N_("{word} isn't in the Dutch dictionary."),
    ),
    ("nl", "tournament"): (
        N_("{word} is in the Dutch tournament dictionary."),
        N_("{word} isn't in the Dutch tournament dictionary."),
    ),
    ("fr", "casual"): (
        N_("{word} is in the French casual dictionary."),
        N_("{word} isn't in the French dictionary."),
    ),
    ("fr", "tournament"): (
        N_("{word} is in the French tournament dictionary."),
        N_("{word} isn't in the French tournament dictionary."),
    ),
    ("de", "casual"): (
        N_("{word} is in the German casual dictionary."),
        N_("{word} isn't in the German dictionary."),
    ),
    ("de", "tournament"): (
        N_("{word} is in the German tournament dictionary."),
        N_("{word} isn't in the German tournament dictionary."),
    ),
    ("es", "casual"): (
        N_("{word} is in the Spanish casual dictionary."),
        N_("{word} isn't in the Spanish dictionary."),
    ),
    ("es", "tournament"): (
        N_("{word} is in the Spanish tournament dictionary."),
        N_("{word} isn't in the Spanish tournament dictionary."),
    ),
}
#: The same for any other playing language, named by :attr:`Language.spoken` as a noun.
_DICTIONARY_NAMED: dict[str, tuple[str, str]] = {
    "casual": (
        N_("{word} is in the casual dictionary ({language})."),
        N_("{word} isn't in the dictionary ({language})."),
    ),
    "tournament": (
        N_("{word} is in the tournament dictionary ({language})."),
        N_("{word} isn't in the tournament dictionary ({language})."),
    ),
}

#: Stand-ins for the word and its base in messages translated once and kept (see _Spoken).
_W, _B = "\x00", "\x01"


def _themes_text(themes: Iterable[str]) -> str:
    """``a noun or a verb`` in the language being spoken."""
    return listing((_(THEME_WORDS[t]) for t in sorted(themes)), style="or")


def _split(message: str) -> tuple[str, str]:
    """A message translated with the word left out: what comes before and after it."""
    before, __, after = message.partition(_W)
    return before, after


@dataclass(slots=True)
class _Spoken:
    """A compiled rule set's messages in one spoken language, and its verdicts in it."""

    ok: tuple[str, str]  # ("", " is in the casual dictionary.")
    unknown: str  # "\x00 isn't in the dictionary."
    theme_texts: tuple[tuple[int, str, str], ...]  # (theme bit, "", " is a noun.") by theme name
    not_theme: tuple[str, str]  # ("", " is not a noun or a verb.")
    verdicts: dict[str, Verdict] = field(default_factory=dict)  # judged words, bounded


#: Spoken language -> ban bit -> (reason code, message, message with the base or None), the
#: messages with the stand-ins _W and _B.
_BANS_SPOKEN: dict[str, dict[int, tuple[str, str, str | None]]] = {}


def _bans_spoken(code: str) -> dict[int, tuple[str, str, str | None]]:
    found = _BANS_SPOKEN.get(code)
    if found is None:
        found = {
            bit: (reason, _(plain, word=_W), None if based is None else _(based, word=_W, base=_B))
            for bit, (reason, plain, based) in _BAN_TEXT.items()
        }
        _BANS_SPOKEN[code] = found
    return found


@dataclass(frozen=True, slots=True)
class _Compiled:
    """A :class:`WordRules` turned into bit masks (cached per rules object)."""

    rules: WordRules
    dictionary: str
    dict_bit: int
    min_length: int
    ban_mask: int
    theme_mask: int
    title_themes: frozenset[str]
    data_themes: frozenset[str]
    multiword: bool
    added: frozenset[str]
    banned: frozenset[str]
    inline_bit: int  # dict_bit when the judge's inline path applies (no title themes), else 0
    theme_bits: tuple[int, ...]  # the bits of the data themes, by theme name
    entries: Mapping[str, int]  # the dictionary's own words -> info (for the inline path)
    spoken: dict[str, _Spoken] = field(default_factory=dict)  # by the language spoken


class _CompactInfo(Mapping[str, int]):
    """Word -> info over the data file's own bytes, without a Python object per word.

    The other languages' files store their words ordered by UTF-8 length, then bytes, each
    followed by a newline (see :mod:`games.lexicon.build_lang`): every length is a block of
    fixed-width records, binary-searched here. A dict of 700,000 Spanish words would take
    70 MB; this takes the size of the text plus four bytes a word.
    """

    def __init__(self, blob: bytes, blocks: list[list[int]], info: array[int]) -> None:
        self._blob = blob
        self._info = info
        self._blocks: dict[int, tuple[int, int, int]] = {}  # byte length -> (first index, count, offset)
        first = offset = 0
        for size, count in blocks:
            self._blocks[size] = (first, count, offset)
            first += count
            offset += count * (size + 1)
        self._len = first

    def get(self, word: str, default: int | None = None) -> int | None:  # type: ignore[override]
        if not isinstance(word, str):
            return default
        key = word.encode("utf-8", "replace")
        found = self._blocks.get(len(key))
        if found is None:
            return default
        first, count, offset = found
        width = len(key) + 1
        blob = self._blob
        lo, hi = 0, count
        while lo < hi:
            mid = (lo + hi) >> 1
            at = offset + mid * width
            probe = blob[at : at + width - 1]
            if probe < key:
                lo = mid + 1
            elif probe > key:
                hi = mid
            else:
                return self._info[first + mid]
        return default

    def __getitem__(self, word: str) -> int:
        found = self.get(word)
        if found is None:
            raise KeyError(word)
        return found

    def __contains__(self, word: object) -> bool:
        return isinstance(word, str) and self.get(word) is not None

    def __len__(self) -> int:
        return self._len

    def count(self, bit: int) -> int:
        """How many words have ``bit`` in their info."""
        return sum(1 for v in self._info if v & bit)

    def __iter__(self) -> Iterator[str]:
        for word, _info in self.items():
            yield word

    def items(self) -> Iterator[tuple[str, int]]:  # type: ignore[override]
        info = self._info
        for size, (first, count, offset) in self._blocks.items():
            text = self._blob[offset : offset + count * (size + 1)].decode("utf-8")
            for i, word in enumerate(text.split("\n")[:count]):
                yield word, info[first + i]

    def items_with(self, bit: int) -> Iterator[tuple[str, int]]:
        """The (word, info) pairs whose info has ``bit``, without a string for the others."""
        info, blob = self._info, self._blob
        for size, (first, count, offset) in self._blocks.items():
            width = size + 1
            for i in range(count):
                v = info[first + i]
                if v & bit:
                    at = offset + i * width
                    yield blob[at : at + size].decode("utf-8"), v

    def ordered(self, bit: int) -> tuple[_BlobWords, array[int]]:
        """Words whose info has ``bit``, most common first (ties: shorter, then by bytes), and their zipf."""
        info = self._info
        buckets: dict[int, tuple[array[int], array[int]]] = {}
        for size, (first, count, offset) in self._blocks.items():
            width = size + 1
            for i in range(count):
                v = info[first + i]
                if v & bit:
                    z = v >> F.ZIPF_SHIFT & F.ZIPF_MASK
                    bucket = buckets.get(z)
                    if bucket is None:
                        bucket = buckets[z] = (array("I"), array("H"))
                    bucket[0].append(offset + i * width)
                    bucket[1].append(size)
        offsets, sizes, zipf = array("I"), array("H"), array("B")
        for z in sorted(buckets, reverse=True):
            offs, lengths = buckets[z]
            offsets.extend(offs)
            sizes.extend(lengths)
            zipf.frombytes(bytes([z]) * len(offs))
        return _BlobWords(self._blob, offsets, sizes), zipf


class _BlobWords(Sequence[str]):
    """Words read from the data file's bytes by position (4 + 2 bytes a word instead of a string)."""

    def __init__(self, blob: bytes, offsets: array[int], sizes: array[int]) -> None:
        self._blob, self._offsets, self._sizes = blob, offsets, sizes

    def __len__(self) -> int:
        return len(self._offsets)

    @overload
    def __getitem__(self, i: int) -> str: ...
    @overload
    def __getitem__(self, i: slice) -> list[str]: ...
    def __getitem__(self, i: int | slice) -> str | list[str]:
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        at = self._offsets[i]
        return self._blob[at : at + self._sizes[i]].decode("utf-8")

    def __iter__(self) -> Iterator[str]:
        blob = self._blob
        for at, size in zip(self._offsets, self._sizes, strict=True):
            yield blob[at : at + size].decode("utf-8")


def _items_with(info: Mapping[str, int], bit: int) -> Iterator[tuple[str, int]]:
    """The entries of ``info`` whose value has ``bit``."""
    if isinstance(info, _CompactInfo):
        return info.items_with(bit)
    return ((w, v) for w, v in info.items() if v & bit)


class _Data:
    """The decoded data file, shared by both dictionaries. Big parts are parsed on first use."""

    def __init__(self, path: Path) -> None:
        raw = gzip.decompress(path.read_bytes())
        self.sections = F.unpack_sections(raw)
        info = array("I")
        info.frombytes(self.sections.pop("info"))
        if sys.byteorder != "little":
            info.byteswap()
        self.info: Mapping[str, int]
        if "blocks" in self.sections:
            blocks = json.loads(self.sections.pop("blocks"))
            self.info = _CompactInfo(self.sections.pop("words"), blocks, info)
        else:
            words = self.sections.pop("words").decode("ascii").split("\n")
            shared = {v: v for v in set(info)}  # one int object per distinct value keeps memory down
            self.info = dict(zip(words, map(shared.__getitem__, info), strict=True))
        self.lock = threading.Lock()
        self._entries: dict[int, Mapping[str, int]] = {}
        self._theme_only: tuple[_Order, dict[str, tuple[str, int]]] | None = None

    def entries(self, dict_bit: int) -> Mapping[str, int]:
        """The words of one dictionary with their info (built on first use, then shared).

        The judge's inline path looks words up here: the casual dictionary's own table is
        a third the size of the whole one, so a first-time word finds it in the CPU cache
        far more often. A dictionary holding most of the entries just uses the whole table.
        """
        found = self._entries.get(dict_bit)
        if found is None:
            with self.lock:
                found = self._entries.get(dict_bit)
                if found is None:
                    info = self.info
                    if isinstance(info, _CompactInfo) and info.count(dict_bit) > len(info) // 2:
                        found = info  # never a dict of every word (see _CompactInfo)
                    else:
                        found = dict(_items_with(info, dict_bit))
                        if len(found) > len(info) // 2:
                            found = info
                    self._entries[dict_bit] = found
        return found

    def theme_only(self, alphabet: str) -> tuple[_Order, dict[str, tuple[str, int]]]:
        """The food and animal rows no dictionary lists (``ice cream``, ``acai``), which the judge
        accepts under their theme only: their letters (spaces left out) in a :class:`_Order` for
        example searches, and each one's row (its spelling and info). Built on first use."""
        found = self._theme_only
        if found is None:
            with self.lock:
                found = self._theme_only
                if found is None:
                    dicts = F.CASUAL | F.TOURNAMENT
                    rows: dict[str, tuple[str, int]] = {}
                    for word, info in self.info.items():
                        if info & _THEME_ONLY_BITS and not info & dicts:
                            rows.setdefault(word.replace(" ", ""), (word, info))
                    letters = {flat: info | F.CASUAL for flat, (_word, info) in rows.items()}
                    found = self._theme_only = (_Order(letters, F.CASUAL, alphabet), rows)
        return found

    @cached_property
    def bases(self) -> dict[str, str]:
        text = self.sections["bases"].decode("ascii")
        return dict(line.split("\t", 1) for line in text.split("\n")) if text else {}

    @cached_property
    def persons(self) -> frozenset[str]:
        """WordNet's person instances and the curated ``persons.txt``, matched alike (English only)."""
        text = self.sections["persons"].decode("ascii")
        if not text:
            return frozenset()  # themes are English-only: no names outside English
        return frozenset(text.split("\n")) | self.titles["persons"]

    @cached_property
    def tables(self) -> dict[str, dict[str, int]]:
        tables: dict[str, dict[str, int]] = json.loads(self.sections["tables"])
        return tables

    @cached_property
    def joined(self) -> dict[str, str]:
        """Multi-word theme rows by their letters run together: ``icecream`` -> ``ice cream``."""
        return {w.replace(" ", ""): w for w in sorted(self.info) if " " in w}

    @cached_property
    def meta(self) -> dict[str, object]:
        meta: dict[str, object] = json.loads(self.sections["meta"])
        return meta

    @cached_property
    def titles(self) -> dict[str, frozenset[str]]:
        out: dict[str, frozenset[str]] = {}
        for theme, name in _THEME_LISTS.items():
            entries: set[str] = set()
            path = DATA_DIR / name
            if path.exists():
                for line in path.read_text("utf-8").splitlines():
                    line = line.split("#", 1)[0].strip()
                    if not line:
                        continue
                    for variant in line.split("|"):
                        folded = _fold_title(variant)
                        if folded:
                            entries.add(folded)
                            head, _sep, rest = folded.partition(" ")
                            if head in ("the", "a", "an") and rest and theme != "persons":
                                entries.add(rest)
            out[theme] = frozenset(entries)
        return out


def _fold_title(text: str) -> str | None:
    """A title or name as players would type it: letters and single spaces only."""
    cleaned = "".join(
        ch if ch.isalnum() or ch == " " else " " for ch in text.replace("'", "").replace("&", "and")
    )
    return normalize(" ".join(cleaned.split()), multiword=True)


_NONZERO = re.compile(rb"[^\x00]")


def _iter_bits(bits: int, nbytes: int) -> Iterator[int]:
    """Indices of the set bits of ``bits``, lowest first (C speed over the zero bytes)."""
    data = bits.to_bytes(nbytes, "little")
    for match in _NONZERO.finditer(data):
        i = match.start()
        byte = data[i]
        base = i * 8
        while byte:
            low = byte & -byte
            yield base + low.bit_length() - 1
            byte ^= low


class _Order:
    """One dictionary's words, most common first, with letter bitmaps for fast example searches."""

    def __init__(self, info: Mapping[str, int], dict_bit: int, alphabet: str) -> None:
        shift, mask = F.ZIPF_SHIFT, F.ZIPF_MASK
        #: Letter -> bitmap index (the language's alphabet: German ä ö ü and Spanish ñ count).
        self.index: dict[str, int] = {ch: k for k, ch in enumerate(alphabet)}
        self.alphabet = alphabet
        index = self.index
        self.words: Sequence[str]
        self.zipf: Sequence[int]
        if isinstance(info, _CompactInfo):
            # No list of strings: a word is decoded from the data file's bytes when asked for.
            self.words, self.zipf = info.ordered(dict_bit)
        else:
            entries = sorted((-((v >> shift) & mask), w) for w, v in _items_with(info, dict_bit))
            self.words = [w for _zipf, w in entries]
            self.zipf = [-z for z, _word in entries]
        n = len(self.words)
        once = [bytearray((n + 7) // 8) for _letter in alphabet]
        twice = [bytearray((n + 7) // 8) for _letter in alphabet]
        for i, word in enumerate(self.words):
            byte, bit = i >> 3, 1 << (i & 7)
            seen = 0
            for ch in word:
                k = index[ch]
                flag = 1 << k
                if seen & flag:
                    twice[k][byte] |= bit
                else:
                    seen |= flag
                    once[k][byte] |= bit
        self.once: list[int] = [int.from_bytes(b, "little") for b in once]
        self.twice: list[int] = [int.from_bytes(b, "little") for b in twice]
        self.all: int = (1 << n) - 1
        self.nbytes = (n + 7) // 8
        by_length = [bytearray(self.nbytes) for _size in range(_MAX_LEN + 1)]
        for i, word in enumerate(self.words):
            by_length[min(len(word), _MAX_LEN)][i >> 3] |= 1 << (i & 7)
        self.up_to: list[int] = []  # up_to[n]: words of at most n letters
        acc = 0
        for b in by_length:
            acc |= int.from_bytes(b, "little")
            self.up_to.append(acc)

    def shorter(self, size: int) -> int:
        """Bitmap of the words of at most ``size`` letters."""
        return self.up_to[size] if size < _MAX_LEN else self.all

    def candidates(self, letters: Counter[str]) -> int:
        """Bitmap of the words containing at least two of ``letters`` (a multiset)."""
        index = self.index
        keys = [index[ch] for ch in letters]
        bits = 0
        for a, b in combinations(keys, 2):
            bits |= self.once[a] & self.once[b]
        for ch, n in letters.items():
            if n > 1:
                bits |= self.twice[index[ch]]
        return bits


class Lexicon:
    """A dictionary plus the judge, letter queries and example finder.

    Implements :class:`games.common.words.WordJudge`. ``name`` is the dictionary
    used by the helpers that take no rules (:meth:`contains`, :meth:`has_pair`…);
    :meth:`judge` and :meth:`examples` honour ``rules.dictionary``. ``language`` is
    the :class:`~games.common.languages.Language` whose words it holds: the judge
    folds what players type by it, and letter queries use its alphabet.
    """

    def __init__(self, name: str, data: _Data, lang: Language = ENGLISH) -> None:
        if name not in F.DICT_FLAGS:
            raise ValueError(_unknown_dictionary(name))
        self.name = name
        self.language = lang
        self._english = lang.code == ENGLISH.code
        #: How typed text folds: English keeps its own normalize (unchanged behaviour).
        self._fold: Callable[..., str | None] = normalize if self._english else self._fold_language
        self._data = data
        self._info = data.info
        self._bit = F.DICT_FLAGS[name]
        self._compiled: dict[int, _Compiled] = {}
        self._orders: dict[str, _Order] = {}
        self._tables: dict[tuple[Placement, bool, str | None], dict[str, int]] = {}
        self._pair_tables: tuple[dict[str, int], ...] | None = None

    def _fold_language(self, text: str, *, multiword: bool = False) -> str | None:
        # Apostrophes go (aujourd'hui -> aujourdhui, auto's -> autos): the data stores words without them.
        return self.language.fold(text.replace("'", "").replace("\u2019", ""), multiword=multiword)

    def fold(self, text: str, *, multiword: bool = False) -> str | None:
        """Fold typed text as the judge does (``Straße`` -> ``strasse`` in German), or None.

        English: :func:`games.common.words.normalize`; another language: its
        :meth:`~games.common.languages.Language.fold` after dropping apostrophes.
        """
        return self._fold(text, multiword=multiword)

    def __repr__(self) -> str:
        return f"<Lexicon {self.name}>" if self._english else f"<Lexicon {self.name} {self.language.code}>"

    # --- simple queries ---

    def contains(self, word: str) -> bool:
        """True if ``word`` (folded: lower-case letters of the language) is a plain word of this dictionary.

        Proper nouns, abbreviations and contractions are not plain words; foreign
        words and inflections are (bans decide about those).
        """
        info = self._info.get(word, 0)
        return bool(info & self._bit) and not F.effective(info, self._bit) & F.NAME_FLAGS

    def zipf(self, word: str) -> float:
        """How common ``word`` is (wordfreq's Zipf scale, 0 if unknown, about 7 for "the")."""
        return ((self._info.get(word, 0) >> F.ZIPF_SHIFT) & F.ZIPF_MASK) / 10

    def prepare(self) -> Lexicon:
        """Do now the work otherwise done on first use (about 0.5 s for casual, 1.5 s for tournament).

        Parses the lazy sections and builds this dictionary's letter bitmaps, so that a
        server can pay the cost at start-up instead of during a game's first examples call.
        """
        data = self._data
        _ = (data.bases, data.persons, data.tables, data.titles, data.entries(self._bit))
        self._order(self.name)
        return self

    def words(self, dictionary: str | None = None) -> list[str]:
        """Every entry of the dictionary (this one by default), most common first.

        Includes the entries the bans are about (proper nouns, abbreviations…).
        """
        return list(self._order(dictionary or self.name).words)

    def base(self, word: str) -> str | None:
        """The word an -s/-ing/-ed form inflects (``walked`` -> ``walk``), or None."""
        info = self._info.get(word, 0)
        if info & F.BASE_LISTED:
            return self._data.bases.get(word)
        return F.decode_base(word, info)

    def answer(self, word: str, rules: WordRules) -> str:
        """The one spelling of a normalised answer under ``rules``: a food or animal of
        several words typed run together is spelt with its spaces (``icecream`` -> ``ice
        cream``; ``ice-cream`` already folds to it), and one WordNet writes as one word is
        spelt as one (``honey bee`` -> ``honeybee``); anything else is returned unchanged."""
        if not rules.themes & {"food", "animals"} or rules.dictionary not in F.DICT_FLAGS:
            return word
        mask = self._compile(rules).theme_mask & _THEME_ONLY_BITS
        info = self._info
        if " " in word:
            if info.get(word, 0) & mask:
                return word
            joined = word.replace(" ", "")
            return joined if info.get(joined, 0) & mask else word
        if info.get(word, 0) & F.DICT_FLAGS[rules.dictionary]:
            return word
        spaced = self._data.joined.get(word)
        return spaced if spaced is not None and info[spaced] & mask else word

    def kinds(self, word: str) -> list[str]:
        """Ban codes and data themes that apply to ``word`` (for explanations)."""
        info = F.effective(self._info.get(word, 0), self._bit)
        out = [code for code, bit in F.BAN_FLAGS.items() if info & bit]
        out += [code for code, bit in F.THEME_FLAGS.items() if info & bit]
        if word in self._data.persons:
            out.append("persons")
        return out

    def name_kind(self, word: str) -> str | None:
        """What an entry the dictionary lists only capitalised names: "place", "person",
        "abbreviation" (or symbol: SN, XE), "other" (Monday, English, a brand); None for an
        everyday word (see :func:`games.lexicon._format.name_kind`)."""
        return F.name_kind(F.effective(self._info.get(word, 0), self._bit))

    def dictionaries(self, word: str) -> list[str]:
        """Names of the dictionaries that list ``word``."""
        info = self._info.get(word, 0)
        return [name for name, bit in F.DICT_FLAGS.items() if info & bit]

    def is_title(self, text: str, theme: str) -> bool:
        """True if ``text`` (normalised, spaces allowed) is a known movie/TV show, book or person.

        Persons are WordNet's names plus ``data/persons.txt`` (see :attr:`_Data.persons`).
        """
        if theme == "persons":
            return text in self._data.persons
        return text in self._data.titles.get(theme, frozenset())

    # --- judging ---

    def _compile(self, rules: WordRules) -> _Compiled:
        found = self._compiled.get(id(rules))
        if found is not None and found.rules is rules:
            return found
        if rules.dictionary not in F.DICT_FLAGS:
            raise ValueError(_unknown_dictionary(rules.dictionary))
        if rules.themes and not self._english:
            raise ValueError(THEMES_ENGLISH_ONLY)
        bans = set(rules.bans)
        if rules.themes & LIFTING_THEMES:
            bans -= LIFTED_BANS
        ban_mask = 0
        for code in bans:
            ban_mask |= F.BAN_FLAGS.get(code, 0)
        theme_mask = 0
        for theme in rules.themes:
            theme_mask |= F.THEME_FLAGS.get(theme, 0)
        compiled = _Compiled(
            rules=rules,
            dictionary=rules.dictionary,
            dict_bit=F.DICT_FLAGS[rules.dictionary],
            entries=self._data.entries(F.DICT_FLAGS[rules.dictionary]),
            min_length=rules.min_length,
            ban_mask=ban_mask,
            theme_mask=theme_mask,
            title_themes=rules.themes & TITLE_THEMES,
            data_themes=rules.themes - TITLE_THEMES,
            multiword=bool(rules.themes & MULTIWORD_THEMES),
            added=self._fold_all(rules.added),
            banned=self._fold_all(rules.banned),
            inline_bit=F.DICT_FLAGS[rules.dictionary]
            if not rules.themes & TITLE_THEMES and all(t in F.THEME_FLAGS for t in rules.themes)
            else 0,
            theme_bits=tuple(F.THEME_FLAGS[t] for t in sorted(rules.themes) if t in F.THEME_FLAGS),
        )
        if len(self._compiled) > 512:
            self._compiled.clear()
        self._compiled[id(rules)] = compiled
        return compiled

    def _speak(self, c: _Compiled, code: str) -> _Spoken:
        """``c``'s messages in the language being spoken (``code``), translated once."""
        texts = _DICTIONARY_TEXT.get((self.language.code, c.dictionary))
        if texts is None:
            ok, unknown = _DICTIONARY_NAMED[c.dictionary]
            ok, unknown = (
                _(ok, word=_W, language=self.language.spoken),
                _(unknown, word=_W, language=self.language.spoken),
            )
        else:
            ok, unknown = _(texts[0], word=_W), _(texts[1], word=_W)
        themes = sorted(t for t in c.rules.themes if t in F.THEME_FLAGS)
        spoken = _Spoken(
            ok=_split(ok),
            unknown=unknown,
            theme_texts=tuple(
                (F.THEME_FLAGS[t], *_split(_("{word} is {theme}.", word=_W, theme=_(THEME_WORDS[t]))))
                for t in themes
            ),
            not_theme=_split(self._not_theme(_W, c.data_themes)),
        )
        if len(c.spoken) > 64:
            c.spoken.clear()
        c.spoken[code] = spoken
        return spoken

    @staticmethod
    def _not_theme(shout: str, themes: Iterable[str]) -> str:
        # TRANSLATORS: {themes} is one or more of "a noun", "a verb", "food or drink"... joined by "or".
        return _("{word} is not {themes}.", word=shout, themes=_themes_text(themes))

    def _fold_all(self, words: Iterable[str]) -> frozenset[str]:
        """Workspace words as the judge compares them (folded by the language)."""
        if self._english:
            return frozenset(w.lower() for w in words)
        return frozenset(self._fold(w, multiword=True) or w.lower() for w in words)

    def judge(self, word: str, rules: WordRules) -> Verdict:
        """Judge ``word`` under ``rules``: ``Verdict(ok, reason_code, message)``.

        ``word`` should be folded by the language (:meth:`Language.fold
        <games.common.languages.Language.fold>`; English: :func:`games.common.words.normalize`);
        anything else is folded here (``Straße`` -> ``strasse`` in German), and text that
        is no answer gets the reason ``not-a-word``. Never raises for any text; raises
        ValueError for rules with themes in a language other than English.
        """
        c = self._compiled.get(id(rules))
        if c is None or c.rules is not rules:
            c = self._compile(rules)
        code = current()
        s = c.spoken.get(code)
        if s is None:
            s = self._speak(c, code)
        # The common cases inline, uncached (this runs for every new word a race player types,
        # so it touches as little memory as it can: one lookup in the dictionary's own
        # table, see _Data.entries): a dictionary entry (so normalised, one
        # word) that is banned, or allowed without themes, or inside or outside the word
        # data's themes. ``inline_bit`` is 0 when the rules need the full judge.
        info = c.entries.get(word)
        if info is not None and info & c.inline_bit and len(word) >= c.min_length and word not in c.banned:
            bad = info & c.ban_mask
            if bad and info & _TOURNAMENT_PLAIN:
                bad = F.effective(info, c.dict_bit) & c.ban_mask
            if bad:
                return self._ban_verdict(word, bad, info, code)
            if not c.theme_bits:
                head, tail = s.ok
                return _new_verdict(Verdict, (True, None, head + word.upper() + tail))
            if info & c.theme_mask:
                for bit, head, tail in s.theme_texts:
                    if info & bit:
                        return _new_verdict(Verdict, (True, None, head + word.upper() + tail))
            if word not in c.added:
                head, tail = s.not_theme
                return _new_verdict(Verdict, (False, "theme", head + word.upper() + tail))
        # Everything else (odd text, unknown words, title themes, workspace words): the full
        # judge, whose verdicts are kept per rule set and spoken language.
        verdicts = s.verdicts
        found = verdicts.get(word)
        if found is None:
            found = self._judge(word, c, s, code)
            if len(verdicts) >= _VERDICT_CACHE:
                verdicts.clear()
            verdicts[word] = found
        return found

    def _ban_verdict(self, word: str, bad: int, info: int, spoken: str) -> Verdict:
        code, plain, based = (_BANS_SPOKEN.get(spoken) or _bans_spoken(spoken))[bad & -bad]
        if based is None:
            return _new_verdict(Verdict, (False, code, plain.replace(_W, word.upper())))
        # The base is spelled by the word's own info (one lookup) unless it is irregular.
        strip = info >> _BASE_STRIP_SHIFT & 7
        if strip:
            base: str | None = word[:-strip] + _BASE_ENDINGS[info >> _BASE_END_SHIFT & 7]
        elif info & _BASE_LISTED:
            base = self._data.bases.get(word)
        else:
            base = None
        if base is None:
            return _new_verdict(Verdict, (False, code, plain.replace(_W, word.upper())))
        return _new_verdict(Verdict, (False, code, based.replace(_W, word.upper()).replace(_B, base.upper())))

    def _judge(self, word: str, c: _Compiled, s: _Spoken | None = None, spoken: str | None = None) -> Verdict:
        """The uncached judge, for any text and rules (in the language being spoken)."""
        if spoken is None:
            spoken = current()
        if s is None:
            s = c.spoken.get(spoken) or self._speak(c, spoken)
        if not (word.isascii() and word.isalpha() and word.islower()):
            folded = self._fold(word, multiword=True) if isinstance(word, str) else None
            if folded is not None and "-" in word and not c.multiword:
                folded = None  # a hyphen joins words only where answers may be several words
            if folded is None:
                shown = word.strip()[:40] if isinstance(word, str) else ""
                if not shown:
                    return Verdict(False, "not-a-word", _("That is not a word."))
                return Verdict(False, "not-a-word", _("{word} is not a word.", word=shown.upper()))
            word = folded
        shout = word.upper()
        if word in c.banned:
            return Verdict(False, "banned", _("{word} is banned in this workspace.", word=shout))
        letters = word.replace(" ", "") if " " in word else word
        if len(letters) < c.min_length:
            too_short = _n(
                "{word} is too short: words need at least {count} letter.",
                "{word} is too short: words need at least {count} letters.",
                c.min_length,
                word=shout,
            )
            return Verdict(False, "too-short", too_short)
        if c.title_themes:
            for theme in sorted(c.title_themes):
                if self.is_title(word, theme):
                    return Verdict(
                        True, None, _("{word} is {theme}.", word=shout, theme=_(THEME_WORDS[theme]))
                    )
        if " " in word:
            if not c.multiword:
                several = _(
                    "{word} is more than one word: only food & drink, animals, movies & TV, books "
                    "and famous persons may have several.",
                    word=shout,
                )
                return Verdict(False, "multiword", several)
            info = self._info.get(word)
            if info is not None and info & c.theme_mask & _THEME_ONLY_BITS:
                pass  # a food or animal of several words (ice cream): bans and themes below
            elif (self._info.get(word.replace(" ", ""), 0) & c.theme_mask & _THEME_ONLY_BITS) and (
                word not in c.added
            ):
                return self._judge(word.replace(" ", ""), c, s, spoken)  # honey bee: honeybee
            elif word in c.added and not c.data_themes:
                return Verdict(True, None, _("{word} is on this workspace's word list.", word=shout))
            elif c.title_themes or word in c.added:
                return self._vote(shout, c.title_themes or c.data_themes)
            else:
                # TRANSLATORS: {themes} is one or more of "a noun", "food or drink"... joined by "or".
                unknown = _(
                    "{word} is not {themes} the lexicon knows.",
                    word=shout,
                    themes=_themes_text(c.data_themes),
                )
                return Verdict(False, "theme", unknown)
        else:
            info = self._info.get(word)
        if info is None or not info & c.dict_bit:
            if word in c.added:
                info = info or 0
            elif info is not None and info & c.theme_mask & _THEME_ONLY_BITS:
                pass  # a food or animal WordNet knows that the dictionary lacks
            elif c.theme_mask & _THEME_ONLY_BITS and word in self._data.joined:
                return self._judge(self._data.joined[word], c, s, spoken)  # icecream: ice cream
            elif c.title_themes:
                return self._vote(shout, c.title_themes)
            else:
                return Verdict(False, "unknown", s.unknown.replace(_W, shout))
        bad = info & c.ban_mask
        if bad and info & F.TOURNAMENT_PLAIN:
            bad = F.effective(info, c.dict_bit) & c.ban_mask
        if bad:
            return self._ban_verdict(word, bad, info, spoken)
        if c.data_themes or c.title_themes:
            if info & c.theme_mask:
                for theme in sorted(c.data_themes):
                    if info & F.THEME_FLAGS[theme]:
                        return Verdict(
                            True, None, _("{word} is {theme}.", word=shout, theme=_(THEME_WORDS[theme]))
                        )
            if c.title_themes:
                return self._vote(shout, c.title_themes)
            if word in c.added and not info & (F.NOUN | F.VERB | F.ADJ):
                # A workspace word the data knows nothing about: let the players decide.
                return self._vote(shout, c.data_themes)
            return Verdict(False, "theme", self._not_theme(shout, c.data_themes))
        if word in c.added and not info & c.dict_bit:
            return Verdict(True, None, _("{word} is on this workspace's word list.", word=shout))
        head, tail = s.ok
        return Verdict(True, None, head + shout + tail)

    @staticmethod
    def _vote(shout: str, themes: Iterable[str]) -> Verdict:
        # TRANSLATORS: {themes} is one or more of "a noun", "a book", "a famous person"... joined by "or".
        vote = _(
            "The lexicon doesn't know {word} as {themes}: the other players can vote on it.",
            word=shout,
            themes=_themes_text(themes),
        )
        return Verdict(False, NEEDS_VOTE, vote)

    # --- letter queries ---

    def _table(self, placement: Placement | str, strict: bool, dictionary: str | None) -> dict[str, int]:
        name = dictionary or self.name
        if name not in F.DICT_FLAGS:
            raise ValueError(_unknown_dictionary(name))
        if isinstance(placement, Placement):
            value = placement.value
        else:
            value = placement if placement == "triple" else Placement.parse(placement).value
        return self._data.tables[F.table_key(name, strict, value)]

    def has_pair(
        self,
        x: str,
        y: str,
        placement: Placement | str = Placement.ANYWHERE,
        *,
        strict: bool = False,
        min_length: int = 2,
        dictionary: str | None = None,
    ) -> bool:
        """Is there an allowed word that claims face-up letters ``x`` and ``y`` under ``placement``?

        Exactly :func:`games.common.placement.match_letters` with two face-up
        cards, over the words allowed with the default bans (proper nouns,
        abbreviations, contractions, foreign words), or with every ban when
        ``strict``. ``x == y`` means two cards of that letter.
        """
        table = self._pair_table(placement, strict, dictionary)
        return table.get(x + y if x <= y else y + x, 0) >= min_length

    def _pair_table(self, placement: Placement | str, strict: bool, dictionary: str | None) -> dict[str, int]:
        if not strict and dictionary is None:
            # The common case, without hashing an Enum: this dictionary, default bans.
            tables = self._pair_tables
            if tables is None:
                tables = self._pair_tables = tuple(self._sorted_table(p, False, None) for p in _PLACEMENTS)
            if placement is Placement.ANYWHERE:
                return tables[0]
            if placement is Placement.FIRST_OR_LAST:
                return tables[1]
            if placement is Placement.FIRST_AND_LAST:
                return tables[2]
            if placement is Placement.IN_BETWEEN:
                return tables[3]
        if not isinstance(placement, Placement):
            placement = Placement.parse(placement)
        return self._sorted_table(placement, strict, dictionary)

    def _sorted_table(self, placement: Placement, strict: bool, dictionary: str | None) -> dict[str, int]:
        """A pair table keyed by the sorted pair (first-or-last tables are ordered: merge them)."""
        key3 = (placement, strict, dictionary)
        table = self._tables.get(key3)
        if table is None:
            raw = self._table(placement, strict, dictionary)
            if placement is Placement.FIRST_OR_LAST:
                table = {}
                for key, length in raw.items():
                    pair = key if key[0] <= key[1] else key[1] + key[0]
                    table[pair] = max(table.get(pair, 0), length)
            else:
                table = raw
            self._tables[key3] = table
        return table

    def has_triple(
        self,
        x: str,
        y: str,
        z: str,
        *,
        strict: bool = False,
        min_length: int = 2,
        dictionary: str | None = None,
    ) -> bool:
        """Is there an allowed word containing all of ``x``, ``y`` and ``z`` (a multiset) anywhere?"""
        key = "".join(sorted(x + y + z))
        return self._table("triple", strict, dictionary).get(key, 0) >= min_length

    def has_word(
        self,
        letters: Iterable[str],
        placement: Placement | str = Placement.ANYWHERE,
        *,
        strict: bool = False,
        min_length: int = 2,
        dictionary: str | None = None,
    ) -> bool:
        """Could any allowed word claim at least two of the face-up ``letters`` under ``placement``?

        Agrees with scanning every word through ``match_letters``; answered from
        the pair tables in microseconds.
        """
        table = self._pair_table(placement, strict, dictionary)
        pool = sorted(ch.lower() for ch in letters)
        n = len(pool)
        for i in range(n - 1):
            a = pool[i]
            for j in range(i + 1, n):
                if table.get(a + pool[j], 0) >= min_length:
                    return True
        return False

    # --- examples and racks ---

    def _order(self, dictionary: str) -> _Order:
        order = self._orders.get(dictionary)
        if order is None:
            if dictionary not in F.DICT_FLAGS:
                raise ValueError(_unknown_dictionary(dictionary))
            with self._data.lock:
                order = self._orders.get(dictionary)
                if order is None:
                    order = _Order(self._info, F.DICT_FLAGS[dictionary], self.language.alphabet)
                    self._orders[dictionary] = order
        return order

    def examples(
        self,
        letters: Sequence[str],
        rules: WordRules,
        placement: Placement = Placement.ANYWHERE,
        limit: int = 3,
    ) -> list[str]:
        """Common allowed words that claim at least two of the face-up ``letters``.

        Best first: most common, then most letters claimed. Every word returned
        passes :meth:`judge` under ``rules`` and ``match_letters`` under
        ``placement``. Title and person themes draw from their curated lists too.
        """
        if limit <= 0:
            return []
        c = self._compile(rules)
        alphabet = self.language.alphabet
        pool = Counter(ch.lower() for ch in letters if len(ch) == 1 and ch.lower() in alphabet)
        if sum(pool.values()) < 2:
            return []
        found: list[tuple[int, int, str]] = []
        if c.title_themes:
            for theme in sorted(c.title_themes):
                names = (
                    self._data.persons if theme == "persons" else self._data.titles.get(theme, frozenset())
                )
                for name in sorted(names):
                    flat = name.replace(" ", "")
                    if len(flat) < c.min_length:
                        continue
                    match = match_letters(flat, pool.elements(), placement)
                    if match.ok and self.judge(name, rules).ok:
                        z = 0 if " " in name else (self._info.get(name, 0) >> F.ZIPF_SHIFT) & F.ZIPF_MASK
                        found.append((z, sum(match.claimed.values()), name))
        elements = list(pool.elements())
        order = self._order(c.dictionary)
        # Title and person themes alone accept only their lists' entries, gathered above.
        bits = order.candidates(pool) if c.data_themes or not c.title_themes else 0
        words, zipfs = order.words, order.zipf
        last_zipf = -1
        hits = 0
        for i in _iter_bits(bits, order.nbytes):
            z = zipfs[i]
            if hits >= limit and z < last_zipf:
                break
            word = words[i]
            if len(word) < c.min_length:
                continue
            match = match_letters(word, elements, placement)
            if not match.ok or not self.judge(word, rules).ok:
                continue
            found.append((z, sum(match.claimed.values()), word))
            hits += 1
            last_zipf = z
        found.sort(key=lambda t: (-t[0], -t[1], t[2]))
        if c.theme_mask & _THEME_ONLY_BITS:
            found += self._theme_only_examples(c, rules, pool, elements, placement, found, limit)
            found.sort(key=lambda t: (-t[0], -t[1], t[2]))
        return [w for _a, _b, w in found[:limit]]

    def _theme_only_examples(
        self,
        c: _Compiled,
        rules: WordRules,
        pool: Counter[str],
        elements: list[str],
        placement: Placement,
        found: list[tuple[int, int, str]],
        limit: int,
    ) -> list[tuple[int, int, str]]:
        """The food and animals no dictionary lists (ICE CREAM) that the judge accepts under the
        theme and could still be among the ``limit`` best of ``found`` (sorted, best first)."""
        themed, rows = self._data.theme_only(self.language.alphabet)
        floor = found[limit - 1][0] if len(found) >= limit else -1
        out: list[tuple[int, int, str]] = []
        for i in _iter_bits(themed.candidates(pool), themed.nbytes):
            if themed.zipf[i] < floor:
                break  # most common first: nothing after this one can be among the best
            flat = themed.words[i]
            name, info = rows[flat]
            # a name of several words ranks last, as titles do: its phrase's frequency says
            # nothing of the food or animal (TWO YEAR OLD, a horse)
            z = 0 if " " in name else themed.zipf[i]
            if z < floor or not info & c.theme_mask or len(flat) < c.min_length:
                continue
            match = match_letters(flat, elements, placement)
            if match.ok and self.judge(name, rules).ok:
                out.append((z, sum(match.claimed.values()), name))
        return out

    def words_from(
        self, rack: str | Iterable[str], blanks: int = 0, rules: WordRules | None = None
    ) -> list[str]:
        """Every word placeable from the multiset ``rack`` plus ``blanks`` wildcards.

        Words must pass :meth:`judge` under ``rules`` (default: this dictionary,
        no bans, minimum length 2). Sorted longest first, then most common, then
        alphabetically.
        """
        rules = rules or WordRules(dictionary=self.name)
        c = self._compile(rules)
        alphabet = self.language.alphabet
        have = Counter(ch.lower() for ch in rack if len(ch) == 1 and ch.lower() in alphabet)
        blanks = max(0, blanks)
        size = sum(have.values()) + blanks
        order = self._order(c.dictionary)
        bits = order.shorter(size)
        outside = [k for k, ch in enumerate(order.alphabet) if ch not in have]
        if blanks == 0:
            for k in outside:
                bits &= ~order.once[k]
        elif blanks == 1:
            # At most one letter from outside the rack, used once.
            for n, a in enumerate(outside):
                bits &= ~order.twice[a]
                for b in outside[n + 1 :]:
                    bits &= ~(order.once[a] & order.once[b])
        out: list[tuple[int, int, str]] = []
        words, zipfs = order.words, order.zipf
        for i in _iter_bits(bits, order.nbytes):
            word = words[i]
            if len(word) < c.min_length:
                continue
            need = 0
            for ch in set(word):
                extra = word.count(ch) - have.get(ch, 0)
                if extra > 0:
                    need += extra
            if need > blanks or not self.judge(word, rules).ok:
                continue
            out.append((len(word), zipfs[i], word))
        out.sort(key=lambda t: (-t[0], -t[1], t[2]))
        return [w for _a, _b, w in out]


def _unknown_dictionary(name: str) -> str:
    return f"unknown dictionary {name!r}: choose one of {', '.join(DICTIONARIES)}"


_lock = threading.Lock()
_data: dict[str, _Data] = {}  # language code -> its data file, read once
_loaded: dict[tuple[str, str], Lexicon] = {}


def load(dictionary: str = "casual", language: str = "en") -> Lexicon:
    """The lexicon for ``dictionary`` ("casual" or "tournament") in ``language``, loaded once and cached.

    ``language`` is a code (``en``, ``nl``, ``fr``, ``de``, ``es``) or name; each
    language's data file is read on first use. Raises ValueError for an unknown
    dictionary or language, FileNotFoundError when the data file was never built.
    """
    found = _loaded.get((dictionary, language))
    if found is not None:
        return found
    if dictionary not in F.DICT_FLAGS:
        raise ValueError(_unknown_dictionary(dictionary))
    lang = _language(language)
    with _lock:
        data = _data.get(lang.code)
        if data is None:
            path = data_file(lang.code)
            if not path.exists():
                raise FileNotFoundError(f"{path} is missing: run `make lexicon` to build it")
            data = _data[lang.code] = _Data(path)
        lexicon = _loaded.get((dictionary, lang.code)) or Lexicon(dictionary, data, lang)
        _loaded[(dictionary, lang.code)] = lexicon
        _loaded[(dictionary, language)] = lexicon
    return lexicon


def judge(word: str, rules: WordRules | None = None, language: str = "en") -> Verdict:
    """Judge ``word`` with the dictionary ``rules.dictionary`` names in ``language``.

    Default rules: casual, no bans; default language: English.
    """
    rules = rules or WordRules()
    return load(rules.dictionary, language).judge(word, rules)
