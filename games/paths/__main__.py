"""``python -m games.paths words --grid FILE``: every word readable along a path on a grid.

The grid file has one row per line, a letter per square, ``.`` for an empty
square and ``#`` for a blank tile (spaces between squares are ignored). Each
word found prints as one JSON line with one of its paths::

    {"word": "tea", "path": ["B2", "C2", "C3"]}

Words come from the project lexicon under the game's default rules (the
tournament dictionary without proper nouns other than places, abbreviations and
contractions; places such as PARIS and NILE count, MARY, MONDAY and the symbol SN don't);
``--dictionary``, ``--min-length`` and ``--allow`` change that, and ``--language CODE``
reads the grid and finds words in another language (``Ä`` is a letter in German).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from games.common.languages import LANGUAGE_CODES, language
from games.common.words import WordRules
from games.paths.finder import Finder
from games.paths.grid import GridError, read_grid, square_name
from games.paths.options import DEFAULT_BANS, DICTIONARIES, WORD_BANS
from games.paths.wordlists import allowed_words


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.paths", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    words = sub.add_parser("words", help="print every word on a grid, one JSON line each")
    words.add_argument("--grid", required=True, help="a text grid file ('-' reads standard input)")
    words.add_argument("--dictionary", default="tournament", choices=DICTIONARIES)
    words.add_argument("--min-length", type=int, default=2, help="shortest word (2-5)")
    words.add_argument(
        "--language", default="en", choices=LANGUAGE_CODES, help="the language of the grid and the words"
    )
    words.add_argument(
        "--allow",
        action="append",
        default=[],
        metavar="KIND",
        help=f"allow a kind of word banned by default ({', '.join(DEFAULT_BANS)}); repeatable",
    )
    return parser


def find_words(
    text: str,
    *,
    dictionary: str = "tournament",
    min_length: int = 2,
    allow: Sequence[str] = (),
    code: str = "en",
) -> list[dict[str, object]]:
    """Every word on the text grid in language ``code``, sorted, each with one path (square
    names). Raises ValueError."""
    squares, width, height = read_grid(text, language(code))
    unknown = sorted(set(allow) - set(WORD_BANS))
    if unknown:
        raise ValueError(f"unknown kind of word: {', '.join(unknown)} (kinds: {', '.join(WORD_BANS)})")
    if not 2 <= min_length <= 5:
        raise ValueError("--min-length must be between 2 and 5")
    rules = WordRules(
        dictionary=dictionary, min_length=min_length, bans=frozenset(DEFAULT_BANS) - frozenset(allow)
    )
    finder = Finder(allowed_words(rules, code=code), width, height)
    found = finder.words(squares)
    return [{"word": w, "path": [square_name(i, width) for i in found[w]]} for w in sorted(found)]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; 0 on success, 2 on a bad grid or argument."""
    args = _parser().parse_args(argv)
    try:
        text = sys.stdin.read() if args.grid == "-" else Path(args.grid).read_text("utf-8")
        rows = find_words(
            text,
            dictionary=args.dictionary,
            min_length=args.min_length,
            allow=tuple(args.allow),
            code=args.language,
        )
    except (OSError, GridError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
