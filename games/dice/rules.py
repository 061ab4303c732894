"""Placing a word with the rolled dice: the crossing rule, blanks, points, and the move notation.

These are pure functions shared by the engine, the solver and the computer players.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from games.common.languages import ENGLISH, Language
from games.common.speech import N_, _, listing
from games.dice.dice import Face

#: What a player types (alone) to challenge the last word, to let it stand, or to give up.
CHALLENGE_WORDS = frozenset({"challenge"})
ACCEPT_WORDS = frozenset({"accept", "no-challenge", "nochallenge"})
CONCEDE_WORDS = frozenset({"concede", "no-word", "noword", "give-up", "giveup", "resign"})

#: Words that, typed alone, are commands rather than moves (``=WORD`` plays them as words).
RESERVED = CHALLENGE_WORDS | ACCEPT_WORDS | CONCEDE_WORDS

#: The longest word the dice can make: ten rolled dice and the shared letter.
MAX_WORD = 11


@dataclass(frozen=True, slots=True)
class Placed:
    """One die in a word on the mat: its number, the letter it shows (a blank keeps its letter), points."""

    die: int
    letter: str
    points: int
    blank: bool = False


@dataclass(frozen=True, slots=True)
class Fit:
    """A word fitted to the dice: its dice in order, where it crosses, and its score.

    ``cross`` is the index in this word of the letter it shares with the word on the mat,
    ``prev`` the index of that letter in the mat's word (both None for the first word).
    """

    word: str
    placed: tuple[Placed, ...]
    cross: int | None
    prev: int | None

    @property
    def score(self) -> int:
        """The sum of the points on every letter of the word (the shared one too; blanks 0)."""
        return sum(p.points for p in self.placed)

    def notation(self) -> str:
        """The move that plays this fit: ``STONe 3 2`` (blanks lower-case, crossing numbers 1-based).

        The shared letter is written in capitals even when it is a blank on the mat: it
        keeps the letter it was given and is not re-chosen.
        """
        letters = "".join(
            p.letter if p.blank and i != self.cross else p.letter.upper() for i, p in enumerate(self.placed)
        )
        if self.cross is None or self.prev is None:
            return "=" + letters if self.word in RESERVED else letters
        return f"{letters} {self.cross + 1} {self.prev + 1}"

    def shown(self) -> str:
        """The word as players see it: letters upper-case, blanks lower-case."""
        return "".join(p.letter if p.blank else p.letter.upper() for p in self.placed)

    @property
    def dice(self) -> frozenset[int]:
        """The numbers of the dice the word uses."""
        return frozenset(p.die for p in self.placed)


@dataclass(frozen=True, slots=True)
class WordMove:
    """``WORD [N [M]]``: a word, its explicit blanks (None: choose automatically), crossing numbers."""

    word: str
    blanks: frozenset[int] | None
    cross: int | None
    prev: int | None


Move = WordMove | str  # a WordMove, or "challenge" / "accept" / "concede"

#: How moves are typed (marked: show it through ``_()``).
NOTATION_HELP = N_(
    "Type a word made from the rolled dice, like `STONE`; mark blanks in lower case (`STONe`) "
    "and, if you like, say where it crosses: `STONE 2 1` shares letter 2 of STONE with letter 1 "
    "of the word on the mat. `challenge`, `accept` or `concede` work alone."
)


def parse_move(text: str, language: Language = ENGLISH) -> Move | None:
    """Read a move; None when ``text`` is not one (the caller explains the notation).

    A bare ``challenge``/``accept``/``concede`` is that command; to play one of those as a
    word, prefix it with ``=`` (``=ACCEPT``) or give crossing numbers. The word folds to
    ``language``'s letters (``Ñ`` stays in Spanish, ``É`` is ``E``), keeping which letters
    were typed in lower case: those are blanks.
    """
    tokens = text.strip().split()
    if not tokens or len(tokens) > 3:
        return None
    joined = "-".join(t.lower() for t in tokens)
    if len(tokens) == 1 and joined in CHALLENGE_WORDS:
        return "challenge"
    if len(tokens) <= 2 and joined in ACCEPT_WORDS:
        return "accept"
    if len(tokens) <= 2 and joined in CONCEDE_WORDS:
        return "concede"
    typed = _fold_cased(tokens[0].removeprefix("=").strip(".!?,"), language)
    if typed is None:
        return None
    word, lower = typed
    if len(word) > MAX_WORD:
        return None
    numbers: list[int] = []
    for token in tokens[1:]:
        if not token.isdigit() or len(token) > 2 or int(token) == 0:
            return None
        numbers.append(int(token) - 1)
    mixed = any(flag is True for flag in lower) and any(flag is False for flag in lower)
    blanks = frozenset(i for i, flag in enumerate(lower) if flag is True) if mixed else None
    cross = numbers[0] if numbers else None
    prev = numbers[1] if len(numbers) > 1 else None
    return WordMove(word, blanks, cross, prev)


def _fold_cased(token: str, language: Language) -> tuple[str, list[bool | None]] | None:
    """``token`` folded letter by letter to ``language``, with each letter's case as typed
    (True: lower case, None: a letter without case, such as ß); None when it isn't a word."""
    if not token or len(token) > 4 * MAX_WORD:
        return None
    letters: list[str] = []
    lower: list[bool | None] = []
    for ch in unicodedata.normalize("NFC", token):
        folded = language.fold(ch) if ch.isalpha() else None
        if folded is None:
            return None
        case: bool | None = None if ch.upper() == ch.lower() or ch == "ß" else ch.islower()
        letters.append(folded)
        lower.extend([case] * len(folded))
    return "".join(letters), lower


