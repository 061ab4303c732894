"""Build ``games/lexicon/data/glosses-CODE.dat.gz``: a short meaning for each word (``define``).

Run ``make lexicon`` (every language) or ``python -m games.lexicon.build_glosses --language en``.

- English: WordNet 3.0's glosses (Debian ``wordnet-base``). A word's senses are ordered the
  way a player most likely means it: its parts of speech by how often WordNet's tagged corpus
  (SemCor, ``cntlist.rev``) uses it as each, each part of speech's senses in WordNet's own
  frequency order, senses where WordNet writes the word in lower case first (``china`` the
  porcelain before China the country). WordNet's irregular forms (``noun.exc``…) are stored as
  references to their base (``mice`` -> ``mouse``); regular forms (``dogs``) are left to the
  reader's suffix rules (:mod:`games.lexicon.glosses`). Only words of SCOWL (Debian ``scowl``,
  the lexicon's source) are kept: WordNet's taxonomy and jargon no game takes stay out.
- German: Ding's German-English dictionary (Debian ``dict-de-en``), for the words of Debian
  ``wngerman`` only (Ding lists half a million phrases), two senses a word.
- French, Spanish, Dutch: the FreeDict French-, Spanish- and Dutch-English dictionaries
  (Debian ``dict-freedict-fra-eng``, ``-spa-eng``, ``-nld-eng``).

For the other languages a gloss is the English translation. Their senses are ordered by how
common the English words are (PyPI ``wordfreq``, a build input already): the source
dictionaries list senses in no frequency order (Ding gives GEHEN "to turn out" before "to go").

Each gloss is cut to :data:`MAX_GLOSS` characters at a clause or word boundary. The file is
UTF-8 text, gzip-compressed with mtime 0, one line per word, sorted by the UTF-8 bytes of the
word (the reader binary-searches it)::

    #moji-glosses 1 en
    dog<TAB>noun<TAB>a member of the genus Canis that has been domesticated by man…<TAB>verb<TAB>…
    mice<TAB>=mouse

that is, the folded word (:meth:`games.common.languages.Language.fold`) then up to
:data:`MAX_SENSES` pairs of part of speech (``noun``, ``verb``, ``adj``, ``adv`` or empty) and
gloss, or ``=BASE`` for a form whose meanings are its base's, or ``=`` alone for a word with
no meaning that the reader must not read as a form (HIS).
"""

from __future__ import annotations

import argparse
import gzip
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from games.common.languages import Language, language
from games.lexicon.build import WordNet

WORDNET_DIR = Path("/usr/share/wordnet")
DICTD_DIR = Path("/usr/share/dictd")
DICT_DIR = Path("/usr/share/dict")
DATA_DIR = Path(__file__).resolve().parent / "data"

#: The longest gloss kept (characters, ellipsis included): a hint line stays one line.
MAX_GLOSS = 80
#: Senses kept per word (``define`` shows them all; hints show the first).
MAX_SENSES = 3
FORMAT = "#moji-glosses 1"

#: Language code -> (Debian package, dictd file stem) of its translating dictionary.
SOURCES: dict[str, tuple[str, str]] = {
    "de": ("dict-de-en", "german-english"),
    "fr": ("dict-freedict-fra-eng", "freedict-fra-eng"),
    "es": ("dict-freedict-spa-eng", "freedict-spa-eng"),
    "nl": ("dict-freedict-nld-eng", "freedict-nld-eng"),
}
#: Debian word lists that keep a huge source to the words a game can take.
WORD_LISTS: dict[str, str] = {"de": "ngerman"}
#: Fewer senses for a big source whose senses are often near repeats (GEHEN: "to go", "to
#: leave, to go"): the files ship in the wheel.
SENSES: dict[str, int] = {"de": 2}
SCOWL_DIR = DICT_DIR / "scowl"
LANGUAGES = ("en", *SOURCES)

WORDNET_POS = {"n": "noun", "v": "verb", "a": "adj", "s": "adj", "r": "adv"}
#: WordNet's suffix rules ("morphy") by part of speech: an inflected form to its base (the
#: lexicon build's own table).
MORPHY: dict[str, tuple[tuple[str, str], ...]] = {pos: tuple(rules) for pos, rules in WordNet.RULES.items()}
#: A lemma that is also an inflected form is read as that form (``running`` as RUN's) when its
#: base, as that part of speech, is this many times as used in SemCor as the lemma itself…
FORM_RATIO = 10
#: …and used at least this often (rare words keep their own senses).
FORM_MIN_USES = 10
POS_ORDER = ("n", "v", "a", "r")

