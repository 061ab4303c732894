"""Letter dice on a page: the roll as buttons, the word to cross, a word built from dice (and
one letter of the mat's word) by pointer or keyboard, its fit and score from the game's own
preview (``LetterDice.preview``), and ``challenge``, ``accept`` and ``concede``.

Nothing in this game is hidden (every page shows the same roll), and outside strict mode the
preview never says whether a word is in the dictionary: that is what a challenge is for."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from games.common.page import BadRequest, number, text_field
from games.common.protocol import Snapshot
from games.common.speech import N_, _, _n, opening

#: Words a move reads as a command when typed alone: the page writes them ``=ACCEPT``.
COMMAND_WORDS = frozenset({"challenge", "accept", "nochallenge", "concede", "noword", "giveup", "resign"})
#: The longest word the dice can make (ten dice and the mat's letter).
LONGEST = 11


class DiceGame(Protocol):
    """What the page reads from a letter-dice engine (``games.dice``'s ``LetterDice``)."""

    @property
    def mat(self) -> tuple[Any, ...]:
        """The word to cross, die by die (``letter``, ``points``, ``blank``)."""
        ...

    def preview(self, seat: str, text: str) -> Any:
        """A word's preview (``move``, ``shown``, ``score``, ``reason``)."""
        ...


@dataclass(frozen=True, slots=True)
class Die:
    """One rolled die, as a button."""

    index: int
    letter: str  # upper-case; "" for a blank
    points: int
    label: str


@dataclass(frozen=True, slots=True)
class DicePart:
    """A letter-dice page: the roll, the word to cross (both public), and whether it may move."""

    dice: tuple[Die, ...]
    mat: tuple[Die, ...]
    player: bool


def die_label(letter: str, points: int) -> str:
    """A die's accessible name: its letter (or blank) and points."""
    if not letter:
        return _n("blank, {count} point", "blank, {count} points", points)
    return _n("{letter}, {count} point", "{letter}, {count} points", points, letter=letter)


class DiceView:
    """Letter dice's page."""

    game = "dice"
    label = N_("Open the dice")

    def part(self, engine: DiceGame, snapshot: Snapshot, seat: str | None) -> DicePart:
        """The roll and the word to cross (the same for every viewer: nothing is hidden)."""
        dice = tuple(
            Die(i, card.letter.upper(), card.points, die_label(card.letter.upper(), card.points))
            for i, card in enumerate(snapshot.cards)
        )
        mat = tuple(
            Die(
                i,
                p.letter.upper(),
                p.points,
                _(
                    "letter {position} of the word to cross: {letter}, a blank",
                    position=i + 1,
                    letter=p.letter.upper(),
                )
                if p.blank
                else _n(
                    "letter {position} of the word to cross: {letter}, {count} point",
                    "letter {position} of the word to cross: {letter}, {count} points",
                    p.points,
                    position=i + 1,
                    letter=p.letter.upper(),
                ),
            )
            for i, p in enumerate(engine.mat if snapshot.cards else ())
        )
        return DicePart(dice, mat, seat is not None)

    def hides(self, line: str) -> bool:
        """The page shows the roll and its own help."""
        # (the game's own lines, as the game says them in the language spoken)
        # (the dice game's help line, games/dice/engine.py SHORT_HELP: a view never imports a game)
        help_line = _(
            "Type the word (blanks in lower case: STONe), `challenge` or `concede`; `rules dice` explains."
        )
        return line.startswith((opening("Roll: {dice}"), help_line))

    def preview(self, engine: DiceGame, seat: str, body: Mapping[str, Any]) -> dict[str, Any]:
        """The word fitted to the roll and the mat, and its score (or why it can't be played)."""
        if body.get("action") != "word":
            return {"ok": False, "reason": _("Only a word has a preview.")}
        found = engine.preview(seat, " ".join(self.words(engine, seat, body)))
        return {
            "ok": not found.reason,
            "move": found.move,
            "shown": found.shown,
            "score": found.score,
            "reason": found.reason,
        }

    def words(self, engine: DiceGame, seat: str, body: Mapping[str, Any]) -> tuple[str, ...]:
        """The typed move: ``STONe 3 2`` (a blank in lower case), ``challenge``, ``accept``, ``concede``."""
        action = body.get("action")
        if action in ("challenge", "accept", "concede"):
            return (str(action),)
        if action != "word":
            raise BadRequest("That's not a move: word, challenge, accept or concede.")
        word = text_field(body, "word", limit=LONGEST, allow="")
        if not word:
            raise BadRequest(_("Build a word from the dice first."))
        if body.get("cross") is None:
            return (f"={word}" if word.lower() in COMMAND_WORDS else word,)
        cross = number(body, "cross", 1, LONGEST)
        prev = number(body, "prev", 1, LONGEST)
        return (word, str(cross), str(prev))
