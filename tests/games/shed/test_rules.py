"""The rulebook, rule by rule, on rigged hands with the real lexicon."""

from __future__ import annotations

from games.common.options import parse_options
from games.common.protocol import Action
from games.shed.engine import ShedGame
from games.shed.options import OPTIONS, ShedConfig
from tests.games.shed.helpers import ANN, BOB, CY, accepted, game, hand, refused, rig, say, words


def test_a_word_from_the_hand_leaves_the_hand_and_the_turn_passes() -> None:
    g = game()
    rig(g, {"a": "w h o x y", "b": "c a t"})
    notes = say(g, "a", "WHO")
    assert "Ann plays WHO" in accepted(notes)
    assert hand(g, "a") == "x y" and words(g) == ["who"]
    assert g.current == "b"
    assert "a" in g.round.opened


def test_words_need_three_letters_and_must_be_words() -> None:
    g = game()
    rig(g, {"a": "a t x q z", "b": "c a t"})
    assert "at least 3 letters" in refused(say(g, "a", "at"))
    assert "ZQX" in refused(say(g, "a", "zqx"))
    assert g.current == "a" and hand(g, "a") == "a q t x z"


def test_you_can_only_play_the_letters_you_hold() -> None:
    g = game()
    rig(g, {"a": "c a t", "b": "d o g"})
    assert "You don't have S" in refused(say(g, "a", "cats"))


def test_only_the_player_whose_turn_it_is_may_move() -> None:
    g = game()
    rig(g, {"a": "c a t", "b": "d o g"})
    assert "not your turn" in refused(say(g, "b", "dog"))
    assert "not playing" in refused(say(g, "z", "dog"))


def test_adding_letters_to_a_table_word_with_rearranging() -> None:
    g = game()
    rig(g, {"a": "h x", "b": "e"}, table=["sock"], opened=["a"])
    assert "turns SOCK into SHOCK" in accepted(say(g, "a", "SOCK+H -> SHOCK"))
    assert words(g) == ["shock"] and hand(g, "a") == "x"
    # the letters the hand adds can be left out, and any table word works (even an opponent's)
    g2 = game()
    rig(g2, {"a": "e r x", "b": "e"}, table=["tab"], opened=["a"])
    accepted(say(g2, "a", "TAB -> BEAT"))  # rearranged: B moves
    assert words(g2) == ["beat"] and hand(g2, "a") == "r x"


def test_taking_letters_to_make_a_new_word_leaves_a_word_behind() -> None:
    g = game()
    rig(g, {"a": "w o x", "b": "e"}, table=["shock"], opened=["a"])
    notes = say(g, "a", "SHOCK-H+WO -> WHO SOCK")
    assert "turns SHOCK into" in accepted(notes)
    assert sorted(words(g)) == ["sock", "who"] and hand(g, "a") == "x"
    assert g.round.table[0].text == "sock", "the word left behind keeps its place"


def test_a_taken_letter_must_be_played_in_the_same_move() -> None:
    g = game()
    rig(g, {"a": "w o x", "b": "e"}, table=["shock"], opened=["a"])
    assert "must be played in the same move" in refused(say(g, "a", "SHOCK -> SOCK"))


def test_what_is_left_behind_must_be_a_word_of_three_letters() -> None:
    g = game()
    rig(g, {"a": "t e x", "b": "e"}, table=["cat", "ion"], opened=["a"])
    # CAT and ION become one word: one of them leaves nothing behind
    assert "leave a word behind" in refused(say(g, "a", "CAT ION -> CATION"))
    g2 = game()
    rig(g2, {"a": "w h x", "b": "e"}, table=["shock"], opened=["a"])
    reason = refused(say(g2, "a", "SHOCK-O+WH -> WHO SHCK"))
    assert "SHCK" in reason
    g3 = game()
    rig(g3, {"a": "o x", "b": "e"}, table=["who"], opened=["a"])
    assert "at least 3 letters" in refused(say(g3, "a", "WHO-W+O -> WO OHO"))


def test_letters_may_move_between_table_words() -> None:
    g = game()
    rig(g, {"a": "x", "b": "e"}, table=["cat", "shock"], opened=["a"])
    accepted(say(g, "a", "CAT SHOCK -> CHAT SOCK"))
    assert sorted(words(g)) == ["chat", "sock"]
    rig(g, {"a": "x", "b": "e"}, table=["cat", "shock"], opened=["a"])
    g.current = "a"
    accepted(say(g, "a", "#2-H #1 -> SOCK CHAT"))


def test_a_word_of_your_own_comes_before_touching_the_table() -> None:
    g = game()
    rig(g, {"a": "h c a t x", "b": "e"}, table=["sock"])
    assert "made a word of your own" in refused(say(g, "a", "SOCK+H -> SHOCK"))
    # …in the same turn is fine: the line is played in order
    accepted(say(g, "a", "CAT; SOCK+H -> SHOCK"))
    assert sorted(words(g)) == ["cat", "shock"] and hand(g, "a") == "x"


