"""Measure the name decision on labelled word sets (bench/bench_names.py and its test).

A language's sets are two files in one folder (tests/games/lexicon/labelled/): ``CODE-everyday.txt``
(words no game that bans proper nouns may refuse) and ``CODE-names.txt`` (places under a
``[place]`` line, first names under ``[person]``, names the word list also writes in lower
case under ``[dual]``). Lines starting with ``#`` say where the words came from; other
``[section]`` lines only group words. A name that folds like an everyday word of the other
file (Spanish *tomas*, you take; English *china*; the duals whose lower-case reading is an
everyday word, listed there under ``[dual words]``) counts as everyday only. The names
budget counts the duals with the other names. Words are folded like the
language's answers; a word the dictionary does not list is counted apart (``unlisted``), as
neither the name decision nor its refusal applies to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from games.common.languages import language
from games.lexicon import _format as F
from games.lexicon.core import Lexicon

#: What a race refuses by default among the name bans (proper nouns, abbreviations,
#: contractions), and what Mark My Words refuses (every capitalised-only entry but places).
RACE_BANS: tuple[str, ...] = ("proper", "abbrev", "contraction")
PATHS_BANS: tuple[str, ...] = ("names", "non-place", "abbrev", "contraction")
_RACE_MASK = sum(F.BAN_FLAGS[b] for b in RACE_BANS)
_PATHS_MASK = sum(F.BAN_FLAGS[b] for b in PATHS_BANS)

#: Budgets: everyday words accepted and names refused (the duals included), per
#: language.
EVERYDAY_ACCEPTED_MIN = 99.0
NAMES_REFUSED_MIN = 90.0


@dataclass(frozen=True, slots=True)
class Labelled:
    """One language's labelled words, folded."""

    everyday: tuple[str, ...]
    places: tuple[str, ...]
    persons: tuple[str, ...]
    #: Names the language's own word list also writes in lower case (Spanish juan, rusia):
    #: counted with the names in the budget, and apart for information.
    duals: tuple[str, ...] = ()


def read_sets(folder: Path, code: str) -> Labelled:
    """The labelled sets of language ``code`` in ``folder``."""
    lang = language(code)

    def read(path: Path) -> dict[str, list[str]]:
        sections: dict[str, list[str]] = {"": []}
        current = ""
        for line in path.read_text("utf-8").splitlines():
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.startswith("[") and line.endswith("]"):
                current = line[1:-1]
                sections.setdefault(current, [])
                continue
            for raw in line.split():
                word = lang.fold(raw)
                if word and word not in sections[current]:
                    sections[current].append(word)
        return sections

    every = read(folder / f"{code}-everyday.txt")
    names = read(folder / f"{code}-names.txt")
    everyday = tuple(dict.fromkeys(w for words in every.values() for w in words))

    def only_names(section: str) -> tuple[str, ...]:
        return tuple(w for w in names.get(section, ()) if w not in everyday)

    return Labelled(everyday, only_names("place"), only_names("person"), only_names("dual"))


def _pct(part: int, whole: int) -> float:
    return round(100.0 * part / whole, 1) if whole else 100.0


def measure(sets: Labelled, info_of: Callable[[str], int | None]) -> dict[str, object]:
    """Precision and recall of the proper-noun and personal-name decisions, and what a race
    and Mark My Words accept, over ``sets``; ``info_of`` gives a word's flags in the
    dictionary measured (None when it does not list the word)."""
    every = {*sets.everyday, *sets.places, *sets.persons, *sets.duals}
    listed = {w: i for w in every if (i := info_of(w)) is not None}
    duals = [w for w in sets.duals if w in listed]
    everyday = [w for w in sets.everyday if w in listed]
    places = [w for w in sets.places if w in listed and w not in sets.everyday]
    persons = [w for w in sets.persons if w in listed and w not in sets.everyday]
    names = places + persons

    def flagged(words: list[str], mask: int) -> list[str]:
        return [w for w in words if listed[w] & mask]

    proper = F.PROPER | F.ABBREV
    tp = len(flagged(names, proper))
    fp_words = flagged(everyday, proper)
    person_tp = len(flagged(persons, F.PERSONAL_NAME))
    person_fp = len(flagged(everyday + places, F.PERSONAL_NAME))
    race_refused = flagged(everyday, _RACE_MASK)
    names_passing = [w for w in names if not listed[w] & _RACE_MASK]
    return {
        "everyday": len(everyday),
        "places": len(places),
        "persons": len(persons),
        "duals": len(duals),
        "unlisted": len(every - listed.keys()),
        "proper_precision": _pct(tp, tp + len(fp_words)),
        "proper_recall": _pct(tp, len(names)),
        "name_precision": _pct(person_tp, person_tp + person_fp),
        "name_recall": _pct(person_tp, len(persons)),
        "everyday_accepted_pct": _pct(len(everyday) - len(race_refused), len(everyday)),
        "names_refused_pct": _pct(len(names) - len(names_passing), len(names)),
        "paths_places_allowed_pct": _pct(len(places) - len(flagged(places, _PATHS_MASK)), len(places)),
        "paths_persons_refused_pct": _pct(len(flagged(persons, _PATHS_MASK)), len(persons)),
        "duals_refused_pct": _pct(len(flagged(duals, _RACE_MASK)), len(duals)),
        # every name, the duals too: the names budget (NAMES_REFUSED_MIN) applies to this one
        "names_and_duals_refused_pct": _pct(
            len(names) - len(names_passing) + len(flagged(duals, _RACE_MASK)), len(names) + len(duals)
        ),
        "everyday_refused": sorted(race_refused),
        "names_accepted": sorted(names_passing),
        "duals_accepted": sorted(w for w in duals if not listed[w] & _RACE_MASK),
    }


def lexicon_info(lex: Lexicon) -> Callable[[str], int | None]:
    """``info_of`` for :func:`measure` over a loaded lexicon: a word's flags as its dictionary
    sees them, None when that dictionary does not list it."""
    info, bit = lex._info, lex._bit

    def info_of(word: str) -> int | None:
        found = info.get(word, 0)
        return F.effective(found, bit) if found & bit else None

    return info_of