Sense = tuple[str, str]  # (part of speech or "", gloss)


# ----------------------------------------------------------------------------- text
def _parenthetical_free(text: str) -> str:
    """``text`` without its (parenthesised remarks), spaces tidied."""
    previous = None
    while previous != text:
        previous = text
        text = re.sub(r"\s*\([^()]*\)", "", text)
    return re.sub(r"\s+", " ", text).strip(" ,;:")


_GRAMMAR_NOTE = re.compile(r"^\([^()]*\b(?:used|followed|preceded|plural|singular)\b[^()]*\)\s*")


def shorten(text: str, limit: int = MAX_GLOSS, *, first_clause: bool = True) -> str:
    """``text`` cut to at most ``limit`` characters: its first clause (up to ``;``, unless
    ``first_clause`` is false), without parenthesised remarks if it is too long with them,
    else cut at a comma or a word, with an ellipsis. Whitespace is tidied; an empty string
    stays empty."""
    text = re.sub(r"\s+", " ", text).strip()
    # a leading note on grammar says nothing of the meaning: "(usually followed by 'to') on the point of"
    text = _GRAMMAR_NOTE.sub("", text) or text
    if first_clause:
        text = text.split("; ")[0]
    text = text.strip(" ;,:")
    if len(text) > limit:
        text = _parenthetical_free(text) or text
    if len(text) <= limit:
        return text
    room = text[: limit - 1]
    comma = room.rfind(", ")
    if comma >= limit // 2:
        return room[:comma] + "…"
    space = room.rfind(" ")
    cut = room[:space] if space >= limit // 3 else room
    return cut.rstrip(" ,;:-(") + "…"


#: Characters chat markup reads (Discord markdown, Slack mrkdwn): a gloss is moji's own text,
#: which renderers don't escape, so the build leaves them out (Ding's ``<drop-out>`` variants,
#: WordNet's ```to' `` quotes).
_MARKUP = str.maketrans(
    {"`": "'", "*": None, "_": " ", "~": None, "|": "/", "#": None, "&": "and", "\\": "/"}
)


def _clean(text: str) -> str:
    """One line of a gloss: no tabs or newlines, no chat markup, tidy spaces."""
    text = re.sub(r"\s*<[^<>]*>", "", text).replace("<", "").replace(">", "")
    return re.sub(r"\s+", " ", text.replace("\t", " ").translate(_MARKUP)).strip()


