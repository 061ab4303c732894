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
from collections.abc import Callable, Iterable, Iterator
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
#: Forms of a verb no dictionary lists must be this common (SCOWL size) to make it one (texted).
VERB_FORMS_LEVEL = 50


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

#: Spoken run-togethers of two words (going to -> gonna): contractions, though written
#: without an apostrophe and so listed by SCOWL as plain words.
RUN_TOGETHERS = frozenset(
    _words(
        """gonna wanna gotta kinda sorta dunno lemme gimme outta oughta hafta gotcha betcha whatcha
        wassup innit dontcha didja coulda woulda shoulda musta tryna"""
    )
)
#: Genuine data errors the -s/-ing/-ed rule (see Inflections) cannot see, each with
#: its reason (docs/LEXICON.md, "Lexicalised words"). word -> the ban flag it gets.
DATA_ERRORS: dict[str, int] = {
    "his": 0,  # lemminflect and WordNet make it the plural of HI (the greeting)
    "during": 0,  # a preposition; WordNet's archaic verb DURE makes it look like an -ing form
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
LEXNAME_ACT = 4  # noun.act
LEXNAME_PROCESS = 22  # noun.process
LEXNAME_GROUP = 14  # noun.group
#: How much more frequent (Zipf) than a base no dictionary calls a noun or verb a word must
#: be to have a use of its own (towards 5.06, toward 4.72; screenshots 3.4 < screenshot 3.6).
GUESSED_BASE_MARGIN = 0.3
#: Where WordNet files geographical instances: noun.location (cities, countries, states,
#: regions, continents) and noun.object (rivers, lakes, seas, mountains, islands).
LEXNAMES_PLACE = frozenset({15, 17})
#: Synsets whose hyponyms are food in any sense, not only a word's common ones
#: (docs/LEXICON.md, "Food, drink and animals"): edible fruit (date, orange, lime),
#: vegetable (pepper), edible nut (pecan, chestnut), and FOOD_NUTRIENT's direct hyponyms
#: (water, fare, feed).
PRODUCE = frozenset({7705931, 7707451, 7737081})
FOOD_NUTRIENT = 21265
#: Flesh eaten as food (meat, game, poultry, fish, seafood, shellfish): a food sense directly
#: under one of these, the flesh of an animal the word names (turkey, lamb, salmon, clam),
#: counts whenever the animal does (not DOG: a frankfurter is a kind of sausage).
FLESH = frozenset({7649854, 7650449, 7644706, 7775375, 7776866, 7783210})
#: WordNet's "animal, animate being, beast, brute, creature, fauna".
ANIMAL_ROOT = 15388
#: WordNet's "hominid" (man and his extinct kin): people are no animals in a word game
#: (HUMANITY, MAN, WORLD: "all of the living human inhabitants of the earth").
HOMINID = frozenset({2471762})
#: A scientific name among a synset's lemmas (Phascolarctos_cinereus).
BINOMIAL = re.compile(r"^[A-Z][a-z]+_[a-z]+$")
#: Where a food sense counted only because the corpus cannot tell must lead: food, solid
#: food or a beverage, but not animal feed or a meal (SCRATCH, TIMOTHY, MAST; FEAST, PICNIC)
#: nor a helping (PLEDGE, a toast; QUID, a chew of tobacco).
FOOD_ROOTS = frozenset({FOOD_NUTRIENT, 7555863, 7881800})
NOT_FOOD = frozenset({7800091, 7573696})
#: An animal sense must sit at least this many steps below ANIMAL_ROOT on every path: the
#: senses right under it are roles and broad classes (pet, game, prey, young, male, giant,
#: predator, invertebrate), not animals a player names.
ANIMAL_DEPTH = 2
#: A sense is common when WordNet's tagged corpus (SemCor) gives it this share of the word's
#: tagged uses as a noun (or it is one of the two leading senses and tagged at all) ...
COMMON_SHARE = 0.1
#: ... or, for a word SemCor tags fewer than this many times as a noun, when the word is
#: rarer than COMMON_ZIPF: the corpus cannot tell its senses apart, and a rare word typed
#: under a theme is typed for its theme sense (chameleon, crane, alpaca, scorpion).
FEW_TAGS = 5
COMMON_ZIPF = 4.5
#: First words of WordNet's taxon names (genus_Canis, family_Felidae), which are no animals' names.
TAXA = frozenset(
    _words(
        """genus family order class subclass superfamily subfamily suborder superorder phylum
        subphylum tribe"""
    )
)
#: Words of the word-game lists that no source here carries in lower case (docs/LEXICON.md):
#: ONO (a Hawaiian fish; WordNet 3.0 knows only Yoko Ono, SCOWL only an abbreviation).
GAME_WORDS: tuple[str, ...] = ("ono",)


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
        #: (lemma, pos) -> how often WordNet's tagged corpus (SemCor) uses it.
        self.counts: dict[tuple[str, str], int] = defaultdict(int)
        #: (noun lemma, sense number from 1) -> how often SemCor uses that sense.
        self.noun_sense_counts: dict[tuple[str, int], int] = {}
        for line in (root / "cntlist.rev").read_text("latin-1").splitlines():
            sense_key, number, uses = line.split()
            lemma, _, rest = sense_key.partition("%")
            self.counts[(lemma, "nvara"[int(rest[0]) - 1])] += int(uses)
            if rest[0] == "1":
                self.noun_sense_counts[(lemma, int(number))] = int(uses)
        self.lexfile: dict[int, int] = {}
        self.hypernyms: dict[int, list[int]] = {}  # noun synset -> its (instance) hypernyms
        self.hyponyms: dict[int, list[int]] = {}  # noun synset -> its hyponyms
        #: Noun synsets biology names: a member of a taxon (#m) or with a binomial lemma.
        self.taxon_members: set[int] = set()
        self.common: dict[int, frozenset[str]] = {}  # synset -> its lemmas written in lower case
        self.persons: set[str] = set()  # famous persons' full names (folded)
        #: One-word noun lemmas written with a capital -> what they name (PLACE | PERSON | OTHER).
        self.capitalised: dict[str, int] = {}
        for pos, name in self.POS.items():
            for line in (root / f"data.{name}").read_text("latin-1").splitlines():
                if line.startswith(" "):
                    continue
                parts = line.split()
                offset, lexfile = int(parts[0]), int(parts[1])
                count = int(parts[3], 16)
                raw_words = [re.sub(r"\(.*?\)$", "", parts[4 + 2 * i]) for i in range(count)]
                self.common[_key(pos, offset)] = frozenset(w for w in raw_words if w == w.lower())
                if pos != "n":
                    continue
                self.lexfile[offset] = lexfile
                pointers = int(parts[4 + 2 * count])
                ups: list[int] = []
                downs: list[int] = []
                instance = False
                for i in range(pointers):
                    symbol, target = parts[5 + 2 * count + 4 * i], parts[6 + 2 * count + 4 * i]
                    if symbol in ("@", "@i"):
                        ups.append(int(target))
                        instance = instance or symbol == "@i"
                    elif symbol == "~":
                        downs.append(int(target))
                    elif symbol == "#m" and lexfile == LEXNAME_ANIMAL:
                        self.taxon_members.add(offset)
                if lexfile == LEXNAME_ANIMAL and any(BINOMIAL.match(w) for w in raw_words):
                    self.taxon_members.add(offset)  # Phascolarctos_cinereus (koala)
                self.hyponyms[offset] = downs
                self.hypernyms[offset] = ups
                if instance and lexfile == LEXNAME_PERSON:
                    self.persons.update(n for n in map(_name, raw_words) if n)
                kind = (
                    PLACE
                    if instance and lexfile in LEXNAMES_PLACE
                    else PERSON
                    if instance and lexfile == LEXNAME_PERSON
                    else OTHER
                )
                for raw in raw_words:
                    if raw != raw.lower() and "_" not in raw and "-" not in raw:
                        word = fold(raw)
                        if word.isascii() and word.isalpha():
                            self.capitalised[word] = self.capitalised.get(word, 0) | kind

    def senses(self, lemma: str, pos: str) -> list[int]:
        """Synsets of ``lemma`` (most frequent first) in which it is written in lower case.

        ``led`` is no noun here (WordNet writes it LED), ``paris`` is (the plant genus is
        Paris too, so neither is); a lemma's lower-case senses are its common-word readings.
        """
        return [o for o in self.index[pos].get(lemma, ()) if lemma in self.common.get(_key(pos, o), ())]

    def count(self, lemma: str, pos: str) -> int:
        """How often WordNet's tagged corpus uses ``lemma`` as ``pos`` (all senses)."""
        return self.counts.get((lemma, pos), 0)

    def reaches(self, offset: int, targets: frozenset[int], _depth: int = 0) -> bool:
        """True if the noun synset ``offset`` is, or has among its hypernyms, one of ``targets``."""
        if offset in targets:
            return True
        if _depth > 30:
            return False
        return any(self.reaches(up, targets, _depth + 1) for up in self.hypernyms.get(offset, ()))

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

    def animal_depth(self, offset: int, _depth: int = 0) -> int:
        """The fewest hypernym steps from the noun synset ``offset`` up to ANIMAL_ROOT (-1: none)."""
        if offset == ANIMAL_ROOT:
            return _depth
        if _depth > 30:
            return -1
        found = [self.animal_depth(up, _depth + 1) for up in self.hypernyms.get(offset, ())]
        return min((d for d in found if d >= 0), default=-1)

    def common_senses(self, lemma: str, zipf: Callable[[str], float]) -> dict[int, bool]:
        """The noun synsets of ``lemma`` that are common readings of it (docs/LEXICON.md,
        "Food, drink and animals"), each with True when the evidence shows it and False when
        it counts only because the evidence cannot tell.

        A sense SemCor tags shows it when it is one of the two leading senses or has
        COMMON_SHARE of the word's tagged uses. When SemCor tags the word fewer than FEW_TAGS
        times it cannot tell the senses apart: the two leading senses show it, and every
        other sense counts too for a collocation (red_wine) or for a word rarer than
        COMMON_ZIPF (chameleon), but not for a more common word (cake).
        """
        offsets = self.index["n"].get(lemma, [])
        uses = [self.noun_sense_counts.get((lemma, n), 0) for n in range(1, len(offsets) + 1)]
        total = sum(uses)
        if total < FEW_TAGS:
            every = "_" in lemma or "-" in lemma or zipf(lemma) < COMMON_ZIPF
            return {
                o: bool(n or rank < 2)
                for rank, (o, n) in enumerate(zip(offsets, uses, strict=True))
                if n or rank < 2 or every
            }
        return {
            o: True
            for rank, (o, n) in enumerate(zip(offsets, uses, strict=True))
            if n and (rank < 2 or n >= COMMON_SHARE * total)
        }

    def named_kind(self, offset: int) -> bool:
        """Is the animal synset ``offset`` a kind biology names (a member of a taxon, or with a
        scientific name), or one whose hyponyms are (seal: eared and earless seals)? Roles
        such as a horse kept for hire (HACK, POSTER) or a parent (DAM, SIRE) are not."""
        members = self.taxon_members
        return offset in members or any(h in members for h in self.hyponyms.get(offset, ()))

    def themes(self, lemma: str, zipf: Callable[[str], float]) -> int:
        """The FOOD and ANIMAL bits of a noun (``zipf`` gives a word's Zipf frequency).

        A common sense (see common_senses) that is an animal below the broad classes (no
        hominid; a named kind if only the lack of evidence lets it count), or a food or
        drink (food, solid food or a beverage, no feed or meal, if only the lack of evidence
        lets it count); FOOD too for any sense that is a fruit, a vegetable or a direct kind
        of food/nutrient (water, date, lime), and for the flesh of an animal the word names
        (turkey, lamb).
        """
        bits = 0
        flesh = False
        common = self.common_senses(lemma, zipf)
        for offset in self.index["n"].get(lemma, ()):
            lexfile = self.lexfile[offset]
            shown = common.get(offset)
            if lexfile == LEXNAME_ANIMAL:
                depth = self.animal_depth(offset)
                # A species WordNet files under "species" rather than under an animal
                # (barramundi, Lates calcarifer) has no path to "animal" but a taxon.
                kind = depth >= ANIMAL_DEPTH or (depth < 0 and offset in self.taxon_members)
                if (
                    shown is not None
                    and (shown or self.named_kind(offset))
                    and kind
                    and not self.reaches(offset, HOMINID)
                ):
                    bits |= F.ANIMAL
            elif lexfile == LEXNAME_FOOD:
                produce = FOOD_NUTRIENT in self.hypernyms[offset] or self.reaches(offset, PRODUCE)
                unseen_food = self.reaches(offset, FOOD_ROOTS) and not self.reaches(offset, NOT_FOOD)
                food = shown is not None and (shown or unseen_food)
                if food or produce:
                    bits |= F.FOOD
                elif FLESH & set(self.hypernyms[offset]):
                    flesh = True
        if flesh and bits & F.ANIMAL:
            bits |= F.FOOD
        return bits


#: What a capitalised WordNet lemma names (bits of WordNet.capitalised).
PLACE, PERSON, OTHER = 1, 2, 4


def personal_name(word: str, wn: WordNet) -> bool:
    """Is the proper noun ``word`` a personal name rather than a place or another name?

    A place by any sense (a geographical instance: paris, nile, washington) is no personal
    name; a person instance is (einstein, mary); another capitalised sense (monday, english,
    african) is not. A proper noun WordNet does not know as a capitalised noun counts as a
    personal name: the word lists' names beyond WordNet are mostly first names and surnames.
    """
    kind = wn.capitalised.get(word, 0)
    if kind & PLACE:
        return False
    return bool(kind & PERSON) or not kind


def base_plural(word: str, wn: WordNet) -> bool:
    """Is ``word`` (ending in -s) the plural of a noun WordNet lists (peanuts, clams)?"""
    return word.endswith("s") and any(wn.senses(b, "n") for b in wn.morphy(word, "n"))


def _key(pos: str, offset: int) -> int:
    """One integer key for a synset of any part of speech (offsets repeat across files)."""
    return offset * 4 + "nvar".index(pos)


def _name(raw: str) -> str:
    """A WordNet lemma as a folded answer: ``Albert_Einstein`` -> ``albert einstein``."""
    text = fold(raw.replace("_", " "))
    text = re.sub(r"\(.*?\)", "", text)
    text = re.sub(r"[^a-z ]", " ", text)
    return " ".join(text.split())


class Inflections:
    """The -s/-ing/-ed rule, one for every word (docs/LEXICON.md, "Lexicalised words").

    A word is an inflection when (1) it is the plural of a noun, a verb's -s form made by
    adding -s or -es (runs, goes, does; not has or is), or a verb's -ing or past form, and
    (2) its own dictionary entry gives it no meaning of its own: no adverb of its own
    (afterwards, forwards), no noun of its own whose main sense is a thing rather than the
    act (building, wedding, evening; not swimming), for -s words no adjective of its own,
    and for -ing/-ed words no adjective of its own unless the verb it would inflect is
    never seen as a verb in WordNet's tagged corpus (ragged, crooked, wicked; not tired).
    A word that is itself a verb's base form (need, sing) is no inflection either.
    """

    def __init__(self, plain: dict[str, int], wn: WordNet) -> None:
        import lemminflect  # type: ignore[import-untyped,unused-ignore]

        self.li: Any = lemminflect
        self.plain = plain
        self.wn = wn
        self.extra_verbs = self._verbs_by_forms()

    def _li_verb(self, word: str) -> bool:
        return bool(self.li.getAllInflections(word, upos="VERB"))

    def _other_verb(self, form: str, base: str) -> bool:
        """Is ``form`` an inflection of some verb other than ``base`` (clothed: clothe)?"""
        found = set(self.wn.morphy(form, "v")) | set(self.li.getAllLemmas(form).get("VERB", ()))
        return any(b != base and (b in self.wn.index["v"] or self._li_verb(b)) for b in found)

    def _verbs_by_forms(self) -> frozenset[str]:
        """Verbs no dictionary lists as verbs whose -ed and -ing forms both stand in the
        casual word list, are no WordNet words of their own and inflect no other verb:
        text (texted, texting)."""
        out: set[str] = set()
        plain = self.plain
        for base in sorted(plain):
            if len(base) < 3 or base in self.wn.index["v"] or self._li_verb(base):
                continue
            forms = self.li.getAllInflectionsOOV(base, upos="VERB")
            past, ing = forms.get("VBD", ("",))[0], forms.get("VBG", ("",))[0]
            if plain.get(past, 99) <= VERB_FORMS_LEVEL and plain.get(ing, 99) <= VERB_FORMS_LEVEL:
                if any(form in self.wn.index[p] for form in (past, ing) for p in "nva"):
                    continue  # deed, creed: words of their own, not forms of dee, cree
                if not self._other_verb(past, base) and not self._other_verb(ing, base):
                    out.add(base)
        return frozenset(out)

    def is_verb(self, word: str) -> bool:
        """A verb by WordNet, lemminflect's own lexicon or its forms in the word lists."""
        return word in self.wn.index["v"] or word in self.extra_verbs or self._li_verb(word)

    def is_noun(self, word: str) -> bool:
        """A common noun by WordNet (written in lower case) or lemminflect's own lexicon."""
        return bool(self.wn.senses(word, "n")) or bool(self.li.getAllInflections(word, upos="NOUN"))

    def _unlisted(self, base: str) -> bool:
        """A guessed base WordNet does not list at all (toward), rather than one it lists only
        as an adjective or adverb (rightward), which has no plural and no verb forms."""
        return not any(base in self.wn.index[p] for p in "nvar")

    def _known(self, base: str, word: str) -> bool:
        return len(base) >= 2 and base in self.plain and base != word

    def _forms(self, base: str, upos: str) -> dict[str, tuple[str, ...]]:
        forms: dict[str, tuple[str, ...]] = self.li.getAllInflections(base, upos=upos)
        return forms or self.li.getAllInflectionsOOV(base, upos=upos)

    def bases(self, word: str) -> tuple[int, set[str]]:
        """The ban flag ``word``'s ending calls for and the bases it inflects (part 1 of the rule)."""
        li, wn = self.li, self.wn
        lemmas = li.getAllLemmas(word)
        unknown = not lemmas and not any(word in wn.index[p] for p in "nva")
        found: set[str] = set()
        if word.endswith("s"):
            flag = F.PLURAL_S
            nouns = set(wn.morphy(word, "n")) | set(lemmas.get("NOUN", ()))
            if unknown:
                nouns |= set(li.getAllLemmasOOV(word, upos="NOUN").get("NOUN", ()))
            for base in nouns:
                listed = self.is_noun(base) or (unknown and self._unlisted(base))
                if not self._known(base, word) or not listed:
                    continue
                if base in wn.morphy(word, "n") or word in self._forms(base, "NOUN").get("NNS", ()):
                    found.add(base)
            verbs = set(wn.morphy(word, "v")) | set(lemmas.get("VERB", ()))
            for base in verbs:
                regular = word in (base + "s", base + "es") or (
                    base.endswith("y") and word == base[:-1] + "ies"
                )
                if regular and self._known(base, word) and self.is_verb(base):
                    found.add(base)
            return flag, found
        tags: tuple[str, ...]
        if word.endswith("ing"):
            flag, tags = F.ING, ("VBG",)
        elif word.endswith("ed"):
            flag, tags = F.ED, ("VBD", "VBN")
        else:
            return 0, found
        verbs = set(wn.morphy(word, "v")) | set(lemmas.get("VERB", ()))
        if unknown:
            verbs |= set(li.getAllLemmasOOV(word, upos="VERB").get("VERB", ()))
        for base in verbs:
            if not self._known(base, word) or not (self.is_verb(base) or self._unlisted(base)):
                continue  # a base no dictionary lists may be a verb (realise): its forms decide
            forms = self._forms(base, "VERB")
            if base in wn.morphy(word, "v") or any(word in forms.get(tag, ()) for tag in tags):
                found.add(base)
        return flag, found

    def lexicalised(self, word: str, flag: int, bases: Iterable[str], zipf: dict[str, float]) -> bool:
        """Does ``word``'s own entry give it a meaning of its own (part 2 of the rule)?"""
        wn = self.wn
        if wn.senses(word, "v"):
            return True  # a verb's base form (need, sing)
        # How often an average form of the base is used in WordNet's tagged corpus
        # (SemCor): a noun has two forms, a verb four.
        per_form = max(
            (
                (wn.count(b, "n") / 2 if flag == F.PLURAL_S and self.is_noun(b) else 0)
                + (wn.count(b, "v") / 4 if self.is_verb(b) else 0)
                for b in bases
            ),
            default=0,
        )
        best = max(bases, key=lambda b: (zipf.get(b, 0), b), default="")
        if wn.senses(word, "r") and (per_form < 1 or wn.count(word, "r") > per_form):
            # An adverb of its own (afterwards, alas, forwards), unless the corpus uses the
            # base's forms (at least once each) more than the adverb: the archaic adverbs
            # NEEDS ("must needs") and PASSING ("passing strange") are forms of NEED and PASS.
            return True

        def more_used(pos: str) -> bool:
            own = wn.count(word, pos)
            if own or per_form:
                return own > per_form
            # Neither in the tagged corpus: the word must be clearly more frequent than its
            # base; for an -ing/-ed noun of a verb the corpus never uses as one (shilling:
            # shill), only by the margin a guessed base needs.
            margin = GUESSED_BASE_MARGIN if flag != F.PLURAL_S else 0.5
            return zipf.get(word, 0) >= zipf.get(best, 0) + margin

        # -wards makes adverbs (towards, rightwards, earthwards), and an adverb has no plural:
        # the -s form of a -ward adverb, or of a -ward WordNet lacks, is that adverb (wards,
        # awards, rewards, stewards stay plurals of their nouns).
        if (
            flag == F.PLURAL_S
            and word.endswith("wards")
            and any(
                b.endswith("ward") and (wn.senses(b, "r") or self._unlisted(b)) and not self.is_verb(b)
                for b in bases
            )
        ):
            return True
        if not any(self.is_noun(b) or self.is_verb(b) for b in bases):
            # Only guessed bases, which no dictionary calls a noun or verb (towards from
            # toward, screenshots from screenshot): a use of its own shows as a word clearly
            # more frequent than its base.
            return zipf.get(word, 0) >= zipf.get(best, 0) + GUESSED_BASE_MARGIN
        nouns = wn.senses(word, "n")
        # Not the act (swimming), nor for -ed the people the verb describes (the wounded).
        not_own = (LEXNAME_ACT, LEXNAME_PROCESS, LEXNAME_GROUP if flag == F.ED else LEXNAME_ACT)
        if nouns and wn.lexfile[nouns[0]] not in not_own and more_used("n"):
            return True  # physics, clothes, jeans, building, wedding; not years, glasses
        # An adjective whose base is never tagged as a verb or noun there: ragged, crooked,
        # wicked; not tired, broken (their verbs are used).
        return bool(wn.senses(word, "a")) and not per_form and wn.count(word, "a") > 0

    def flags(self, word: str, zipf: dict[str, float]) -> tuple[int, str]:
        """The -s/-ing/-ed ban flag of ``word`` and the base it inflects ("" if none)."""
        if word in DATA_ERRORS:
            flag = DATA_ERRORS[word]
            _, bases = self.bases(word)
            return flag, (sorted(bases, key=lambda b: (-zipf.get(b, 0), b))[0] if flag and bases else "")
        flag, bases = self.bases(word)
        if not bases or self.lexicalised(word, flag, bases, zipf):
            return 0, ""
        return flag, sorted(bases, key=lambda b: (-zipf.get(b, 0), b))[0]


THEME_WORDS_FILE = "theme_words.txt"


def _listed_theme_words(path: Path) -> dict[str, int]:
    """The shipped list of food and animal answers WordNet lacks (``data/theme_words.txt``)."""
    bits = {"[food]": F.FOOD, "[animals]": F.ANIMAL}
    out: dict[str, int] = {}
    current = 0
    for raw in path.read_text("utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line in bits:
            current = bits[line]
        elif line and current:
            name = " ".join(line.lower().split())
            out[name] = out.get(name, 0) | current
    return out


def _plural_rows(rows: dict[str, int], themed: dict[str, int]) -> dict[str, int]:
    """Plurals of multi-word theme answers, by their last word's plural in the word list
    (fried egg -> fried eggs): flagged plural-s, so the ban applies outside lifting themes."""
    import lemminflect  # type: ignore[import-untyped,unused-ignore]

    out: dict[str, int] = {}
    for name, bits in sorted(themed.items()):
        head, _, last = name.rpartition(" ")
        if not head or last.endswith("s"):
            continue
        forms = lemminflect.getAllInflections(last, upos="NOUN").get("NNS", ())
        plural = f"{head} {forms[0]}" if forms and forms[0] in rows else ""
        if plural and plural not in themed and plural not in rows:
            out[plural] = bits | F.PLURAL_S | F.encode_base(plural, name)
    return out


def _theme_rows(wn: WordNet, rows: dict[str, int], zipf: Callable[[str], float]) -> dict[str, int]:
    """Food and animal nouns neither dictionary lists, as rows without a dictionary bit.

    One-word ones must be WordNet lemmas written in lower case (no genus names); several
    words (ice_cream, polar_bear, Coca_Cola) fold to lower-case words and single spaces.
    Capitalised collocations count for food (brand drinks WordNet lists) but not for
    animals (genus Canis is a taxon, not an animal's name).
    """
    out: dict[str, int] = {}
    for lemma in sorted(wn.index["n"]):
        if lemma in rows:
            continue
        several = "_" in lemma or "-" in lemma
        name = " ".join(lemma.replace("_", " ").replace("-", " ").split()) if several else lemma
        if not name.isascii() or not name.replace(" ", "").isalpha() or len(name.replace(" ", "")) < 3:
            continue
        if name in rows or (not several and _junk(name)):
            continue
        bits = wn.themes(lemma, zipf)
        if not wn.senses(lemma, "n"):
            # Written with capitals: a brand drink or dish counts as food (Coca_Cola), a breed
            # as an animal (German_shepherd), a taxon (genus_Canis) as neither.
            taxon = lemma.split("_", 1)[0] in TAXA
            bits &= (F.FOOD | (0 if taxon else F.ANIMAL)) if several else 0
        if bits:
            out[name] = out.get(name, 0) | bits | F.NOUN
    for name, bits in _listed_theme_words(DATA_DIR / THEME_WORDS_FILE).items():
        out[name] = out.get(name, 0) | bits | F.NOUN  # a word already listed gains the theme (pepsi)
    out.update(_plural_rows(rows, out))
    return out


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
    for word in TWO_LETTER + GAME_WORDS:
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
        if flag == F.PROPER and any(wn.senses(word, pos) for pos in "nvar"):
            # A plain reading in WordNet (abigail, a lady's maid): a plain tournament word too.
            rows[word] |= F.TOURNAMENT_PLAIN
    for word in GAME_WORDS:
        rows[word] |= F.TOURNAMENT_PLAIN  # a game word is plain in the tournament list
    for word, info in rows.items():
        if info & F.PROPER and personal_name(word, wn):
            rows[word] = info | F.PERSONAL_NAME
    for word in RUN_TOGETHERS & rows.keys():
        rows[word] |= F.CONTRACTION
    # Irregular plurals of tournament nouns (antisera, criteria) belong in the tournament list.
    for plural, singulars in sorted(wn.exc["n"].items()):
        if plural in rows or not (plural.isascii() and plural.isalpha()) or _junk(plural):
            continue
        if any(rows.get(s, 0) & F.TOURNAMENT and not rows[s] & F.NAME_FLAGS for s in singulars):
            rows[plural] = F.TOURNAMENT
    say(f"rows: {len(rows)}")

    zipf: dict[str, float] = {w: wordfreq.zipf_frequency(w, "en") for w in rows}
    say("frequencies")

    def frequency(word: str) -> float:
        found = zipf.get(word)
        return found if found is not None else float(wordfreq.zipf_frequency(word, "en"))

    infl = Inflections(plain, wn)
    say(f"inflections: {len(infl.extra_verbs)} verbs known by their forms")
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
        if word in wn.index["n"] and base_plural(word, wn):
            # A plural WordNet also lists as a lemma of its own (peanuts: a trifle) is still
            # the plural of its singular for the themes (peanuts are food).
            nouns |= wn.morphy(word, "n")
        if not pos_flag:
            for upos, bit in (("NOUN", F.NOUN), ("VERB", F.VERB), ("ADJ", F.ADJ)):
                if upos in lemminflect.getAllLemmas(word):
                    pos_flag |= bit
        for noun in nouns:
            pos_flag |= wn.themes(noun, frequency)
        flag, base = infl.flags(word, zipf)
        if base:
            bases[word] = base
        if word in infl.extra_verbs or base in infl.extra_verbs:
            pos_flag |= F.VERB  # text, texted
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

    themed = _theme_rows(wn, rows, frequency)
    for word, info in themed.items():
        if word not in rows:
            zipf[word] = wordfreq.zipf_frequency(word, "en")
        rows[word] = rows.get(word, 0) | info
    only = [w for w in themed if not rows[w] & (F.CASUAL | F.TOURNAMENT)]
    say(f"theme words: {len(only)} ({sum(1 for w in only if ' ' in w)} of several words)")

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
            "theme_only": len(only),
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
