"""Build ``games/lexicon/data/lexicon-CODE.dat.gz`` for Dutch, French, German and Spanish.

Run ``make lexicon`` (every language) or ``python -m games.lexicon.build_lang --language fr``.
Reads the Debian word lists (``wdutch``, ``wfrench``, ``wngerman``, ``wspanish``) and
Hunspell dictionaries (``hunspell-nl``, ``hunspell-fr``, ``hunspell-de-de``,
``hunspell-es``), and PyPI ``wordfreq`` for frequencies; none is needed at run time.
The output is reproducible (sorted, gzip mtime 0). docs/LEXICON.md, "Other languages",
explains every choice made here; tests/games/lexicon/test_languages.py checks them.

The file has the English file's sections (``_format``) with two differences the loader
relies on: ``words`` is ordered by UTF-8 length, then bytes, each word ending in a
newline, so every length is a block of fixed-width records the loader binary-searches
without building a dict of every word; ``blocks`` lists ``[byte length, count]`` of
those blocks. Words are stored folded by :meth:`games.common.languages.Language.fold`.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
from array import array
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path

from games.common.languages import Language, language
from games.lexicon import _format as F
from games.lexicon._hunspell import Hunspell
from games.lexicon.build import build_tables

DICT_DIR = Path("/usr/share/dict")
HUNSPELL_DIR = Path("/usr/share/hunspell")
SCOWL_DIR = DICT_DIR / "scowl"
DATA_DIR = Path(__file__).resolve().parent / "data"

#: Casual: the tournament words at least this common (wordfreq Zipf: 2.0 is once in 10
#: million words of text). The same cut in every language, so "casual" means the same.
CASUAL_ZIPF = 2.0

#: One-letter words kept (every other single letter in a list is a letter's name or symbol).
ONE_LETTER: dict[str, frozenset[str]] = {
    "nl": frozenset("u"),
    "fr": frozenset("ay"),
    "de": frozenset(),
    "es": frozenset("aeouy"),
}

#: German nouns with these endings are common nouns, never names (Zeitung, Freiheit…).
GERMAN_COMMON_ENDINGS = (
    "ung",
    "ungen",
    "heit",
    "heiten",
    "keit",
    "keiten",
    "schaft",
    "schaften",
    "tion",
    "tionen",
    "ität",
    "itäten",
    "ismus",
    "chen",
    "lein",
)


@dataclass(frozen=True, slots=True)
class Source:
    """Where one language's words come from."""

    code: str
    wordlist: str  # file in /usr/share/dict
    hunspell: str  # base name in /usr/share/hunspell
    wordlist_package: str
    hunspell_package: str
    #: Expand the Hunspell stems into the tournament list (the word list lacks inflections).
    expand: bool = False
    #: Take the capitalised Hunspell stems as proper nouns (the word list has none).
    names_from_hunspell: bool = False
    #: The word list writes names in lower case (wspanish: "españa"): a word the Hunspell
    #: dictionary only knows capitalised is a name, whatever the word list's case.
    lowercased_names: bool = False


SOURCES: dict[str, Source] = {
    "nl": Source("nl", "dutch", "nl", "wdutch", "hunspell-nl"),
    "fr": Source("fr", "french", "fr", "wfrench", "hunspell-fr-classical", names_from_hunspell=True),
    "de": Source("de", "ngerman", "de_DE", "wngerman", "hunspell-de-de"),
    "es": Source(
        "es",
        "spanish",
        "es_ES",
        "wspanish",
        "hunspell-es",
        expand=True,
        names_from_hunspell=True,
        lowercased_names=True,
    ),
}


def out_path(code: str) -> Path:
    """Where the data file of language ``code`` lives."""
    return DATA_DIR / f"lexicon-{code}.dat.gz"


@dataclass(slots=True)
class Entry:
    """What the sources say about one folded word."""

    plain: bool = False  # some source spells it as an ordinary (lower-case) word
    kinds: int = 0  # PROPER / ABBREV / CONTRACTION readings seen
    german_noun: bool = False  # a capitalised German entry (every noun is)
    surfaces: set[str] = field(default_factory=set)  # spellings seen, for frequencies


_DUTCH_CONTRACTION = re.compile(r"^'|^[a-z]'[a-z]+$|'[nrtkm]$", re.IGNORECASE)


