"""The board itself: move notation, legality with reasons, scoring, placing tiles.

Pure rules shared by the game engine, the replay CLI and the computer player.
A tile on the board is one character: an upper-case letter, or a lower-case
letter for a blank standing for that letter. In racks and bags a blank is ``?``.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from games.board.layout import BLANK, MULTIPLIERS, Squares, parse_square, square_name
from games.common.grammar import excerpt
from games.common.languages import ENGLISH, Language
from games.common.protocol import Cell
from games.common.speech import N_, _, _n
from games.common.text import user

#: Is this (lower-case) word allowed? None: every word is (geometry and scoring only).
WordCheck = Callable[[str], bool]

ACROSS = ("across", "a", "h", "horizontal", "right")
DOWN = ("down", "d", "v", "vertical")
#: How moves are typed (marked: show it through ``_()``).
HOW = N_("Moves look like `H8 across WORD`, `H8 down WORD`, `swap ABC`, `pass` or `resign`.")


@dataclass(frozen=True, slots=True)
class Play:
    """Lay a word: start square, direction, the whole word (lower case: a blank)."""

    row: int
    col: int
    down: bool
    word: str

    def text(self) -> str:
        """The move in notation (``H8 across WORD``)."""
        return f"{square_name(self.row, self.col)} {'down' if self.down else 'across'} {self.word}"


@dataclass(frozen=True, slots=True)
class Swap:
    """Swap tiles with the pool (``?`` is a blank)."""

    tiles: str


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the turn."""


@dataclass(frozen=True, slots=True)
class Resign:
    """Resign (forfeit the game)."""


Move = Play | Swap | Pass | Resign


def read_tiles(word: str, language: Language = ENGLISH) -> str | None:
    """A typed word as tiles in ``language``'s letters: upper case a tile, lower case a blank.

    Each character folds on its own (``É`` is ``E`` in French, ``Ä`` stays ``Ä`` in
    German); None when one is no single letter of the language (a digit, ``ß``).
    """
    if word.isascii() and word.isalpha():
        return word  # the common case: already letters of every language
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", word):
        folded = language.fold(ch)
        if folded is None or len(folded) != 1:
            return None
        out.append(folded if ch.islower() else folded.upper())
    return "".join(out)


def parse_move(text: str, size: int, language: Language = ENGLISH) -> Move | str:
    """Read a move in notation (words in ``language``'s letters), or the reason it cannot be read."""
    words = text.replace(",", " ").split()
    if not words:
        return _("That's an empty move.") + " " + _(HOW)
    head = words[0].lower()
    if head in ("pass", "p") and len(words) == 1:
        return Pass()
    if head in ("resign", "forfeit") and len(words) == 1:
        return Resign()
    if head in ("swap", "exchange"):
        typed = "".join(words[1:])
        letters = read_tiles("".join("" if ch in "?_*" else ch for ch in typed), language)
        if not typed or letters is None:
            return _("Say which tiles to swap, e.g. `swap QXV` (a blank is `?`).")
        found = iter(letters.upper())
        return Swap("".join(BLANK if ch in "?_*" else next(found) for ch in typed))
    if len(words) != 3:
        return _("I couldn't read {text}.", text=excerpt(text.strip())) + " " + _(HOW)
    where, direction, word = words
    square = parse_square(where, size)
    if square is None:
        last = chr(64 + size)
        return _(
            "{square} is not a square: columns are A-{last} and rows 1-{size} (e.g. H8).",
            square=user(where.upper()),
            last=last,
            size=str(size),
        )
    if direction.lower() in ACROSS:
        down = False
    elif direction.lower() in DOWN:
        down = True
    else:
        return _("{text} is not a direction: say `across` or `down`.", text=excerpt(direction))
    tiles = read_tiles(word, language)
    if tiles is None:
        return _(
            "{text} is not a word: use letters only (a lower-case letter is a blank).", text=excerpt(word)
        )
    return Play(square[0], square[1], down, tiles)


@dataclass(frozen=True, slots=True)
class Scored:
    """A legal play and what it scores."""

    play: Play
    placed: tuple[tuple[int, int, str], ...]  # (row, col, tile) for each new tile
    words: tuple[tuple[str, int], ...]  # each word formed (main word first) and its score
    bingo: int  # the bonus for using the whole rack (0 if not)
    score: int
    used: tuple[str, ...]  # rack tiles used ("?" for a blank)

    def describe(self) -> str:
        """``QUIZ 32, QI 10 (+40 for all 7 tiles)``."""
        parts = ", ".join(_("{word} {score}", word=w, score=s) for w, s in self.words)
        if not self.bingo:
            return parts
        bonus = f"+{self.bingo}"
        return _("{words}, {bonus} for using every tile", words=parts, bonus=bonus)


