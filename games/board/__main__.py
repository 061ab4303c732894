"""``python -m games.board replay --layout FILE.json --moves FILE.jsonl [--dict tournament|none]
[--language CODE]``."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from games.board.core import WordCheck
from games.board.layout import Layout, LayoutError
from games.board.replay import replay
from games.common.languages import LANGUAGE_CODES, language


def word_check(name: str, lang: str = "en") -> WordCheck | None:
    """The game's verdict for ``--dict`` in ``--language`` (None for ``none``: geometry and
    scoring only)."""
    if name == "none":
        return None
    from games.board.words import game_words

    return game_words(name, lang).allows


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status (1 when any move was illegal)."""
    parser = argparse.ArgumentParser(prog="python -m games.board", description="MOJO board game tools")
    sub = parser.add_subparsers(dest="command", required=True)
    play = sub.add_parser(
        "replay",
        help="check and score a game written move by move",
        description='Each line of --moves is {"player": ..., "rack": "AEINRS?", "move": "H8 across WORD"}; '
        "prints one JSON line per move with ok, score, words, bingo, reason and total.",
    )
    play.add_argument("--layout", required=True, help="layout JSON file, or a shipped name (mojo, classic)")
    play.add_argument("--moves", required=True, help="JSON-lines file of moves ('-' for stdin)")
    play.add_argument("--dict", default="tournament", choices=("tournament", "casual", "none"))
    play.add_argument("--seed", type=int, default=0, help="seed for layouts with random bonus squares")
    play.add_argument(
        "--language",
        default="en",
        choices=LANGUAGE_CODES,
        help="the language of the words, racks and tiles (a shipped layout takes its tiles)",
    )
    args = parser.parse_args(argv)
    try:
        if args.layout in ("mojo", "classic"):
            layout = Layout.named(args.layout, args.language)
        else:
            layout = Layout.load(args.layout)
    except LayoutError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    try:
        source = sys.stdin if args.moves == "-" else open(args.moves, encoding="utf-8")  # noqa: SIM115
    except OSError as exc:
        print(f"error: cannot read {args.moves}: {exc}", file=sys.stderr)
        return 2
    status = 0
    with source:
        check = word_check(args.dict, args.language)
        lang = language(args.language)
        for answer in replay(layout, source, check, seed=args.seed, dictionary=args.dict, language=lang):
            status = status or (0 if answer["ok"] else 1)
            print(json.dumps(answer, ensure_ascii=False))
    return status


if __name__ == "__main__":
    raise SystemExit(main())
