"""The rules of Mark My Words, one by one, on small grids with a known word list."""

from __future__ import annotations

from collections import Counter

import pytest

from games.common.options import OptionValue, parse_options
from games.common.protocol import Action, Seat, Setup
from games.paths.engine import PathsEngine
from games.paths.grid import BLANK, EMPTY, parse_square
from games.paths.options import OPTIONS, PathsConfig
from games.paths.tiles import BLANKS, LETTER_COUNTS, TILES_PER_PLAYER, TOTAL_TILES, deal, letter_bag
from tests.games.paths.helpers import ANN, BOB, CAL, engine, give, put, refused, say, skip_first_round

#: Today's lenient table: a tile that makes no new word is refused and the player tries again.
RETRY: dict[str, OptionValue] = {"misplaced": "retry"}
#: named=all: one named word that doesn't count refuses the claim (the default, each, marks the others)
STRICT: dict[str, OptionValue] = {"named": "all"}


def sq(game: PathsEngine, name: str) -> int:
    index = parse_square(name, game.size, game.size)
    assert index is not None
    return index


# ------------------------------------------------------------ tiles and the deal


def test_the_box_holds_75_letters_and_6_blanks_as_printed() -> None:
    assert sum(LETTER_COUNTS.values()) == 75 and BLANKS == 6 and TOTAL_TILES == 81
    assert Counter(letter_bag()) == Counter(LETTER_COUNTS)
    assert (LETTER_COUNTS["e"], LETTER_COUNTS["s"], LETTER_COUNTS["q"], LETTER_COUNTS["a"]) == (6, 5, 1, 4)


@pytest.mark.parametrize(("players", "each"), sorted(TILES_PER_PLAYER.items()))
def test_tiles_per_player_follow_the_player_count(players: int, each: int) -> None:
    import random

    seats = [f"s{i}" for i in range(players)]
    dealt = deal(seats, random.Random(players))
    assert all(len(rack) == each for rack in dealt.racks.values())
    assert all(n == 1 for n in dealt.blanks.values())  # one blank per player
    assert dealt.spare_blanks == BLANKS - players
    held = Counter(ch for rack in dealt.racks.values() for ch in rack) + Counter(dealt.box)
    assert held == Counter(LETTER_COUNTS)


def test_without_blanks_they_all_stay_in_the_box() -> None:
    game = engine({"blanks": False})
    assert game.blanks == {ANN: 0, BOB: 0} and game.spare_blanks == BLANKS
    assert game.tile_count() == TOTAL_TILES


def test_the_deal_is_seeded() -> None:
    assert engine(seed=5).racks == engine(seed=5).racks
    assert engine(seed=5).racks != engine(seed=6).racks


# ------------------------------------------------------------ first round


def test_first_round_tiles_go_anywhere_without_a_word() -> None:
    game = engine()
    give(game, ANN, "ab")
    notes = say(game, ANN, "A1 A")
    assert refused(notes) is None
    assert game.squares[sq(game, "A1")] == "a" and game.racks[ANN] == ["b"]
    assert game.seat_id == BOB


def test_first_round_a_touching_tile_must_form_a_word() -> None:
    game = engine(RETRY)
    put(game, {"B2": "o"})
    give(game, ANN, "nx")
    assert "Name the new word" in (refused(say(game, ANN, "C2 X")) or "")
    assert "isn't a word" in (refused(say(game, ANN, "C2 X XO")) or "")
    notes = say(game, ANN, "C2 N ON NO")
    assert refused(notes) is None
    assert game.scores[ANN] == 2
    assert {r.word for r in game.board.recordings} == {"on", "no"}


def test_blank_and_discard_wait_for_the_first_round_to_end() -> None:
    game = engine()
    give(game, ANN, "q", blanks=1)
    assert "first round" in (refused(say(game, ANN, "blank A1")) or "")
    assert "first round" in (refused(say(game, ANN, "discard Q")) or "")


# ------------------------------------------------------------ later turns and paths


def test_later_tiles_must_create_a_new_word() -> None:
    game = engine(RETRY)
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "tx")
    assert "Name the new word" in (refused(say(game, ANN, "E5 T")) or "")
    assert "can't be read" in (refused(say(game, ANN, "E5 T AT")) or "")
    assert refused(say(game, ANN, "B1 T AT")) is None
    assert game.scores[ANN] == 1 and game.seat_id == BOB


