"""Command line for the lexicon: ``python -m games.lexicon COMMAND ...``.

Commands::

    judge      read one word per line on stdin, print one JSON object per line
    check      judge the words given as arguments (exit 1 if any is refused)
    explain    everything the lexicon knows about a word, and its verdict
    examples   example words for face-up letters (A C T or ACT)
    has        does any allowed word claim these face-up letters?
    words-from every word placeable from a rack, with blanks

Rule options (all commands): ``--language en|nl|fr|de|es`` (default en),
``--dict casual|tournament``, ``--ban plural-s,ing,...``
(``--ban all`` for every ban), ``--min-length N``, ``--theme NAME`` (repeatable or
comma-separated), ``--add WORDS`` and ``--refuse WORDS`` (workspace overlays).
``--json`` prints JSON instead of sentences.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from typing import Any

from games.common.languages import LANGUAGE_CODES, Language
from games.common.languages import language as find_language
from games.common.placement import Placement, match_letters
from games.common.words import BANS, THEMES, WordRules
from games.lexicon.core import DICTIONARIES, Lexicon, load

THEME_ALIASES = {
    "noun": "nouns",
    "verb": "verbs",
    "adjective": "adjectives",
    "adj": "adjectives",
    "animal": "animals",
    "drink": "food",
    "food-and-drink": "food",
    "movie": "movies",
    "tv": "movies",
    "book": "books",
    "person": "persons",
    "people": "persons",
    "famous": "persons",
}
BAN_ALIASES = {"plural": "plural-s", "plurals": "plural-s", "proper-nouns": "proper", "repeats": "repeat"}


class CliError(Exception):
    """A mistake on the command line, explained to the user."""


def _split(values: Sequence[str] | None) -> list[str]:
    out: list[str] = []
    for value in values or ():
        out += [v.strip().lower() for v in value.split(",") if v.strip()]
    return out


def language_from(args: argparse.Namespace) -> Language:
    """The language ``--language`` names (English by default)."""
    try:
        return find_language(getattr(args, "language", None) or "en")
    except ValueError as exc:
        raise CliError(str(exc)) from None


def rules_from(args: argparse.Namespace) -> WordRules:
    """The :class:`WordRules` the options describe."""
    bans: set[str] = set()
    for ban in _split(args.ban):
        if ban == "all":
            bans |= set(BANS)
            continue
        ban = BAN_ALIASES.get(ban, ban)
        if ban not in BANS:
            raise CliError(f"unknown ban {ban!r}: choose from {', '.join(BANS)} (or all)")
        bans.add(ban)
    themes: set[str] = set()
    for theme in _split(args.theme):
        theme = THEME_ALIASES.get(theme, theme)
        if theme not in THEMES:
            raise CliError(f"unknown theme {theme!r}: choose from {', '.join(THEMES)}")
        themes.add(theme)
    if args.min_length < 1:
        raise CliError("--min-length must be at least 1")
    return WordRules(
        dictionary=args.dict,
        min_length=args.min_length,
        bans=frozenset(bans),
        themes=frozenset(themes),
        added=frozenset(_split(args.add)),
        banned=frozenset(_split(args.refuse)),
    )


def _word(lex: Lexicon, text: str) -> str | None:
    return lex.fold(text, multiword=True)


def _verdict_json(lex: Lexicon, text: str, rules: WordRules) -> dict[str, Any]:
    word = _word(lex, text)
    if word is None:
        return {"word": text.strip(), "ok": False, "reason": "not-a-word", "message": "That is not a word."}
    verdict = lex.judge(word, rules)
    return {"word": word, "ok": verdict.ok, "reason": verdict.reason_code, "message": verdict.message}


def _letters(items: Sequence[str], lang: Language) -> list[str]:
    letters: list[str] = []
    for item in items:
        for ch in item.lower():
            if ch in lang.alphabet:
                letters.append(ch)
            elif ch not in " ,":
                kind = "a letter" if lang.code == "en" else f"a {lang.name} letter"
                raise CliError(f"{ch!r} is not {kind}: give letters like A C T or ACT")
    return letters


def cmd_judge(lex: Lexicon, rules: WordRules, args: argparse.Namespace) -> int:
    for line in sys.stdin:
        if not line.strip():
            continue
        print(json.dumps(_verdict_json(lex, line, rules), ensure_ascii=False), flush=False)
    sys.stdout.flush()
    return 0


def cmd_check(lex: Lexicon, rules: WordRules, args: argparse.Namespace) -> int:
    ok = True
    for text in args.words:
        result = _verdict_json(lex, text, rules)
        ok = ok and bool(result["ok"])
        if args.json:
            print(json.dumps(result, ensure_ascii=False))
        else:
            mark = "ok" if result["ok"] else f"no ({result['reason']})"
            print(f"{mark}: {result['message']}")
    return 0 if ok else 1


def cmd_explain(lex: Lexicon, rules: WordRules, args: argparse.Namespace) -> int:
    text = " ".join(args.words)
    result = _verdict_json(lex, text, rules)
    word = result["word"]
    flat = word.replace(" ", "")
    info: dict[str, Any] = {
        **result,
        "dictionaries": lex.dictionaries(flat),
        "zipf": lex.zipf(flat),
        "kinds": lex.kinds(word),
        "name": lex.name_kind(flat),
        "base": lex.base(flat),
        "titles": [t for t in ("movies", "books") if lex.is_title(word, t)],
    }
    if args.json:
        print(json.dumps(info, ensure_ascii=False))
        return 0 if result["ok"] else 1
    print(result["message"])
    where = ", ".join(info["dictionaries"]) or "none"
    print(f"  dictionaries: {where}")
    print(f"  frequency (zipf): {info['zipf']:.1f}")
    if info["kinds"]:
        print(f"  kinds: {', '.join(info['kinds'])}")
    if info["name"]:
        print(f"  names: {info['name']}")
    if info["base"]:
        print(f"  inflects: {info['base'].upper()}")
    if info["titles"]:
        print(f"  titles: {', '.join(info['titles'])}")
    return 0 if result["ok"] else 1


def cmd_examples(lex: Lexicon, rules: WordRules, args: argparse.Namespace) -> int:
    letters = _letters(args.letters, lex.language)
    if len(letters) < 2:
        raise CliError("give at least two face-up letters, e.g. A C T")
    words = lex.examples(letters, rules, args.placement, args.limit)
    if args.json:
        rows = []
        for w in words:
            claimed = match_letters(w.replace(" ", ""), letters, args.placement).claimed
            rows.append({"word": w, "zipf": lex.zipf(w), "claims": "".join(sorted(claimed.elements()))})
        print(
            json.dumps(
                {"letters": "".join(letters), "placement": args.placement.value, "examples": rows},
                ensure_ascii=False,
            )
        )
    elif words:
        print("\n".join(w.upper() for w in words))
    else:
        print(f"No allowed word claims two of {' '.join(letters).upper()} ({args.placement.value}).")
    return 0 if words else 1


def cmd_has(lex: Lexicon, rules: WordRules, args: argparse.Namespace) -> int:
    letters = _letters(args.letters, lex.language)
    if len(letters) < 2:
        raise CliError("give at least two face-up letters, e.g. J Q")
    strict = {"plural-s", "ing", "ed"} <= rules.bans
    found = lex.has_word(
        letters, args.placement, strict=strict, min_length=rules.min_length, dictionary=rules.dictionary
    )
    if args.json:
        print(
            json.dumps(
                {"letters": "".join(letters), "placement": args.placement.value, "any": found},
                ensure_ascii=False,
            )
        )
    else:
        print("yes" if found else "no")
    return 0 if found else 1


def cmd_words_from(lex: Lexicon, rules: WordRules, args: argparse.Namespace) -> int:
    words = lex.words_from(_letters([args.rack], lex.language), args.blanks, rules)[: args.limit]
    if args.json:
        print(json.dumps({"rack": args.rack, "blanks": args.blanks, "words": words}, ensure_ascii=False))
    else:
        print("\n".join(w.upper() for w in words) if words else "No words.")
    return 0


def _placement(text: str) -> Placement:
    try:
        return Placement.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parser() -> argparse.ArgumentParser:
    """The argument parser (also used by tests)."""
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument(
        "--language",
        "--lang",
        default="en",
        metavar="CODE",
        help=f"playing language: {', '.join(LANGUAGE_CODES)} (default en)",
    )
    common.add_argument("--dict", default="casual", choices=DICTIONARIES, help="dictionary (default casual)")
    common.add_argument("--ban", "--bans", "--rules", action="append", help="bans, comma-separated, or all")
    common.add_argument("--min-length", type=int, default=2, help="minimum letters (default 2)")
    common.add_argument("--theme", "--themes", action="append", help="themes, comma-separated")
    common.add_argument("--add", action="append", help="workspace words to allow, comma-separated")
    common.add_argument("--refuse", action="append", help="workspace words to refuse, comma-separated")
    common.add_argument("--json", action="store_true", help="print JSON")
    top = argparse.ArgumentParser(
        prog="python -m games.lexicon",
        description="The moji word judge.",
        epilog=__doc__.split("\n\n", 2)[2] if __doc__ else None,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = top.add_subparsers(dest="command", required=True, metavar="COMMAND")
    sub.add_parser("judge", parents=[common], help="judge words read from stdin, one JSON object a line")
    helps = {
        "check": "judge the words given as arguments (exit 1 if any is refused)",
        "explain": "everything the lexicon knows about a word, and its verdict",
        "examples": "example words for face-up letters (A C T or ACT)",
        "has": "does any allowed word claim two of these face-up letters?",
    }
    for name in ("check", "explain"):
        p = sub.add_parser(name, parents=[common], help=helps[name])
        p.add_argument("words", nargs="+", metavar="WORD")
    for name, default_limit in (("examples", 5), ("has", 0)):
        p = sub.add_parser(name, parents=[common], help=helps[name])
        p.add_argument("letters", nargs="+", metavar="LETTER")
        p.add_argument("--placement", type=_placement, default=Placement.ANYWHERE)
        if default_limit:
            p.add_argument("--limit", type=int, default=default_limit)
    p = sub.add_parser("words-from", parents=[common], help="every word placeable from a rack, with blanks")
    p.add_argument("rack")
    p.add_argument("--blanks", type=int, default=0)
    p.add_argument("--limit", type=int, default=50)
    return top


COMMANDS = {
    "judge": cmd_judge,
    "check": cmd_check,
    "explain": cmd_explain,
    "examples": cmd_examples,
    "has": cmd_has,
    "words-from": cmd_words_from,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (2 for usage errors)."""
    args = parser().parse_args(argv)
    try:
        rules = rules_from(args)
        lang = language_from(args)
        lex = load(rules.dictionary, lang.code)
        if rules.themes and lang.code != "en":
            raise CliError("themes are English-only for now")
        return COMMANDS[args.command](lex, rules, args)
    except CliError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except FileNotFoundError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    raise SystemExit(main())
