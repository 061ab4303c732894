"""Computer players: which word to play, and whether to challenge the opponent's word.

Every choice draws from a random stream seeded by the game, the turn and the seat, never
the rule stream, so replaying a game's log (which never asks the bots) gives the same
rule state, and a game rebuilt after a restart makes the same choices.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from games.dice.solver import Found


@dataclass(frozen=True, slots=True)
class Level:
    """How a computer player of one level behaves."""

    think: float  # seconds before it moves
    top: int  # it picks at random among this many best-ranked words
    length_weight: float  # points a letter of length is worth when ranking (long words leave fewer dice)
    short: bool  # it goes for short words, whatever they score
    catch: float  # chance of challenging a word that is not allowed
    bluff: float  # chance of challenging a rare word that is allowed


LEVELS: dict[str, Level] = {
    "easy": Level(think=4.0, top=4, length_weight=0.0, short=True, catch=0.5, bluff=0.25),
    "normal": Level(think=3.0, top=3, length_weight=1.0, short=False, catch=0.9, bluff=0.0),
    "hard": Level(think=2.0, top=1, length_weight=2.0, short=False, catch=1.0, bluff=0.0),
}

#: Below this Zipf frequency a valid word looks suspicious to an easy computer player.
RARE = 1.5


def stream(seed: int, turn: int, seat: str, purpose: str) -> random.Random:
    """The random stream for one decision (string seeds are hashed the same in every process)."""
    return random.Random(f"{seed}:{turn}:{seat}:{purpose}")


def choose_word(
    fits: Sequence[Found], level: str, rng: random.Random, zipf: Callable[[str], float]
) -> Found | None:
    """The word a computer player of ``level`` plays from every word it found (with their scores).

    ``fits`` come from the level's own word list (its vocabulary, :mod:`games.lexicon.vocabulary`).
    """
    if not fits:
        return None
    lv = LEVELS.get(level, LEVELS["normal"])
    pool = list(fits)
    if lv.short:
        ranked = sorted(pool, key=lambda f: (len(f.word), -zipf(f.word), f.word))
    else:
        ranked = sorted(pool, key=lambda f: (-(f.score + lv.length_weight * len(f.word)), f.word))
    return rng.choice(ranked[: lv.top])


def should_challenge(valid: bool, word_zipf: float, level: str, rng: random.Random) -> bool:
    """Does a computer player of ``level`` challenge a word (``valid`` per the lexicon)?"""
    lv = LEVELS.get(level, LEVELS["normal"])
    roll = rng.random()
    if not valid:
        return roll < lv.catch
    return word_zipf < RARE and roll < lv.bluff