# ------------------------------------------------------------ a misplaced tile (misplaced=pile, the rulebook)


def test_a_tile_that_makes_no_new_word_goes_to_the_free_letter_pile_and_the_turn_ends() -> None:
    game = engine()
    assert game.config.misplaced == "pile"
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "tx")
    tiles = game.tile_count()
    # naming no word is only a slip of the notation: refused, nothing lost
    assert "Name the new word" in (refused(say(game, ANN, "E5 T")) or "")
    assert game.racks[ANN] == ["t", "x"] and game.seat_id == ANN
    notes = say(game, ANN, "E5 T AT")
    reason = refused(notes) or ""
    assert "can't be read" in reason and "Free Letter Pile" in reason
    (announced,) = [n.text for n in notes if n.kind == "announce"]
    # the reason first, then what it cost
    assert announced.startswith("AT can't be read") and "made no new word" in announced
    assert announced.index("can't be read") < announced.index("Free Letter Pile")
    assert game.squares[sq(game, "E5")] == EMPTY
    assert game.racks[ANN] == ["x"] and game.pile == ["t"] and game.scores[ANN] == 0
    assert game.seat_id == BOB and game.passes == 0  # a move, not a pass
    assert game.knock_until is None  # the board did not change: no knock window
    assert game.tile_count() == tiles


@pytest.mark.parametrize(
    ("claim", "why"),
    [
        ("B1 T ATT", "isn't a word"),
        ("B1 T XY", "isn't a word"),
        ("C3 T AT", "can't be read"),
        ("B1 T OX", "None of those words uses your tile"),
    ],
)
def test_every_failed_claim_loses_the_tile(claim: str, why: str) -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"A1": "a", "E5": "o", "F5": "x"})
    give(game, ANN, "tt")
    assert why in (refused(say(game, ANN, claim)) or "")
    assert game.racks[ANN] == ["t"] and game.pile == ["t"] and game.seat_id == BOB


def test_a_word_that_is_not_new_loses_the_tile_too_when_all_named_words_must_count() -> None:
    game = engine(STRICT)
    skip_first_round(game)
    put(game, {"B1": "n", "C1": "o", "D1": "t"})
    game.board.used["not"] = {sq(game, "B1"), sq(game, "C1"), sq(game, "D1")}
    give(game, ANN, "kk")
    assert "isn't new" in (refused(say(game, ANN, "A1 K KNOT NOT")) or "")
    assert game.pile == ["k"] and game.board.recordings == [] and game.seat_id == BOB


def test_first_round_a_touching_tile_without_a_word_goes_to_the_pile() -> None:
    game = engine()
    put(game, {"B2": "o"})
    give(game, ANN, "nx")
    assert "isn't a word" in (refused(say(game, ANN, "C2 X XO")) or "")
    assert game.pile == ["x"] and game.racks[ANN] == ["n"] and game.seat_id == BOB
    assert game.turns == 1  # the misplaced tile was Ann's first-round move


def test_a_failed_blank_exchange_loses_the_letter_and_the_blank_stays() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"A1": "a", "B1": BLANK})
    give(game, ANN, "x", blanks=0)
    assert "isn't a word" in (refused(say(game, ANN, "swap B1 X AX")) or "")
    assert game.squares[sq(game, "B1")] == BLANK and game.blanks[ANN] == 0
    assert game.pile == ["x"] and game.seat_id == BOB


def test_without_a_free_letter_pile_a_misplaced_tile_leaves_the_game() -> None:
    game = engine({"free-pile": False})
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "tx")
    box, tiles = len(game.box), game.tile_count()
    assert "out of the game" in (refused(say(game, ANN, "E5 T AT")) or "")
    assert game.pile == [] and len(game.box) == box + 1 and game.racks[ANN] == ["x"]
    assert game.seat_id == BOB and game.tile_count() == tiles


def test_misplaced_retry_refuses_the_move_and_keeps_the_tile() -> None:
    game = engine(RETRY)
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "tx")
    assert "can't be read" in (refused(say(game, ANN, "E5 T AT")) or "")
    assert game.racks[ANN] == ["t", "x"] and game.pile == [] and game.seat_id == ANN


