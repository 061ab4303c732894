"""Every rule of the board game, through the engine."""

from __future__ import annotations

from games.board.core import Board, Play, Scored, parse_move
from games.board.engine import PASSES_TO_END, BoardGame
from games.board.layout import Layout
from games.common.protocol import Action, Seat, Setup
from tests.games.board.helpers import ANN, BOB, give, kinds, new_game, reason, say

TINY = Layout.from_dict(
    {
        "name": "tiny",
        "size": 5,
        "rack": 3,
        "bingo": 20,
        "stars": ["A1"],
        "premiums": {"TL": ["B1"], "DW": ["C1"], "DL": ["A2"]},
        "letters": {
            "A": {"count": 9, "points": 1},
            "B": {"count": 9, "points": 3},
            "C": {"count": 9, "points": 3},
        },
    }
)


def test_letter_multipliers_count_before_word_multipliers_and_the_bingo_after() -> None:
    board = Board(TINY.realise(0), TINY.points)
    scored = board.evaluate(Play(0, 0, False, "ABC"), list("ABC"), None, rack_size=3, bingo=20)
    assert isinstance(scored, Scored)
    # A 1 + B 3 on TL = 9 + C 3 = 13, doubled by C1 (DW) = 26; all 3 tiles: +20
    assert scored.words == (("ABC", 26),) and scored.bingo == 20 and scored.score == 46
    board.place(scored)
    # premiums count only for new tiles: BA down from B1 uses the B already on the TL square
    again = board.evaluate(Play(0, 1, True, "BA"), list("A"), None, rack_size=3, bingo=20)
    assert isinstance(again, Scored) and again.score == 4


def test_a_blank_scores_nothing_even_on_a_bonus_square() -> None:
    board = Board(TINY.realise(0), TINY.points)
    scored = board.evaluate(Play(0, 0, False, "AbC"), ["A", "?", "C"], None, rack_size=3, bingo=20)
    assert isinstance(scored, Scored) and scored.words == (("ABC", 8),)  # (1 + 0 + 3) x2
    assert scored.used == ("A", "?", "C")


def test_the_first_word_covers_a_star_and_reads_across_or_down() -> None:
    game = new_game()
    me = game.current
    give(game, me, "CATSDOG")
    assert "must cover a star (H8, I8, H9, I9)" in reason(say(game, "A1 across CAT"))
    assert "not a direction" in reason(say(game, "H8 up CAT"))
    notes = say(game, "I6 down CAT")  # I6-I8: covers the star on I8
    assert kinds(notes)[0] == "accepted"
    assert game.board.at(7, 8) == "T" and game.current != me


def test_later_words_touch_and_every_cross_word_must_be_a_word() -> None:
    game = new_game({"layout": "classic"})
    a = game.current
    give(game, a, "CATSDOG")
    say(game, "H8 across CAT")
    b = game.current
    give(game, b, "DOGSXQE")
    assert "must touch" in reason(say(game, "A1 across DOG"))
    assert reason(say(game, "H9 across QX")) == "QX, CQ aren't in the tournament dictionary."
    assert reason(say(game, "H7 down XCQ")) == "XCQ isn't in the tournament dictionary."
    ok = say(game, "J8 down TOGS")  # T is on the board (J8), O G S go below
    assert kinds(ok)[0] == "accepted", ok
    assert game.scores[b] > 0


def test_tiles_the_player_does_not_have_and_squares_in_the_way() -> None:
    game = new_game({"layout": "classic"})
    a = game.current
    give(game, a, "CATSDOG")
    assert "missing Z" in reason(say(game, "H8 across ZAG"))
    assert "a lower-case letter uses a blank" in reason(say(game, "H8 across CaT"))
    assert "doesn't fit" in reason(say(game, "M8 across CATDOGS"))
    say(game, "H8 across CAT")
    give(game, game.current, "RATSEON")
    assert "already holds C" in reason(say(game, "H8 down RAT"))
    assert "already on the board" in reason(say(game, "H8 across CAT"))
    assert "at least two letters" in reason(say(game, "H9 across A"))


