"""One round's cards and the rules of one turn.

:class:`Round` holds where every card is (deck, discard pile, hands, table
words). :func:`play_turn` applies a parsed turn to a copy of it, checking every
rule, and returns what happened; a rule broken anywhere in the line raises
:class:`~games.shed.rearrange.Refusal` and leaves nothing changed, so a line
is all or nothing.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from games.common.grammar import excerpt, is_you
from games.common.speech import _, _n
from games.common.text import plain
from games.shed.cards import ACTIONS, Card
from games.shed.notation import Act, Draw, Form, Op, letters
from games.shed.rearrange import Refusal, TableWord, arrange

#: Judges a lower-case word: None when allowed, else the reason.
WordCheck = Callable[[str], str | None]


@dataclass(slots=True)
class Round:
    """Where every card of the game is during one round."""

    deck: list[Card]
    discard: list[Card] = field(default_factory=list)
    hands: dict[str, list[Card]] = field(default_factory=dict)
    table: list[TableWord] = field(default_factory=list)
    opened: set[str] = field(default_factory=set)  # made their first word from the hand
    skips: dict[str, int] = field(default_factory=dict)
    #: played action cards set aside, out of the game (they never come back)
    out: list[Card] = field(default_factory=list)
    #: an empty deck is refilled by shuffling the discard pile (``reshuffle=off``: it isn't)
    refill: bool = True

    def copy(self) -> Round:
        """An independent copy (cards and table words are immutable)."""
        return Round(
            list(self.deck),
            list(self.discard),
            {seat: list(hand) for seat, hand in self.hands.items()},
            list(self.table),
            set(self.opened),
            dict(self.skips),
            list(self.out),
            self.refill,
        )

    def can_draw(self) -> bool:
        """True when a draw would get a card (from the deck, or the discard pile shuffled in)."""
        return bool(self.deck or (self.refill and self.discard))

    def all_cards(self) -> list[Card]:
        """Every card of the round, wherever it is."""
        out = list(self.deck) + list(self.discard) + list(self.out)
        for hand in self.hands.values():
            out.extend(hand)
        for word in self.table:
            out.extend(card for card, _x in word.cards)
        return out

    def draw(self, seat: str, rng: random.Random) -> Card | None:
        """Move the deck's top card to ``seat``'s hand (the discards are reshuffled when it is empty)."""
        if not self.deck and self.discard and self.refill:
            self.deck = self.discard
            self.discard = []
            rng.shuffle(self.deck)
        if not self.deck:
            return None
        card = self.deck.pop()
        self.hands[seat].append(card)
        return card


@dataclass(frozen=True, slots=True)
class Opponent:
    """A seat an action card can aim at."""

    id: str
    name: str
    number: int  # 1-based seat number as the table shows it


@dataclass(slots=True)
class TurnReport:
    """What a successful turn did, for the announcements."""

    #: public clauses, one per move: each says it about the player named (``You play CAT``)
    words: list[Callable[[str], str]] = field(default_factory=list)
    new_words: list[str] = field(default_factory=list)  # words made (for best words)
    placed: set[int] = field(default_factory=set)  # ids of the cards in the words made (highlighted)
    touched: set[str] = field(default_factory=set)  # seats whose hands changed
    drew: int = 0
    played: bool = False  # anything but a draw
    laid: int = 0  # cards of the player's hand put on the table
    action: str = ""


@dataclass(frozen=True, slots=True)
class TurnRules:
    """What a turn needs to know besides the cards."""

    check_word: WordCheck
    opening_each_turn: bool
    opponents: Sequence[Opponent]
    names: dict[str, str]
    #: The rulebook: an action card is the whole turn (False: it may end a turn after words).
    action_alone: bool = False
    #: Played action cards are set aside, out of the game (False: onto the discard pile, the old rule).
    actions_out: bool = False


def play_turn(rnd: Round, seat: str, ops: Sequence[Op], rules: TurnRules, rng: random.Random) -> TurnReport:
    """Apply ``ops`` to ``rnd`` (mutating it) for ``seat``; raises :class:`Refusal` with the move's reason.

    Call it on a :meth:`Round.copy` and keep the copy only when it returns.
    """
    report = TurnReport()
    expanded: list[Op] = []
    for op in ops:
        if isinstance(op, Form) and not op.sources and len(op.words) > 1:
            expanded.extend(Form((w,)) for w in op.words)
        else:
            expanded.append(op)
    opened_now = False
    for n, op in enumerate(expanded):
        try:
            if isinstance(op, Draw):
                card = rnd.draw(seat, rng)
                report.touched.add(seat)
                report.drew += 1 if card else 0
                report.words.append(_drew if card else _passed)
            elif isinstance(op, Act):
                if rules.action_alone and len(expanded) > 1:
                    raise Refusal(
                        _(
                            "Playing an action card is your whole turn: play it on its own, with no words "
                            "(this game has actions=alone)."
                        )
                    )
                if n != len(expanded) - 1:
                    raise Refusal(_("An action card ends your turn: play it last."))
                _action(rnd, seat, op, rules, rng, report)
                report.played = True
            else:
                opened_now |= _form(rnd, seat, op, rules, report, opened_now)
                report.played = True
        except Refusal as exc:
            if len(expanded) > 1:
                raise Refusal(
                    _("Move {number} ({move}): {reason}", number=n + 1, move=_shown(op), reason=str(exc))
                ) from None
            raise
    return report


def _shown(op: Op) -> str:
    from games.shed.notation import unparse

    return unparse((op,))


def _form(rnd: Round, seat: str, op: Form, rules: TurnRules, report: TurnReport, opened_now: bool) -> bool:
    hand = rnd.hands[seat]
    for word in op.words:
        plain = letters(word)
        reason = rules.check_word(plain)
        if reason is not None:
            raise Refusal(reason)
    opened = seat in rnd.opened
    if op.sources and not (opened_now if rules.opening_each_turn else opened):
        if rules.opening_each_turn:
            raise Refusal(
                _(
                    "You haven't made a word of your own this turn: before you add to or take from table "
                    "words, play at least one word from your hand."
                )
            )
        raise Refusal(
            _(
                "You haven't made a word of your own yet: before you add to or take from table "
                "words, play at least one word from your hand."
            )
        )
    sources = _sources(rnd, op)
    ban = _("A joker can't be used for your first word: make it from letter cards.")
    arranged = arrange(sources, hand, op.words, op.plus, jokers_ok=opened, joker_ban=ban)
    for card in arranged.hand_used:
        hand.remove(card)
    report.laid += len(arranged.hand_used)
    indices = [rnd.table.index(tw) for tw in sources]
    new_words = [TableWord(cards, seat) for cards in arranged.words]
    for src_i, word_i in enumerate(arranged.survivors):
        new_words[word_i] = TableWord(arranged.words[word_i], sources[src_i].owner)
        rnd.table[indices[src_i]] = new_words[word_i]
    kept = set(arranged.survivors)
    rnd.table.extend(w for i, w in enumerate(new_words) if i not in kept)
    report.touched.add(seat)
    report.new_words.extend(w.text for w in new_words)
    report.placed.update(card.id for w in new_words for card, _x in w.cards)
    made = listing(w.shown for w in new_words)
    if sources:
        were = listing(s.shown for s in sources)
        report.words.append(
            lambda who: (
                _("You turn {sources} into {words}", sources=were, words=made)
                if is_you(who)
                else _("{name} turns {sources} into {words}", name=who, sources=were, words=made)
            )
        )
    else:
        report.words.append(
            lambda who: (
                _("You play {words}", words=made)
                if is_you(who)
                else _("{name} plays {words}", name=who, words=made)
            )
        )
        rnd.opened.add(seat)
    return not sources


def _sources(rnd: Round, op: Form) -> list[TableWord]:
    chosen: list[TableWord] = []
    used: set[int] = set()
    for src in op.sources:
        if src.index is not None:
            if not 1 <= src.index <= len(rnd.table):
                raise Refusal(
                    _(
                        "There is no table word #{number}; the table has {count}.",
                        number=src.index,
                        count=len(rnd.table),
                    )
                )
            pos = src.index - 1
            if pos in used:
                raise Refusal(_("Table word #{number} is named twice.", number=src.index))
        else:
            found = [i for i, tw in enumerate(rnd.table) if tw.text == src.word and i not in used]
            if not found:
                if not rnd.table:
                    raise Refusal(
                        _("{word} isn't on the table (the table has nothing yet).", word=src.word.upper())
                    )
                shown = ", ".join(tw.text.upper() for tw in rnd.table)
                raise Refusal(
                    _(
                        "{word} isn't on the table (the table has {words}).",
                        word=src.word.upper(),
                        words=shown,
                    )
                )
            pos = found[0]
        tw = rnd.table[pos]
        jokers = sum(1 for card, _x in tw.cards if card.kind == "joker")
        missing = Counter(src.take) - Counter(tw.text) - Counter("*" * jokers)
        if missing:
            raise Refusal(
                _(
                    "{word} has no {letters} to take.",
                    word=tw.text.upper(),
                    letters=", ".join(sorted(missing.elements())).upper(),
                )
            )
        used.add(pos)
        chosen.append(tw)
    return chosen


def _target(op: Act, seat: str, rules: TurnRules) -> Opponent:
    others = [o for o in rules.opponents if o.id != seat]
    if not others:
        raise Refusal(_("There's no opponent to aim at."))
    wanted = op.target.strip().lstrip("@#").lower()
    if not wanted:
        if len(others) == 1:
            return others[0]
        raise Refusal(_("Say which opponent, by name or seat number."))
    if wanted.isdigit():
        found = [o for o in rules.opponents if o.number == int(wanted)]
    else:
        exact = [o for o in rules.opponents if plain(o.name).lower() == wanted]
        found = exact or [o for o in rules.opponents if plain(o.name).lower().startswith(wanted)]
    if not found:
        raise Refusal(
            _(
                "Nobody here is called {text}; opponents: {names}.",
                text=excerpt(op.target),
                names=", ".join(o.name for o in others),
            )
        )
    if len(found) > 1:
        raise Refusal(
            _(
                "{text} could be {names}: say more of the name.",
                text=excerpt(op.target),
                names=", ".join(o.name for o in found),
            )
        )
    if found[0].id == seat:
        raise Refusal(_("Aim action cards at an opponent, not at yourself."))
    return found[0]


def _action(rnd: Round, seat: str, op: Act, rules: TurnRules, rng: random.Random, report: TurnReport) -> None:
    hand = rnd.hands[seat]
    name = _(ACTIONS[op.card][0])
    card = next((c for c in hand if c.kind == "action" and c.action == op.card), None)
    if card is None:
        raise Refusal(_("You don't have a {card} card.", card=name))
    if seat not in rnd.opened:
        raise Refusal(_("You can't begin with an action card: make a word of your own first."))
    if len(hand) == 1:
        raise Refusal(_("You can't end with an action card: it can't be your last card."))
    target = _target(op, seat, rules) if op.card not in {"deck-trade", "all-draw-two"} else None
    give: Card | None = None
    if op.card in {"deck-trade", "trade"}:
        give = next(
            (c for c in hand if (c.kind == "joker" if op.give == "*" else c.letter == op.give)),
            None,
        )
        if give is None:
            if op.give == "*":
                raise Refusal(_("You don't have a joker to trade."))
            raise Refusal(_("You don't have any {letter} to trade.", letter=op.give.upper()))
        if op.card == "deck-trade" and not rnd.can_draw():
            raise Refusal(_("The deck is empty: there is nothing to trade with."))
        if target is not None and not rnd.hands[target.id]:
            raise Refusal(_("{name} has no cards to trade.", name=target.name))
    hand.remove(card)
    (rnd.out if rules.actions_out else rnd.discard).append(card)
    report.touched.add(seat)
    report.action = op.card
    if op.card == "deck-trade" and give is not None:
        hand.remove(give)
        rnd.draw(seat, rng)
        rnd.discard.append(give)
        report.words.append(
            lambda who: (
                _("You play {card}: you trade a card with the deck", card=name)
                if is_you(who)
                else _("{name} plays {card}: trades a card with the deck", name=who, card=name)
            )
        )
    elif op.card == "trade" and give is not None and target is not None:
        theirs = rnd.hands[target.id]
        taken = theirs[rng.randrange(len(theirs))]
        theirs.remove(taken)
        hand.remove(give)
        theirs.append(give)
        hand.append(taken)
        report.touched.add(target.id)
        aimed = target.name
        report.words.append(
            lambda who: (
                _("You play {card}: you trade a card with {target}", card=name, target=aimed)
                if is_you(who)
                else _("{name} plays {card}: trades a card with {target}", name=who, card=name, target=aimed)
            )
        )
    elif op.card == "skip" and target is not None:
        rnd.skips[target.id] = rnd.skips.get(target.id, 0) + 1
        report.words.append(_skip_clause(name, target.name))
    elif op.card == "swap-hands" and target is not None:
        rnd.hands[seat], rnd.hands[target.id] = rnd.hands[target.id], rnd.hands[seat]
        report.touched.add(target.id)
        aimed = target.name
        report.words.append(
            lambda who: (
                _("You play {card}: you swap hands with {target}", card=name, target=aimed)
                if is_you(who)
                else _("{name} plays {card}: swaps hands with {target}", name=who, card=name, target=aimed)
            )
        )
    elif op.card == "draw-two" and target is not None:
        drawn = sum(1 for _x in range(2) if rnd.draw(target.id, rng))
        report.touched.add(target.id)
        report.words.append(_draw_two_clause(name, target.name, drawn))
    else:
        for other in rules.opponents:
            if other.id != seat:
                for _x in range(2):
                    rnd.draw(other.id, rng)
                report.touched.add(other.id)
        report.words.append(
            lambda who: (
                _("You play {card}: every opponent draws 2 cards", card=name)
                if is_you(who)
                else _("{name} plays {card}: every opponent draws 2 cards", name=who, card=name)
            )
        )


def _drew(who: str) -> str:
    return _("You draw a card") if is_you(who) else _("{name} draws a card", name=who)


def _passed(who: str) -> str:
    if is_you(who):
        return _("You pass (no cards left to draw)")
    return _("{name} passes (no cards left to draw)", name=who)


def _skip_clause(card: str, target: str) -> Callable[[str], str]:
    def said(who: str) -> str:
        if is_you(who):
            return _("You play {card}: {target} skips their next turn", card=card, target=target)
        if is_you(target):
            return _("{name} plays {card}: you skip your next turn", name=who, card=card)
        return _("{name} plays {card}: {target} skips their next turn", name=who, card=card, target=target)

    return said


def _draw_two_clause(card: str, target: str, drawn: int) -> Callable[[str], str]:
    def said(who: str) -> str:
        if is_you(who):
            return _n(
                "You play {card}: {target} draws {count} card",
                "You play {card}: {target} draws {count} cards",
                drawn,
                card=card,
                target=target,
            )
        if is_you(target):
            return _n(
                "{name} plays {card}: you draw {count} card",
                "{name} plays {card}: you draw {count} cards",
                drawn,
                name=who,
                card=card,
            )
        return _n(
            "{name} plays {card}: {target} draws {count} card",
            "{name} plays {card}: {target} draws {count} cards",
            drawn,
            name=who,
            card=card,
            target=target,
        )

    return said


def listing(items: Iterable[str]) -> str:
    """Words joined as the language spoken lists them (``A and B``)."""
    from games.common.speech import listing as spoken_listing

    return spoken_listing(list(items))
