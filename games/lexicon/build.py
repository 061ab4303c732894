"""Build ``games/lexicon/data/lexicon.dat.gz`` from SCOWL, WordNet, lemminflect and wordfreq.

Run ``make lexicon`` (or ``python -m games.lexicon.build [--out PATH]``). Needs the
Debian packages ``scowl`` and ``wordnet-base`` and the PyPI packages ``lemminflect``
and ``wordfreq`` (the ``lexicon-build`` extra); none of them is needed at run time.
The output is reproducible: the same inputs give the same bytes (sorted output,
gzip with mtime 0). See docs/LEXICON.md for the policy encoded here.
"""

from __future__ import annotations

import argparse
import gzip
import json
import re
import sys
import time
import unicodedata
from array import array
from collections import defaultdict
from collections.abc import Iterable, Iterator
from itertools import combinations
from pathlib import Path
from typing import Any, ClassVar

from games.lexicon import _format as F

SCOWL_DIR = Path("/usr/share/dict/scowl")
WORDNET_DIR = Path("/usr/share/wordnet")
DATA_DIR = Path(__file__).resolve().parent / "data"
OUT_NAME = "lexicon.dat.gz"

#: SCOWL spellings read (American, British -ise and -ize, Canadian, Australian).
SPELLINGS = ("english", "american", "british", "british_z", "canadian", "australian")
#: Variant spellings, tournament only.
VARIANTS = ("variant_1",)
CASUAL_LEVEL = 60
TOURNAMENT_LEVEL = 80


def _words(text: str) -> tuple[str, ...]:
    """Whitespace-separated words of a policy list."""
    return tuple(text.split())


#: Two-letter game words (the North American word-game list) the tournament list needs.
TWO_LETTER: tuple[str, ...] = _words(
    """aa ab ad ae ag ah ai al am an ar as at aw ax ay ba be bi bo by da de do ed ef eh el em en er es et
    ew ex fa fe gi go ha he hi hm ho id if in is it jo ka ki la li lo ma me mi mm mo mu my na ne no nu od
    oe of oh oi ok om on op or os ow ox oy pa pe pi po qi re sh si so ta te ti to uh um un up us ut we wo
    xi xu ya ye yo za"""
)

# --- Policy (docs/LEXICON.md, "Debatable words"); tests enforce it. ---

#: Words ending in -s that are never the plural-s ban's business (function words).
FUNCTION_WORDS = frozenset(
    _words(
        """is was has does his hers its ours yours theirs yes us this thus plus less unless perhaps
        always as whereas besides"""
    )
)
#: Verdicts fixed by hand where the data is wrong or the call is a judgement.
#: word -> the ban flag it gets (0: none of the -s/-ing/-ed bans).
OVERRIDES: dict[str, int] = {
    **dict.fromkeys(
        _words(
            """ceiling evening during pudding herring wicked naked sacred hundred kindred thing nothing
            something anything everything morning news series species physics mathematics economics
            politics clothes jeans trousers pajamas pyjamas tweezers pliers binoculars tongs"""
        ),
        0,
    ),
    **dict.fromkeys(_words("glasses arms"), F.PLURAL_S),
    **dict.fromkeys(_words("led fed fled bled bred sped tired"), F.ED),
}
#: Foreign words the frequency signal misses (only flagged if SCOWL has them).
FOREIGN_EXTRA = frozenset(
    _words(
        """bonjour merci gracias danke ciao hola adios amigo amiga amigos senor senora senorita bitte
        nein oui grazie prego bueno buenos dias noches arrivederci revoir wiedersehen hasta manana
        monsieur madame mademoiselle signor signora herr frau"""
    )
)
#: Loanwords the frequency signal flags wrongly (they are English now).
FOREIGN_NOT = frozenset(
    _words(
        """pizza pasta taco tacos salsa patio plaza piano opera villa mama papa casino ballet cafe chef
        menu cliche fiance kindergarten angst rucksack karaoke tsunami sushi yoga guru hast om touche
        tutti hora lieder dobro vita cine gite"""
    )
)
FOREIGN_LANGS = ("fr", "es", "de", "it", "pt", "nl")