def play_from_tiles(board: Board, tiles: Sequence[tuple[int, int, str]]) -> Play | str:
    """The move that lays ``tiles`` ((row, column, tile) each, a lower-case tile a blank) on
    ``board``, written as a typed move would be: its first square, its direction and the whole
    word, the tiles already on the board included; or the reason they make no single move.

    A web page's placed tiles become this move, so they are judged exactly as if typed.
    One tile goes the way it makes a word (across when both ways do)."""
    if not tiles:
        return _("Place at least one tile on the board.")
    seen: set[tuple[int, int]] = set()
    for row, col, tile in tiles:
        if not (0 <= row < board.size and 0 <= col < board.size):
            return _("A tile is off the board.")
        if (row, col) in seen:
            return _("Two tiles are on {square}.", square=square_name(row, col))
        if board.at(row, col):
            return _(
                "{square} already holds {letter}.",
                square=square_name(row, col),
                letter=board.at(row, col).upper(),
            )
        if len(tile) != 1 or not tile.isalpha():
            return _("A tile carries one letter.")
        seen.add((row, col))
    rows = {row for row, _col, _tile in tiles}
    cols = {col for _row, col, _tile in tiles}
    if len(rows) > 1 and len(cols) > 1:
        return _("Place the tiles in one row or one column.")
    new = {(row, col): tile for row, col, tile in tiles}

    def line(down: bool) -> tuple[int, int, str]:
        dr, dc = (1, 0) if down else (0, 1)
        row, col = min(new)
        while board.at(row - dr, col - dc):
            row, col = row - dr, col - dc
        start = (row, col)
        letters: list[str] = []
        while True:
            tile = new.get((row, col)) or board.at(row, col)
            if not tile:
                break
            letters.append(tile)
            row, col = row + dr, col + dc
        return start[0], start[1], "".join(letters)

    if len(new) == 1:
        across, down = line(False), line(True)
        choices = [(False, across), (True, down)]
        made = [(d, found) for d, found in choices if len(found[2]) >= 2]
        is_down, (row, col, word) = made[0] if made else choices[0]
    else:
        is_down = len(cols) == 1
        row, col, word = line(is_down)
        dr, dc = (1, 0) if is_down else (0, 1)
        if not new.keys() <= {(row + dr * i, col + dc * i) for i in range(len(word))}:
            return _("Leave no gap between the tiles: a word is one unbroken line.")
    return Play(row, col, is_down, word)


def rack_text(rack: Sequence[str]) -> str:
    """A rack for people: ``A E ? T`` (``?`` is a blank)."""
    return " ".join(rack)