def classify(raw: str, code: str) -> tuple[str, int, bool] | None:
    """The text to fold, the ban flag and "capitalised" for one source entry; None to skip.

    Multi-word and hyphenated entries, and entries with digits, are skipped (players type
    one word of letters). Dots mark abbreviations. Apostrophes: Dutch ``zo'n``, ``'t`` are
    contractions while ``auto's`` is a plural; French ``aujourd'hui`` is one word as in
    French word games (AUJOURDHUI).
    """
    text = raw.strip().replace("’", "'")
    if not text or " " in text or "-" in text or any(ch.isdigit() for ch in text):
        return None
    flag = 0
    if "." in text:
        flag = F.ABBREV
        text = text.replace(".", "")
    if "'" in text:
        if code == "nl" and _DUTCH_CONTRACTION.search(text):
            flag |= F.CONTRACTION
        text = text.replace("'", "")
    if not text:
        return None
    letters = [ch for ch in text if ch.isalpha()]
    if len(letters) >= 2 and all(ch.isupper() for ch in letters):
        flag |= F.ABBREV
    capitalised = text[0].isupper() or any(ch.isupper() for ch in text[1:])
    return text, flag, capitalised


def read_wordlist(path: Path) -> Iterator[str]:
    """Lines of a Debian word list."""
    for line in path.read_text("utf-8").splitlines():
        line = line.strip()
        if line:
            yield line


def scowl_names(root: Path = SCOWL_DIR) -> set[str]:
    """English proper names as SCOWL spells them (Berlin, Peter), for the German signal."""
    names: set[str] = set()
    if not root.is_dir():
        return names
    for path in sorted(root.glob("*")):
        if "-proper-names." in path.name or "-upper." in path.name:
            for line in path.read_bytes().decode("latin-1").splitlines():
                line = line.strip()
                if line and not line.endswith("'s"):
                    names.add(line)
    return names


def names_elsewhere(code: str) -> set[str]:
    """Capitalised-only entries of the other languages' sources: names, as they spell them.

    German capitalises every noun, so its word list cannot tell a name from a noun; a
    capitalised German word that another language's data also writes only capitalised
    (Berlin, Mozart, Anna) is a name. Words those sources also know in lower case (hotel,
    radio) are not.
    """
    capital: set[str] = set(scowl_names())
    lower: set[str] = set()
    for other in SOURCES.values():
        if other.code == code:
            continue
        lines: Iterable[str] = read_wordlist(DICT_DIR / other.wordlist)
        for line in lines:
            (capital if line[:1].isupper() else lower).add(line)
        hun = Hunspell(HUNSPELL_DIR / f"{other.hunspell}.aff", HUNSPELL_DIR / f"{other.hunspell}.dic")
        for stem in hun.stems:
            (capital if stem.word[:1].isupper() else lower).add(stem.word)
    lowered = {w.lower() for w in lower}
    return {w for w in capital if w.lower() not in lowered and not w.isupper()}


def gather(src: Source, log: Callable[[str], None]) -> dict[str, Entry]:
    """Every folded word of a language with what its sources say about it."""
    lang = language(src.code)
    entries: dict[str, Entry] = {}
    keep_one = ONE_LETTER[src.code]

    hun: Hunspell | None = None
    if src.expand or src.names_from_hunspell:
        hun = Hunspell(HUNSPELL_DIR / f"{src.hunspell}.aff", HUNSPELL_DIR / f"{src.hunspell}.dic")
    forms: list[str] = []
    if hun is not None and src.expand:
        # Affix flags named by non-ASCII characters add enclitic pronouns (cómelo,
        # comiéndoselo): not words in Spanish word games, and most of the expansion.
        skip = frozenset(f for f in hun.classes if not f.isascii())
        for stem in hun.stems:
            forms.extend(sorted(hun.expand(stem, skip)))
    capital_only: set[str] = set()
    if src.lowercased_names:
        lower: set[str] = set()
        for form in forms:
            folded = lang.fold(form)
            if folded is not None:
                (capital_only if form[:1].isupper() else lower).add(folded)
        capital_only -= lower

    def add(raw: str) -> None:
        got = classify(raw, src.code)
        if got is None:
            return
        text, flag, capitalised = got
        word = lang.fold(text)
        if word is None or not lang.is_word(word):
            return
        capitalised = capitalised or word in capital_only
        if len(word) == 1 and (word not in keep_one or capitalised or flag):
            return
        entry = entries.get(word)
        if entry is None:
            entry = entries[word] = Entry()
        entry.surfaces.add(text)
        if flag:
            entry.kinds |= flag
        elif capitalised:
            if src.code == "de":
                entry.german_noun = True
            else:
                entry.kinds |= F.PROPER
        else:
            entry.plain = True

    wordlist = DICT_DIR / src.wordlist
    for line in read_wordlist(wordlist):
        add(line)
    log(f"{src.wordlist}: {len(entries)} words")
    for form in forms:
        add(form)
    if forms:
        log(f"{src.hunspell} expanded: {len(entries)} words")
    if hun is not None and src.names_from_hunspell:
        for stem in hun.stems:
            if stem.word[:1].isupper():
                add(stem.word)
        log(f"{src.hunspell} names: {len(entries)} words")
    if src.code == "de":
        mark_german_names(entries, log)
    return entries