def test_the_misplaced_option_reads_its_values_and_old_records_keep_retry() -> None:
    assert PathsEngine(Setup(parse_options(OPTIONS, ()), [Seat(ANN, "Ann")], 1)).config.misplaced == "pile"
    assert parse_options(OPTIONS, ["misplaced=retry"])["misplaced"] == "retry"
    assert parse_options(OPTIONS, ["misplaced=lose"])["misplaced"] == "pile"
    # a game recorded before the option existed (every other option, not this one) replays as it was played
    old = {k: v for k, v in parse_options(OPTIONS, ()).items() if k != "misplaced"}
    assert PathsConfig.from_options(old).misplaced == "retry"
    assert PathsConfig.from_options({"size": 6}).misplaced == "pile"


def test_words_turn_corners_and_read_any_direction_but_never_corner_to_corner() -> None:
    game = engine()
    skip_first_round(game)
    # T at B1, O at B2, N at C2: T-O-N turns a corner; N-O-T reads it backwards
    put(game, {"B1": "t", "B2": "o"})
    give(game, ANN, "nn")
    assert refused(say(game, ANN, "C2 N TON NOT ON NO")) is None
    assert {r.word for r in game.board.recordings} == {"ton", "not", "on", "no"}
    # diagonal neighbours never connect: E at A3 touches nothing readable with T at B1
    give(game, BOB, "e")
    put(game, {"D4": "t"})
    assert "can't be read" in (refused(say(game, BOB, "C3 E NET")) or "")


def test_a_tile_is_used_once_per_word() -> None:
    game = engine(words=["tat", "at", "ta"])
    skip_first_round(game)
    put(game, {"A1": "t"})
    give(game, ANN, "a")
    # T-A-T would need the T twice
    assert "can't be read" in (refused(say(game, ANN, "B1 A TAT")) or "")


def test_claim_every_new_word_including_ones_away_from_the_tile() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"A1": "c", "B1": "a", "E5": "o", "F5": "x"})  # OX has never been marked down
    give(game, ANN, "t")
    notes = say(game, ANN, "C1 T CAT AT OX")
    assert refused(notes) is None
    assert game.scores[ANN] == 3
    assert [r.word for r in game.board.recordings] == ["cat", "at", "ox"]


def test_at_least_one_claimed_word_must_use_the_new_tile() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"E5": "o", "F5": "x", "A1": "a"})
    give(game, ANN, "t")
    assert "None of those words uses your tile" in (refused(say(game, ANN, "B1 T OX")) or "")


def test_a_word_is_new_only_with_tiles_that_never_formed_it() -> None:
    game = engine({**RETRY, **STRICT})
    skip_first_round(game)
    put(game, {"A1": "t", "B1": "o", "C1": "e"})
    game.board.used["toe"] = {sq(game, "A1"), sq(game, "B1"), sq(game, "C1")}  # TOE was marked down
    give(game, ANN, "w")
    assert "isn't new" in (refused(say(game, ANN, "B2 W TOW TOE")) or "")
    assert refused(say(game, ANN, "B2 W TOW")) is None  # TOW (A1 B1 B2) is new
    # a TOE sharing even one tile (the T on A1) with the old one is not new
    put(game, {"A2": "o"})
    give(game, BOB, "e")
    assert "isn't new" in (refused(say(game, BOB, "A3 E TOE")) or "")
    # on tiles none of which formed TOE before, it is new again
    put(game, {"D4": "t", "D5": "o"})
    assert refused(say(game, BOB, "D6 E TOE")) is None
    assert game.scores == {ANN: 1, BOB: 1}


def test_same_word_on_fresh_tiles_is_new_again() -> None:
    game = engine(STRICT)
    skip_first_round(game)
    put(game, {"A1": "t", "B1": "o", "C1": "e", "A4": "t", "B4": "o"})
    give(game, ANN, "e")
    assert "Ann's turn" in (refused(say(game, BOB, "pass")) or "")
    game.board.used["toe"] = {sq(game, "A1"), sq(game, "B1"), sq(game, "C1")}
    notes = say(game, ANN, "C4 E TOE")
    assert refused(notes) is None
    # claiming it again in one move needs yet other tiles
    give(game, BOB, "e")
    put(game, {"A6": "t", "B6": "o"})
    assert "isn't new" in (refused(say(game, BOB, "C6 E TOE TOE")) or "")


