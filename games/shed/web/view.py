"""Shed on a page: the player's hand as buttons, the table's words, a word built from cards
(pointer or keyboard) alone or with table words, the action cards aimed at an opponent, and
``draw``; every line previewed by the game itself (``ShedGame.preview``, on a copy of the
round) before it is played."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from games.common.page import BadRequest, text_field
from games.common.protocol import Snapshot
from games.common.speech import N_, _, opening
from games.common.text import plain

#: The action cards a page may play, and how each is typed (``{give}``, ``{target}``).
ACTION_LINES = {
    "deck-trade": "trade {give}",
    "trade": "trade {give} {target}",
    "skip": "skip {target}",
    "swap-hands": "swap {target}",
    "draw-two": "+2 {target}",
    "all-draw-two": "+2 all",
}
_TABLE_LINE = re.compile(r"^\s*#(\d+)\s+(\S+)\s+\((.*)\)\s*$")
_SEAT_NUMBER = re.compile(r"^#(\d+)")


class ShedGame(Protocol):
    """What the page reads from a Shed engine (``games.shed``'s ``ShedGame``)."""

    def hand_of(self, seat: str) -> tuple[Any, ...]:
        """The seat's own hand (``kind``, ``letter``, ``colour``, ``action``, ``name``, ``usage``…)."""
        ...

    def preview(self, seat: str, text: str) -> Any:
        """A line's preview (``ok``, ``reason``, ``said``)."""
        ...


@dataclass(frozen=True, slots=True)
class HandCardModel:
    """One card of the player's hand, as a button."""

    index: int
    kind: str
    letter: str  # upper-case ("" for a joker or an action card)
    colour: str
    action: str
    name: str
    usage: str
    label: str


@dataclass(frozen=True, slots=True)
class TableWordModel:
    """One word on the table (numbered as the chat's table numbers it: ``#2``)."""

    number: int
    shown: str  # "SHoCK": a joker's letter in lower case
    owner: str
    label: str


@dataclass(frozen=True, slots=True)
class ShedPart:
    """A Shed page: the table's words, the opponents, and a player's own hand (none for a watcher)."""

    hand: tuple[HandCardModel, ...]
    table: tuple[TableWordModel, ...]
    opponents: tuple[tuple[int, str], ...]
    player: bool


#: The colours of shed's letter cards, as a card's accessible name says them.
COLOURS = {"red": N_("red"), "blue": N_("blue"), "yellow": N_("yellow"), "green": N_("green")}


def card_label(kind: str, letter: str, colour: str, name: str, help_text: str) -> str:
    """A card's accessible name: its letter (or kind) and points (each card left counts 1)."""
    if kind == "letter":
        if colour:
            shown = _(COLOURS[colour]) if colour in COLOURS else colour
            return _("{letter}, {colour}, 1 point", letter=letter, colour=shown)
        return _("{letter}, 1 point", letter=letter)
    if kind == "joker":
        return _("joker (any letter), 1 point")
    if help_text:
        return _("{card}, action card: {help}", card=name, help=help_text)
    return _("{card}, action card", card=name)


class ShedView:
    """Shed's page."""

    game = "shed"
    label = N_("Open your hand")

    def part(self, engine: ShedGame, snapshot: Snapshot, seat: str | None) -> ShedPart:
        """The table and opponents (public), and ``seat``'s own hand (from ``hand_of(seat)``)."""
        hand: list[HandCardModel] = []
        if seat is not None:
            for index, card in enumerate(engine.hand_of(seat)):
                letter = card.letter.upper()
                label = card_label(card.kind, letter, card.colour, card.name, card.help)
                hand.append(
                    HandCardModel(
                        index, card.kind, letter, card.colour, card.action, card.name, card.usage, label
                    )
                )
        table = []
        for line in snapshot.lines:
            found = _TABLE_LINE.match(plain(line))
            if found:
                number, shown, owner = int(found.group(1)), found.group(2), found.group(3)
                label = _(
                    "Table word {number}: {word}, {name}'s", number=number, word=shown.upper(), name=owner
                )
                table.append(TableWordModel(number, shown, owner, label))
        opponents = []
        for other in snapshot.seats:
            numbered = _SEAT_NUMBER.match(other.detail)
            gone = (
                other.detail == _("#{number} · left the game", number=numbered.group(1)) if numbered else True
            )
            if other.seat != seat and numbered and not gone:
                opponents.append((int(numbered.group(1)), plain(other.name)))
        return ShedPart(tuple(hand), tuple(table), tuple(opponents), seat is not None)

    def hides(self, line: str) -> bool:
        """The page shows the hand and the table words itself."""
        # (the game's own lines, as the game says them in the language spoken)
        own = (opening("Your hand: {cards}"), _("Table words:"))
        return line.startswith(own) or bool(_TABLE_LINE.match(plain(line)))

    def preview(self, engine: ShedGame, seat: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The line the page's move is, judged by the game (all or nothing), on a copy of the round."""
        line = " ".join(self.words(engine, seat, body))
        found = engine.preview(seat, line)
        return {"ok": bool(found.ok), "move": line, "reason": found.reason, "said": found.said}

    def words(self, engine: ShedGame, seat: str, body: Mapping[str, Any]) -> tuple[str, ...]:
        """The typed line: ``play WH*O``, ``#1+H -> SHOCK``, ``skip 2``, ``trade Q``, ``draw``."""
        action = body.get("action")
        if action == "draw":
            return ("draw",)
        if action == "card":
            return tuple(_action_line(body).split())
        if action != "word":
            raise BadRequest("That's not a move: word, card or draw.")
        cards = body.get("cards", [])
        if not isinstance(cards, list) or len(cards) > 20:
            raise BadRequest(_("A word is a short list of cards."))
        spelled = ""
        for card in cards:
            if not isinstance(card, str) or not re.fullmatch(r"\*?[^\W\d_]", card):
                raise BadRequest(_("Each card of a word is a letter (a joker: * and its letter)."))
            spelled += card.upper()
        sources = body.get("sources", [])
        if not isinstance(sources, list) or len(sources) > 6:
            raise BadRequest(_("Use at most 6 table words."))
        if not all(isinstance(n, int) and not isinstance(n, bool) and 0 < n < 1000 for n in sources):
            raise BadRequest(_("Table words are named by their numbers."))
        if not sources:
            if not spelled:
                raise BadRequest(_("Build a word from your cards first."))
            return ("play", spelled)
        results = text_field(body, "results", allow=" ").upper().split()
        if not results:
            raise BadRequest(_("Say the words the table words and your cards make."))
        left = " ".join(f"#{n}" for n in sources) + (f"+{spelled}" if spelled else "")
        return (*left.split(), "->", *results)


def _action_line(body: Mapping[str, Any]) -> str:
    card = body.get("card")
    if not isinstance(card, str) or card not in ACTION_LINES:
        raise BadRequest(_("Choose one of your action cards."))
    template = ACTION_LINES[card]
    give = ""
    if "{give}" in template:
        give = text_field(body, "give", limit=2, allow="*")
        if not re.fullmatch(r"[^\W\d_]|\*", give):
            raise BadRequest(_("Choose the card to trade away."))
    target = body.get("target")
    if "{target}" in template and not (
        isinstance(target, int) and not isinstance(target, bool) and 0 < target < 100
    ):
        raise BadRequest(_("Choose the opponent to aim it at."))
    return template.format(give=give.upper(), target=target)