#: igerman98 affix flags a German name may carry: genitive -s (S) and the compounding
#: flags (i, j, m). A plural, -es genitive or feminine flag (N, P, E, T, F…) makes a noun.
GERMAN_NAME_FLAGS = frozenset("Sijm")


def german_name_stems(hun: Hunspell) -> set[str]:
    """Capitalised de_DE stems whose flags are a name's (see GERMAN_NAME_FLAGS)."""
    flags: dict[str, set[str]] = {}
    for stem in hun.stems:
        if stem.word[:1].isupper():
            flags.setdefault(stem.word, set()).update(stem.flags)
    return {word for word, found in flags.items() if found <= GERMAN_NAME_FLAGS}


def mark_german_names(entries: dict[str, Entry], log: Callable[[str], None]) -> None:
    """Flag German names: two signals must agree, as German capitalises every noun.

    A capitalised word is a name when (1) another language's data writes it only
    capitalised (:func:`names_elsewhere`: Berlin, Mozart; not Hotel) and (2) its
    igerman98 stem inflects like a name, with no plural (:func:`german_name_stems`:
    ``Berlin/Sm``; not ``Haus/Tpmij``, which English data also lists as a surname).
    The genitive (Berlins) follows its name.
    """
    names = names_elsewhere("de")
    src = SOURCES["de"]
    stems = german_name_stems(
        Hunspell(HUNSPELL_DIR / f"{src.hunspell}.aff", HUNSPELL_DIR / f"{src.hunspell}.dic")
    )
    marked = 0
    for word, entry in entries.items():
        if not entry.german_noun or entry.plain or entry.kinds:
            continue
        if word.endswith(GERMAN_COMMON_ENDINGS):
            continue
        for surface in entry.surfaces:
            base = surface if surface in stems else surface[:-1] if surface.endswith("s") else ""
            if base in stems and base in names:
                entry.kinds |= F.PROPER
                marked += 1
                break
    log(f"German names: {marked} of {sum(1 for e in entries.values() if e.german_noun)} capitalised")


def zipf_of(entries: dict[str, Entry], code: str) -> dict[str, float]:
    """Each word's wordfreq Zipf frequency: the most common of its spellings."""
    import wordfreq  # type: ignore[import-untyped,unused-ignore]

    out: dict[str, float] = {}
    for word, entry in entries.items():
        spellings = {s.lower() for s in entry.surfaces} | {word}
        out[word] = max(wordfreq.zipf_frequency(s, code) for s in spellings)
    return out


def build_rows(entries: dict[str, Entry], zipf: dict[str, float]) -> dict[str, int]:
    """Info bits per word: dictionaries, name flags and the zipf column."""
    rows: dict[str, int] = {}
    for word, entry in entries.items():
        info = F.TOURNAMENT
        if zipf[word] >= CASUAL_ZIPF:
            info |= F.CASUAL
        if not entry.plain:
            info |= entry.kinds & F.NAME_FLAGS
        rows[word] = info | (min(F.ZIPF_MASK, round(zipf[word] * 10)) << F.ZIPF_SHIFT)
    return rows


def word_blocks(words: Iterable[str]) -> tuple[list[str], list[list[int]]]:
    """Words in file order (UTF-8 length, then bytes) and the ``[length, count]`` blocks."""
    ordered = sorted(words, key=lambda w: (len(w.encode("utf-8")), w.encode("utf-8")))
    blocks: list[list[int]] = []
    for w in ordered:
        size = len(w.encode("utf-8"))
        if blocks and blocks[-1][0] == size:
            blocks[-1][1] += 1
        else:
            blocks.append([size, 1])
    return ordered, blocks


