"""Computer players: a move in the game's notation for the seat whose turn it is.

- easy: any tile that makes a new word, claiming just one word (the shortest);
- normal: the tile worth the most, claiming every new word through it;
- hard: the same, plus every new word already waiting on the board, and free
  tiles from the Free Letter Pile when one alone makes a word.

Easy and normal players claim, knock and build only words of their level's vocabulary
(:mod:`games.lexicon.vocabulary`): a tile whose only new words are rarer is not a move they
see. Hard sees every word of the game's word list.

With no word it knows but one it doesn't, an easy or normal player passes (the blank and
the Free Letter Pile are only for when no letter makes a word). With no word to make, a
computer player uses its blank tile (hard: where it
blocks the most), else gives its least useful letter to the Free Letter Pile,
else passes. Planning reads the engine and never changes it. (Knocks — normal
and hard players claim the words left on the board during a knock window — are
timed by the engine: ``PathsEngine.bot_claims``.)
"""

from __future__ import annotations

import random
from typing import Protocol

from games.lexicon.vocabulary import Known, knows
from games.paths.finder import Path
from games.paths.grid import EMPTY, square_name
from games.paths.options import PathsConfig
from games.paths.state import Board
from games.paths.tiles import letter_counts


class PathsEngine(Protocol):
    """What the computer players read of the game (:class:`games.paths.engine.PathsEngine`; a
    protocol, so that this module, which the engine imports, does not import the engine back)."""

    config: PathsConfig
    size: int
    board: Board
    racks: dict[str, list[str]]
    blanks: dict[str, int]
    pile: list[str]
    free_used: bool

    @property
    def squares(self) -> list[str]: ...

    @property
    def first_round(self) -> bool: ...

    def level(self, seat: str) -> str | None: ...

    def points(self, word: str) -> int: ...

    def can_place(self, seat: str) -> bool: ...


#: Vowels, in every playing language (German Ä Ö Ü too), for a first tile in the open.
VOWELS = frozenset("aeiouäöü")


def vocabulary(engine: PathsEngine, level: str) -> Known | None:
    """Which words a computer player of ``level`` knows in ``engine``'s language (None: every word)."""
    return knows(level, engine.config.language)


def knock_words(engine: PathsEngine, seat: str) -> list[str]:
    """The new words on the board a computer player at ``seat`` knocks for (those it knows)."""
    known = vocabulary(engine, engine.level(seat) or "normal")
    return [w for w, _ in engine.board.new_words() if known is None or known(w)]


def _options(
    engine: PathsEngine, letters: set[str], level: str
) -> list[tuple[int, str, list[tuple[str, Path]]]]:
    """Every (square, letter, new words through it) a tile from ``letters`` could make, keeping
    the words a computer player of ``level`` knows."""
    board = engine.board
    known = vocabulary(engine, level)
    out: list[tuple[int, str, list[tuple[str, Path]]]] = []
    squares = board.frontier() + board.blanks_in_play()
    for square in squares:
        for letter in sorted(letters):
            found = board.new_words_through(square, letter)
            if known is not None:
                found = [hit for hit in found if known(hit[0])]
            if found:
                out.append((square, letter, found))
    return out


def _worth(engine: PathsEngine, words: list[tuple[str, Path]]) -> int:
    return sum(engine.points(w) for w, _ in words)


def choose(engine: PathsEngine, seat: str, level: str, rng: random.Random) -> str:
    """The move ``seat`` makes now, at ``level`` ("easy" | "normal" | "hard")."""
    rack = engine.racks[seat]
    size = engine.size
    if engine.first_round and rack:
        return _first_tile(engine, seat, level, rng)
    if level == "hard" and engine.config.free_pile and engine.pile and not engine.free_used:
        free = _free_move(engine)
        if free:
            return free
    options = _options(engine, set(rack), level)
    if options:
        if level == "easy":
            square, letter, words = rng.choice(options)
            word = min(words, key=lambda item: (len(item[0]), item[0]))[0]
            return f"{square_name(square, size)} {letter.upper()} {word.upper()}"
        best = max(_worth(engine, words) for _, _, words in options)
        square, letter, words = rng.choice([o for o in options if _worth(engine, o[2]) == best])
        claimed = [w for w, _ in words]
        if level == "hard":
            claimed += [w for w, _ in engine.board.new_words() if w not in claimed]  # hard knows every word
        return f"{square_name(square, size)} {letter.upper()} " + " ".join(w.upper() for w in claimed)
    if vocabulary(engine, level) is not None and engine.can_place(seat):
        return "pass"  # only words rarer than it knows: it passes, as a person who sees no word would
    blank_at = _blank_square(engine, level, rng) if engine.blanks[seat] else None
    if blank_at is not None:
        return "blank " + square_name(blank_at, size)
    if rack and engine.config.free_pile:
        counts = letter_counts(engine.config.language)
        rarest = min(rack, key=lambda ch: (counts.get(ch, 0), ch))
        return f"discard {rarest.upper()}"
    return "pass"


def _first_tile(engine: PathsEngine, seat: str, level: str, rng: random.Random) -> str:
    rack = engine.racks[seat]
    size = engine.size
    if level != "easy":
        options = _options(engine, set(rack), level)
        if options:
            square, letter, words = max(options, key=lambda o: (_worth(engine, o[2]), -o[0], o[1]))
            named = " ".join(w.upper() for w, _ in words)
            return f"{square_name(square, size)} {letter.upper()} {named}"
    alone = [i for i, cell in enumerate(engine.squares) if cell == EMPTY and not engine.board.touches(i)]
    if not alone:
        return "pass"  # a crowded small grid: nowhere to place a tile without a word
    # keep to the middle of the grid, where later words have room
    middle = [i for i in alone if 2 <= i % size < size - 2 and 2 <= i // size < size - 2] or alone
    square = rng.choice(middle)
    vowels = [ch for ch in rack if ch in VOWELS]
    letter = rng.choice(vowels or rack)
    return f"{square_name(square, size)} {letter.upper()}"


def _free_move(engine: PathsEngine) -> str | None:
    board = engine.board
    best: tuple[int, int, str, str] | None = None
    for square in board.frontier():
        for letter in sorted(set(engine.pile)):
            for word, path in board.new_words_through(square, letter):
                key = (engine.points(word), square, letter, word)
                if square in path and (best is None or key[0] > best[0]):
                    best = key
    if best is None:
        return None
    _, square, letter, word = best
    return f"free {letter.upper()} {square_name(square, engine.size)} {word.upper()}"


def _blank_square(engine: PathsEngine, level: str, rng: random.Random) -> int | None:
    board = engine.board
    empty = [i for i, cell in enumerate(engine.squares) if cell == EMPTY]
    if not empty:
        return None
    if level == "hard":
        frontier = board.frontier()
        if frontier:
            # block the square next to the most letters
            near = board.finder.near
            return max(frontier, key=lambda i: (sum(engine.squares[n].isalpha() for n in near[i]), -i))
    return rng.choice(empty)