LEXNAME_ANIMAL = 5  # noun.animal
LEXNAME_FOOD = 13  # noun.food
LEXNAME_PERSON = 18  # noun.person
TOP_SENSES = 2  # themes look at a word's most frequent senses only


def fold(text: str) -> str:
    """Lower-case ASCII letters (accents dropped); other characters kept as they are."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch)).lower()


def _scowl_files(
    root: Path, spellings: Iterable[str], category: str, max_level: int
) -> Iterator[tuple[int, Path]]:
    for spelling in spellings:
        for path in sorted(root.glob(f"{spelling}-{category}.*")):
            level = int(path.suffix[1:])
            if level <= max_level:
                yield level, path


def _lines(path: Path) -> Iterator[str]:
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        text = raw.decode("latin-1")
    for line in text.splitlines():
        line = line.strip()
        if line:
            yield line


class Scowl:
    """What the build takes from SCOWL: levels of plain words and the flagged kinds."""

    def __init__(self, root: Path) -> None:
        self.level: dict[str, int] = {}  # plain lower-case word -> smallest size level
        self.variant: dict[str, int] = {}  # variant spellings (tournament only)
        self.kind: dict[str, tuple[int, int]] = {}  # flagged word -> (flag, smallest level)
        for spellings, target in ((SPELLINGS, self.level), (VARIANTS, self.variant)):
            for level, path in _scowl_files(root, spellings, "words", TOURNAMENT_LEVEL):
                for line in _lines(path):
                    if "'" in line:
                        continue  # possessives
                    word = fold(line)
                    if not word.isascii() or not word.isalpha():
                        continue
                    if line != line.lower():
                        flag = F.ABBREV if line.isupper() else F.PROPER
                        self._flag(word, flag, level)
                        continue
                    if level < target.get(word, 999):
                        target[word] = level
        for category, flag in (
            ("upper", F.PROPER),
            ("proper-names", F.PROPER),
            ("abbreviations", F.ABBREV),
            ("contractions", F.CONTRACTION),
        ):
            for level, path in _scowl_files(root, SPELLINGS, category, TOURNAMENT_LEVEL):
                for line in _lines(path):
                    if line.endswith("'s") and category != "contractions":
                        continue
                    word = re.sub(r"[^a-z]", "", fold(line))
                    if len(word) < 2:
                        continue
                    self._flag(word, flag, level)

    def _flag(self, word: str, flag: int, level: int) -> None:
        old_flag, old_level = self.kind.get(word, (0, 999))
        self.kind[word] = (old_flag | flag, min(old_level, level))


def _junk(word: str) -> bool:
    """Single letters (but a, i) and letter plurals such as ``cs``."""
    if len(word) == 1:
        return word not in ("a", "i")
    return len(word) == 2 and word[1] == "s" and word[0] not in "aiuo"


class WordNet:
    """A small reader for the WordNet 3.0 database files (no NLTK needed)."""

    POS: ClassVar[dict[str, str]] = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
    RULES: ClassVar[dict[str, list[tuple[str, str]]]] = {
        "n": [
            ("s", ""),
            ("ses", "s"),
            ("xes", "x"),
            ("zes", "z"),
            ("ches", "ch"),
            ("shes", "sh"),
            ("men", "man"),
            ("ies", "y"),
        ],
        "v": [
            ("s", ""),
            ("ies", "y"),
            ("es", "e"),
            ("es", ""),
            ("ed", "e"),
            ("ed", ""),
            ("ing", "e"),
            ("ing", ""),
        ],
        "a": [("er", ""), ("est", ""), ("er", "e"), ("est", "e")],
        "r": [],
    }

    def __init__(self, root: Path) -> None:
        self.index: dict[str, dict[str, list[int]]] = {}  # pos -> lemma -> synset offsets (by frequency)
        self.tagged: dict[str, dict[str, int]] = {}  # pos -> lemma -> tagged sense count
        self.exc: dict[str, dict[str, list[str]]] = {}
        for pos, name in self.POS.items():
            lemmas: dict[str, list[int]] = {}
            tagged: dict[str, int] = {}
            for line in (root / f"index.{name}").read_text("latin-1").splitlines():
                if line.startswith(" "):
                    continue
                parts = line.split()
                lemma = parts[0]
                synsets = int(parts[2])
                offsets = [int(x) for x in parts[-synsets:]]
                lemmas[lemma] = offsets
                tagged[lemma] = int(parts[-synsets - 1])
            self.index[pos] = lemmas
            self.tagged[pos] = tagged
            exc: dict[str, list[str]] = defaultdict(list)
            for line in (root / f"{name}.exc").read_text("latin-1").splitlines():
                parts = line.split()
                exc[parts[0]].extend(parts[1:])
            self.exc[pos] = dict(exc)
        self.lexfile: dict[int, int] = {}
        self.persons: set[str] = set()
        for line in (root / "data.noun").read_text("latin-1").splitlines():
            if line.startswith(" "):
                continue
            parts = line.split()
            offset, lexfile = int(parts[0]), int(parts[1])
            self.lexfile[offset] = lexfile
            if lexfile == LEXNAME_PERSON and " @i " in line:
                count = int(parts[3], 16)
                for i in range(count):
                    name = _name(parts[4 + 2 * i])
                    if name:
                        self.persons.add(name)

    def morphy(self, word: str, pos: str) -> set[str]:
        """Base forms of ``word`` for ``pos`` (n, v, a) that WordNet knows, ``word`` excluded."""
        lemmas = self.index[pos]
        found = {base for base in self.exc[pos].get(word, ()) if base in lemmas}
        for suffix, ending in self.RULES[pos]:
            if word.endswith(suffix) and len(word) > len(suffix):
                base = word[: len(word) - len(suffix)] + ending
                if base in lemmas:
                    found.add(base)
        found.discard(word)
        return found

    def theme_lexfiles(self, lemma: str) -> set[int]:
        """Lexicographer files of a noun's most frequent senses."""
        return {self.lexfile[o] for o in self.index["n"].get(lemma, [])[:TOP_SENSES]}