# ----------------------------------------------------------------------------- English
class WordNetGlosses:
    """WordNet's lemmas, their senses in frequency order and each synset's gloss."""

    def __init__(self, root: Path) -> None:
        self.index: dict[str, dict[str, list[int]]] = {}  # pos -> lemma -> offsets, most frequent first
        self.counts: dict[tuple[str, str], int] = {}  # (lemma, pos) -> SemCor uses
        self.gloss: dict[tuple[str, int], str] = {}  # (pos, offset) -> definition
        self.lower: dict[tuple[str, int], frozenset[str]] = {}  # lemmas written in lower case
        self.exc: dict[str, list[str]] = {}  # irregular form -> bases (every part of speech)
        self.exc_by_pos: dict[str, dict[str, list[str]]] = {}  # pos -> irregular form -> bases
        names = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
        for pos, name in names.items():
            lemmas: dict[str, list[int]] = {}
            for line in (root / f"index.{name}").read_text("latin-1").splitlines():
                if not line.strip() or line.startswith(" "):
                    continue
                parts = line.split()
                count = int(parts[2])
                lemmas[parts[0]] = [int(x) for x in parts[-count:]]
            self.index[pos] = lemmas
            for line in (root / f"data.{name}").read_text("latin-1").splitlines():
                if not line.strip() or line.startswith(" "):
                    continue
                head, _, gloss = line.partition(" | ")
                parts = head.split()
                offset, words = int(parts[0]), int(parts[3], 16)
                raw = [re.sub(r"\(.*?\)$", "", parts[4 + 2 * i]) for i in range(words)]
                self.lower[(pos, offset)] = frozenset(w for w in raw if w == w.lower())
                self.gloss[(pos, offset)] = gloss.strip()
            own: dict[str, list[str]] = {}
            for line in (root / f"{name}.exc").read_text("latin-1").splitlines():
                if not line.strip():
                    continue
                form, *bases = line.split()
                self.exc.setdefault(form, []).extend(bases)
                own.setdefault(form, []).extend(bases)
            self.exc_by_pos[pos] = own
        for line in (root / "cntlist.rev").read_text("latin-1").splitlines():
            if not line.strip():
                continue
            sense_key, _, uses = line.split()
            lemma, _, rest = sense_key.partition("%")
            key = (lemma, "nvara"[int(rest[0]) - 1])
            self.counts[key] = self.counts.get(key, 0) + int(uses)

    def uses(self, lemma: str, pos: str | None = None) -> int:
        """How often SemCor uses ``lemma`` as ``pos`` (None: as any part of speech)."""
        return sum(self.counts.get((lemma, p), 0) for p in ((pos,) if pos else POS_ORDER))

    def bases(self, form: str) -> list[tuple[str, str]]:
        """(part of speech, base) that ``form`` inflects by WordNet's exceptions and suffix
        rules, the base being a lemma of that part of speech (``running`` -> verb ``run``)."""
        found: list[tuple[str, str]] = []
        for pos in ("n", "v", "a"):
            candidates = list(self.exc_by_pos[pos].get(form, ()))
            for suffix, ending in MORPHY[pos]:
                if form.endswith(suffix) and len(form) > len(suffix) + 1:
                    candidates.append(form[: len(form) - len(suffix)] + ending)
            found += [(pos, b) for b in candidates if b != form and b in self.index[pos]]
        return found

    def senses(self, lemma: str, *, lower_only: bool = False) -> list[Sense]:
        """Up to :data:`MAX_SENSES` (part of speech, gloss) of ``lemma``, the likeliest first:
        the first sense of each part of speech (most used first), then the most used part of
        speech's next senses. Senses where ``lemma`` is written in lower case come first; with
        ``lower_only``, only those."""
        ranked: list[tuple[str, list[int]]] = []
        for pos in sorted(
            (p for p in POS_ORDER if lemma in self.index[p]),
            key=lambda p: (-self.counts.get((lemma, p), 0), POS_ORDER.index(p)),
        ):
            offsets = self.index[pos][lemma]
            lower = [o for o in offsets if lemma in self.lower[(pos, o)]]
            if lower_only and not lower:
                continue
            ranked.append((pos, lower if lower_only else lower + [o for o in offsets if o not in lower]))
        if not ranked:
            return []
        picked: list[tuple[str, int]] = [(pos, offsets[0]) for pos, offsets in ranked]
        picked += [(ranked[0][0], o) for o in ranked[0][1][1:]]
        out: list[Sense] = []
        seen: set[str] = set()
        for pos, offset in picked:
            gloss = shorten(_clean(self.gloss[(pos, offset)]))
            if gloss and gloss not in seen:
                seen.add(gloss)
                out.append((WORDNET_POS[pos], gloss))
            if len(out) == MAX_SENSES:
                break
        return out


#: Words the reader's suffix rules must not read as a form (HIS is no plural of HI): stored
#: without a meaning.
NOT_FORMS = ("his", "its", "hers", "ours", "yours", "theirs")


def _guess(word: str, known: Callable[[str], bool]) -> str | None:
    """The base :mod:`games.lexicon.glosses` finds for ``word`` by its suffix rules."""
    from games.lexicon.glosses import _RULES

    for suffix, ending in _RULES:
        if word.endswith(suffix) and len(word) > len(suffix) + 1:
            base = word[: len(word) - len(suffix)] + ending
            if known(base):
                return base
    return None


