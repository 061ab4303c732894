"""``python -m games.shed``: ask the shed referee about a move, a computer's play, or the deck.

    python -m games.shed check --table "SOCK" --hand "H W O" --move "SOCK+H -> SHOCK"
    python -m games.shed hint --table "SHOCK" --hand "W O Q" --level hard
    python -m games.shed deck --cards two
    python -m games.shed check --table "BAR" --hand "Ä" --move "BAR+Ä -> BÄR" --language de

``check`` prints ``{"ok": true, "table": [...], "hand": "..."}`` or the refusal's reason,
from the same engine that referees a game; ``--first`` says no word of your own has been
made yet. Hands: letters, ``*`` for a joker, action cards by code (``skip``, ``trade``…).
``--language CODE`` (en, nl, fr, de, es) plays with that language's cards and dictionary.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections import Counter
from collections.abc import Sequence

from games.common.languages import LANGUAGES, Language
from games.common.languages import language as language_named
from games.common.protocol import Action, Seat, Setup
from games.shed.bots import plan_turn
from games.shed.cards import ACTIONS, CARD_SETS, Card, box, deck_for, hand_text
from games.shed.engine import ShedGame
from games.shed.rearrange import TableWord
from games.shed.turn import Round


class _Box:
    def __init__(self, language: Language) -> None:
        self.free = box(language)

    def take(self, token: str) -> Card:
        if token == "*":
            found = next((c for c in self.free if c.kind == "joker"), None)
        elif token in ACTIONS:
            found = next((c for c in self.free if c.action == token), None)
        else:
            found = next((c for c in self.free if c.kind == "letter" and c.letter == token), None)
        if found is None:
            raise ValueError(f"the box has no more {token.upper()} cards")
        self.free.remove(found)
        return found


def _folded(text: str, language: Language) -> str:
    """Letters fold to the language's own (``É`` is E, German keeps ``Ä``); ``*`` stays."""
    return "".join((language.fold(ch) or ch) if ch.isalpha() else ch for ch in text.lower().replace(",", " "))


def _tokens(text: str, language: Language) -> list[str]:
    out: list[str] = []
    for part in _folded(text, language).split():
        out.extend([part] if part in ACTIONS else list(part))
    return out


def _game(table: str, hand: str, first: bool, language: Language) -> ShedGame:
    players = [Seat("you", "You"), Seat("them", "Them")]
    game = ShedGame(Setup({"language": language.code}, players, 0))
    game.apply(Action("begin", 0.0))
    cards = _Box(language)
    words: list[TableWord] = []
    for word in _folded(table, language).split():
        placed: list[tuple[Card, str]] = []
        joker = False
        for ch in word:
            if ch == "*":
                joker = True
                continue
            placed.append((cards.take("*" if joker else ch), ch))
            joker = False
        words.append(TableWord(tuple(placed), "them"))
    mine = [cards.take(t) for t in _tokens(hand, language)]
    theirs = [cards.take(t) for t in "aeiou"]
    rest = [c for c in deck_for("children", 2, language) if c in cards.free]
    random.Random(0).shuffle(rest)
    game.round = Round(rest, hands={"you": mine, "them": theirs}, table=words)
    if not first:
        game.round.opened.add("you")
    game.current = "you"
    return game


_LANGUAGE_HELP = "the language: " + ", ".join(f"{c} ({lang.name})" for c, lang in LANGUAGES.items())


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m games.shed", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name, text in (
        ("check", "is this move allowed, and what does it do?"),
        ("hint", "a computer's play"),
    ):
        cmd = sub.add_parser(name, help=text)
        cmd.add_argument("--table", default="", help='table words, e.g. "SOCK CAT" (*O: a joker playing O)')
        cmd.add_argument("--hand", required=True, help='your cards, e.g. "H W O * skip"')
        cmd.add_argument("--first", action="store_true", help="you haven't made a word of your own yet")
        cmd.add_argument("--language", default="en", metavar="CODE", help=_LANGUAGE_HELP)
        if name == "check":
            cmd.add_argument("--move", required=True, help='the move, e.g. "SOCK+H -> SHOCK"')
        else:
            cmd.add_argument("--level", default="hard", choices=("easy", "normal", "hard"))
    deck = sub.add_parser("deck", help="the cards of a card set")
    deck.add_argument("--cards", default="children", choices=CARD_SETS)
    deck.add_argument("--players", type=int, default=2)
    deck.add_argument("--language", default="en", metavar="CODE", help=_LANGUAGE_HELP)
    return parser


def run(argv: Sequence[str] | None = None) -> tuple[int, dict[str, object]]:
    """Run the command line; returns the exit status and the JSON answer."""
    args = _parser().parse_args(argv)
    try:
        lang = language_named(args.language)
    except ValueError as exc:
        return 2, {"ok": False, "reason": str(exc)}
    if args.command == "deck":
        cards = deck_for(args.cards, args.players, lang)
        kinds = Counter(c.kind for c in cards)
        colours = Counter(c.colour for c in cards if c.kind == "letter")
        actions = Counter(c.action for c in cards if c.kind == "action")
        return 0, {
            "cards": len(cards),
            "kinds": dict(kinds),
            "colours": dict(colours),
            "actions": dict(actions),
        }
    try:
        game = _game(args.table, args.hand, args.first, lang)
    except ValueError as exc:
        return 2, {"ok": False, "reason": str(exc)}
    if args.command == "hint":
        move = plan_turn(game, "you", args.level, random.Random(0))
        return 0, {"move": move}
    notices = game.apply(Action("say", 1.0, seat="you", text=args.move))
    refused = [n.text for n in notices if n.kind == "rejected"]
    if refused:
        return 1, {"ok": False, "reason": refused[0]}
    said = next(n.text for n in notices if n.kind == "accepted")
    return 0, {
        "ok": True,
        "said": said,
        "table": [tw.shown for tw in game.round.table],
        "hand": hand_text(game.round.hands["you"]),
    }


def main() -> None:
    """Entry point: print the answer as JSON."""
    status, answer = run()
    print(json.dumps(answer))
    sys.exit(status)


if __name__ == "__main__":
    main()