def test_knot_after_not_shares_tiles_so_only_knot_is_new() -> None:
    game = engine({**RETRY, **STRICT})
    skip_first_round(game)
    put(game, {"B1": "n", "C1": "o", "D1": "t"})
    game.board.used["not"] = {sq(game, "B1"), sq(game, "C1"), sq(game, "D1")}
    give(game, ANN, "k")
    assert "isn't new" in (refused(say(game, ANN, "A1 K KNOT NOT")) or "")
    assert refused(say(game, ANN, "A1 K KNOT")) is None


def test_unknown_and_unallowed_words_are_refused_with_the_reason() -> None:
    game = engine(RETRY)
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "tt")
    assert "isn't a word" in (refused(say(game, ANN, "B1 T ATT")) or "")
    assert "You have no Q tile" in (refused(say(game, ANN, "B1 Q QAT")) or "")
    assert "already holds" in (refused(say(game, ANN, "A1 T AT")) or "")
    assert "not a square" in (refused(say(game, ANN, "Z9 T AT")) or "")
    assert "It's Ann's turn" in (refused(say(game, BOB, "B1 T AT")) or "")


# ------------------------------------------------------------ blanks


def test_a_blank_is_only_for_when_no_letter_can_make_a_word() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "t", blanks=1)
    assert "only for when none of your letters" in (refused(say(game, ANN, "blank D4")) or "")
    give(game, ANN, "q", blanks=1)
    assert refused(say(game, ANN, "blank D4")) is None
    assert game.squares[sq(game, "D4")] == BLANK and game.blanks[ANN] == 0


def test_blanks_block_paths() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"A1": "a", "B1": BLANK})
    give(game, ANN, "t")
    assert "can't be read" in (refused(say(game, ANN, "C1 T AT")) or "")


def test_exchanging_a_blank_needs_a_new_word_and_returns_the_blank() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"A1": "a", "B1": BLANK})
    give(game, ANN, "tx", blanks=0)
    assert "Name the new word" in (refused(say(game, ANN, "swap B1 X")) or "")
    assert "holds no blank" in (refused(say(game, ANN, "swap C3 T AT")) or "")
    assert refused(say(game, ANN, "swap B1 T AT")) is None
    assert game.squares[sq(game, "B1")] == "t" and game.blanks[ANN] == 1 and game.racks[ANN] == ["x"]


def test_placing_on_a_blank_without_saying_swap_exchanges_it_too() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"A1": "a", "B1": BLANK})
    give(game, ANN, "t", blanks=0)
    assert refused(say(game, ANN, "B1 T AT")) is None and game.blanks[ANN] == 1


# ------------------------------------------------------------ the Free Letter Pile


def test_discard_to_the_pile_only_when_no_letter_can_make_a_word() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "tq")
    assert "only for when none of your letters" in (refused(say(game, ANN, "discard Q")) or "")
    give(game, ANN, "qz")
    assert refused(say(game, ANN, "discard Q")) is None
    assert game.pile == ["q"] and game.racks[ANN] == ["z"] and game.seat_id == BOB


def test_free_tiles_make_one_word_then_the_regular_turn() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"C1": "c", "D1": "a", "E1": "r", "F1": "t"})
    game.pile = ["e", "o", "x"]
    give(game, ANN, "n")
    notes = say(game, ANN, "free O A1 X B1 OXCART")
    assert refused(notes) is None
    assert game.pile == ["e"] and game.scores[ANN] == 1 and game.seat_id == ANN  # still Ann's turn
    assert "used the Free Letter Pile" in (refused(say(game, ANN, "free E A2 OE")) or "")
    assert refused(say(game, ANN, "pass")) is None and game.seat_id == BOB


def test_free_tiles_cannot_make_two_words() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"C1": "c", "D1": "a", "E1": "r", "F1": "t", "C4": "o"})
    game.pile = ["x", "t"]
    give(game, ANN, "nn")
    # X for OX away from T for CART: one word must use every free tile
    notes = say(game, ANN, "free X D4 T B1 OX")
    assert "doesn't use every free tile" in (refused(notes) or "")


def test_a_mistaken_free_tile_goes_back_with_a_penalty_tile() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"A1": "a"})
    game.pile = ["t", "x"]
    give(game, ANN, "nnq")
    notes = say(game, ANN, "free X B1 AX")
    assert "isn't a word" in (refused(notes) or "")
    assert any(n.kind == "announce" and "penalty" in n.text for n in notes)
    assert game.squares[sq(game, "B1")] == EMPTY
    assert game.pile == ["n", "t", "x"] and game.racks[ANN] == ["n", "q"]  # gave the letter held most
    assert game.free_used and game.seat_id == ANN


