"""Computer players: they find a word from the lexicon and answer after a human-like delay.

Easy and normal players know only their level's vocabulary (:mod:`games.lexicon.vocabulary`);
hard players know every word the rules allow.

Planning draws from its own random stream, never the rule stream, so replaying
a game's action log without asking the bots gives the identical rule state.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from games.common.words import TITLE_THEMES
from games.lexicon.vocabulary import Known, knows
from games.race.cards import Card
from games.race.referee import Referee


@dataclass(frozen=True, slots=True)
class Level:
    """How a computer player of one level behaves."""

    find: float  # chance of finding any word on a given table
    react: float  # seconds before starting to type
    cps: float  # typing speed, characters per second
    choices: int  # how many candidate words it considers (hard: the best of many)


LEVELS: dict[str, Level] = {
    "easy": Level(find=0.55, react=7.0, cps=3.5, choices=2),
    "normal": Level(find=0.8, react=4.0, cps=5.0, choices=5),
    "hard": Level(find=0.95, react=2.0, cps=7.0, choices=12),
}

#: Names for computer players the engine adds itself (``bots=N``).
BOT_NAMES: tuple[str, ...] = ("Robo Rita", "Chip", "Lexi", "Bolt", "Dot", "Gizmo", "Pixel")


def _zipf(referee: Referee, word: str) -> float:
    zipf = getattr(referee.judge, "zipf", None)
    if zipf is None:
        return 4.0
    try:
        return float(zipf(word))
    except Exception:
        return 4.0


class Planner:
    """Picks computer players' answers and when they are typed."""

    def __init__(self, referee: Referee, seed: int) -> None:
        self.referee = referee
        self.rng = random.Random(seed * 7919 + 1)

    def candidates(
        self, groups: Sequence[Sequence[Card]], used: Iterable[str], limit: int, level: str = "hard"
    ) -> list[str]:
        """Valid words for these card groups that a computer player of ``level`` knows (hard,
        the default: every word), best (most common) first."""
        known = self.vocabulary(level)
        used_set = set(used)
        seen: set[str] = set()
        out: list[str] = []
        referee = self.referee
        # the game's own words the lexicon doesn't list: the workspace's and those a vote accepted
        own = sorted(referee.rules.added | referee.accepted)
        for group in groups:
            if len(group) < 2:
                continue
            letters = [c.letter for c in group]
            try:
                found = referee.judge.examples(letters, referee.rules, referee.placement, limit + 4)
            except Exception:
                found = []
            for word in [*found, *own]:
                if word in seen or word in used_set or (known is not None and not known(word)):
                    continue
                ruling = referee.rule(word, [group], used_set)
                if ruling.ok:
                    seen.add(word)
                    out.append(word)
                if len(out) >= limit:
                    return out
        return out

    def vocabulary(self, level: str) -> Known | None:
        """Which words a computer player of ``level`` knows (None: any word the rules allow).

        Names of a title or person theme (movies, books, persons) have no frequency: with such
        a theme every level knows every title and name the lexicon lists.
        """
        if self.referee.rules.themes & TITLE_THEMES:
            return None
        return knows(level, self.referee.language.code)

    def plan(
        self, level_name: str, groups: Sequence[Sequence[Card]], used: Iterable[str], now: float
    ) -> tuple[float, str] | None:
        """When this computer player answers and with what, or None if it is stuck."""
        level = LEVELS.get(level_name, LEVELS["normal"])
        words = self.candidates(groups, used, level.choices, level_name)
        roll = self.rng.random()
        if not words or roll > level.find:
            return None
        if level_name == "hard":
            # The hard player goes for the most cards, then the most points.
            def value(word: str) -> tuple[int, int]:
                ruling = self.referee.rule(word, groups, ())
                return (len(ruling.cards), sum(c.points for c in ruling.cards))

            word = max(words, key=value)
        else:
            word = words[self.rng.randrange(len(words))]
        return now + self.delay(level_name, word), word

    def delay(self, level_name: str, word: str) -> float:
        """Seconds to think of and type ``word``: slower for rarer, longer words."""
        level = LEVELS.get(level_name, LEVELS["normal"])
        rarity = max(0.0, 5.0 - _zipf(self.referee, word))
        think = level.react * (1.0 + 0.3 * rarity) * self.rng.uniform(0.75, 1.4)
        return think + len(word) / level.cps