def _name(raw: str) -> str:
    """A WordNet lemma as a folded answer: ``Albert_Einstein`` -> ``albert einstein``."""
    text = fold(raw.replace("_", " "))
    text = re.sub(r"\(.*?\)", "", text)
    text = re.sub(r"[^a-z ]", " ", text)
    return " ".join(text.split())


def _inflection_flags(
    word: str, plain: dict[str, int], wn: WordNet, zipf: dict[str, float]
) -> tuple[int, str]:
    """The -s/-ing/-ed ban flag of ``word`` and the base it inflects ("" if none)."""
    import lemminflect  # type: ignore[import-untyped,unused-ignore]

    if word in OVERRIDES:
        flag = OVERRIDES[word]
        if not flag:
            return 0, ""
    tags: tuple[str, ...]
    wn_pos: tuple[str, ...]
    if word.endswith("s"):
        suffix, flag, tags, wn_pos = "s", F.PLURAL_S, ("NNS", "VBZ"), ("n", "v")
    elif word.endswith("ing"):
        suffix, flag, tags, wn_pos = "ing", F.ING, ("VBG",), ("v",)
    elif word.endswith("ed"):
        suffix, flag, tags, wn_pos = "ed", F.ED, ("VBD", "VBN"), ("v",)
    else:
        return 0, ""
    if suffix == "s" and word in FUNCTION_WORDS:
        return 0, ""

    def known(base: str) -> bool:
        return len(base) >= 2 and base in plain and base != word

    wn_bases = {b for p in wn_pos for b in wn.morphy(word, p) if known(b)}
    li_bases: set[str] = set()
    lemmas_by_pos = lemminflect.getAllLemmas(word)
    if not lemmas_by_pos and not any(word in wn.index[p] for p in "nva"):
        # Unknown to both: lemminflect's rules guess (fajitas -> fajita), checked against the list.
        lemmas_by_pos = lemminflect.getAllLemmasOOV(word, upos="NOUN" if suffix == "s" else "VERB")
    for upos, lemmas in lemmas_by_pos.items():
        if upos not in ("NOUN", "VERB"):
            continue
        for base in lemmas:
            if not known(base):
                continue
            forms = lemminflect.getAllInflections(base, upos=upos) or lemminflect.getAllInflectionsOOV(
                base, upos=upos
            )
            if any(word in forms.get(tag, ()) for tag in tags):
                li_bases.add(base)
    bases = wn_bases | li_bases
    if word in OVERRIDES:
        return OVERRIDES[word], min(bases) if bases else ""
    if not bases:
        return 0, ""
    z = zipf.get(word, 0)
    if suffix == "s":
        # A noun in its own right, clearly more common than its "singular": physics, species.
        if word in wn.index["n"] and all(z >= zipf.get(b, 0) + 0.5 for b in bases):
            return 0, ""
    else:
        if word in wn.index["v"]:
            return 0, ""  # a base verb itself: need, feed, sing, bring
        own = word in wn.index["a"] or word in wn.index["n"]
        if own:
            # An adjective or noun that only looks like a verb form: wicked, skilled (no such
            # verb in WordNet), ceiling (a rare verb, the noun far more common).
            verbs = {b for b in bases if b in wn.index["v"]}
            if all(wn.tagged["v"].get(b, 0) == 0 and z >= zipf.get(b, 0) + 1.0 for b in verbs):
                return 0, ""
    base = sorted(bases, key=lambda b: (-zipf.get(b, 0), b))[0]
    return flag, base