def test_free_pile_syntax_problems_are_refused_without_penalty() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"A1": "a"})
    game.pile = ["t"]
    give(game, ANN, "n")
    assert "no X to spare" in (refused(say(game, ANN, "free X B1 AX")) or "")
    assert "not empty" in (refused(say(game, ANN, "free T A1 AT")) or "")
    assert game.racks[ANN] == ["n"] and not game.free_used


def test_free_pile_off_refuses_both_moves() -> None:
    game = engine({"free-pile": False})
    skip_first_round(game)
    give(game, ANN, "q")
    assert "no Free Letter Pile" in (refused(say(game, ANN, "discard Q")) or "")
    assert "no Free Letter Pile" in (refused(say(game, ANN, "free Q A1 QI")) or "")


# ------------------------------------------------------------ knocking


def test_knocking_claims_new_words_in_the_window_and_the_last_knock_keeps_it_open() -> None:
    game = engine({"knock": 20})
    skip_first_round(game)
    put(game, {"A1": "t", "B1": "o"})
    give(game, ANN, "e")
    assert "No knock window" in (refused(say(game, BOB, "knock TO", now=0.5)) or "")
    assert refused(say(game, ANN, "C1 E TOE", now=1)) is None
    assert game.knock_until == 21
    notes = say(game, BOB, "knock TO", now=15)  # anyone, even off turn
    assert refused(notes) is None and game.scores[BOB] == 1
    assert game.knock_until == 35
    assert "isn't new" in (refused(say(game, ANN, "knock TO", now=16)) or "")
    assert "No knock window" in (refused(say(game, ANN, "knock OE", now=40)) or "")


def test_knocking_off_refuses_knocks() -> None:
    game = engine({"knock": 0})
    assert "Knocking is off" in (refused(say(game, BOB, "knock TO")) or "")


def test_a_computer_player_waits_for_the_knock_window() -> None:
    game = engine({"knock": 20}, bots="normal")
    assert game.next_bot_time() == 4.0  # before any turn: just its thinking time
    give(game, ANN, "a")
    say(game, ANN, "A1 A", now=1)
    assert game.next_bot_time() == 13.0  # a look for words to knock, 12 s into the window
    assert game.bot_claims(13.0) == []  # nothing to knock
    assert game.next_bot_time() == 21.0  # its move waits for the window to close


# ------------------------------------------------------------ time limit


def test_the_turn_limit_passes_the_turn_and_is_computed_from_action_times() -> None:
    game = engine({"turn": 60})
    assert game.next_deadline() == 60.0
    assert game.apply(Action("tick", 30.0)) == []
    notes = game.apply(Action("tick", 60.0))
    assert any("Time's up" in n.text for n in notes)
    assert game.seat_id == BOB and game.next_deadline() == 120.0
    give(game, BOB, "a")
    say(game, BOB, "A1 A", now=70)
    assert game.next_deadline() == 130.0


def test_no_time_limit_by_default() -> None:
    assert engine().next_deadline() is None


# ------------------------------------------------------------ scoring and the end


def test_scoring_per_letter() -> None:
    game = engine({"scoring": "letter"})
    skip_first_round(game)
    put(game, {"A1": "c", "B1": "a"})
    give(game, ANN, "t")
    assert refused(say(game, ANN, "C1 T CAT AT")) is None
    assert game.scores[ANN] == 5


def test_the_game_ends_when_the_solver_finds_no_new_word() -> None:
    game = engine(words=["at", "ta"])
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "tq")
    give(game, BOB, "qz")
    notes = say(game, ANN, "B1 T AT TA")
    assert game.finished and game.end_reason == "nobody can form a new word"
    assert any(n.kind == "end" for n in notes)
    result = game.result()
    assert result.winners == (ANN,) and result.scores == {ANN: 2, BOB: 0}
    assert result.best_words == {ANN: "at"}
    assert "The game is over" in (refused(say(game, BOB, "pass")) or "")


def test_the_game_goes_on_while_a_new_word_waits_on_the_board() -> None:
    game = engine(words=["at", "ta"])
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "tq")
    give(game, BOB, "qz")
    say(game, ANN, "B1 T AT")  # TA is still there to discover
    assert not game.finished
    assert game.stuck() is False