class Board:
    """The tiles on a board of :class:`Squares`, with scoring by ``points``."""

    def __init__(self, squares: Squares, points: Mapping[str, int]) -> None:
        self.squares = squares
        self.size = squares.size
        self.points = dict(points)
        self.tiles: list[list[str]] = [["" for __ in range(self.size)] for __ in range(self.size)]
        self.count = 0

    def copy(self) -> Board:
        """An independent copy (the computer player's look-ahead, missed moves)."""
        other = Board(self.squares, self.points)
        other.tiles = [row[:] for row in self.tiles]
        other.count = self.count
        return other

    def at(self, row: int, col: int) -> str:
        """The tile on a square ("" when empty or off the board)."""
        if 0 <= row < self.size and 0 <= col < self.size:
            return self.tiles[row][col]
        return ""

    def value(self, tile: str) -> int:
        """Points of a board tile (a blank, lower case, scores 0)."""
        return 0 if tile.islower() else self.points.get(tile, 0)

    def evaluate(
        self,
        play: Play,
        rack: Sequence[str] | None,
        check: WordCheck | None,
        *,
        rack_size: int = 7,
        bingo: int = 50,
        dictionary: str = "tournament",
    ) -> Scored | str:
        """Score ``play`` made from ``rack`` (None: any tiles), or give the reason it is illegal."""
        n, word = self.size, play.word
        dr, dc = (1, 0) if play.down else (0, 1)
        where = f"{square_name(play.row, play.col)} {'down' if play.down else 'across'}"
        if len(word) < 2:
            return _(
                "A word needs at least two letters: to add one tile, "
                "name the word it makes in the other direction."
            )
        end_r, end_c = play.row + dr * (len(word) - 1), play.col + dc * (len(word) - 1)
        if end_r >= n or end_c >= n:
            room = (n - play.row) if play.down else (n - play.col)
            return _n(
                "{word} doesn't fit: from {where} there is room for {count} letter.",
                "{word} doesn't fit: from {where} there is room for {count} letters.",
                room,
                word=word.upper(),
                where=where,
            )
        placed: list[tuple[int, int, str]] = []
        for i, ch in enumerate(word):
            r, c = play.row + dr * i, play.col + dc * i
            have = self.tiles[r][c]
            if have:
                if have.upper() != ch.upper():
                    return _(
                        "{square} already holds {letter}, but {word} needs {needed} there.",
                        square=square_name(r, c),
                        letter=have.upper(),
                        word=word.upper(),
                        needed=ch.upper(),
                    )
            else:
                placed.append((r, c, ch))
        if not placed:
            return _("{word} is already on the board: place at least one new tile.", word=word.upper())
        before = self.at(play.row - dr, play.col - dc)
        after = self.at(end_r + dr, end_c + dc)
        if before or after:
            r, c = (play.row - dr, play.col - dc) if before else (end_r + dr, end_c + dc)
            return _(
                "{word} runs into the {letter} at {square}: "
                "write the whole word, including the letters already on the board.",
                word=word.upper(),
                letter=self.tiles[r][c].upper(),
                square=square_name(r, c),
            )
        used = tuple(BLANK if ch.islower() else ch for __, __, ch in placed)
        if rack is not None:
            missing = Counter(used) - Counter(rack)
            if missing:
                need = " ".join(sorted(missing.elements()))
                if BLANK in missing:
                    return _(
                        "You don't have the tiles for that: missing {tiles} "
                        "(a lower-case letter uses a blank). Your rack: {rack}.",
                        tiles=need,
                        rack=rack_text(rack),
                    )
                return _(
                    "You don't have the tiles for that: missing {tiles}. Your rack: {rack}.",
                    tiles=need,
                    rack=rack_text(rack),
                )
        if self.count == 0:
            if not any((r, c) in self.squares.stars for r, c, __ in placed):
                stars = ", ".join(square_name(r, c) for r, c in sorted(self.squares.stars))
                return _("The first word must cover a star ({squares}).", squares=stars)
        elif len(placed) == len(word) and not any(
            self.at(r + a, c + b) for r, c, __ in placed for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))
        ):
            return _("{word} must touch a tile already on the board.", word=word.upper())
        new = {(r, c): ch for r, c, ch in placed}
        words = [self._word_score(play.row, play.col, dr, dc, len(word), new)]
        for r, c, __ in placed:
            # the cross word through each new tile, perpendicular to the play
            sr, sc = r, c
            while self.at(sr - dc, sc - dr):
                sr, sc = sr - dc, sc - dr
            length = 1
            while self.at(sr + dc * length, sc + dr * length) or (sr + dc * length, sc + dr * length) in new:
                length += 1
            if length >= 2:
                words.append(self._word_score(sr, sc, dc, dr, length, new))
        if check is not None:
            bad = [w for w, __ in words if not check(w.lower())]
            if bad:
                shown = ", ".join(dict.fromkeys(bad))
                many = len(set(bad))
                if dictionary == "casual":
                    return _n(
                        "{words} isn't in the casual dictionary.",
                        "{words} aren't in the casual dictionary.",
                        many,
                        words=shown,
                    )
                return _n(
                    "{words} isn't in the tournament dictionary.",
                    "{words} aren't in the tournament dictionary.",
                    many,
                    words=shown,
                )
        extra = bingo if len(placed) == rack_size else 0
        total = sum(s for __, s in words) + extra
        return Scored(play, tuple(placed), tuple(words), extra, total, used)

    def _word_score(
        self, row: int, col: int, dr: int, dc: int, length: int, new: Mapping[tuple[int, int], str]
    ) -> tuple[str, int]:
        letters: list[str] = []
        total, factor = 0, 1
        for i in range(length):
            r, c = row + dr * i, col + dc * i
            tile = self.tiles[r][c] or new[(r, c)]
            value = self.value(tile)
            if (r, c) in new:
                # letter multipliers first, word multipliers on the whole word after
                lm, wm = MULTIPLIERS[self.squares.premium[r][c]]
                value *= lm
                factor *= wm
            total += value
            letters.append(tile.upper())
        return "".join(letters), total * factor

    def place(self, scored: Scored) -> None:
        """Put a scored play's new tiles on the board."""
        for r, c, ch in scored.placed:
            self.tiles[r][c] = ch
        self.count += len(scored.placed)

    # ---------------------------------------------------------------- views

    def grid(self, recent: frozenset[tuple[int, int]] = frozenset()) -> tuple[str, ...]:
        """Compact text rows: column letters, then one row per line.

        A tile is its letter (lower case: a blank); an empty square shows its
        premium: ``=`` TW, ``-`` DW, ``"`` TL, ``'`` DL, ``*`` star, ``.`` plain.
        """
        marks = {"TW": "=", "DW": "-", "TL": '"', "DL": "'"}
        rows = ["   " + " ".join(chr(65 + c) for c in range(self.size))]
        for r in range(self.size):
            cells = []
            for c in range(self.size):
                tile = self.tiles[r][c]
                if tile:
                    cells.append(tile)
                elif (r, c) in self.squares.stars:
                    cells.append("*")
                else:
                    cells.append(marks.get(self.squares.premium[r][c], "."))
            rows.append(f"{r + 1:>2} " + " ".join(cells))
        return tuple(rows)

    def cells(self, recent: frozenset[tuple[int, int]] = frozenset()) -> tuple[tuple[Cell, ...], ...]:
        """The board square by square, for pictures."""
        out = []
        for r in range(self.size):
            row = []
            for c in range(self.size):
                tile = self.tiles[r][c]
                premium = "star" if (r, c) in self.squares.stars else self.squares.premium[r][c]
                row.append(
                    Cell(
                        letter=tile.upper(),
                        points=self.value(tile) if tile else 0,
                        blank=tile.islower(),
                        premium=premium,
                        shade=self.squares.shade[r][c],
                        recent=(r, c) in recent,
                    )
                )
            out.append(tuple(row))
        return tuple(out)
