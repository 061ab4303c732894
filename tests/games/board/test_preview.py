"""The board's preview: tiles placed on a page become the move a player would type, scored
exactly as the move itself would be, and nothing changes until it is played."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.board.core import Board, Play, play_from_tiles
from games.board.engine import Preview
from games.board.layout import Layout
from tests.games.board.helpers import give, new_game, say

TINY = Layout.from_dict(
    {
        "name": "tiny",
        "size": 5,
        "rack": 3,
        "bingo": 20,
        "stars": ["A1"],
        "premiums": {"TL": ["B1"], "DW": ["C1"], "DL": ["A2"]},
        "letters": {"A": {"count": 9, "points": 1}, "B": {"count": 9, "points": 3}},
    }
)


def _board() -> Board:
    return Board(TINY.realise(0), TINY.points)


def test_tiles_in_a_row_are_the_word_across_from_the_first() -> None:
    assert play_from_tiles(_board(), [(0, 1, "B"), (0, 0, "A")]) == Play(0, 0, False, "AB")


def test_tiles_in_a_column_are_the_word_down() -> None:
    assert play_from_tiles(_board(), [(1, 2, "A"), (0, 2, "B")]) == Play(0, 2, True, "BA")


def test_tiles_already_on_the_board_join_the_word_on_both_sides() -> None:
    board = _board()
    board.tiles[0][1] = "A"
    board.tiles[0][3] = "b"  # a blank on the board stays a blank in the move
    board.count = 2
    assert play_from_tiles(board, [(0, 2, "B"), (0, 0, "B")]) == Play(0, 0, False, "BABb")


def test_one_tile_goes_the_way_it_makes_a_word() -> None:
    board = _board()
    board.tiles[1][1] = "A"
    board.count = 1
    assert play_from_tiles(board, [(2, 1, "B")]) == Play(1, 1, True, "AB")
    assert play_from_tiles(board, [(1, 2, "B")]) == Play(1, 1, False, "AB")


def test_tiles_that_make_no_single_move_say_why() -> None:
    board = _board()
    assert play_from_tiles(board, []) == "Place at least one tile on the board."
    assert "one row or one column" in str(play_from_tiles(board, [(0, 0, "A"), (1, 1, "B")]))
    assert "no gap" in str(play_from_tiles(board, [(0, 0, "A"), (0, 2, "B")]))
    assert "off the board" in str(play_from_tiles(board, [(0, 5, "A")]))
    assert "Two tiles" in str(play_from_tiles(board, [(0, 0, "A"), (0, 0, "B")]))
    board.tiles[0][0] = "A"
    assert "already holds A" in str(play_from_tiles(board, [(0, 0, "B")]))


def test_the_preview_is_the_score_the_move_then_makes_and_changes_nothing() -> None:
    game = new_game()
    seat = game.current
    give(game, seat, "QUIZSAT")
    before = ([row[:] for row in game.board.tiles], list(game.racks[seat]), dict(game.scores))
    preview = game.preview(seat, [(7, 7 + i, ch) for i, ch in enumerate("QUIZ")])
    assert isinstance(preview, Preview)
    assert preview.move == "H8 across QUIZ"
    assert ([row[:] for row in game.board.tiles], list(game.racks[seat]), dict(game.scores)) == before
    say(game, preview.move, seat)
    assert game.scores[seat] == preview.score and preview.words[0][0] == "QUIZ"


def test_the_preview_refuses_with_the_move_s_own_reasons() -> None:
    game = new_game()
    seat = game.current
    give(game, seat, "QUIZSAT")
    missing = game.preview(seat, [(7, 7, "X"), (7, 8, "U")])
    assert isinstance(missing, Preview) and "missing" in missing.reason and missing.move == "H8 across XU"
    assert missing.score == 0 and missing.words == ()
    star = game.preview(seat, [(0, 0, "Q"), (0, 1, "I")])
    assert isinstance(star, Preview) and "star" in star.reason
    word = game.preview(seat, [(7, 7, "Z"), (7, 8, "Q")])
    assert isinstance(word, Preview) and "isn't in the" in word.reason
    # the reason is the game's own, word for word
    refused = say(game, word.move, seat)
    assert refused[0].kind == "rejected" and refused[0].text == word.reason
    assert game.preview(seat, [(7, 7, "Z"), (8, 8, "Q")]) == "Place the tiles in one row or one column."
    assert game.preview("nobody", [(7, 7, "Q")]) == "You're not playing in this game."


def test_a_rack_is_its_own_seat_s_only_with_points() -> None:
    game = new_game()
    seat = game.current
    give(game, seat, "QUIZSA?")
    assert game.rack_of(seat) == (("Q", 10), ("U", 1), ("I", 1), ("Z", 10), ("S", 1), ("A", 1), ("?", 0))
    assert game.rack_of("nobody") == ()


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4), st.sampled_from("ABab")), max_size=6))
def test_any_placed_tiles_give_a_play_over_exactly_them_or_a_reason(
    tiles: list[tuple[int, int, str]],
) -> None:
    board = _board()
    board.tiles[2][2] = "A"
    board.count = 1
    found = play_from_tiles(board, tiles)
    if isinstance(found, str):
        return
    dr, dc = (1, 0) if found.down else (0, 1)
    squares = {(found.row + dr * i, found.col + dc * i) for i in range(len(found.word))}
    assert {(r, c) for r, c, _ in tiles} <= squares
    for i, ch in enumerate(found.word):
        r, c = found.row + dr * i, found.col + dc * i
        placed = {(pr, pc): t for pr, pc, t in tiles}
        assert ch == (placed.get((r, c)) or board.at(r, c))