def test_using_every_tile_on_the_mojo_board_adds_40() -> None:
    game = new_game()
    give(game, game.current, "RETAINS")
    notes = say(game, "H8 across RETAINS")
    assert kinds(notes)[0] == "accepted"
    assert "+40 for using every tile" in notes[0].text


def test_moves_out_of_turn_and_from_strangers_are_refused() -> None:
    game = new_game()
    other = BOB.id if game.current == ANN.id else ANN.id
    assert "turn, not yours" in reason(say(game, "pass", seat=other))
    assert "not playing" in reason(say(game, "pass", seat="zed"))
    assert "empty move" in reason(say(game, "   "))
    assert "couldn't read" in reason(say(game, "H8 sideways"))


def test_swapping_needs_seven_tiles_in_the_bag_and_keeps_the_count() -> None:
    game = new_game()
    me = game.current
    total = game.total_tiles()
    give(game, me, "QXZAEIO")
    assert "can't swap" in reason(say(game, "swap QQ"))
    notes = say(game, "swap QXZ")
    assert kinds(notes)[0] == "accepted" and game.total_tiles() == total
    assert len(game.racks[me]) == 7
    game.bag = game.bag[:6]
    assert "at least 7 tiles in the bag" in reason(say(game, "swap A"))


def test_three_passes_in_a_row_by_one_player_end_the_game_with_adjustments() -> None:
    game = new_game({"layout": "classic"})
    a = game.current
    b = BOB.id if a == ANN.id else ANN.id
    give(game, a, "CATSDOG")
    say(game, "H8 across CAT")  # (3 + 1 + 1) x2 = 10
    say(game, "pass")  # b
    say(game, "pass")  # a: passes are counted per player, consecutively
    say(game, "pass")  # b
    give(game, a, "ZX")
    say(game, "pass")  # a
    give(game, b, "QE")
    notes = say(game, "pass")  # b: third pass in a row
    assert game.finished and "end" in kinds(notes)
    # each player loses the points left on the rack
    assert game.scores[a] == 10 - 18 and game.scores[b] == 0 - 11
    assert game.result().winners == (a,)
    assert PASSES_TO_END == 3


def test_a_play_resets_the_pass_count() -> None:
    game = new_game({"layout": "classic"})
    a = game.current
    give(game, a, "CATSDOG")
    say(game, "pass")  # a
    say(game, "pass")  # b
    say(game, "pass")  # a: two in a row
    say(game, f"swap {game.racks[game.current][0]}")  # b: a swap is not a pass
    say(game, "H8 across CAT")  # a's third turn is a play
    say(game, "pass")  # b
    say(game, "pass")  # a: first pass since the play
    assert not game.finished and game.passes[a] == 1


def test_going_out_takes_the_others_leftover_points() -> None:
    game = new_game({"layout": "classic"})
    a = game.current
    b = BOB.id if a == ANN.id else ANN.id
    give(game, a, "CAT")
    give(game, b, "QZ")
    game.bag.clear()
    notes = say(game, "H8 across CAT")
    assert game.finished
    # CAT = 10; a's rack is empty: +20 from b's Q and Z; b loses 20
    assert game.scores[a] == 30 and game.scores[b] == -20
    assert "gains the others' 20" in notes[-1].text


def test_resigning_forfeits_even_when_ahead() -> None:
    game = new_game()
    a = game.current
    give(game, a, "RETAINS")
    say(game, "H8 across RETAINS")
    notes = game.apply(Action("say", 2.0, seat=a, text="resign"))  # any time, even out of turn
    assert game.finished and "end" in kinds(notes)
    result = game.result()
    assert a not in result.winners and len(result.winners) == 1
    assert "rejected" in kinds(say(game, "pass"))


