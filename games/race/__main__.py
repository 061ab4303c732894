"""``python -m games.race explain``: ask the race referee about one word.

    python -m games.race explain --cards "A C T" --word TEACH --placement first-or-last
    python -m games.race explain --cards "Ä R" --word Bär --language de
    python -m games.race explain "scrambled eggs" --cards "S G E" --theme food

prints ``{"valid": true, "collects": ["T", "A", "C"], "reason": "..."}`` — the
same referee that answers a player's "why?" in chat.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from games.common.language_rules import english_only
from games.common.languages import LANGUAGES
from games.common.languages import language as language_named
from games.common.placement import Placement
from games.common.words import BANS, THEMES
from games.race.base import load_judge
from games.race.cards import COLOURS, POINTS_BY_LANGUAGE, Card
from games.race.options import DEFAULT_BANS
from games.race.referee import Referee


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.race", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    explain = sub.add_parser(
        "explain", help="is WORD valid on these face-up cards, and what does it collect?"
    )
    explain.add_argument(
        "text", nargs="?", default=None, metavar="WORD", help="the answer to judge (or --word)"
    )
    explain.add_argument(
        "--cards", "--letters", dest="cards", required=True, help='the face-up letters, e.g. "A C T"'
    )
    explain.add_argument(
        "--word",
        default=None,
        help='the answer to judge; several words for food, animal, title and person themes ("ice cream")',
    )
    explain.add_argument(
        "--placement", default="anywhere", help="anywhere, first-or-last, first-and-last or in-between"
    )
    explain.add_argument("--min-length", type=int, default=2, help="minimum word length (2-5)")
    explain.add_argument(
        "--ban",
        action="append",
        default=None,
        metavar="RULE",
        help=f"a General Rules ban ({', '.join(BANS)}, or all); repeatable; "
        f"default: {' '.join(DEFAULT_BANS)}",
    )
    explain.add_argument("--no-bans", action="store_true", help="no General Rules bans at all")
    explain.add_argument("--theme", action="append", default=[], metavar="THEME", help=", ".join(THEMES))
    explain.add_argument(
        "--language",
        default="en",
        metavar="CODE",
        help="the game's language: " + ", ".join(f"{c} ({lang.name})" for c, lang in LANGUAGES.items()),
    )
    return parser


def explain(
    cards: str,
    word: str,
    *,
    placement: str = "anywhere",
    min_length: int = 2,
    bans: Sequence[str] | None = None,
    themes: Sequence[str] = (),
    language: str = "en",
) -> dict[str, object]:
    """The referee's ruling on ``word`` with ``cards`` face-up, as a JSON-ready dict.

    Raises ValueError with a friendly message for a bad argument.
    """
    lang = language_named(language)  # ValueError names the languages moji knows
    letters = [ch for ch in cards.lower() if not ch.isspace() and ch != ","]
    if not letters or not all(ch in lang.alphabet for ch in letters):
        extra = f" and {' '.join(lang.extra_letters.upper())}" if lang.extra_letters else ""
        raise ValueError(f'--cards needs letters A to Z{extra}, like "A C T" (got {cards!r})')
    chosen = set(DEFAULT_BANS if bans is None else bans)
    if "all" in chosen:
        chosen = set(BANS)
    unknown = chosen - set(BANS)
    if unknown:
        raise ValueError(f"unknown ban {sorted(unknown)[0]!r}: choose from {', '.join(BANS)} or all")
    bad_themes = set(themes) - set(THEMES)
    if bad_themes:
        raise ValueError(f"unknown theme {sorted(bad_themes)[0]!r}: choose from {', '.join(THEMES)}")
    if not 2 <= min_length <= 5:
        raise ValueError("--min-length must be between 2 and 5")
    refused = english_only(lang, themes=themes, bans=chosen)
    if refused:
        raise ValueError(refused)
    points = POINTS_BY_LANGUAGE[lang.code]
    referee = Referee(
        load_judge(lang.code),
        language=lang,
        min_length=min_length,
        placement=Placement.parse(placement),
        bans=frozenset(chosen),
        themes=frozenset(themes),
    )
    table = [Card(i, ch, COLOURS[i % len(COLOURS)], points[ch]) for i, ch in enumerate(letters)]
    ruling = referee.rule(word, [table])
    if not ruling.answer:
        return {"valid": False, "collects": [], "reason": "That is not a single word."}
    if ruling.undecided:
        return {"valid": None, "collects": ruling.letters, "reason": ruling.reason}
    return {
        "valid": ruling.ok,
        "collects": ruling.letters if ruling.ok else [],
        "reason": ruling.reason if not ruling.ok else "ok",
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; returns the exit status (2 for a bad argument)."""
    parser = _parser()
    args = parser.parse_args(argv)
    word = args.word if args.word is not None else args.text
    if word is None:
        parser.error("give the answer to judge: --word WORD")
    bans: list[str] | None = [] if args.no_bans else args.ban
    try:
        answer = explain(
            args.cards,
            word,
            placement=args.placement,
            min_length=args.min_length,
            bans=bans,
            themes=args.theme,
            language=args.language,
        )
    except ValueError as exc:
        print(f"python -m games.race: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(answer, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