def pack(rows: dict[str, int], lang: Language, src: Source, versions: dict[str, str]) -> bytes:
    """The compressed data file for ``rows``; ``versions`` names the build tools' versions
    (``{"wordfreq": "3.1.1"}``), recorded with the sources."""
    words, blocks = word_blocks(rows)
    info = array("I", (rows[w] for w in words))
    if sys.byteorder != "little":
        info.byteswap()
    tables = build_tables(rows)
    meta = {
        "format": 1,
        "language": lang.code,
        "alphabet": lang.alphabet,
        "sources": {
            "wordlist": f"Debian {src.wordlist_package} (/usr/share/dict/{src.wordlist})",
            "hunspell": f"Debian {src.hunspell_package} (/usr/share/hunspell/{src.hunspell})",
            **versions,
        },
        "casual_zipf": CASUAL_ZIPF,
        "counts": {
            "rows": len(words),
            "casual": sum(1 for i in rows.values() if i & F.CASUAL),
            "tournament": sum(1 for i in rows.values() if i & F.TOURNAMENT),
            "proper": sum(1 for i in rows.values() if i & F.PROPER),
            "abbrev": sum(1 for i in rows.values() if i & F.ABBREV),
            "contraction": sum(1 for i in rows.values() if i & F.CONTRACTION),
        },
    }
    sections = [
        ("words", "".join(w + "\n" for w in words).encode("utf-8")),
        ("blocks", json.dumps(blocks, separators=(",", ":")).encode("ascii")),
        ("info", info.tobytes()),
        ("bases", b""),
        ("persons", b""),
        ("tables", json.dumps(tables, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode()),
        ("meta", json.dumps(meta, sort_keys=True, indent=1, ensure_ascii=False).encode()),
    ]
    return gzip.compress(F.pack_sections(sections), compresslevel=9, mtime=0)


def build(code: str, log: bool = True) -> bytes:
    """The compressed data file of language ``code``."""
    start = time.monotonic()

    def say(text: str) -> None:
        if log:
            print(f"[{code} {time.monotonic() - start:6.1f}s] {text}", file=sys.stderr)

    src = SOURCES[code]
    lang = language(code)
    entries = gather(src, say)
    zipf = zipf_of(entries, code)
    say("frequencies")
    rows = build_rows(entries, zipf)
    data = pack(rows, lang, src, {"wordfreq": version("wordfreq")})
    say(f"done: {len(rows)} words, {len(data)} bytes")
    return data


def missing_inputs(code: str) -> list[str]:
    """Input files of language ``code`` that are not installed."""
    src = SOURCES[code]
    paths = [
        DICT_DIR / src.wordlist,
        HUNSPELL_DIR / f"{src.hunspell}.aff",
        HUNSPELL_DIR / f"{src.hunspell}.dic",
    ]
    if code == "de":
        paths += [DICT_DIR / s.wordlist for s in SOURCES.values()]
        paths += [HUNSPELL_DIR / f"{s.hunspell}.dic" for s in SOURCES.values()]
    return sorted({str(p) for p in paths if not p.exists()})


def main(argv: list[str] | None = None) -> int:
    """Command line: build one language's data file, or every one."""
    parser = argparse.ArgumentParser(prog="python -m games.lexicon.build_lang", description=__doc__)
    parser.add_argument(
        "--language", action="append", choices=sorted(SOURCES), help="language code (repeatable; default all)"
    )
    parser.add_argument("--out", type=Path, help="where to write (one language only)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    codes: list[str] = args.language or list(SOURCES)
    if args.out and len(codes) != 1:
        parser.error("--out needs exactly one --language")
    missing = sorted({p for code in codes for p in missing_inputs(code)})
    if missing:
        packages = " ".join(
            sorted({x for s in SOURCES.values() for x in (s.wordlist_package, s.hunspell_package)})
        )
        print(f"missing {', '.join(missing)}: apt-get install {packages} scowl", file=sys.stderr)
        return 2
    try:
        import wordfreq  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
    except ImportError:
        print("wordfreq is missing: pip install -e '.[lexicon-build]'", file=sys.stderr)
        return 2
    for code in codes:
        data = build(code, log=not args.quiet)
        out = args.out or out_path(code)
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_bytes(data)
        print(f"wrote {out} ({len(data)} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
