"""The computer player: every legal play from the move generator, picked by strength.

- ``hard`` plays the highest-scoring legal move;
- ``normal`` picks at random among the top fifth of the moves by score;
- ``easy`` picks at random among short plays (at most four tiles) from the middle of the list.

Easy and normal players look for plays only among the words of their level's vocabulary
(:mod:`games.lexicon.vocabulary`): their trie holds no rarer word, so every word a play forms,
cross-words included, is one a player of that level would know. Hard uses the whole dictionary.

Candidates come from the trie of the game's dictionary and are confirmed by the
game's own word check (the workspace's added and banned words can differ from
the trie), so a computer player never makes an illegal move. With no play it
swaps (when the bag allows) or passes.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from operator import itemgetter
from typing import NamedTuple

from games.board.core import Board, Scored, WordCheck
from games.board.layout import BLANK
from games.board.movegen import Candidate, Found, generate
from games.board.trie import Trie, level_trie, trie_for
from games.lexicon.vocabulary import min_zipf


class BotRules(NamedTuple):
    """What a computer player needs to know besides the board and its rack."""

    rack: int  # rack size
    bingo: int  # the bonus for using every tile
    bag: int  # tiles in the bag
    dictionary: str
    #: the words to find plays in (None: the shared trie of the English ``dictionary``)
    trie: Trie | None = None


def _trie(rules: BotRules | tuple[int, int, int, str]) -> Trie:
    given = rules.trie if isinstance(rules, BotRules) else None
    return given if given is not None else trie_for(rules[3])


#: Tiles a computer player keeps when it swaps.
KEEP = frozenset({BLANK, "S", "E"})


def _confirm(
    board: Board, rack: Sequence[str], cand: Candidate, check: WordCheck, rules: BotRules
) -> Scored | None:
    scored = board.evaluate(cand.play, rack, check, rack_size=rules[0], bingo=rules[1], dictionary=rules[3])
    return scored if isinstance(scored, Scored) else None


#: Ties between equal scores go in board order: across before down, then row, column, word.
_BOARD_ORDER = itemgetter(3, 1, 2, 4)
_SCORE = itemgetter(0)


def _generate(board: Board, rack: Sequence[str], rules: BotRules) -> list[Found]:
    return generate(board, rack, _trie(rules), rack_size=rules[0], bingo=rules[1])


def _ranked(found: list[Found]) -> list[Found]:
    order = sorted(found, key=_BOARD_ORDER)
    order.sort(key=_SCORE, reverse=True)  # stable: equal scores keep the board order
    return order


def ranked(board: Board, rack: Sequence[str], rules: BotRules) -> list[Candidate]:
    """Every play the trie allows, best first (ties in board order, so the order is deterministic)."""
    return [Candidate(*found) for found in _ranked(_generate(board, rack, rules))]


def _best_confirmed(
    board: Board, rack: Sequence[str], check: WordCheck, rules: BotRules
) -> tuple[Candidate, Scored] | None:
    """The first play of :func:`ranked` that the game's word check accepts.

    The best play is nearly always accepted (only a workspace's banned words
    refuse a trie word), so it is taken without sorting thousands of plays.
    """
    found = _generate(board, rack, rules)
    if not found:
        return None
    high = max(map(_SCORE, found))
    top = Candidate(*min((c for c in found if c[0] == high), key=_BOARD_ORDER))
    scored = _confirm(board, rack, top, check, rules)
    if scored is not None:
        return top, scored
    for each in _ranked(found):
        cand = Candidate(*each)
        scored = _confirm(board, rack, cand, check, rules)
        if scored is not None:
            return cand, scored
    return None


def choose(
    board: Board, rack: Sequence[str], check: WordCheck, level: str, rng: random.Random, rules: BotRules
) -> str:
    """The computer player's move, in notation."""
    if min_zipf(level) is not None:
        rules = BotRules(rules[0], rules[1], rules[2], rules[3], level_trie(_trie(rules), level))
    if level == "hard":
        best = _best_confirmed(board, rack, check, rules)
        return best[0].play.text() if best is not None else _no_play(rack, rules)
    order = ranked(board, rack, rules)
    if order:
        if level == "easy":
            short = [c for c in order if c.tiles <= 4] or order
            pool = short[len(short) // 3 : max(len(short) // 3 + 1, (len(short) * 9) // 10)]
        else:
            pool = order[: max(1, len(order) // 5)]
        pick = rng.choice(pool)
        order = [pick, *(c for c in order if c is not pick)]
    for cand in order:
        if _confirm(board, rack, cand, check, rules) is not None:
            return cand.play.text()
    return _no_play(rack, rules)


def _no_play(rack: Sequence[str], rules: BotRules) -> str:
    """With no play: swap (keeping blanks, S and E) while the bag allows, else pass."""
    if rules[2] >= rules[0]:
        swap = [t for t in rack if t not in KEEP] or list(rack)
        return "swap " + "".join(swap)
    return "pass"


def missed_move(
    board: Board, rack: Sequence[str], check: WordCheck, rules: BotRules
) -> tuple[str, int] | None:
    """The best legal move on a past turn, in notation with its score (None when there was none)."""
    best = _best_confirmed(board, rack, check, rules)
    return (best[0].play.text(), best[1].score) if best is not None else None
