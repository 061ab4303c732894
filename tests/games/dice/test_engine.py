"""Every rule of the letter-dice engine, on scripted rolls and a tiny word list."""

from __future__ import annotations

import re

from games.common.protocol import Action, Seat
from games.lexicon import glosses
from tests.games.dice.helpers import kinds, new_game, say, script, texts

FIRST = "oestnocdbz"  # die by die: O E S T N O C D B Z


def test_the_longest_first_name_goes_first_and_all_ten_dice_are_rolled() -> None:
    engine, notices = new_game(first_roll=FIRST)
    assert "Bobby goes first" in texts(notices)
    assert engine.roller() == "bob" and len(engine.rolled) == 10
    assert "".join(f.letter for _, f in engine.rolled) == FIRST
    assert say(engine, "ann", "stone")[0].text == "It's Bobby's turn, not yours."


def test_crossing_words_and_which_dice_are_picked_up() -> None:
    engine, _ = new_game(first_roll=FIRST)
    script(engine, "acihz", dice=[5, 6, 7, 8, 9])
    notices = say(engine, "bob", "STONE")
    assert kinds(notices)[0] == "accepted" and "5 points" in notices[0].text
    assert engine.dice_on_mat() == {0, 1, 2, 3, 4}  # the first O die is used
    assert [d for d, _ in engine.rolled] == [5, 6, 7, 8, 9]  # only the dice not in STONE
    # COAT would take both O and T from STONE
    assert "only one letter comes from STONE" in say(engine, "ann", "coat")[0].text
    assert "must cross STONE" in say(engine, "ann", "ah")[0].text
    notices = say(engine, "ann", "cat")
    assert notices[0].kind == "accepted" and "crossing at T" in notices[0].text
    assert engine.scores == [5, 5]  # C3 A1 and STONE's T1
    # Bobby now rolls every die but CAT's: STONE's other dice are picked up
    assert engine.dice_on_mat() == {3, 5, 6}
    assert [d for d, _ in engine.rolled] == [0, 1, 2, 4, 7, 8, 9]


def test_the_mat_shows_the_word_to_cross_and_at_the_end_the_crossing() -> None:
    engine, _ = new_game(first_roll=FIRST, words=1)
    script(engine, "acihz", dice=[5, 6, 7, 8, 9])
    say(engine, "bob", "STONE")
    assert engine.snapshot().grid == ("S T O N E",)
    say(engine, "ann", "cat")  # the last word: play stops, both words are shown
    snap = engine.snapshot()
    assert snap.grid == ("· C", "· A", "S T O N E")
    letters = [[c.letter for c in row] for row in snap.board]
    assert letters == [["", "C", "", "", ""], ["", "A", "", "", ""], ["S", "T", "O", "N", "E"]]
    assert snap.board[0][1].points == 3 and not snap.board_labels
    assert snap.board[0][1].recent and snap.board[1][1].recent and snap.board[2][1].recent
    assert not snap.board[2][0].recent  # STONE is the older word


def test_during_a_turn_the_word_crossed_before_is_picked_up() -> None:
    engine, _ = new_game(first_roll=FIRST)
    script(engine, "acihz", dice=[5, 6, 7, 8, 9])
    say(engine, "bob", "STONE")
    say(engine, "ann", "cat")
    snap = engine.snapshot()
    assert snap.grid == ("C", "A", "T")  # STONE's other dice are in Bobby's roll
    assert len(snap.cards) == 7 and [len(row) for row in snap.board] == [1, 1, 1]


def test_five_words_each_then_the_most_points_wins_in_strict_mode() -> None:
    engine, _ = new_game(first_roll=FIRST, strict=True, words=1)
    script(engine, "acihz", dice=[5, 6, 7, 8, 9])
    say(engine, "bob", "stone")
    notices = say(engine, "ann", "cat")
    assert engine.finished and kinds(notices)[-1] == "end"
    assert engine.result().winners == ("bob", "ann")  # 5 all: a tie
    assert engine.total == 2


