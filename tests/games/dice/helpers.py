"""A tiny word judge, scripted dice and a game builder for the letter-dice tests."""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from games.common.protocol import Action, Notice, Seat, Setup
from games.common.words import Verdict, WordRules
from games.dice.dice import DICE_FACES
from games.dice.engine import LetterDice

WORDS = {
    "at", "ta", "to", "so", "no", "on", "an", "as", "it", "is", "in", "ti", "oe", "ne",
    "cat", "act", "tea", "eat", "ate", "tan", "ant", "net", "ten", "sat", "set", "toe", "one",
    "not", "ton", "son", "nos", "eon", "sea", "tis", "its", "sit", "tin", "nit", "ion",
    "note", "tone", "stone", "notes", "onset", "seat", "east", "teas", "coat", "taco",
    "cost", "cots", "scot", "lost", "slot", "lots", "zest", "zen", "oz", "ox", "ax",
    "nose", "ones", "toes", "tons", "snot", "aeon", "atone", "oaten",
}  # fmt: skip

ANN = Seat("ann", "Ann")
BOB = Seat("bob", "Bobby")  # the longer first name: Bobby goes first


class ListLexicon:
    """A DiceLexicon over :data:`WORDS` (fast, tiny, no big lexicon needed)."""

    def __init__(self, words: Iterable[str] = WORDS) -> None:
        self.entries = set(words)

    def judge(self, word: str, rules: WordRules) -> Verdict:
        if word in rules.banned:
            return Verdict(False, "banned", f"{word.upper()} is banned here.")
        if len(word) < rules.min_length:
            return Verdict(False, "too-short", f"{word.upper()} is too short.")
        if word in self.entries or word in rules.added:
            return Verdict(True, None, f"{word.upper()} is in the word list.")
        return Verdict(False, "unknown", f"{word.upper()} isn't in the dictionary.")

    def words(self, dictionary: str | None = None) -> list[str]:
        return sorted(self.entries)

    def zipf(self, word: str) -> float:
        return 4.0 if word in self.entries else 0.0

    def examples(
        self, letters: Sequence[str], rules: WordRules, placement: object = None, limit: int = 3
    ) -> list[str]:
        return []


LEXICON = ListLexicon()


class Scripted(random.Random):
    """A random stream whose die rolls come from a script (then from the seed)."""

    def __init__(self, seed: int = 0) -> None:
        super().__init__(seed)
        self.script: list[int] = []

    def randrange(self, *args: int) -> int:  # type: ignore[override]
        if self.script:
            return self.script.pop(0)
        return super().randrange(*args)


def script(engine: LetterDice, faces: str, dice: Sequence[int] | None = None) -> None:
    """The next roll shows ``faces``: one character per die rolled, in die order (``?`` a blank).

    ``dice``: the dice that roll (default: those not in the word on the mat now).
    """
    if dice is None:
        on_mat = engine.dice_on_mat()
        dice = [d for d in range(10) if d not in on_mat]
    assert len(faces) == len(dice), f"{len(dice)} dice are rolled, not {len(faces)}"
    rng = engine.rng if isinstance(engine.rng, Scripted) else Scripted()
    rng.script = [DICE_FACES[d].index(ch) for d, ch in zip(dice, faces, strict=True)]
    engine.rng = rng


def new_game(
    seats: Sequence[Seat] = (ANN, BOB),
    first_roll: str | None = None,
    seed: int = 1,
    lexicon: ListLexicon = LEXICON,
    **options: object,
) -> tuple[LetterDice, list[Notice]]:
    """A started game (``first_roll``: the faces of all ten dice, in die order)."""
    engine = LetterDice(Setup(dict(options), list(seats), seed, judge=lexicon))  # type: ignore[arg-type]
    if first_roll is not None:
        script(engine, first_roll)
    return engine, engine.apply(Action("begin", 0.0))


def say(engine: LetterDice, seat: str, text: str, now: float = 1.0) -> list[Notice]:
    """Apply a move and return its notices."""
    return engine.apply(Action("say", now, seat=seat, text=text))


def kinds(notices: Sequence[Notice]) -> list[str]:
    return [n.kind for n in notices]


def texts(notices: Sequence[Notice]) -> str:
    return "\n".join(n.text for n in notices)
