"""Benchmark the name decision on the labelled sets. Prints JSON.

Per language, over tests/games/lexicon/labelled/CODE-everyday.txt and CODE-names.txt and the
committed data (no build): precision and recall of the proper-noun decision (a name is
flagged PROPER or ABBREV, an everyday word is not) and of the personal-name decision
(PERSONAL_NAME on first names only), the % of everyday words a race accepts and the % of
names it refuses (its default bans: proper nouns, abbreviations, contractions), what Mark
My Words allows (places) and refuses (persons), names the dictionary also lists in lower
case apart (``duals``, for information) and with the others (``names_and_duals_refused_pct``,
the names budget), and every
capitalised-only entry by kind with how many of each Mark My Words refuses
(``symbols_refused``: the abbreviations and symbols such as SN, XE).

Budgets: >= 99% everyday accepted and >= 90% names refused, the duals counted too, in each
language. Measured in
the casual dictionary (a word it does not list is counted as ``unlisted``).
Run: ``python bench/bench_names.py`` (every language) or ``--language de``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.common.languages import LANGUAGES
from games.lexicon import _format as F
from games.lexicon import load
from games.lexicon.labelled import (
    EVERYDAY_ACCEPTED_MIN,
    NAMES_REFUSED_MIN,
    PATHS_BANS,
    lexicon_info,
    measure,
    read_sets,
)

LABELLED = Path(__file__).resolve().parent.parent / "tests" / "games" / "lexicon" / "labelled"
_PATHS_MASK = sum(F.BAN_FLAGS[b] for b in PATHS_BANS)


def capitalised_only(code: str) -> dict[str, dict[str, int]]:
    """Every entry of the tournament dictionary with a name kind: how many of each kind,
    and how many of those Mark My Words (its default bans) refuses."""
    lex = load("tournament", code)
    out: dict[str, dict[str, int]] = {k: {"entries": 0, "paths_refused": 0} for k in F.NAME_KINDS}
    for _word, info in lex._info.items():
        if not info & F.TOURNAMENT:
            continue
        seen = F.effective(info, F.TOURNAMENT)
        kind = F.name_kind(seen)
        if kind is None:
            continue
        out[kind]["entries"] += 1
        out[kind]["paths_refused"] += bool(seen & _PATHS_MASK)
    return out


def run(code: str) -> dict[str, object]:
    """The figures of one language."""
    lex = load("casual", code)
    figures = measure(read_sets(LABELLED, code), lexicon_info(lex))
    kinds = capitalised_only(code)
    figures["capitalised_only"] = kinds
    figures["symbols_refused"] = (
        f"{kinds['abbreviation']['paths_refused']}/{kinds['abbreviation']['entries']}"
    )
    figures["within_budget"] = (
        float(str(figures["everyday_accepted_pct"])) >= EVERYDAY_ACCEPTED_MIN
        and float(str(figures["names_refused_pct"])) >= NAMES_REFUSED_MIN
        and float(str(figures["names_and_duals_refused_pct"])) >= NAMES_REFUSED_MIN
    )
    return figures


def main(argv: list[str] | None = None) -> int:
    """Print the figures as JSON, keyed by language code."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--language", default="all", help="a code, or all (default)")
    parser.add_argument("--words", action="store_true", help="also list the words each decision got wrong")
    args = parser.parse_args(argv)
    codes = list(LANGUAGES) if args.language == "all" else [args.language]
    out: dict[str, object] = {}
    for code in codes:
        figures = run(code)
        if not args.words:
            figures.pop("everyday_refused", None)
            figures.pop("names_accepted", None)
            figures.pop("duals_accepted", None)
        out[code] = figures
    print(json.dumps(out, indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