def test_opening_every_turn_option() -> None:
    g = game(options={"opening": "turn"})
    rig(g, {"a": "h x", "b": "e"}, table=["sock"], opened=["a"])
    assert "this turn" in refused(say(g, "a", "SOCK+H -> SHOCK"))


def test_several_moves_in_one_turn_are_all_or_nothing() -> None:
    g = game()
    rig(g, {"a": "c a t d o g q", "b": "e"})
    reason = refused(say(g, "a", "CAT; DOG; QQQ"))
    assert reason.startswith("Move 3")
    assert hand(g, "a") == "a c d g o q t" and words(g) == []
    accepted(say(g, "a", "CAT DOG"))
    assert hand(g, "a") == "q" and sorted(words(g)) == ["cat", "dog"]


def test_drawing_when_you_cannot_play() -> None:
    g = game()
    rig(g, {"a": "q x z", "b": "e"}, deck="m n")
    accepted(say(g, "a", "draw"))
    assert hand(g, "a") == "n q x z" and g.current == "b"
    notes = say(g, "b", "pass")
    assert "Bob draws a card" in accepted(notes) and hand(g, "b") == "e m"
    assert [n.seat for n in notes if n.kind == "private"] == ["b"]


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    g = game()
    cards = rig(g, {"a": "q x z", "b": "e"}, deck="")
    g.round.discard = cards.take("m")
    accepted(say(g, "a", "draw"))
    assert hand(g, "a") == "m q x z" and not g.round.discard


def test_jokers_fill_missing_letters_but_not_in_the_first_word() -> None:
    g = game()
    rig(g, {"a": "w h * x", "b": "e"})
    assert "joker can't be used for your first word" in refused(say(g, "a", "WHO"))
    g.round.opened.add("a")
    accepted(say(g, "a", "WHO"))
    (word,) = g.round.table
    assert word.shown == "WHo" and hand(g, "a") == "x"


def test_a_marked_joker_plays_a_letter_you_hold() -> None:
    g = game()
    rig(g, {"a": "w h o * x", "b": "e"}, opened=["a"])
    accepted(say(g, "a", "W*HO"))
    assert g.round.table[0].shown == "WhO" and hand(g, "a") == "h x"


def test_a_joker_may_be_your_last_card() -> None:
    g = game()
    rig(g, {"a": "w h *", "b": "e"}, opened=["a"])
    notes = say(g, "a", "WHO")
    assert any(n.kind == "end" for n in notes)
    assert g.finished and g.result().winners == ("a",)


def test_a_joker_taken_from_the_table_must_be_played_again_in_the_same_move() -> None:
    g = game()
    rig(g, {"a": "o x", "b": "e"}, table=["sh*ock"], opened=["a"])  # the joker plays O
    assert "no place for every joker" in refused(say(g, "a", "SHOCK+O -> SHOCK"))
    g2 = game()
    rig(g2, {"a": "o x", "b": "e"}, table=["sh*ock", "cat"], opened=["a"])
    accepted(say(g2, "a", "SHOCK CAT +O -> SHOCK COAT"))
    assert sorted(tw.text for tw in g2.round.table) == ["coat", "shock"]
    assert hand(g2, "a") == "x", "the joker never goes back to a hand"
    jokers = [c for tw in g2.round.table for c, _ in tw.cards if c.kind == "joker"]
    assert len(jokers) == 1


def test_a_table_joker_can_change_its_letter() -> None:
    g = game()
    rig(g, {"a": "s x", "b": "e"}, table=["c*at"], opened=["a"])  # the joker plays A
    accepted(say(g, "a", "CAT+S -> CAST"))
    assert g.round.table[0].text == "cast"


def test_an_action_card_is_a_whole_turn() -> None:
    g = game(seats=(ANN, BOB, CY))
    assert g.config.actions == "alone"
    rig(g, {"a": "c a t !skip x", "b": "e", "c": "e"}, opened=["a"])
    for line in ("CAT; skip Bob", "skip Bob; CAT", "draw; skip Bob"):
        assert "whole turn" in refused(say(g, "a", line)), line
    assert hand(g, "a") == "!skip a c t x" and not words(g) and g.current == "a"
    notes = say(g, "a", "skip Bob")
    assert "plays Skip" in accepted(notes)
    assert hand(g, "a") == "a c t x" and not words(g)
    assert g.current == "c", "the action card ended Ann's turn and Bob skips: Cy plays next"
    assert not g.round.discard and [c.action for c in g.round.out] == ["skip"], "out of the game"


