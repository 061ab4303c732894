"""``python -m games.dice``: the dice, and the solver's answer for one roll.

    python -m games.dice faces
    python -m games.dice solve --roll "E T ? A S N" --mat CAT --top 5
    python -m games.dice check --roll "E T ? A S N" --mat CAT --move "SEAT 4 3"
    python -m games.dice solve --roll "N I Ñ O ? A" --language es

``--language CODE`` (en, nl, fr, de, es) picks the language's dice, points and dictionary.

``solve`` prints ``{"possible": true, "words": [...], "best": ...}``, the same search that
proves an automatic loss in a game; ``check`` rules on one move as the game would. Play a
whole game in the terminal with ``python -m bot terminal --game dice`` (add ``live=on``).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from games.common.languages import LANGUAGES
from games.common.languages import language as language_named
from games.common.letter_tables import points as letter_points
from games.common.words import GameWords, WordRules
from games.dice.dice import BLANK, DICE, Face, dice_for, face
from games.dice.engine import BANS, DICTIONARY, load_lexicon
from games.dice.rules import Fit, Placed, WordMove, fit_word, parse_move
from games.dice.solver import any_word, scored
from games.dice.wordlist import allowed_words, game_words


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.dice", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    faces = sub.add_parser("faces", help="the ten dice, face by face")
    faces.add_argument("--language", default="en", metavar="CODE", help=_LANGUAGE_HELP)
    for name, text in (("solve", "every word the roll makes"), ("check", "is one move allowed?")):
        cmd = sub.add_parser(name, help=text)
        cmd.add_argument("--language", default="en", metavar="CODE", help=_LANGUAGE_HELP)
        cmd.add_argument("--roll", required=True, help='the rolled letters, "?" for a blank, e.g. "E T ? A"')
        cmd.add_argument("--mat", default="", help="the word on the mat (blanks in lower case: CaT)")
        if name == "solve":
            cmd.add_argument("--top", type=int, default=10, help="how many words to list (best first)")
        else:
            cmd.add_argument("--move", required=True, help='the move, e.g. "SEAT 4 3" or "SEAt"')
    return parser


_LANGUAGE_HELP = "the language: " + ", ".join(f"{c} ({lang.name})" for c, lang in LANGUAGES.items())


def read_roll(text: str, language: str = "en") -> list[tuple[int, Face]]:
    """``"E T ? A"`` as rolled dice (numbered in order). Raises ValueError with a reason."""
    lang = language_named(language)
    chars: list[str] = []
    for ch in text.replace(",", " ").split():
        for part in ch if ch != BLANK else [ch]:
            folded = part if part == BLANK else lang.fold(part)
            if folded is None or (folded != BLANK and not lang.is_word(folded)):
                raise ValueError(f"--roll: {part!r} is not a letter or ?")
            chars.extend([BLANK] if folded == BLANK else list(folded))
    if not chars or len(chars) > len(DICE):
        raise ValueError(f"--roll needs 1 to {len(DICE)} letters (or ? for a blank), got {text!r}")
    return [(n, face(ch, lang.code)) for n, ch in enumerate(chars)]


def read_mat(text: str, first_die: int, language: str = "en") -> tuple[Placed, ...]:
    """``CaT`` as the word on the mat (lower case: a blank). Raises ValueError with a reason."""
    lang = language_named(language)
    if not text.strip():
        return ()
    parsed = parse_move(text.strip(), lang)
    if not isinstance(parsed, WordMove) or parsed.cross is not None or len(parsed.word) < 2:
        raise ValueError(f"--mat must be a word of letters, got {text!r}")
    blanks = parsed.blanks or frozenset()
    values = letter_points(lang.code)
    return tuple(
        Placed(first_die + n, ch, 0 if n in blanks else values[ch], n in blanks)
        for n, ch in enumerate(parsed.word)
    )


def _verdict(language: str) -> GameWords:
    """The verdict of a game in ``language`` (without a workspace's word lists)."""
    lang = language_named(language)
    return game_words(load_lexicon(lang.code), WordRules(dictionary=DICTIONARY, bans=BANS), lang)


def solve(roll: str, mat: str = "", top: int = 10, language: str = "en") -> dict[str, object]:
    """The words ``roll`` can make crossing ``mat``, best first, as a JSON-ready dict."""
    rolled = read_roll(roll, language)
    on_mat = read_mat(mat, len(rolled), language)
    words = allowed_words(_verdict(language))
    found = sorted(scored(words, rolled, on_mat), key=lambda f: (-f.score, -len(f.word), f.word))
    listed = []
    for f in found[: max(0, top)]:
        fit = fit_word(f.word, rolled, on_mat)
        assert isinstance(fit, Fit)
        listed.append({"word": fit.shown(), "move": fit.notation(), "score": fit.score})
    return {
        "possible": any_word(words, rolled, on_mat) is not None,
        "count": len(found),
        "checked": len(words),
        "dictionary": DICTIONARY,
        "words": listed,
    }


def check(roll: str, mat: str, move: str, language: str = "en") -> dict[str, object]:
    """The ruling on one move, as a JSON-ready dict (``valid``, ``score`` or ``reason``)."""
    rolled = read_roll(roll, language)
    on_mat = read_mat(mat, len(rolled), language)
    parsed = parse_move(move, language_named(language))
    if not isinstance(parsed, WordMove):
        return {"valid": False, "reason": f"{move!r} is not a word move"}
    fit = fit_word(parsed.word, rolled, on_mat, blanks_at=parsed.blanks, cross=parsed.cross, prev=parsed.prev)
    if isinstance(fit, str):
        return {"valid": False, "reason": fit}
    verdict = _verdict(language).verdict(fit.word)
    return {
        "valid": verdict.ok,
        "word": fit.shown(),
        "score": fit.score,
        "move": fit.notation(),
        "reason": verdict.message,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point; returns the exit status (2 for a bad argument)."""
    args = _parser().parse_args(argv)
    try:
        code = language_named(args.language).code
        if args.command == "faces":
            out: object = [[f.label() for f in faces] for faces in dice_for(code)]
        elif args.command == "solve":
            out = solve(args.roll, args.mat, args.top, code)
        else:
            out = check(args.roll, args.mat, args.move, code)
    except ValueError as exc:
        print(f"python -m games.dice: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(out, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