def test_everyone_passing_in_a_row_ends_the_game() -> None:
    game = engine()
    skip_first_round(game)
    give(game, ANN, "t")
    give(game, BOB, "t")
    put(game, {"A1": "a"})
    say(game, ANN, "pass")
    assert not game.finished
    say(game, BOB, "pass")
    assert game.finished and game.end_reason == "every player passed in a row"


def test_players_without_tiles_are_skipped() -> None:
    game = engine(seats=3)
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "t")
    give(game, BOB, "", blanks=0)
    give(game, CAL, "t")
    say(game, ANN, "B1 T AT")
    assert game.seat_id == CAL


def test_leaving_ends_a_turn_and_the_seat_is_skipped() -> None:
    game = engine(seats=3)
    game.apply(Action("leave", 1.0, seat=ANN))
    assert game.seat_id == BOB
    assert "You left" in (refused(say(game, ANN, "pass")) or "")


# ------------------------------------------------------------ views and bad input


def test_the_public_snapshot_never_shows_a_rack() -> None:
    game = engine()
    give(game, ANN, "qxz")
    public = game.snapshot(None)
    text = repr(public)
    assert not public.cards and "Your tiles" not in text and "Q X Z" not in text
    mine = game.snapshot(ANN)
    assert [c.letter for c in mine.cards] == ["Q", "X", "Z", ""]
    assert any("Your tiles: Q X Z + 1 blank" in line for line in mine.lines)
    assert len(public.board) == 6 and len(public.grid) == 7


def test_private_notices_carry_the_racks_only_to_their_owners() -> None:
    seats = [Seat(ANN, "Ann"), Seat(BOB, "Bob")]
    fresh = PathsEngine(Setup({"size": 6, "knock": 0}, seats, 3), words=engine().words)
    notes = fresh.apply(Action("begin", 0.0))
    privates = [n for n in notes if n.kind == "private"]
    assert {n.seat for n in privates} == {ANN, BOB}
    assert all("Your tiles" in n.text for n in privates)
    assert not any("Your tiles" in n.text for n in notes if n.kind != "private")


def test_the_minimum_length_option_refuses_short_words() -> None:
    game = engine({"min": 3, **RETRY, **STRICT})
    skip_first_round(game)
    put(game, {"A1": "c", "B1": "a"})
    give(game, ANN, "t")
    assert "too short" in (refused(say(game, ANN, "C1 T CAT AT")) or "")
    assert refused(say(game, ANN, "C1 T CAT")) is None


@pytest.mark.parametrize(
    "text",
    ["", "hello", "E5", "free", "free O F6", "blank", "discard", "discard QQ", "knock", "E5 T 42", "A0 T AT"],
)
def test_nonsense_is_refused_with_a_reason_never_an_exception(text: str) -> None:
    game = engine()
    reason = refused(say(game, ANN, text))
    assert reason and len(reason) > 10


def test_actions_before_begin_and_from_strangers_are_harmless() -> None:
    game = PathsEngine(Setup({"size": 6}, [Seat(ANN, "Ann"), Seat(BOB, "Bob")], 1), words=engine().words)
    assert game.apply(Action("say", 0.0, seat=ANN, text="pass")) == []
    game.apply(Action("begin", 0.0))
    assert "not playing" in (refused(game.apply(Action("say", 1.0, seat="zed", text="pass"))) or "")
    assert game.apply(Action("vote", 1.0, seat=ANN, text="skip")) == []


def test_a_discard_is_a_move_not_a_pass() -> None:
    game = engine({"knock": 20})
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "q")
    give(game, BOB, "t")
    game.passes = 1  # Bob passed last time
    assert refused(say(game, ANN, "discard Q")) is None
    assert not game.finished and game.passes == 0 and game.knock_until is None


