"""The shedding game's 110 cards: three letter sets, jokers and action cards.

The rulebook's pictures (and so its counts) are lost; the house composition is

=====================  =====  ==========================================
cards                  count  what
=====================  =====  ==========================================
blue letters              31  A–Z once, the vowels A E I O U twice
red letters               31  the same
yellow letters            31  the same
jokers                     5  play as any letter
action cards              12  two of each of the six kinds below
total                    110
=====================  =====  ==========================================

Card sets (the rulebook's Setup): two adults play blue + 3 jokers + every action
card (46 cards); three or four adults blue + red + every joker + every action
card (79 cards); children (and five or six players) every card (110).

Another language keeps the design: each colour has every letter of its alphabet once
and the vowels A E I O U twice. Dutch and French play the English box; German adds
Ä Ö Ü to each colour (34 letters, 119 cards in all), Spanish Ñ (32 letters, 113 cards).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from games.common.languages import ENGLISH, Language
from games.common.speech import N_, _

COLOURS: tuple[str, ...] = ("blue", "red", "yellow")
VOWELS = "aeiou"
JOKERS = 5
ACTION_COPIES = 2

CardKind = Literal["letter", "joker", "action"]

#: Action cards by code: (display name, what the notation looks like, what it does); the name and
#: what it does are English, marked: show them through ``_()``.
ACTIONS: dict[str, tuple[str, str, str]] = {
    "deck-trade": (N_("Deck Trade"), "trade Q", N_("swap one of your cards for the top card of the deck")),
    "trade": (
        N_("Trade"),
        "trade Q Bob",
        N_("give an opponent one of your cards and take one of theirs blindly"),
    ),
    "skip": (N_("Skip"), "skip Bob", N_("that opponent skips their next turn")),
    "swap-hands": (N_("Swap Hands"), "swap Bob", N_("swap your whole hand with an opponent's")),
    "draw-two": (N_("Draw Two"), "+2 Bob", N_("that opponent draws 2 cards")),
    "all-draw-two": (N_("All Draw Two"), "+2 all", N_("every opponent draws 2 cards")),
}

CARD_SETS: tuple[str, ...] = ("auto", "two", "group", "children")


def deck_size(language: Language = ENGLISH) -> int:
    """Cards in the box of ``language``: three colours of its letters, jokers and action cards."""
    return len(COLOURS) * (len(language.alphabet) + len(VOWELS)) + JOKERS + ACTION_COPIES * len(ACTIONS)


#: Cards in the English box.
DECK_SIZE = deck_size()
assert DECK_SIZE == 110


@dataclass(frozen=True, slots=True)
class Card:
    """One card. ``id`` is unique in the box (0..109 in English).

    A letter card has ``letter`` (lower-case) and ``colour``; a joker has
    neither; an action card has ``action`` (a key of :data:`ACTIONS`).
    """

    id: int
    kind: CardKind
    letter: str = ""
    colour: str = ""
    action: str = ""

    @property
    def label(self) -> str:
        """The card as players read it: ``A``, ``★`` (joker) or ``[Skip]``."""
        if self.kind == "letter":
            return self.letter.upper()
        if self.kind == "joker":
            return "★"
        return f"[{_(ACTIONS[self.action][0])}]"


def box(language: Language = ENGLISH) -> list[Card]:
    """Every card of ``language``'s box in a fixed order: blue, red, yellow letters (in
    alphabet order), then jokers, then actions (110 cards in English)."""
    cards: list[Card] = []
    for colour in COLOURS:
        for letter in language.alphabet:
            for _x in range(2 if letter in VOWELS else 1):
                cards.append(Card(len(cards), "letter", letter, colour))
    for _x in range(JOKERS):
        cards.append(Card(len(cards), "joker"))
    for code in ACTIONS:
        for _x in range(ACTION_COPIES):
            cards.append(Card(len(cards), "action", action=code))
    return cards


def resolve_set(card_set: str, players: int) -> str:
    """The card set in play: ``auto`` picks by the number of players."""
    if card_set != "auto":
        return card_set
    if players <= 2:
        return "two"
    return "group" if players <= 4 else "children"


def deck_for(card_set: str, players: int, language: Language = ENGLISH) -> list[Card]:
    """The cards a game uses (unshuffled), per the rulebook's Setup, in ``language``'s letters."""
    chosen = resolve_set(card_set, players)
    cards = box(language)
    if chosen == "children":
        return cards
    colours = {"blue"} if chosen == "two" else {"blue", "red"}
    jokers = 3 if chosen == "two" else JOKERS
    out = [c for c in cards if c.kind == "action" or (c.kind == "letter" and c.colour in colours)]
    out += [c for c in cards if c.kind == "joker"][:jokers]
    return sorted(out, key=lambda c: c.id)


def hand_text(cards: list[Card]) -> str:
    """A hand as players read it, letters sorted: ``A E R T ★ [Skip]``."""
    order = {"letter": 0, "joker": 1, "action": 2}
    ordered = sorted(cards, key=lambda c: (order[c.kind], c.letter, c.action, c.id))
    return " ".join(c.label for c in ordered) if ordered else _("(no cards)")
