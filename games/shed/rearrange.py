"""Finding the rearrangement behind a move: which card goes where.

A move names table words (the sources), maybe hand letters, and the words it
makes. Every card of the sources must end up in the new words (a letter taken
must be played in the same move); the hand gives what is missing; jokers fill
what nothing else can. Each source must leave a word behind: it keeps at least
one of its own cards in a new word of its own (different sources, different
words). :func:`arrange` finds such an assignment or says why there is none.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from itertools import permutations

from games.common.speech import _
from games.shed.cards import Card
from games.shed.notation import letters

#: A card on the table and the letter it plays (a joker's chosen letter).
Placed = tuple[Card, str]


@dataclass(frozen=True, slots=True)
class TableWord:
    """A word on the table: its cards in spelling order, and who laid it first."""

    cards: tuple[Placed, ...]
    owner: str

    @property
    def text(self) -> str:
        """The word, lower-case."""
        return "".join(letter for _x, letter in self.cards)

    @property
    def shown(self) -> str:
        """The word as the table shows it: joker letters in lower case (``SHoCK``)."""
        return "".join(letter.lower() if c.kind == "joker" else letter.upper() for c, letter in self.cards)


@dataclass(frozen=True, slots=True)
class Arrangement:
    """A solved move: the new words' cards, the hand cards used, each source's survivor."""

    words: tuple[tuple[Placed, ...], ...]
    hand_used: tuple[Card, ...]
    survivors: tuple[int, ...]  # survivors[i]: index in ``words`` of source i's word


class Refusal(ValueError):
    """Why a move cannot be arranged (a sentence for the player)."""


def _listing(counts: Counter[str]) -> str:
    return ", ".join(ch.upper() for ch in sorted(counts.elements()))


def arrange(
    sources: list[TableWord],
    hand: list[Card],
    words: tuple[str, ...],
    plus: str | None,
    *,
    jokers_ok: bool,
    joker_ban: str = "",
) -> Arrangement:
    """Assign cards to ``words`` (notation words, ``*`` marks a joker) or raise :class:`Refusal`.

    ``plus`` is the hand letters the player named (``*`` a joker), or None to
    work them out. ``jokers_ok`` says whether hand jokers may be used
    (``joker_ban`` is the reason when not).
    """
    forced = sum(w.count("*") for w in words)
    rhs = Counter("".join(letters(w) for w in words))
    for _pos, w in enumerate(words):
        rhs.subtract(letters(w)[i] for i in _forced_positions(w))
    rhs = +rhs
    src_cards = [pc for tw in sources for pc in tw.cards]
    src_fixed = Counter(c.letter for c, _x in src_cards if c.kind == "letter")
    src_jokers = [c for c, _x in src_cards if c.kind == "joker"]
    leftover = src_fixed - rhs
    if leftover:
        raise Refusal(
            _(
                "The words after the arrow don't use {letters} from the table: "
                "a letter taken from a table word must be played in the same move.",
                letters=_listing(leftover),
            )
        )
    extra = rhs - src_fixed
    hand_letters = Counter(c.letter for c in hand if c.kind == "letter")
    hand_jokers = [c for c in hand if c.kind == "joker"]
    if plus is not None:
        named = Counter(ch for ch in plus if ch != "*")
        jokers_named = plus.count("*")
        missing = named - hand_letters
        if missing:
            if not jokers_ok or sum(missing.values()) + jokers_named > len(hand_jokers):
                raise Refusal(_("You don't have {letters} in your hand.", letters=_listing(missing)))
            jokers_named += sum(missing.values())
            named -= missing
        if jokers_named and not jokers_ok:
            raise Refusal(joker_ban or _("You can't use a joker yet."))
        if jokers_named > len(hand_jokers):
            raise Refusal(_("You don't have that many jokers."))
        unused = named - extra
        if unused:
            raise Refusal(
                _("The words after the arrow don't use the {letters} you add.", letters=_listing(unused))
            )
        joker_letters = extra - named
        needed = sum(joker_letters.values()) + forced
        if needed > len(src_jokers) + jokers_named:
            if joker_letters:
                raise Refusal(
                    _(
                        "Those words need {letters}, which neither the table words nor the letters you "
                        "add give.",
                        letters=_listing(joker_letters),
                    )
                )
            raise Refusal(
                _("Those words need more jokers, which neither the table words nor the letters you add give.")
            )
        if needed < len(src_jokers) + jokers_named:
            raise Refusal(_("Those words have no place for every joker in the move."))
        used_letters, used_jokers = named, jokers_named
    else:
        used_letters = extra & hand_letters
        joker_letters = extra - used_letters
        needed = sum(joker_letters.values()) + forced
        if needed < len(src_jokers):
            # a joker taken from the table must be played again: it takes a letter the hand would give
            spare = len(src_jokers) - needed
            if sum(used_letters.values()) < spare:
                raise Refusal(_("A joker taken from a table word must be played again in the same move."))
            for ch in sorted(used_letters.elements())[:spare]:
                used_letters[ch] -= 1
                joker_letters[ch] += 1
            used_letters = +used_letters
            needed = len(src_jokers)
        used_jokers = needed - len(src_jokers)
        if used_jokers > 0:
            if not hand_jokers:
                if not joker_letters:
                    raise Refusal(_("You don't have a joker in your hand."))
                raise Refusal(_("You don't have {letters} in your hand.", letters=_listing(joker_letters)))
            if not jokers_ok:
                raise Refusal(joker_ban or _("You can't use a joker yet."))
            if used_jokers > len(hand_jokers):
                raise Refusal(
                    _(
                        "You don't have {letters} in your hand (not enough jokers).",
                        letters=_listing(joker_letters),
                    )
                )
    hand_used: list[Card] = []
    pool_letters = Counter(used_letters)
    for card in hand:
        if card.kind == "letter" and pool_letters[card.letter] > 0:
            pool_letters[card.letter] -= 1
            hand_used.append(card)
    hand_used.extend(hand_jokers[:used_jokers])
    if sources and not hand_used and sorted(words) == sorted(tw.text for tw in sources) and not forced:
        raise Refusal(_("That move changes nothing."))
    return _place(sources, hand_used, words, joker_letters)


def _forced_positions(word: str) -> list[int]:
    out: list[int] = []
    pos = 0
    marked = False
    for ch in word:
        if ch == "*":
            marked = True
            continue
        if marked:
            out.append(pos)
        marked = False
        pos += 1
    return out


def _place(
    sources: list[TableWord], hand_used: list[Card], words: tuple[str, ...], joker_letters: Counter[str]
) -> Arrangement:
    plain = [letters(w) for w in words]
    forced = [set(_forced_positions(w)) for w in words]
    survivors = _survivors(sources, plain, forced, joker_letters) if sources else ()
    if survivors is None:
        if len(sources) > len(words):
            raise Refusal(
                _("Each table word you use must leave a word behind: name as many words as you use.")
            )
        raise Refusal(
            _(
                "Each table word you use must leave a word behind, keeping at least one of its own "
                "cards; these words can't do that."
            )
        )
    slots: list[list[Placed | None]] = [[None] * len(w) for w in plain]
    pool: list[Card] = [c for tw in sources for c, _x in tw.cards] + list(hand_used)
    jokers_left = Counter(joker_letters)
    for (card, pos_word, pos), _x in zip(survivors, sources, strict=True):
        letter = plain[pos_word][pos]
        slots[pos_word][pos] = (card, letter)
        pool.remove(card)
        if card.kind == "joker" and pos not in forced[pos_word]:
            jokers_left[letter] -= 1
    for wi, w in enumerate(plain):
        for pos, letter in enumerate(w):
            if slots[wi][pos] is not None:
                continue
            if pos in forced[wi] or (jokers_left[letter] > 0 and not _has_letter(pool, letter)):
                card = next(c for c in pool if c.kind == "joker")
                if pos not in forced[wi]:
                    jokers_left[letter] -= 1
            else:
                card = next(c for c in pool if c.kind == "letter" and c.letter == letter)
            pool.remove(card)
            slots[wi][pos] = (card, letter)
    assert not pool, "every card of the move has a place"
    placed = tuple(tuple(s for s in slot if s is not None) for slot in slots)
    return Arrangement(placed, tuple(hand_used), tuple(wi for _y, wi, _x in survivors))


def _has_letter(pool: list[Card], letter: str) -> bool:
    return any(c.kind == "letter" and c.letter == letter for c in pool)


def _survivors(
    sources: list[TableWord], plain: list[str], forced: list[set[int]], joker_letters: Counter[str]
) -> tuple[tuple[Card, int, int], ...] | None:
    """For each source, a distinct word and one of its cards placed in it: (card, word, position)."""
    if len(sources) > len(plain):
        return None
    best: tuple[tuple[Card, int, int], ...] | None = None
    best_overlap = -1
    for order in permutations(range(len(plain)), len(sources)):
        picked = _designate(sources, plain, forced, joker_letters, order)
        if picked is not None:
            # the word sharing most letters with a source is the one it leaves behind
            overlap = sum(
                sum((Counter(tw.text) & Counter(plain[wi])).values())
                for tw, wi in zip(sources, order, strict=True)
            )
            if overlap > best_overlap:
                best, best_overlap = picked, overlap
    return best


def _designate(
    sources: list[TableWord],
    plain: list[str],
    forced: list[set[int]],
    joker_letters: Counter[str],
    order: tuple[int, ...],
) -> tuple[tuple[Card, int, int], ...] | None:
    budget = Counter(joker_letters)
    forced_left = {wi: set(f) for wi, f in enumerate(forced)}
    out: list[tuple[Card, int, int]] = []
    for tw, wi in zip(sources, order, strict=True):
        word = plain[wi]
        choice: tuple[Card, int, int] | None = None
        for card, _x in tw.cards:
            if card.kind == "letter":
                pos = next(
                    (p for p, ch in enumerate(word) if ch == card.letter and p not in forced[wi]),
                    None,
                )
                if pos is not None:
                    choice = (card, wi, pos)
                    break
        if choice is None:
            joker = next((c for c, _x in tw.cards if c.kind == "joker"), None)
            if joker is not None:
                if forced_left[wi]:
                    pos = min(forced_left[wi])
                    forced_left[wi].discard(pos)
                    choice = (joker, wi, pos)
                else:
                    pos = next(
                        (p for p, ch in enumerate(word) if budget[ch] > 0 and p not in forced[wi]), None
                    )
                    if pos is not None:
                        budget[word[pos]] -= 1
                        choice = (joker, wi, pos)
        if choice is None:
            return None
        out.append(choice)
    return tuple(out)