def english(
    root: Path = WORDNET_DIR,
    keep: Callable[[str], bool] = lambda word: True,
    plain: Callable[[str], bool] = lambda word: False,
    words: Iterable[str] = (),
) -> tuple[dict[str, list[Sense]], dict[str, str], list[str]]:
    """Every one-word WordNet lemma's senses, the base of each irregular form, of each lemma far
    more used as another lemma's form (:data:`FORM_RATIO`) and of each of ``words`` whose base the
    reader's suffix rules would get wrong (DOES: DO, not DOE), and the words to store without a
    meaning (:data:`NOT_FORMS`). Only words ``keep`` accepts (the build: SCOWL's, the lexicon's
    source); a ``plain`` word (a lower-case word of the word lists) gets no sense WordNet writes
    only with capitals (US is no United States, IT no information technology)."""
    lang = language("en")
    wn = WordNetGlosses(root)
    senses: dict[str, list[Sense]] = {}
    for lemma in sorted({lemma for lemmas in wn.index.values() for lemma in lemmas}):
        word = lang.fold(lemma)
        if word is None or word != lemma or word in senses:
            continue  # multi-word (dog_days), hyphenated or digit-bearing lemmas
        found = wn.senses(lemma, lower_only=plain(word))
        if found:
            senses[word] = found
    bases: dict[str, str] = {}
    # lemmas players mostly mean as another word's form: SAW (see), RUNNING (run)
    for word in sorted(senses):
        own = wn.uses(word)
        for pos, base in wn.bases(word):
            base_uses = wn.uses(base, pos)
            if base in senses and base_uses >= FORM_MIN_USES and base_uses >= FORM_RATIO * max(own, 1):
                bases[word] = base
                break
    for word in bases:
        del senses[word]
    for form, candidates in sorted(wn.exc.items()):
        target = next((b for b in candidates if b in senses and b != form), None)
        if target is not None and form not in senses and lang.fold(form) == form:
            bases[form] = target
    # only words a game can take (the word lists): WordNet's taxonomy and jargon stay out
    senses = {word: found for word, found in senses.items() if keep(word)}
    bases = {form: base for form, base in bases.items() if keep(form) and base in senses}
    blocked = sorted(w for w in NOT_FORMS if w not in senses)
    for word in sorted(set(words) - senses.keys() - bases.keys() - set(blocked)):
        if lang.fold(word) != word:
            continue
        candidates = [b for _, b in wn.bases(word) if b in senses]
        if not candidates:
            continue
        best = max(candidates, key=wn.uses)  # (the first of equals)
        if _guess(word, lambda b: b in senses or b in bases) != best:
            bases[word] = best
    return senses, bases, blocked


# ----------------------------------------------------------------------------- other languages
_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def _b64(text: str) -> int:
    value = 0
    for ch in text:
        value = value * 64 + _B64.index(ch)
    return value


def dictd_entries(stem: Path) -> Iterator[str]:
    """Every entry's text of a dictd dictionary (``stem.index`` and ``stem.dict.dz``), in
    index order, skipping the ``00-database-…`` entries."""
    with gzip.open(stem.with_suffix(".dict.dz")) as fh:
        data = fh.read()
    for line in stem.with_suffix(".index").read_text("utf-8").splitlines():
        head, offset, length = line.split("\t")
        if head.startswith("00database") or head.startswith("00-database"):
            continue
        yield data[_b64(offset) : _b64(offset) + _b64(length)].decode("utf-8")


_DING_POS = {
    "m": "noun",
    "f": "noun",
    "n": "noun",
    "pl": "noun",
    "vi": "verb",
    "vt": "verb",
    "vr": "verb",
    "v": "verb",
    "adj": "adj",
    "adv": "adv",
}
_FREEDICT_POS = {"n": "noun", "v": "verb", "adj": "adj", "adv": "adv"}


Entry = tuple[str, list[tuple[str, list[str]]]]  # headword, [(part of speech, translations)]


def ding_entry(text: str) -> Entry | None:
    """(headword, [(part of speech, translations)]) of one Ding entry (one sense), None if it
    has no translation.

    An entry reads ``Haus\\n {n}\\n   house; home\\n``: the headword, the grammar line
    (``{n}``, ``{vt}``… and remarks) and the translations separated by ``; `` (irregular
    forms in braces, ``to go {went; gone}``, are dropped)."""
    lines = text.split("\n")
    if len(lines) < 3:
        return None
    head = lines[0].strip()
    tags = re.findall(r"\{([^}]*)\}", lines[1])
    pos = next((_DING_POS[t] for t in tags if t in _DING_POS), "")
    body = re.sub(r"\s*\{[^}]*\}", "", " ".join(x.strip() for x in lines[2:]))
    translations = [t.strip() for t in body.split(";") if t.strip()]
    return (head, [(pos, translations)]) if translations else None


