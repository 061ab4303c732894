"""Computer players: find real plays and write them in the notation.

Words come from an anagram index (sorted letters -> the most common allowed
word), built once per word-rule set from the lexicon's word list. A plan is
built move by move on a copy of the round and every move is checked with the
same :func:`~games.shed.turn.play_turn` the engine uses, so a computer player
never sends a move the rules refuse.

- easy: one word (a short one), or an action card now and then;
- normal: its longest word, then up to two more words or extensions;
- hard: as many words, extensions and takes as it can find, and action cards
  aimed where they hurt most (the opponent with the fewest cards).

Easy and normal players' indexes hold only the words of their level's vocabulary
(:mod:`games.lexicon.vocabulary`), so every word they make, extend to or leave behind after a
take is one a player of that level would know; hard's holds every allowed word.

An action card ends a turn of words (actions=last) or is a whole turn on its own
(actions=alone, the rulebook): then it is played instead of words that would shed
fewer than three cards.
"""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator
from itertools import combinations
from math import comb
from typing import Protocol

from games.common.languages import Language
from games.common.letter_tables import points as letter_points
from games.common.words import GameWords, WordJudge, WordRules
from games.lexicon.vocabulary import min_zipf, vocabulary
from games.shed.notation import Act, Draw, Form, Op, Source, unparse
from games.shed.options import ShedConfig
from games.shed.rearrange import Refusal
from games.shed.turn import Round, TurnRules, play_turn


class ShedGame(Protocol):
    """What the computer players read of the game (:class:`games.shed.engine.ShedGame`; a
    protocol, so that this module, which the engine imports, does not import the engine back)."""

    config: ShedConfig
    language: Language
    judge: WordJudge | None
    rules: WordRules
    game_words: GameWords | None
    round: Round

    def check_word(self, word: str) -> str | None: ...

    def _turn_rules(self) -> TurnRules: ...


MAX_WORD = 12  # longest word a search tries to make from a hand (the index keeps every length)
SUBSET_BUDGET = 2000  # hand sub-multisets looked at per search

_cache: dict[tuple[object, ...], dict[str, str]] = {}
_CACHE_SIZE = 12  # four rule sets, three levels each
_built: list[tuple[object, ...]] = []
_lock = threading.Lock()


def word_index(game: ShedGame, level: str = "hard") -> dict[str, str]:
    """Sorted letters -> an allowed word with exactly those letters (most common first) that a
    computer player of ``level`` knows (:mod:`games.lexicon.vocabulary`; hard: every word).

    Built from the game's verdict (its dictionary's entries and the workspace's added words that
    :meth:`~games.shed.engine.ShedGame.check_word` allows, of any length), once per rule set,
    language and vocabulary, and shared by every game using it (about 1 s for the whole
    tournament dictionary, a tenth of that for a level's vocabulary). Empty when the judge has
    no word list.
    """
    rules = game.rules
    least = min_zipf(level)
    key = (id(game.judge), rules, game.config.verbs_allowed, game.language.code, least)
    found = _cache.get(key)
    if found is not None:
        return found
    with _lock:
        found = _cache.get(key)
        if found is not None:
            return found
        index: dict[str, str] = {}
        verdict = game.game_words
        if verdict is not None:
            known = vocabulary(level, game.language.code)
            for word in verdict.entries() if known is None else known:
                if len(word) < rules.min_length or not verdict.spells(word):
                    continue
                sig = "".join(sorted(word))
                if sig not in index and game.check_word(word) is None:
                    index[sig] = word
        if len(_cache) >= _CACHE_SIZE:
            _cache.clear()
        _cache[key] = index
        _built.append(key)
        return index


def built() -> list[tuple[object, ...]]:
    """The key of every word index built in this process, in order (what tests count)."""
    return list(_built)


