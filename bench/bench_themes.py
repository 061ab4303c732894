"""Theme recall: how many common food, drink and animal answers the English lexicon accepts,
and how many common non-theme words it wrongly accepts. Prints JSON.

The labelled sets live in ``bench/labels/`` (``themes-food.txt``, ``themes-drinks.txt``,
``themes-animals.txt``, the negatives ``themes-negative.txt`` and ``themes-heldout.txt``,
written after the rule and the shipped list were final and not tuned for; each file's
header says where it came from). Every answer is judged as a race judges it: normalised as typed
(several words allowed), under the theme and the race's default bans (proper nouns,
abbreviations, contractions, foreign words; a food theme lifts the proper-noun and
plural bans). Drinks are judged under ``food`` ("food or drink").

Aims (docs/LEXICON.md, "Food, drink and animals"): recall >= 95% on each positive set,
false positives <= 1% on the negatives under each theme.
Run: ``python bench/bench_themes.py [--misses]``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.common.words import WordRules, normalize
from games.lexicon import Lexicon, load

LABELS = Path(__file__).resolve().parent / "labels"
#: The race's default bans (games/race/options.py).
RACE_BANS = frozenset({"proper", "abbrev", "contraction", "foreign"})
#: Positive set -> the theme it is judged under.
POSITIVES = {"food": "food", "drinks": "food", "animals": "animals"}


def labelled(name: str) -> list[str]:
    """The answers of ``bench/labels/themes-<name>.txt`` (comments and blank lines skipped)."""
    out = []
    for raw in (LABELS / f"themes-{name}.txt").read_text("utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def shipped_list() -> set[str]:
    """The answers of the project's own list, ``games/lexicon/data/theme_words.txt``."""
    path = Path(__file__).resolve().parent.parent / "games" / "lexicon" / "data" / "theme_words.txt"
    out = set()
    for raw in path.read_text("utf-8").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line and not line.startswith("["):
            out.add(line)
    return out


def accepted(lex: Lexicon, text: str, theme: str) -> bool:
    """Does a race with ``theme`` (and its default bans) accept ``text`` as typed?"""
    word = normalize(text, multiword=True)
    if word is None:
        return False
    return lex.judge(word, WordRules(bans=RACE_BANS, themes=frozenset({theme}))).ok


def measure(lex: Lexicon) -> dict[str, object]:
    """Recall per positive set and false positives per theme on the negatives."""
    report: dict[str, object] = {}
    listed = shipped_list()
    for name, theme in POSITIVES.items():
        answers = labelled(name)
        missed = [a for a in answers if not accepted(lex, a, theme)]
        # Answers accepted only because the shipped list names them (WordNet alone would not).
        from_list = [a for a in answers if a not in missed and normalize(a, multiword=True) in listed]
        report[name] = {
            "theme": theme,
            "answers": len(answers),
            "accepted": len(answers) - len(missed),
            "recall": round(1 - len(missed) / len(answers), 4),
            "in_shipped_list": len(from_list),
            "missed": missed,
        }
    # The held-out set ("theme: answer" lines), written after the rule and the list were final.
    kinds = {"food": "food", "drink": "food", "animal": "animals"}
    heldout = [line.split(": ", 1) for line in labelled("heldout")]
    missed_heldout = [a for kind, a in heldout if not accepted(lex, a, kinds[kind])]
    report["heldout"] = {
        "answers": len(heldout),
        "accepted": len(heldout) - len(missed_heldout),
        "recall": round(1 - len(missed_heldout) / len(heldout), 4),
        "per_kind": {
            kind: round(
                1
                - sum(1 for k, a in heldout if k == kind and a in missed_heldout)
                / sum(1 for k, _ in heldout if k == kind),
                4,
            )
            for kind in kinds
        },
        "missed": missed_heldout,
    }
    negatives = labelled("negative")
    for theme in ("food", "animals"):
        wrong = [w for w in negatives if accepted(lex, w, theme)]
        report[f"negative_{theme}"] = {
            "words": len(negatives),
            "false_positives": len(wrong),
            "rate": round(len(wrong) / len(negatives), 4),
            "accepted": wrong,
        }
    return report


def main(argv: list[str] | None = None) -> int:
    """Print the figures as JSON (the missed and wrongly accepted words with ``--misses``)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--misses", action="store_true", help="list the missed and wrongly accepted words")
    args = parser.parse_args(argv)
    report = measure(load("casual"))
    if not args.misses:
        for figures in report.values():
            assert isinstance(figures, dict)
            figures.pop("missed", None)
            if "false_positives" in figures:
                figures.pop("accepted", None)
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