def test_strict_mode_refuses_an_invalid_word_at_once() -> None:
    engine, _ = new_game(first_roll=FIRST, strict=True)
    notices = say(engine, "bob", "stoned")
    assert kinds(notices) == ["rejected"] and "isn't in the dictionary" in notices[0].text
    assert engine.roller() == "bob" and engine.scores == [0, 0]
    say(engine, "bob", "stone")
    assert "strict" in say(engine, "ann", "challenge")[0].text


def test_a_failed_challenge_doubles_the_score() -> None:
    engine, _ = new_game(first_roll=FIRST)
    say(engine, "bob", "stone")
    assert "own side" in say(engine, "bob", "challenge")[0].text
    notices = say(engine, "ann", "challenge")
    assert notices[0].kind == "accepted" and "doubles to 10" in notices[0].text
    assert engine.scores == [10, 0] and engine.roller() == "ann"
    assert "no word to challenge" in say(engine, "ann", "challenge")[0].text


def test_a_successful_challenge_scores_zero_and_passes_the_turn() -> None:
    engine, _ = new_game(first_roll=FIRST)
    say(engine, "bob", "stoned")  # not in the word list, but it fits the dice
    assert engine.scores == [7, 0]
    notices = say(engine, "ann", "challenge")
    assert "scores 0 and comes off the mat" in notices[0].text
    assert engine.scores == [0, 0] and engine.mat == ()
    assert engine.roller() == "ann" and len(engine.rolled) == 10  # a fresh roll of every die
    assert engine.history[-1].status == "challenged-off"


def test_playing_a_word_lets_the_last_one_stand() -> None:
    engine, _ = new_game(first_roll=FIRST)
    script(engine, "acihz", dice=[5, 6, 7, 8, 9])
    say(engine, "bob", "stoned")
    say(engine, "ann", "cat")
    assert engine.pending is not None and engine.pending.seat == "ann"
    assert "of the other side" in say(engine, "ann", "accept")[0].text
    assert say(engine, "bob", "accept")[0].kind == "accepted"
    assert engine.pending is None and engine.scores == [7, 5]


def test_the_last_word_can_be_challenged_until_the_window_closes() -> None:
    engine, _ = new_game(first_roll=FIRST, words=1, window=60)
    script(engine, "acihz", dice=[5, 6, 7, 8, 9])
    say(engine, "bob", "stone")
    notices = say(engine, "ann", "cat", now=5.0)
    assert engine.phase == "last-call" and engine.next_deadline() == 65.0
    assert "challenge" in texts(notices)
    assert "No more words" in say(engine, "bob", "zest")[0].text
    assert engine.apply(Action("tick", 30.0)) == []
    notices = engine.apply(Action("tick", 65.0))
    assert engine.finished and "Nobody challenged" in texts(notices)


def test_the_last_word_challenged_off_ends_the_game() -> None:
    engine, _ = new_game(first_roll=FIRST, words=1)
    script(engine, "acihz", dice=[5, 6, 7, 8, 9])
    say(engine, "bob", "stone")
    say(engine, "ann", "chat")  # fits the dice (T from STONE) but is not in the word list
    assert engine.phase == "last-call" and engine.scores == [5, 9]
    notices = say(engine, "bob", "challenge")
    assert engine.finished and "comes off the mat" in texts(notices)
    assert engine.scores == [5, 0] and engine.result().winners == ("bob",)


def test_no_word_possible_is_an_automatic_loss_in_strict_mode() -> None:
    engine, _ = new_game(first_roll=FIRST, strict=True)
    script(engine, "hmpgf", dice=[5, 6, 7, 8, 9])
    notices = say(engine, "bob", "stone")
    assert engine.finished and engine.loser == 1
    assert "No word can be made from H4, M3, P3, G2, F4 crossing STONE" in texts(notices)
    assert "Bobby wins" in texts(notices)
    assert engine.result().winners == ("bob",)


def test_with_no_word_possible_a_player_may_still_challenge() -> None:
    engine, _ = new_game(first_roll=FIRST)
    script(engine, "hmgf", dice=[5, 6, 8, 9])
    notices = say(engine, "bob", "stoned")
    assert not engine.finished and engine.stuck
    assert "No word can be made" in texts(notices)
    script(engine, FIRST, dice=range(10))
    notices = say(engine, "ann", "challenge")  # STONED is no word: a fresh roll of every die
    assert not engine.finished and not engine.stuck and len(engine.rolled) == 10