def freedict_entry(text: str) -> Entry | None:
    """(headword, [(part of speech, translations)]) of one FreeDict entry, None if it has none.

    An entry reads ``aller /ale/ <v>\\n1. fare\\n2. go, ride, travel\\n``; indented lines
    (notes, examples, synonyms) are skipped."""
    lines = text.split("\n")
    first = lines[0]
    head = re.split(r"\s+/|\s+<", first, maxsplit=1)[0].strip()
    grammar = re.search(r"<([^>]*)>", first)
    tags = [t.strip() for t in grammar.group(1).split(",")] if grammar else []
    pos = next((_FREEDICT_POS[t] for t in tags if t in _FREEDICT_POS), "")
    senses = []
    for line in lines[1:]:
        if not line.strip() or line[:1].isspace():
            continue
        sense = re.sub(r"^\d+\.\s*", "", line).strip()
        sense = re.sub(r"\s*<[^>]*>", "", sense)
        translations = [t.strip() for t in sense.split(",") if t.strip()]
        if translations:
            senses.append((pos, translations))
    return (head, senses) if senses else None


def _translation_key(text: str) -> str:
    """The English words a translation is about: ``to go (on foot)`` -> ``go``."""
    text = _parenthetical_free(text.split(",")[0])
    text = re.sub(r"\[[^]]*\]", "", text)
    return re.sub(r"^(to|a|an|the)\s+", "", text.strip().lower())


def translated(
    entries: Iterable[str],
    parse: Callable[[str], Entry | None],
    lang: Language,
    zipf: Callable[[str], float],
    keep: Callable[[str], bool] = lambda word: True,
    most: int = MAX_SENSES,
) -> dict[str, list[Sense]]:
    """Folded one-word headwords -> up to :data:`MAX_SENSES` (part of speech, English) senses,
    the one whose first English word is most common first (ties: the source's order)."""
    found: dict[str, list[tuple[float, int, str, str]]] = {}
    for order, text in enumerate(entries):
        entry = parse(text)
        if entry is None:
            continue
        head, parsed = entry
        if " " in head or "-" in head or "…" in head or "." in head:
            continue
        word = lang.fold(head)
        if word is None or not keep(word):
            continue
        for rank, (pos, translations) in enumerate(parsed):
            kept = [_clean(re.sub(r"\[[^]]*\]", "", t)) for t in translations]
            gloss = shorten(", ".join(t for t in kept if t), first_clause=False)
            if gloss:
                key = _translation_key(kept[0])
                # wordfreq rates a phrase about as common as its words ("get on" above "go")
                score = zipf(key) - 1.5 * key.count(" ")
                found.setdefault(word, []).append((-score, order * 100 + rank, pos, gloss))
    out: dict[str, list[Sense]] = {}
    for word, candidates in found.items():
        senses: list[Sense] = []
        seen: set[str] = set()
        for _, _, pos, gloss in sorted(candidates):
            if gloss.lower() not in seen:
                seen.add(gloss.lower())
                senses.append((pos, gloss))
            if len(senses) == most:
                break
        out[word] = senses
    return out


def _word_list(name: str, lang: Language) -> frozenset[str]:
    words = set()
    for line in (DICT_DIR / name).read_text("utf-8").splitlines():
        folded = lang.fold(line)
        if folded:
            words.add(folded)
    return frozenset(words)


def _english_zipf() -> Callable[[str], float]:
    from wordfreq import zipf_frequency  # type: ignore[import-untyped,unused-ignore]

    def zipf(text: str) -> float:
        return float(zipf_frequency(text, "en")) if text else 0.0

    return zipf


