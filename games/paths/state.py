"""The board and the record of claimed words: what "new" means, and the tiles on the grid."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from games.paths.finder import Finder, Path
from games.paths.grid import BLANK, EMPTY


@dataclass(frozen=True, slots=True)
class Recording:
    """A word marked down by a player, with the tiles (squares) that formed it."""

    seat: str
    word: str
    path: Path
    points: int
    how: str  # "move" | "free" | "knock"


@dataclass
class Board:
    """The squares of the grid and every recording so far.

    A word is new if nobody has recorded it, or if the path formed now shares
    no tile with any earlier recording of the same word (the house reading of
    the rulebook's "does not have any letter in common with the previously
    formed word"). A tile never moves once placed (a blank exchanged for a
    letter is a new tile on that square, and blanks are never part of a
    word), so a square stands for its tile.
    """

    finder: Finder
    squares: list[str]
    recordings: list[Recording] = field(default_factory=list)
    used: dict[str, set[int]] = field(default_factory=dict)  # word -> squares of its recordings

    def is_new(self, word: str, path: Iterable[int]) -> bool:
        """True when ``word`` read along ``path`` counts as a new word."""
        taken = self.used.get(word)
        return taken is None or taken.isdisjoint(path)

    def record(self, recording: Recording) -> None:
        """Mark a word down."""
        self.recordings.append(recording)
        self.used.setdefault(recording.word, set()).update(recording.path)

    def touches(self, square: int) -> bool:
        """True when a tile (letter or blank) shares an edge with ``square``."""
        return any(self.squares[nb] != EMPTY for nb in self.finder.near[square])

    def frontier(self) -> list[int]:
        """Empty squares next to a letter tile: where a new tile can form a word."""
        squares = self.squares
        near = self.finder.near
        return [
            i
            for i, cell in enumerate(squares)
            if cell == EMPTY and any(squares[nb].isalpha() for nb in near[i])
        ]

    def blanks_in_play(self) -> list[int]:
        """Squares holding a blank tile next to a letter tile (exchangeable for a word)."""
        squares = self.squares
        near = self.finder.near
        return [
            i
            for i, cell in enumerate(squares)
            if cell == BLANK and any(squares[nb].isalpha() for nb in near[i])
        ]

    def has_new_word(self) -> bool:
        """Is some new word readable on the board right now (waiting to be discovered)?"""
        found: list[bool] = []

        def stop(word: str, path: Path) -> bool:
            if self.is_new(word, path):
                found.append(True)
                return True
            return False

        self.finder.all_paths(self.squares, stop=stop)
        return bool(found)

    def can_form(self, letters: str, squares: Iterable[int]) -> bool:
        """Could one of ``letters`` on one of ``squares`` form a new word through it?"""
        if not letters:
            return False
        found: list[bool] = []

        def stop(word: str, path: Path) -> bool:
            if self.is_new(word, path):
                found.append(True)
                return True
            return False

        for square in squares:
            self.finder.through(self.squares, square, letters, stop=stop)
            if found:
                return True
        return False

    def new_words_through(self, square: int, letter: str) -> list[tuple[str, Path]]:
        """The distinct new words a ``letter`` on ``square`` would form through it (one path each)."""
        out: dict[str, Path] = {}
        for hit in self.finder.through(self.squares, square, letter):
            if hit.word not in out and self.is_new(hit.word, hit.path):
                out[hit.word] = hit.path
        return sorted(out.items())

    def new_words(self) -> list[tuple[str, Path]]:
        """The distinct new words on the board now (one path each)."""
        out: dict[str, Path] = {}
        for hit in self.finder.all_paths(self.squares):
            if hit.word not in out and self.is_new(hit.word, hit.path):
                out[hit.word] = hit.path
        return sorted(out.items())