def test_with_no_word_possible_a_failed_challenge_loses() -> None:
    engine, _ = new_game(first_roll=FIRST)
    script(engine, "hmpgf", dice=[5, 6, 7, 8, 9])
    say(engine, "bob", "stone")
    notices = say(engine, "ann", "challenge")
    assert engine.finished and engine.loser == 1 and engine.scores == [10, 0]
    assert "can't play" in texts(notices)


def test_conceding_shows_a_word_that_was_possible() -> None:
    engine, _ = new_game(first_roll=FIRST)
    notices = say(engine, "bob", "concede")
    assert engine.finished and engine.result().winners == ("ann",)
    assert "would have scored" in texts(notices)
    # with the word's meaning, where one is known: "(STONE 3 2 would have scored 8 points; stone: …)"
    found = re.search(r"\((\S+) .*would have scored \d+ points?", texts(notices))
    assert found is not None, texts(notices)
    word = found.group(1).lower()
    meaning = glosses.gloss(word)
    assert (f"; {word}: {meaning}.)" if meaning else " points.)") in texts(notices)


def test_turn_limit_reminder_and_missed_turn() -> None:
    engine, _ = new_game(first_roll=FIRST, turn=10)
    assert engine.next_deadline() == 450.0  # a reminder a quarter of the turn before the end
    notices = engine.apply(Action("tick", 450.0))
    assert "left to play" in texts(notices) and engine.next_deadline() == 600.0
    notices = engine.apply(Action("tick", 600.0))
    assert "scores 0" in texts(notices) and engine.roller() == "ann"
    assert engine.turn_started == 600.0 and engine.next_deadline() == 1050.0
    assert engine.history[-1].status == "missed"


def test_live_mode_has_two_minute_turns() -> None:
    engine, _ = new_game(first_roll=FIRST, live=True)
    assert engine.cfg.turn == 120 and engine.cfg.window == 30
    assert engine.next_deadline() == 90.0


def test_leaving_forfeits_and_bad_input_is_refused_kindly() -> None:
    engine, _ = new_game(first_roll=FIRST)
    assert "can't read" in say(engine, "bob", "st0ne")[0].text
    assert "not playing" in say(engine, "zed", "stone")[0].text
    notices = engine.apply(Action("leave", 2.0, seat="bob"))
    assert engine.finished and "left the game" in texts(notices)
    assert engine.result().winners == ("ann",)
    assert say(engine, "ann", "stone")[0].text == "The game is over."


def test_two_teams_take_turns_rolling() -> None:
    seats = [Seat("ann", "Ann"), Seat("bob", "Bobby"), Seat("cy", "Cy"), Seat("dee", "Dee")]
    engine, _ = new_game(seats, first_roll=FIRST)
    assert engine.members == [["bob", "dee"], ["ann", "cy"]]
    assert engine.roller() == "bob"
    script(engine, "acihz", dice=[5, 6, 7, 8, 9])
    assert say(engine, "dee", "stone")[0].kind == "accepted"  # a teammate may type the word
    assert engine.roller() == "ann"
    assert say(engine, "cy", "challenge")[0].kind == "accepted"
    say(engine, "cy", "cat")
    assert engine.roller() == "dee"
    result = engine.result()
    assert result.scores == {"bob": 10, "dee": 10, "ann": 5, "cy": 5}
    assert all("team" in s.detail for s in engine.snapshot().seats)
    engine.apply(Action("leave", 3.0, seat="dee"))
    assert not engine.finished and engine.roller() == "bob"


def test_the_public_view_hides_nothing_and_spoils_nothing() -> None:
    engine, _ = new_game(first_roll=FIRST)
    public = engine.snapshot(None)
    mine = engine.snapshot("bob")
    assert public.cards == mine.cards and public.grid == mine.grid
    assert set(public.lines) <= set(mine.lines)
    shown = " ".join(public.lines).lower()
    for word in ("notes", "onset", "zest", "cost", "tones"):
        assert word not in shown