def _subsets(pool: str, low: int, high: int, rng: random.Random) -> Iterator[str]:
    """Distinct sub-multisets of the letters ``pool`` (as sorted strings), largest first.

    Each size gets an equal share of :data:`SUBSET_BUDGET`; when a big hand has more
    subsets of a size than its share, a random sample of them is looked at.
    """
    high = min(high, len(pool))
    if high < low:
        return
    share = max(1, SUBSET_BUDGET // (high - low + 1))
    for size in range(high, low - 1, -1):
        letters = list(pool)
        if comb(len(letters), size) > share:
            rng.shuffle(letters)
        seen: set[str] = set()
        for combo in combinations(letters, size):
            key = "".join(sorted(combo))
            if key in seen:
                continue
            seen.add(key)
            yield key
            if len(seen) >= share:
                break


#: With actions=alone, a computer player plays an action card rather than words shedding fewer cards.
ACTION_OVER_WORDS = 3


class _Planner:
    def __init__(self, game: ShedGame, seat: str, level: str, rng: random.Random) -> None:
        self.game = game
        self.seat = seat
        self.level = level
        self.rng = rng
        self.index = word_index(game, level)
        self.rules = game._turn_rules()
        self.start: Round = game.round
        self.state: Round = game.round.copy()
        self.ops: list[Op] = []
        self.min = game.config.min_length

    def hand_letters(self) -> str:
        return "".join(sorted(c.letter for c in self.state.hands[self.seat] if c.kind == "letter"))

    def jokers(self) -> int:
        if self.seat not in self.state.opened:
            return 0
        return sum(1 for c in self.state.hands[self.seat] if c.kind == "joker")

    def try_op(self, op: Op) -> bool:
        """Apply ``op`` to the plan's state if the rules allow it."""
        trial = self.start.copy()
        try:
            play_turn(trial, self.seat, [*self.ops, op], self.rules, random.Random(0))
        except Refusal:
            return False
        self.state = trial
        self.ops.append(op)
        return True

    # --- finding words

    def new_words(self) -> list[str]:
        pool = self.hand_letters()
        found: list[str] = []
        for sub in _subsets(pool, self.min, MAX_WORD, self.rng):
            word = self.index.get(sub)
            if word:
                found.append(word)
        if self.jokers() and len(found) < 3:
            for sub in _subsets(pool, self.min - 1, 7, self.rng):
                for ch in self.game.language.alphabet:
                    word = self.index.get("".join(sorted(sub + ch)))
                    if word:
                        found.append(word)
        return found

    def extensions(self) -> list[Form]:
        pool = self.hand_letters()
        out: list[Form] = []
        for tw in self.state.table:
            base = tw.text
            if len(base) >= MAX_WORD:
                continue
            for sub in _subsets(pool, 1, min(4, MAX_WORD - len(base)), self.rng):
                word = self.index.get("".join(sorted(base + sub)))
                if word and word != base:
                    out.append(Form((word,), (Source(base),), sub))
                    break
        return out

    def takes(self) -> list[Form]:
        pool = self.hand_letters()
        out: list[Form] = []
        for tw in self.state.table:
            base = tw.text
            if len(base) <= self.min or any(c.kind == "joker" for c, _ in tw.cards):
                continue
            for ch in sorted(set(base)):
                rest = base.replace(ch, "", 1)
                survivor = self.index.get("".join(sorted(rest)))
                if not survivor:
                    continue
                for sub in _subsets(pool, self.min - 1, 6, self.rng):
                    word = self.index.get("".join(sorted(sub + ch)))
                    if word:
                        out.append(Form((word, survivor), (Source(base, take=ch),), sub))
                        break
        return out

    # --- the plan

    def plan(self) -> str:
        limit = {"easy": 1, "normal": 3}.get(self.level, 12)
        while len(self.ops) < limit:
            if not self._one_more():
                break
            if not self.state.hands[self.seat]:
                return unparse(tuple(self.ops))
        if self.rules.action_alone:
            self._action_instead()
        else:
            self._maybe_action()
        return unparse(tuple(self.ops)) if self.ops else unparse((Draw(),))

    def _action_instead(self) -> None:
        """actions=alone: an action card is the whole turn, so it replaces words that shed little."""
        if len(self.start.hands[self.seat]) - len(self.state.hands[self.seat]) >= ACTION_OVER_WORDS:
            return
        words, state = self.ops, self.state
        self.ops, self.state = [], self.start.copy()
        self._maybe_action()
        if not self.ops:
            self.ops, self.state = words, state

    def _one_more(self) -> bool:
        opened = self.seat in self.state.opened
        candidates: list[Form] = [Form((w,)) for w in self.new_words()]
        if opened and self.level != "easy":
            candidates += self.extensions()
        if opened and self.level == "hard":
            candidates += self.takes()
        if not candidates:
            return False
        if self.level == "easy":
            short = sorted(candidates, key=lambda f: len(f.words[0]))[:4]
            self.rng.shuffle(short)
            candidates = short
        else:
            candidates.sort(key=lambda f: -self._gain(f))
        return any(self.try_op(form) for form in candidates[:20])

    def _gain(self, form: Form) -> int:
        if form.sources:
            return len(form.plus or "")
        return len(form.words[0])

    def _maybe_action(self) -> None:
        hand = self.state.hands[self.seat]
        actions = sorted({c.action for c in hand if c.kind == "action"})
        if not actions or self.seat not in self.state.opened:
            return
        chance = {"easy": 0.25, "normal": 0.6}.get(self.level, 1.0)
        if self.rng.random() >= chance:
            return
        others = [o for o in self.rules.opponents if o.id != self.seat]
        if not others:
            return
        sizes = {o.id: len(self.state.hands.get(o.id, [])) for o in others}
        leader = min(others, key=lambda o: (sizes[o.id], o.number))
        mine = len(hand)
        letters = self.hand_letters()
        order = _trade_order(self.game.language.code)
        worst = max(letters, key=lambda ch: (order.find(ch), ch)) if letters else ""
        for code in actions:
            op: Act | None = None
            if code == "swap-hands":
                if sizes[leader.id] + 1 < mine - 1:
                    op = Act(code, str(leader.number))
            elif code in {"skip", "draw-two"}:
                op = Act(code, str(leader.number))
            elif code == "all-draw-two":
                op = Act(code, "all")
            elif worst and code == "deck-trade":
                op = Act(code, "", worst)
            elif worst and code == "trade":
                op = Act(code, str(leader.number), worst)
            if op is not None and self.try_op(op):
                return


def _trade_order(language: str) -> str:
    """The letters an action card trades away, ranked as :meth:`_Planner._maybe_action` reads
    them: English's own list; in another language its letters worth 2 points or more, dearest
    first (``games.common.letter_tables``)."""
    if language == "en":
        return "qxzjkvwyfbhgmpcd"
    values = letter_points(language)
    return "".join(sorted((ch for ch in values if values[ch] >= 2), key=lambda ch: (-values[ch], ch)))


def plan_turn(game: ShedGame, seat: str, level: str, rng: random.Random) -> str:
    """The computer player's whole turn for ``seat``, in the notation (``draw`` when it finds nothing)."""
    return _Planner(game, seat, level, rng).plan()