def test_actions_last_lets_an_action_card_end_a_turn_of_words() -> None:
    g = game(seats=(ANN, BOB, CY), options={"actions": "last"})
    rig(g, {"a": "c a t !skip x", "b": "e", "c": "e"}, opened=["a"])
    assert "play it last" in refused(say(g, "a", "skip Bob; CAT"))
    accepted(say(g, "a", "CAT; skip Bob"))
    assert g.current == "c", "Bob skips: Cy plays next"
    assert not g.round.discard and [c.action for c in g.round.out] == ["skip"], "out of the game"


def test_the_actions_option_reads_its_values_and_old_records_keep_last() -> None:
    assert parse_options(OPTIONS, ())["actions"] == "alone"
    assert parse_options(OPTIONS, ["action=lenient"])["actions"] == "last"
    assert ShedConfig.from_options({}).actions == "alone"
    # a game recorded before the option existed (every other option, not this one) replays as it was played
    old = {k: v for k, v in parse_options(OPTIONS, ()).items() if k != "actions"}
    assert ShedConfig.from_options(old).actions == "last"


def test_action_cards_cannot_begin_or_end() -> None:
    g = game()
    rig(g, {"a": "!skip x", "b": "e"})
    assert "begin with an action card" in refused(say(g, "a", "skip"))
    g.round.opened.add("a")
    g.round.hands["a"] = [c for c in g.round.hands["a"] if c.kind == "action"]
    assert "can't end with an action card" in refused(say(g, "a", "skip"))


def test_skip_makes_the_opponent_miss_their_next_turn() -> None:
    g = game()
    rig(g, {"a": "c a t !skip x", "b": "e"}, opened=["a"])
    notes = say(g, "a", "skip")  # the only opponent needs no name
    assert any("Bob skips this turn" in n.text for n in notes)
    assert g.current == "a"


def test_deck_trade_swaps_a_card_for_the_top_of_the_deck() -> None:
    g = game()
    rig(g, {"a": "q x !deck-trade", "b": "e"}, deck="m", opened=["a"])
    accepted(say(g, "a", "trade Q"))
    assert hand(g, "a") == "m x"
    assert [c.letter for c in g.round.discard] == ["q"], "the traded-off card goes to the discard pile"
    assert [c.action for c in g.round.out] == ["deck-trade"], "the played action card is out of the game"
    assert g.current == "b"


def test_trade_gives_a_card_and_takes_one_blindly() -> None:
    g = game()
    rig(g, {"a": "q x !trade", "b": "m"}, opened=["a"])
    accepted(say(g, "a", "trade Q bob"))
    assert hand(g, "a") == "m x" and hand(g, "b") == "q"


def test_swap_hands() -> None:
    g = game(seats=(ANN, BOB, CY))
    rig(g, {"a": "q x !swap-hands", "b": "e", "c": "m n o"}, opened=["a"])
    notes = say(g, "a", "swap 2")
    assert "swaps hands with Bob" in accepted(notes)
    assert hand(g, "a") == "e" and hand(g, "b") == "q x"
    privates = {n.seat for n in notes if n.kind == "private"}
    assert privates == {"a", "b"}


def test_draw_two_and_all_draw_two() -> None:
    g = game(seats=(ANN, BOB, CY))
    rig(g, {"a": "q x !draw-two !all-draw-two", "b": "e", "c": "e"}, deck="m m n n o o", opened=["a"])
    assert "could be" not in refused(say(g, "a", "+2"))  # two opponents: say which
    accepted(say(g, "a", "+2 cy"))
    assert len(g.round.hands["c"]) == 3 and len(g.round.hands["b"]) == 1
    g.current = "a"
    accepted(say(g, "a", "+2 all"))
    assert len(g.round.hands["c"]) == 5 and len(g.round.hands["b"]) == 3


def test_targets_are_checked() -> None:
    g = game(seats=(ANN, BOB, CY))
    rig(g, {"a": "q x !skip", "b": "e", "c": "e"}, opened=["a"])
    assert "Nobody here is called" in refused(say(g, "a", "skip zed"))
    assert "not at yourself" in refused(say(g, "a", "skip ann"))
    assert "don't have a Draw Two" in refused(say(g, "a", "+2 bob"))


def test_the_first_to_shed_every_card_wins() -> None:
    g = game(seats=(ANN, BOB, CY))
    rig(g, {"a": "c a t", "b": "d o g s", "c": "e"})
    notes = say(g, "a", "cat")
    assert [n.kind for n in notes][-1] == "end"
    result = g.result()
    assert result.winners == ("a",) and result.scores == {"a": 5, "b": 0, "c": 0}
    assert "The game is over" in refused(say(g, "b", "dog"))