def _assign(
    word: str, skip: int | None, blanks_at: frozenset[int] | None, rolled: Sequence[tuple[int, Face]]
) -> tuple[dict[int, Placed], list[str]]:
    """Give each letter of ``word`` (but ``skip``) a rolled die; also return the letters missing.

    Letter dice go first (a blank scores 0, so a letter die never scores less).
    """
    by_letter: dict[str, list[tuple[int, Face]]] = {}
    spare: list[tuple[int, Face]] = []
    for die, f in rolled:
        (spare if f.blank else by_letter.setdefault(f.letter, [])).append((die, f))
    out: dict[int, Placed] = {}
    missing: list[str] = []
    positions = [i for i in range(len(word)) if i != skip]
    explicit = blanks_at or frozenset()
    for i in positions:
        if i in explicit:
            if spare:
                die, __ = spare.pop(0)
                out[i] = Placed(die, word[i], 0, True)
            else:
                missing.append(_("a blank for {letter}", letter=word[i].upper()))
    for i in positions:
        if i in explicit:
            continue
        dice = by_letter.get(word[i])
        if dice:
            die, f = dice.pop(0)
            out[i] = Placed(die, word[i], f.points)
        elif blanks_at is None and spare:
            die, __ = spare.pop(0)
            out[i] = Placed(die, word[i], 0, True)
        else:
            missing.append(word[i].upper())
    return out, missing


def fit_word(
    word: str,
    rolled: Sequence[tuple[int, Face]],
    mat: Sequence[Placed],
    *,
    blanks_at: frozenset[int] | None = None,
    cross: int | None = None,
    prev: int | None = None,
) -> Fit | str:
    """Fit ``word`` (lower-case) to the rolled dice crossing the word on the ``mat``.

    Returns the best-scoring :class:`Fit` (ties: the earliest crossing), or a friendly
    reason why the word can't be placed. With ``blanks_at`` None, letters come from letter
    dice first and rolled blanks stand in for the rest; otherwise exactly those positions
    are blanks.
    """
    shown = word.upper()
    if len(word) < 2:
        return _("A word needs at least two letters.")
    if not mat:
        if cross is not None:
            return _("The first word crosses nothing: leave out the crossing numbers.")
        placed, missing = _assign(word, None, blanks_at, rolled)
        if missing:
            return _(
                "You can't make {word} from the dice: no die for {missing}.",
                word=shown,
                missing=_listing(missing),
            )
        return Fit(word, tuple(placed[i] for i in range(len(word))), None, None)
    old = "".join(p.letter for p in mat).upper()
    if cross is not None and not 0 <= cross < len(word):
        return _(
            "{word} has {length} letters: the crossing number must be 1 to {length}.",
            word=shown,
            length=len(word),
        )
    if prev is not None and not 0 <= prev < len(mat):
        return _(
            "{word} has {length} letters: the second number must be 1 to {length}.", word=old, length=len(mat)
        )
    pairs = [
        (i, j)
        for i in range(len(word))
        for j in range(len(mat))
        if word[i] == mat[j].letter and (cross is None or i == cross) and (prev is None or j == prev)
    ]
    if not pairs:
        if cross is not None and prev is not None:
            return _(
                "Letter {number} of {word} is {letter}, "
                "but letter {other_number} of {other} is {other_letter}.",
                number=cross + 1,
                word=shown,
                letter=shown[cross],
                other_number=prev + 1,
                other=old,
                other_letter=old[prev],
            )
        if cross is not None:
            return _(
                "Letter {number} of {word} is {letter}, which isn't in {other}.",
                number=cross + 1,
                word=shown,
                letter=shown[cross],
                other=old,
            )
        return _(
            "{word} must cross {other}: it has to share one of its letters ({letters}).",
            word=shown,
            other=old,
            letters=_listing(sorted(set(old))),
        )
    best: Fit | None = None
    first_missing: list[str] = []
    for i, j in pairs:
        placed, missing = _assign(word, i, blanks_at, rolled)
        if missing:
            first_missing = first_missing or missing
            continue
        placed[i] = mat[j]
        fit = Fit(word, tuple(placed[k] for k in range(len(word))), i, j)
        if best is None or fit.score > best.score:
            best = fit
    if best is None:
        return _(
            "You can't make {word} crossing {other}: only one letter comes from {other}, "
            "and no rolled die shows {missing}.",
            word=shown,
            other=old,
            missing=_listing(first_missing),
        )
    return best


def _listing(items: Sequence[str]) -> str:
    return listing(items, style="or")