def _agent_noun(word: str, plain: dict[str, int]) -> bool:
    """An English -er noun made from a verb: causer (cause), aligner (align)."""
    return word.endswith("er") and (word[:-1] in plain or word[:-2] in plain)


def _pair_keys(word: str) -> dict[str, set[str]]:
    """Table keys a word satisfies, per placement (see games.lexicon.Lexicon.has_pair)."""
    counts: dict[str, int] = {}
    for ch in word:
        counts[ch] = counts.get(ch, 0) + 1
    letters = sorted(counts)
    anywhere = {a + b for a, b in combinations(letters, 2)} | {c + c for c in letters if counts[c] > 1}
    first, last = word[0], word[-1]
    ends: set[str] = set()
    for pos, end in ((0, first), (len(word) - 1, last)):
        for i, ch in enumerate(word):
            if i != pos:
                ends.add(end + ch)
    fl = {first + last if first <= last else last + first}
    inner_word = word[1:-1]
    inner: set[str] = set()
    if len(inner_word) >= 2:
        icounts: dict[str, int] = {}
        for ch in inner_word:
            icounts[ch] = icounts.get(ch, 0) + 1
        il = sorted(icounts)
        inner = {a + b for a, b in combinations(il, 2)} | {c + c for c in il if icounts[c] > 1}
    return {"anywhere": anywhere, "first-or-last": ends, "first-and-last": fl, "in-between": inner}


def _triple_keys(word: str) -> set[str]:
    counts: dict[str, int] = {}
    for ch in word:
        counts[ch] = counts.get(ch, 0) + 1
    pool = "".join(ch * min(n, 3) for ch, n in sorted(counts.items()))
    return {"".join(t) for t in combinations(pool, 3)}


def build_tables(rows: dict[str, int]) -> dict[str, dict[str, int]]:
    """Letter pair and triple tables: key -> length of the longest word satisfying it."""
    tables: dict[str, dict[str, int]] = {}
    for dictionary, dict_flag in F.DICT_FLAGS.items():
        for strict, bans in ((False, F.BASE_BANS), (True, F.STRICT_BANS)):
            ban_mask = 0
            for ban in bans:
                ban_mask |= F.BAN_FLAGS[ban]
            words = [
                w
                for w, info in rows.items()
                if info & dict_flag and not F.effective(info, dict_flag) & ban_mask and len(w) >= 2
            ]
            pair: dict[str, dict[str, int]] = {p: {} for p in F.PLACEMENTS}
            triple: dict[str, int] = {}
            for word in words:
                n = len(word)
                for placement, keys in _pair_keys(word).items():
                    table = pair[placement]
                    for key in keys:
                        if table.get(key, 0) < n:
                            table[key] = n
                for key in _triple_keys(word):
                    if triple.get(key, 0) < n:
                        triple[key] = n
            for placement in F.PLACEMENTS:
                tables[F.table_key(dictionary, strict, placement)] = pair[placement]
            tables[F.table_key(dictionary, strict, "triple")] = triple
    return tables