def test_counting_points_over_several_rounds() -> None:
    g = game(options={"rounds": 2})
    rig(g, {"a": "c a t", "b": "d o g s"})
    notes = say(g, "a", "cat")
    assert not g.finished and g.round_no == 2
    assert any("Round 2 of 2" in n.text for n in notes)
    assert g.scores == {"a": 4, "b": 0}
    assert len(g.round.hands["a"]) == 7 and g.current == "b", "the next player starts round 2"
    rig(g, {"a": "x y", "b": "d o g"})
    g.current = "b"
    say(g, "b", "dog", now=5.0)
    assert g.finished and g.scores == {"a": 4, "b": 2}
    assert g.result().winners == ("a",)


def test_a_missed_turn_draws_a_card_and_the_deadline_comes_from_action_times() -> None:
    g = game()
    rig(g, {"a": "q x", "b": "e"}, deck="m n")
    assert g.next_deadline() == 120.0
    assert g.apply(Action("tick", 119.0)) == []
    notes = g.apply(Action("tick", 120.5))
    assert any(n.text == "Time's up! Ann draws a card." for n in notes)
    assert hand(g, "a") == "n q x" and g.current == "b"
    assert g.next_deadline() == 240.5


def test_slow_pace_and_own_minutes() -> None:
    assert game(options={"pace": "slow"}).next_deadline() == 86_400.0
    assert game(options={"minutes": 5}).next_deadline() == 300.0


def test_nobody_able_to_play_with_nothing_to_draw_ends_the_round() -> None:
    g = game()
    rig(g, {"a": "q x", "b": "z z z"}, deck="")
    say(g, "a", "draw")
    notes = say(g, "b", "draw")
    assert g.finished and g.result().winners == ("a",)
    assert any("nobody can play" in n.text for n in notes)


def test_leaving_discards_the_hand_and_two_players_end_the_game() -> None:
    g = game(seats=(ANN, BOB, CY))
    rig(g, {"a": "q x", "b": "e", "c": "m n o"})
    total = len(g.round.all_cards())
    g.apply(Action("leave", 2.0, seat="a"))
    assert g.current == "b" and "a" not in g.round.hands and len(g.round.all_cards()) == total
    g.apply(Action("leave", 3.0, seat="c"))
    assert g.finished and g.result().winners == ("b",)


def test_verbs_option_refuses_words_that_are_only_verbs() -> None:
    g = game(options={"verbs": False})
    rig(g, {"a": "e a t r u n x", "b": "e"})
    assert "only a verb" in refused(say(g, "a", "eat"))
    accepted(say(g, "a", "run"))  # a noun too


def test_word_rules_and_easy_mode() -> None:
    g = game()
    rig(g, {"a": "p a r i s x", "b": "e"})
    g2 = game(options={"dictionary": "casual"})
    rig(g2, {"a": "p a r i s x", "b": "e"})
    assert "proper noun" in refused(say(g2, "a", "paris"))
    g3 = game(options={"dictionary": "casual", "easy": True})
    rig(g3, {"a": "p a r i s x", "b": "e"})
    accepted(say(g3, "a", "paris"))


def test_hands_never_reach_the_public() -> None:
    g = game(seats=(ANN, BOB, CY))
    hands = {seat: f"Your hand: {_hand_text(g, seat)}" for seat in ("a", "b", "c")}
    public = g.snapshot(None)
    assert not public.cards
    flat = "\n".join([public.title, *public.lines])
    for seat in ("a", "b", "c"):
        assert hands[seat] not in flat
        mine = g.snapshot(seat)
        assert any(line.startswith("Your hand:") for line in mine.lines)
        assert len(mine.cards) == sum(1 for c in g.round.hands[seat] if c.kind != "action")


def _hand_text(g: ShedGame, seat: str) -> str:
    from games.shed.cards import hand_text

    return hand_text(g.round.hands[seat])


def test_leaving_on_your_turn_passes_it_on_even_past_skips() -> None:
    dan = ANN.__class__("d", "Dan")
    g = game(seats=(ANN, BOB, CY, dan))
    rig(g, {"a": "q x", "b": "e", "c": "m n o", "d": "p"})
    g.round.skips["b"] = 1
    notes = g.apply(Action("leave", 2.0, seat="a"))
    assert g.current == "c" and g.round.skips["b"] == 0
    assert any("Bob skips" in n.text for n in notes)
    assert g.next_deadline() == 122.0


def test_the_table_is_drawn_word_by_word_with_the_last_turn_framed() -> None:
    from adapters.pictures.board import render_board

    g = game()
    rig(g, {"a": "w h * x", "b": "e"}, table=["cat"], opened=["a"])
    say(g, "a", "WHO")
    board = g.snapshot(None).board
    assert ["".join(c.letter for c in row) for row in board] == ["CAT", "WHO"]
    assert [c.recent for c in board[1]] == [True, True, True] and not any(c.recent for c in board[0])
    assert board[1][2].blank and board[1][2].points == 0, "the joker is a blank tile"
    assert render_board(board, labels=False).startswith(b"\x89PNG")