# ----------------------------------------------------------------------------- the file
def encode(
    code: str,
    senses: dict[str, list[Sense]],
    bases: dict[str, str] | None = None,
    blocked: Iterable[str] = (),
) -> bytes:
    """The gzip-compressed data file (reproducible: sorted lines, gzip mtime 0); ``blocked``
    words are stored as ``word<TAB>=``: no meaning, and no guess by the suffix rules."""
    rows: dict[bytes, bytes] = {}
    for word, found in senses.items():
        if found:
            fields = [word] + [_clean(x) for sense in found[:MAX_SENSES] for x in sense]
            rows[word.encode()] = "\t".join(fields).encode()
    for form, base in (bases or {}).items():
        if form not in senses and base in senses:
            rows[form.encode()] = f"{form}\t={base}".encode()
    for word in blocked:
        if word not in senses:
            rows[word.encode()] = f"{word}\t=".encode()
    body = b"".join(rows[key] + b"\n" for key in sorted(rows))
    text = f"{FORMAT} {code}\n".encode() + body
    return gzip.compress(text, compresslevel=9, mtime=0)


def build(code: str, log: Callable[[str], None] = lambda _: None) -> bytes:
    """The data file of language ``code`` from the installed Debian packages."""
    if code == "en":
        from games.lexicon.build import Scowl

        scowl = Scowl(SCOWL_DIR)
        listed = frozenset(scowl.level) | frozenset(scowl.variant) | frozenset(scowl.kind)
        # a lower-case word commoner in the lists than its capitalised spelling (US, IT, TURKEY;
        # not PARIS, listed lower-case only at size 80): its capitalised senses are not meant
        lower = frozenset(w for w, level in scowl.level.items() if level < scowl.kind.get(w, (0, 999))[1])
        senses, bases, blocked = english(WORDNET_DIR, listed.__contains__, lower.__contains__, listed)
        log(f"en: {len(senses)} words, {len(bases)} forms read as their base")
        return encode(code, senses, bases, blocked)
    package, stem = SOURCES[code]
    lang = language(code)
    parse = ding_entry if stem == "german-english" else freedict_entry
    keep: Callable[[str], bool] = lambda word: True  # noqa: E731
    if code in WORD_LISTS:
        listed = _word_list(WORD_LISTS[code], lang)
        keep = listed.__contains__
    found = translated(
        dictd_entries(DICTD_DIR / stem), parse, lang, _english_zipf(), keep, SENSES.get(code, MAX_SENSES)
    )
    log(f"{code}: {len(found)} words from {package}")
    return encode(code, found)


def missing_inputs(codes: Iterable[str]) -> list[str]:
    """The Debian packages the build of ``codes`` needs and this machine lacks."""
    missing = []
    for code in codes:
        if code == "en":
            if not (WORDNET_DIR / "data.noun").is_file():
                missing.append("wordnet-base")
            if not SCOWL_DIR.is_dir():
                missing.append("scowl")
            continue
        package, stem = SOURCES[code]
        if not (DICTD_DIR / stem).with_suffix(".index").is_file():
            missing.append(package)
        if code in WORD_LISTS and not (DICT_DIR / WORD_LISTS[code]).is_file():
            missing.append("wngerman")
    return missing


def main(argv: list[str] | None = None) -> int:
    """Command line: build the gloss files."""
    parser = argparse.ArgumentParser(prog="python -m games.lexicon.build_glosses", description=__doc__)
    parser.add_argument("--language", choices=[*LANGUAGES, "all"], default="all")
    parser.add_argument("--out", type=Path, default=DATA_DIR, help="the directory to write to")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument(
        "--missing",
        action="store_true",
        help="only print the Debian packages still to install (make lexicon)",
    )
    args = parser.parse_args(argv)
    codes = LANGUAGES if args.language == "all" else (args.language,)
    missing = missing_inputs(codes)
    if args.missing:
        print(" ".join(sorted(set(missing))))
        return 0
    if missing:
        print(f"missing Debian packages: apt-get install {' '.join(missing)}", file=sys.stderr)
        return 2
    if any(code != "en" for code in codes):
        try:
            import wordfreq  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
        except ImportError:
            print("wordfreq is missing: pip install wordfreq (the lexicon-build extra)", file=sys.stderr)
            return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for code in codes:
        data = build(code, log=(lambda _: None) if args.quiet else (lambda m: print(m, file=sys.stderr)))
        path = args.out / f"glosses-{code}.dat.gz"
        path.write_bytes(data)
        print(f"wrote {path} ({len(data)} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