def build(scowl_dir: Path = SCOWL_DIR, wordnet_dir: Path = WORDNET_DIR, log: bool = True) -> bytes:
    """The compressed data file's bytes."""
    import lemminflect  # type: ignore[import-untyped,unused-ignore]
    import wordfreq  # type: ignore[import-untyped,unused-ignore]

    start = time.monotonic()

    def say(text: str) -> None:
        if log:
            print(f"[{time.monotonic() - start:6.1f}s] {text}", file=sys.stderr)

    scowl = Scowl(scowl_dir)
    say(f"SCOWL: {len(scowl.level)} words, {len(scowl.variant)} variants, {len(scowl.kind)} flagged")
    wn = WordNet(wordnet_dir)
    say(f"WordNet: {sum(len(v) for v in wn.index.values())} lemmas, {len(wn.persons)} persons")

    plain: dict[str, int] = {w: lvl for w, lvl in scowl.level.items() if not _junk(w)}
    rows: dict[str, int] = {}
    for word, level in plain.items():
        rows[word] = (F.CASUAL if level <= CASUAL_LEVEL else 0) | F.TOURNAMENT
    for word in scowl.variant:
        if not _junk(word) and word not in rows:
            rows[word] = F.TOURNAMENT
    for word in TWO_LETTER:
        rows[word] = rows.get(word, 0) | F.TOURNAMENT
    for word, (flag, level) in scowl.kind.items():
        if _junk(word):
            continue
        if word in rows:
            # A common plain reading (john, may) stays legal; a rare one (paris, english) does not
            # outweigh a common proper noun or abbreviation.
            if not rows[word] & F.CASUAL and level <= CASUAL_LEVEL:
                rows[word] |= flag | F.CASUAL | F.TOURNAMENT_PLAIN
            continue
        rows[word] = flag | (F.CASUAL if level <= CASUAL_LEVEL else 0) | F.TOURNAMENT
    say(f"rows: {len(rows)}")

    zipf: dict[str, float] = {w: wordfreq.zipf_frequency(w, "en") for w in rows}
    say("frequencies")

    bases: dict[str, str] = {}
    for word in sorted(rows):
        info = rows[word]
        if info & F.NAME_FLAGS and not info & F.TOURNAMENT_PLAIN:
            continue
        # Parts of speech and themes: WordNet lemma, or the base a form inflects.
        pos_flag = 0
        for pos, bit in (("n", F.NOUN), ("v", F.VERB), ("a", F.ADJ)):
            if word in wn.index[pos]:
                pos_flag |= bit
        nouns = {word} if word in wn.index["n"] else set()
        for pos, bit in (("n", F.NOUN), ("v", F.VERB)):
            if word in wn.index[pos]:
                continue  # a lemma itself: its own senses decide (boss is no bos)
            found = wn.morphy(word, pos)
            if found:
                pos_flag |= bit
                if pos == "n":
                    nouns |= found
        if not pos_flag:
            for upos, bit in (("NOUN", F.NOUN), ("VERB", F.VERB), ("ADJ", F.ADJ)):
                if upos in lemminflect.getAllLemmas(word):
                    pos_flag |= bit
        for noun in nouns:
            lexfiles = wn.theme_lexfiles(noun)
            if LEXNAME_ANIMAL in lexfiles:
                pos_flag |= F.ANIMAL
            if LEXNAME_FOOD in lexfiles:
                pos_flag |= F.FOOD
        flag, base = _inflection_flags(word, plain, wn, zipf)
        if base:
            bases[word] = base
        info |= pos_flag | flag
        # Foreign: far more frequent in a neighbouring language than in English, and not
        # an English word by WordNet's account (zit, travail, pertinence stay English).
        if word in FOREIGN_EXTRA:
            info |= F.FOREIGN
        elif (
            word not in FOREIGN_NOT
            and plain.get(word, 0) >= 40
            and zipf[word] < 4.0
            and not any(word in wn.index[p] for p in "nvar")
            and not base  # an inflection of an English word (steeds, reprises)
            and not wn.morphy(word, "n")  # an irregular plural of one (quanta, lire)
            and not _agent_noun(word, plain)  # causer, optimiser
        ):
            other = max(wordfreq.zipf_frequency(word, lang) for lang in FOREIGN_LANGS)
            if other >= 3.0 and other >= zipf[word] + 2.0:
                info |= F.FOREIGN
        rows[word] = info
    say(f"flags: {sum(1 for i in rows.values() if i & F.FOREIGN)} foreign, {len(bases)} inflections")

    for word, info in rows.items():
        rows[word] = info | (min(F.ZIPF_MASK, round(zipf[word] * 10)) << F.ZIPF_SHIFT)
    # Bases the info word can spell go there (the judge then needs no second lookup);
    # only the irregular rest stays in the bases section.
    for word, base in list(bases.items()):
        code = F.encode_base(word, base)
        rows[word] |= code
        if code != F.BASE_LISTED:
            del bases[word]

    tables = build_tables(rows)
    say("tables")

    words = sorted(rows)
    info_array = array("I", (rows[w] for w in words))
    if sys.byteorder != "little":
        info_array.byteswap()
    versions: dict[str, Any] = {}
    for dist in ("lemminflect", "wordfreq"):
        from importlib.metadata import version

        versions[dist] = version(dist)
    meta = {
        "format": 1,
        "sources": {"scowl": "Debian scowl", "wordnet": "Debian wordnet-base (WordNet 3.0)", **versions},
        "counts": {
            "rows": len(words),
            "casual": sum(1 for i in rows.values() if i & F.CASUAL),
            "tournament": sum(1 for i in rows.values() if i & F.TOURNAMENT),
            "persons": len(wn.persons),
        },
    }
    sections = [
        ("words", "\n".join(words).encode("ascii")),
        ("info", info_array.tobytes()),
        ("bases", "\n".join(f"{w}\t{b}" for w, b in sorted(bases.items())).encode("ascii")),
        ("persons", "\n".join(sorted(wn.persons)).encode("ascii")),
        ("tables", json.dumps(tables, sort_keys=True, separators=(",", ":")).encode("ascii")),
        ("meta", json.dumps(meta, sort_keys=True, indent=1).encode("ascii")),
    ]
    data = gzip.compress(F.pack_sections(sections), compresslevel=9, mtime=0)
    say(f"done: {len(data)} bytes")
    return data


def main(argv: list[str] | None = None) -> int:
    """Command line: build the data file."""
    parser = argparse.ArgumentParser(prog="python -m games.lexicon.build", description=__doc__)
    parser.add_argument("--out", type=Path, default=DATA_DIR / OUT_NAME, help="where to write the data file")
    parser.add_argument("--scowl", type=Path, default=SCOWL_DIR)
    parser.add_argument("--wordnet", type=Path, default=WORDNET_DIR)
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)
    missing = [str(p) for p in (args.scowl, args.wordnet) if not p.is_dir()]
    if missing:
        print(
            f"missing {', '.join(missing)}: install the Debian packages scowl and wordnet-base "
            "(apt-get install scowl wordnet-base)",
            file=sys.stderr,
        )
        return 2
    try:
        import lemminflect  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
        import wordfreq  # type: ignore[import-untyped,unused-ignore]  # noqa: F401
    except ImportError as exc:
        print(f"{exc.name} is missing: pip install -e '.[lexicon-build]'", file=sys.stderr)
        return 2
    data = build(args.scowl, args.wordnet, log=not args.quiet)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    print(f"wrote {args.out} ({len(data)} bytes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