def test_with_three_players_a_resigned_player_is_out_and_the_rest_play_on() -> None:
    game = new_game(seats=(ANN, BOB, Seat("c", "Cy")))
    total = game.total_tiles()
    quitter = game.current
    game.apply(Action("say", 1.0, seat=quitter, text="resign"))
    assert not game.finished and game.current != quitter
    assert game.total_tiles() == total and not game.racks[quitter]
    assert "out of this game" in reason(say(game, "pass", seat=quitter))
    game.apply(Action("leave", 2.0, seat=game.current))
    assert game.finished and quitter not in game.result().winners


def test_turn_limit_reminders_then_losing_by_timeout() -> None:
    game = new_game()
    me = game.current
    hour = 3600.0
    assert game.next_deadline() == 48 * hour  # 24 h left
    notes = game.apply(Action("tick", 48 * hour))
    assert "24 h left" in notes[0].text
    assert game.next_deadline() == 66 * hour  # 6 h left
    assert "6 h left" in game.apply(Action("tick", 66 * hour))[0].text
    assert game.next_deadline() == 72 * hour
    assert game.apply(Action("tick", 70 * hour)) == []
    notes = game.apply(Action("tick", 72 * hour))
    assert game.finished and me not in game.result().winners
    assert any("ran out of time" in n.text for n in notes)
    assert game.next_deadline() is None


def test_a_move_restarts_the_clock_and_live_mode_is_minutes() -> None:
    game = new_game({"live": True})
    assert game.config.turn_seconds == 180
    say(game, "pass", now=100.0)
    assert game.snapshot().deadline == 280.0
    assert game.next_deadline() == 100.0 + 120.0  # a minute left
    slow = new_game({"turn": 24})
    assert slow.snapshot().deadline == 24 * 3600.0


def test_racks_stay_private() -> None:
    game = BoardGame(Setup({}, (ANN, BOB), 5))
    notes = game.apply(Action("begin", 0.0))
    privates = [n for n in notes if n.kind == "private"]
    assert {n.seat for n in privates} == {ANN.id, BOB.id}
    for seat in (ANN.id, BOB.id):
        rack = " ".join(game.racks[seat])
        assert f"Your rack: {rack}" in game.snapshot(seat).lines
        assert any(rack in n.text for n in privates if n.seat == seat)
    public = game.snapshot(None)
    shown = " ".join([public.title, *public.lines, *public.grid, *(s.detail for s in public.seats)])
    assert "rack" not in shown.lower()
    assert not any(cell.letter for row in public.board for cell in row)
    assert all(n.seat is not None for n in notes if n.kind == "private")
    assert f"Your rack: {' '.join(game.racks[ANN.id])}" not in game.snapshot(BOB.id).lines


def test_parse_move_reads_notation() -> None:
    assert parse_move("h8 ACROSS quiz", 16) == Play(7, 7, False, "quiz")
    assert parse_move("P16 down AB", 16) == Play(15, 15, True, "AB")
    assert isinstance(parse_move("Q1 down AB", 16), str)
    assert isinstance(parse_move("H8 across C4T", 16), str)
    assert parse_move("swap ?qx", 16).tiles == "?QX"  # type: ignore[union-attr]


def test_the_mojo_board_has_one_bonus_per_cluster_in_checkerboard_colours() -> None:
    layout = Layout.named("mojo")
    assert sum(layout.counts.values()) == 120 and layout.counts["?"] == 2
    squares = layout.realise(7)
    assert squares.size == 16 and squares.stars == {(7, 7), (7, 8), (8, 7), (8, 8)}
    for cr in range(0, 16, 2):
        for cc in range(0, 16, 2):
            cells = [(r, c) for r in (cr, cr + 1) for c in (cc, cc + 1)]
            shades = {squares.shade[r][c] for r, c in cells}
            assert shades == {"blue" if (cr // 2 + cc // 2) % 2 == 0 else "pink"}
            bonus = [squares.premium[r][c] for r, c in cells if squares.premium[r][c]]
            assert bonus == ["TL" if shades == {"blue"} else "DW"]
            assert not any(squares.premium[r][c] for r, c in cells if (r, c) in squares.stars)
    assert layout.realise(7) == squares and layout.realise(8) != squares
