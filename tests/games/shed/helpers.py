"""Rigged shed games for rule tests: chosen hands, table words and deck, the real lexicon."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

from hypothesis import settings

from games.common.options import OptionValue
from games.common.protocol import Action, Notice, Seat, Setup
from games.shed.cards import Card, box
from games.shed.engine import ShedGame
from games.shed.rearrange import TableWord
from games.shed.turn import Round

#: 30 examples per property normally, 300 under ``MOJI_FUZZ=long``.
FUZZ = settings(max_examples=300 if os.environ.get("MOJI_FUZZ") == "long" else 30, deadline=None)

ANN, BOB, CY = Seat("a", "Ann"), Seat("b", "Bob"), Seat("c", "Cy")


class Cards:
    """Hands out distinct cards from the box by letter (``*`` a joker, ``!skip`` an action)."""

    def __init__(self) -> None:
        self.free = box()
        self.spare = 1000  # ids of extra cards when the box runs out of a letter (solver tests)

    def take(self, spec: str) -> list[Card]:
        out: list[Card] = []
        for token in _tokens(spec):
            if token == "*":
                joker = next((c for c in self.free if c.kind == "joker"), None)
                if joker is None:
                    self.spare += 1
                    joker = Card(self.spare, "joker")
                    self.free.append(joker)
                card = joker
            elif token.startswith("!"):
                card = next(c for c in self.free if c.kind == "action" and c.action == token[1:])
            else:
                found = next((c for c in self.free if c.kind == "letter" and c.letter == token), None)
                if found is None:
                    self.spare += 1
                    found = Card(self.spare, "letter", token, "blue")
                    self.free.append(found)
                card = found
            self.free.remove(card)
            out.append(card)
        return out

    def word(self, text: str, owner: str = "a") -> TableWord:
        """A table word; lower-case letters in ``text`` preceded by ``*`` are jokers."""
        placed: list[tuple[Card, str]] = []
        joker = False
        for ch in text:
            if ch == "*":
                joker = True
                continue
            (card,) = self.take("*" if joker else ch)
            placed.append((card, ch))
            joker = False
        return TableWord(tuple(placed), owner)


def _tokens(spec: str) -> list[str]:
    out: list[str] = []
    for part in spec.split():
        if part.startswith("!"):
            out.append(part)
        else:
            out.extend(part)
    return out


def game(
    seats: Sequence[Seat] = (ANN, BOB),
    options: Mapping[str, OptionValue] | None = None,
    seed: int = 1,
) -> ShedGame:
    """A begun game with the real lexicon."""
    g = ShedGame(Setup(dict(options or {}), list(seats), seed))
    g.apply(Action("begin", 0.0))
    return g


def rig(
    g: ShedGame,
    hands: Mapping[str, str],
    table: Sequence[str] = (),
    deck: str = "v w y k j",
    opened: Sequence[str] = (),
) -> Cards:
    """Replace the round: ``hands`` by seat (letters, ``*``, ``!action``), table words, the deck."""
    cards = Cards()
    words = [cards.word(t) for t in table]
    rnd = Round(cards.take(deck), hands={seat: cards.take(spec) for seat, spec in hands.items()}, table=words)
    rnd.opened = set(opened)
    g.round = rnd
    return cards


def say(g: ShedGame, seat: str, text: str, now: float = 1.0) -> list[Notice]:
    return g.apply(Action("say", now, seat=seat, text=text))


def refused(notices: list[Notice]) -> str:
    reasons = [n.text for n in notices if n.kind == "rejected"]
    assert reasons, f"expected a refusal, got {notices}"
    return reasons[0]


def accepted(notices: list[Notice]) -> str:
    texts = [n.text for n in notices if n.kind == "accepted"]
    assert texts, f"expected the move to be accepted, got {notices}"
    return texts[0]


def hand(g: ShedGame, seat: str) -> str:
    """A seat's hand as sorted letters (``*`` jokers, actions by code)."""
    parts = sorted(c.letter or ("*" if c.kind == "joker" else "!" + c.action) for c in g.round.hands[seat])
    return " ".join(parts)


def words(g: ShedGame) -> list[str]:
    return [tw.text for tw in g.round.table]
