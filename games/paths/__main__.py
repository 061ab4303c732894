"""``python -m games.paths``: the words of Mark My Words, judged and found as a game does.

    python -m games.paths words --grid FILE
    python -m games.paths judge LE PARIS MARY

``words`` prints every word readable along a path on a grid. The grid file has one row per
line, a letter per square, ``.`` for an empty square and ``#`` for a blank tile (spaces
between squares are ignored). Each word found prints as one JSON line with one of its paths::

    {"word": "tea", "path": ["B2", "C2", "C3"]}

``judge`` prints the game's verdict on each word (given as arguments, or one a line on standard
input) as one JSON line, ``{"word": "le", "ok": false, "reason": "non-place", "message": ...}``:
the verdict a claim gets, and the one the finder's word list is built from, so ``words`` finds
exactly the words ``judge`` allows.

Both judge by the game's default rules (the tournament dictionary without proper nouns other
than places, abbreviations and contractions; places such as PARIS and NILE count, MARY,
MONDAY, LE and the symbol SN don't); ``--dictionary``, ``--min-length``, ``--rules`` (the bans,
as the game's ``rules=`` option: ``--rules names,abbrev,contraction``, ``--rules none``) and
``--allow`` change that, and ``--language CODE`` reads the grid and judges words in another
language (``Ä`` is a letter in German).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from games.common.languages import LANGUAGE_CODES, language
from games.common.options import OptionValue
from games.common.words import GameWords
from games.paths.finder import Finder
from games.paths.grid import GridError, read_grid, square_name
from games.paths.options import DEFAULT_BANS, DICTIONARIES, WORD_BANS
from games.paths.wordlists import allowed_words, game_words, word_rules


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.paths", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    words = sub.add_parser("words", help="print every word on a grid, one JSON line each")
    words.add_argument("--grid", required=True, help="a text grid file ('-' reads standard input)")
    judge = sub.add_parser("judge", help="the game's verdict on each word, one JSON line each")
    judge.add_argument("words", nargs="*", metavar="WORD", help="words to judge (none: one a line on stdin)")
    for cmd in (words, judge):
        cmd.add_argument("--dictionary", default="tournament", choices=DICTIONARIES)
        cmd.add_argument("--min-length", type=int, default=2, help="shortest word (2-5)")
        cmd.add_argument(
            "--language", default="en", choices=LANGUAGE_CODES, help="the language of the grid and the words"
        )
        cmd.add_argument(
            "--rules",
            default=None,
            metavar="BANS",
            help=f"the kinds of words that don't count, comma-separated, or none "
            f"(default: {','.join(DEFAULT_BANS)})",
        )
        cmd.add_argument(
            "--allow",
            action="append",
            default=[],
            metavar="KIND",
            help=f"allow a kind of word banned by default ({', '.join(DEFAULT_BANS)}); repeatable",
        )
    return parser


def verdict_of(
    *,
    dictionary: str = "tournament",
    min_length: int = 2,
    allow: Sequence[str] = (),
    rules: Sequence[str] | None = None,
    code: str = "en",
) -> GameWords:
    """The verdict of a Mark My Words game with these options (the game's own, through
    :func:`~games.paths.wordlists.word_rules`): ``rules`` are the bans (None: the game's
    default), less those in ``allow``. Raises ValueError."""
    bans = tuple(DEFAULT_BANS if rules is None else rules)
    unknown = sorted((set(allow) | set(bans)) - set(WORD_BANS))
    if unknown:
        raise ValueError(f"unknown kind of word: {', '.join(unknown)} (kinds: {', '.join(WORD_BANS)})")
    if not 2 <= min_length <= 5:
        raise ValueError("--min-length must be between 2 and 5")
    options: dict[str, OptionValue] = {
        "dictionary": dictionary,
        "min": min_length,
        "rules": tuple(b for b in bans if b not in allow),
        "language": code,
    }
    return game_words(word_rules(options), None, code)


def find_words(
    text: str,
    *,
    dictionary: str = "tournament",
    min_length: int = 2,
    allow: Sequence[str] = (),
    rules: Sequence[str] | None = None,
    code: str = "en",
) -> list[dict[str, object]]:
    """Every word on the text grid in language ``code``, sorted, each with one path (square
    names). Raises ValueError."""
    words = verdict_of(dictionary=dictionary, min_length=min_length, allow=allow, rules=rules, code=code)
    return _found(words, text, code)


def _found(words: GameWords, text: str, code: str) -> list[dict[str, object]]:
    squares, width, height = read_grid(text, language(code))
    found = Finder(allowed_words(words), width, height).words(squares)
    return [{"word": w, "path": [square_name(i, width) for i in found[w]]} for w in sorted(found)]


def judge_words(verdict: GameWords, words: Sequence[str]) -> list[dict[str, object]]:
    """``verdict`` (see :func:`verdict_of`) on each of ``words``, folded by its language first,
    in order."""
    fold = verdict.language.fold
    out: list[dict[str, object]] = []
    for typed in words:
        word = fold(typed) or typed.strip()
        found = verdict.verdict(word)
        out.append({"word": word, "ok": found.ok, "reason": found.reason_code, "message": found.message})
    return out


def _bans(text: str | None) -> tuple[str, ...] | None:
    if text is None:
        return None
    if text.strip().lower() == "none":
        return ()
    return tuple(b.strip().lower() for b in text.split(",") if b.strip())


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; 0 on success, 2 on a bad grid or argument."""
    args = _parser().parse_args(argv)
    try:
        verdict = verdict_of(
            dictionary=args.dictionary,
            min_length=args.min_length,
            allow=tuple(args.allow),
            rules=_bans(args.rules),
            code=args.language,
        )
        if args.command == "judge":
            typed = args.words or [line for line in sys.stdin.read().splitlines() if line.strip()]
            rows = judge_words(verdict, typed)
        else:
            text = sys.stdin.read() if args.grid == "-" else Path(args.grid).read_text("utf-8")
            rows = _found(verdict, text, args.language)
    except (OSError, GridError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    for row in rows:
        print(json.dumps(row, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
