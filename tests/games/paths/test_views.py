"""What players see: the text grid, the board square by square, and its picture."""

from __future__ import annotations

import io

from PIL import Image

from adapters.pictures.board import render_board
from games.paths.grid import BLANK
from tests.games.paths.helpers import ANN, engine, give, put, say, skip_first_round


def test_the_table_shows_the_grid_as_text_and_square_by_square() -> None:
    game = engine({"scoring": "letter"})
    skip_first_round(game)
    put(game, {"A1": "c", "B1": "a", "A2": BLANK})
    give(game, ANN, "t")
    say(game, ANN, "C1 T CAT AT")
    snap = game.snapshot(None)
    assert snap.grid[0].split() == ["A", "B", "C", "D", "E", "F"]
    assert snap.grid[1].split() == ["1", "C", "A", "T", ".", ".", "."]
    assert snap.grid[2].split() == ["2", "#", ".", ".", ".", ".", "."]
    top = snap.board[0]
    assert [c.letter for c in top[:4]] == ["C", "A", "T", ""]
    assert top[2].recent and not top[0].recent and top[0].points == 1  # a point a letter
    blank = snap.board[1][0]
    assert blank.blank and blank.letter.strip() == ""
    assert any("Last move: Ann placed T on C1: CAT, AT" in line for line in snap.lines)
    assert [s.score for s in snap.seats] == [5, 0]


def test_word_scoring_tiles_show_no_points_and_the_picture_draws() -> None:
    game = engine()
    put(game, {"B2": "o", "C2": "x"})
    snap = game.snapshot(None)
    assert snap.board[1][1].points == 0
    picture = Image.open(io.BytesIO(render_board(snap.board, title=snap.title)))
    assert picture.format == "PNG" and picture.width > 6 * 30