def test_computer_players_knock_for_words_left_on_the_board() -> None:
    seats = [Seat(ANN, "Ann"), Seat("bot:1", "Robo", "hard"), Seat("bot:2", "Easy", "easy")]
    game = PathsEngine(Setup({"size": 6, "knock": 20}, seats, 1), words=engine().words)
    game.apply(Action("begin", 0.0))
    skip_first_round(game)
    put(game, {"A1": "c", "B1": "a", "E5": "o", "F5": "x"})
    give(game, ANN, "t")
    say(game, ANN, "C1 T CAT", now=1.0)  # Ann missed AT, TA and OX
    assert game.next_bot_time() == 7.0  # the hard player knocks 6 s into the window; easy never
    assert game.bot_claims(6.9) == []
    (claim,) = game.bot_claims(7.0)
    assert claim.seat == "bot:1" and claim.text.startswith("knock ")
    assert set(claim.text.split()[1:]) == {"AT", "TA", "OX"}
    notes = game.apply(Action("say", 7.0, seat=claim.seat, text=claim.text))
    assert refused(notes) is None and game.scores["bot:1"] == 3
    # the window opened again by the knock: nothing left to knock, so the move comes after it
    assert game.bot_claims(13.0) == []
    assert game.next_bot_time() == 27.0 and game.seat_id == "bot:1"


def test_a_computer_player_on_a_full_grid_still_has_a_move() -> None:
    import random

    from games.paths import bots

    game = engine({"size": 5}, words=["at"])
    for i in range(len(game.squares)):
        game.squares[i] = "q"
    for first_round in (True, False):
        game.turns = 0 if first_round else len(game.seats)
        give(game, ANN, "at", blanks=1)
        move = bots.choose(game, ANN, "hard", random.Random(1))
        assert move in {"pass", "discard T", "discard A"}
        assert refused(say(game, ANN, move)) is None
        game.current = 0


def test_the_end_notice_names_the_winners() -> None:
    cases: tuple[tuple[dict[str, int], str], ...] = (
        ({ANN: 3, BOB: 3}, "Ann and Bob share the win with 3 points"),
        ({}, "Nobody scored"),
    )
    for scores, expected in cases:
        game = engine()
        skip_first_round(game)
        put(game, {"A1": "a"})
        give(game, ANN, "t")
        give(game, BOB, "t")  # AT can still be made: only passing ends this game
        game.scores.update(scores)
        assert not [n for n in say(game, ANN, "pass") if n.kind == "end"]
        (end,) = [n for n in say(game, BOB, "pass") if n.kind == "end"]
        assert expected in end.text


@pytest.mark.parametrize("players", [1, 7, 9])
def test_odd_seat_counts_still_deal_every_tile_once(players: int) -> None:
    import random

    dealt = deal([f"s{i}" for i in range(players)], random.Random(1))
    held = Counter(ch for rack in dealt.racks.values() for ch in rack) + Counter(dealt.box)
    assert held == Counter(LETTER_COUNTS)
    assert sum(dealt.blanks.values()) + dealt.spare_blanks == BLANKS
    assert all(dealt.racks.values())


def test_a_player_without_tiles_still_takes_free_tiles_then_the_turn_passes() -> None:
    game = engine(seats=3)
    skip_first_round(game)
    put(game, {"C1": "c", "D1": "a", "E1": "r", "F1": "t", "A3": "a"})
    give(game, ANN, "t")
    give(game, BOB, "", blanks=0)
    give(game, CAL, "t")
    game.pile = ["o", "x"]
    say(game, ANN, "B3 T AT")
    assert game.seat_id == BOB  # no tiles, but the Free Letter Pile has some
    notes = say(game, BOB, "free O A1 X B1 OXCART")
    assert refused(notes) is None and game.scores[BOB] == 1
    assert game.seat_id == CAL  # nothing of Bob's own to play: the turn passed


def test_with_no_tiles_left_the_last_knock_window_ends_the_game() -> None:
    game = engine({"knock": 20}, words=["at", "ta"])
    skip_first_round(game)
    put(game, {"A1": "a"})
    give(game, ANN, "t", blanks=0)
    give(game, BOB, "", blanks=0)
    say(game, ANN, "B1 T AT", now=1.0)  # TA is left for a knock; nobody has a tile
    assert not game.finished and game.next_deadline() == 21.0 and game.next_bot_time() is None
    assert refused(say(game, BOB, "knock TA", now=10.0)) is None
    assert game.next_deadline() == 30.0  # the knock opened the window again
    assert game.apply(Action("tick", 29.0)) == [] and not game.finished
    notes = game.apply(Action("tick", 30.0))
    assert game.finished and game.end_reason == "no tiles are left to play"
    assert any(n.kind == "end" for n in notes) and game.next_deadline() is None
