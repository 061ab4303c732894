"""Which of the words a player names count (named=each, the rulebook; named=all, the strict table).

The rulebook has the player name the new words their tile makes and mark them down, and loses
a tile only "if a letter tile is placed without creating a new word". So each named word is
judged on its own: the ones that count are marked, the others are listed with their reason.
"""

from __future__ import annotations

from games.common.options import parse_options
from games.common.protocol import Action, Notice, Seat, Setup
from games.paths.engine import PathsEngine
from games.paths.options import OPTIONS, PathsConfig
from tests.games.paths.helpers import ANN, BOB, engine, give, put, refused, say, skip_first_round


def _accepted(notices: list[Notice]) -> str:
    return next(n.text for n in notices if n.kind == "accepted")


def _real_game(named: str) -> PathsEngine:
    """A game with the real tournament lexicon: R E on E5 F5, F on F4 (DEF is an abbreviation)."""
    game = PathsEngine(
        Setup({"size": 8, "knock": 0, "named": named}, [Seat(ANN, "Ann"), Seat(BOB, "Bob")], 1)
    )
    game.apply(Action("begin", 0.0))
    skip_first_round(game)
    put(game, {"E5": "r", "F5": "e", "F4": "f"})
    give(game, ANN, "dd")
    return game


def test_the_words_that_count_are_marked_and_the_others_listed_with_their_reason() -> None:
    game = _real_game("each")
    notes = say(game, ANN, "G5 D ED RED FED DEF")
    assert refused(notes) is None
    text = _accepted(notes)
    assert text.startswith("Ann placed D on G5: ED, RED, FED (+3).")
    assert "Not marked: DEF is an abbreviation" in text
    assert "without making a new word" not in text
    assert game.scores[ANN] == 3 and game.racks[ANN] == ["d"] and game.pile == []
    assert sorted(r.word for r in game.board.recordings) == ["ed", "fed", "red"]


def test_strict_table_refuses_the_claim_and_says_the_real_reason_first() -> None:
    game = _real_game("all")
    notes = say(game, ANN, "G5 D ED RED FED DEF")
    reason = refused(notes) or ""
    (announced,) = [n.text for n in notes if n.kind == "announce"]
    for text in (reason, announced):
        assert text.startswith("DEF is an abbreviation"), text
        assert text.index("abbreviation") < text.index("Free Letter Pile")
    assert "your" not in announced.lower()  # the channel hears it about Ann, not to her
    assert game.scores[ANN] == 0 and game.pile == ["d"] and game.board.recordings == []


def test_a_tile_no_counted_word_uses_is_lost_with_every_reason_first() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"A1": "a", "B1": "t", "E5": "n", "E6": "o"})
    give(game, ANN, "xe")
    # AT counts (elsewhere on the board), ATT isn't a word, and neither uses the X on F6
    notes = say(game, ANN, "F6 X AT ATT")
    reason = refused(notes) or ""
    assert (
        reason.startswith("ATT isn't a word")
        and "None of the words that count uses your tile on F6" in reason
    )
    (announced,) = [n.text for n in notes if n.kind == "announce"]
    assert announced.startswith("ATT isn't a word") and "Free Letter Pile" in announced
    assert game.pile == ["x"] and game.board.recordings == [] and game.scores[ANN] == 0


def test_a_word_that_is_not_new_is_left_out_and_the_new_one_marked() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"B1": "n", "C1": "o", "D1": "t"})
    game.board.used["not"] = {1, 2, 3}
    give(game, ANN, "kk")
    notes = say(game, ANN, "A1 K KNOT NOT")
    assert "KNOT (+1)" in _accepted(notes) and "Not marked: NOT isn't new" in _accepted(notes)
    assert game.pile == [] and [r.word for r in game.board.recordings] == ["knot"]


def test_a_knock_marks_what_counts_and_is_refused_only_when_nothing_does() -> None:
    game = engine({"knock": 30})
    skip_first_round(game)
    put(game, {"A1": "t", "B1": "o", "C1": "e"})
    give(game, ANN, "w")
    assert refused(say(game, ANN, "B2 W TOW", now=1.0)) is None
    knocked = say(game, BOB, "knock TOE TOEX ETA", now=2.0)
    assert "TOE (+1)" in _accepted(knocked) and "TOEX isn't a word" in _accepted(knocked)
    assert "ETA" in _accepted(knocked)  # (can't be read: listed, not marked)
    assert "isn't new" in (refused(say(game, BOB, "knock TOE", now=3.0)) or "")
    assert game.scores[BOB] == 1


def test_in_the_first_round_an_isolated_tile_stands_and_a_bad_word_is_only_not_marked() -> None:
    game = engine()
    give(game, ANN, "tx")
    notes = say(game, ANN, "C3 T ZZ")
    assert refused(notes) is None and "Not marked: ZZ" in _accepted(notes)
    assert game.racks[ANN] == ["x"] and game.pile == []


def test_the_named_option_reads_its_values_and_old_records_replay_strict() -> None:
    assert parse_options(OPTIONS, ())["named"] == "each"
    assert parse_options(OPTIONS, ["named=strict"])["named"] == "all"
    old = {k: v for k, v in parse_options(OPTIONS, ()).items() if k != "named"}
    assert PathsConfig.from_options(old).named == "all"
    assert PathsConfig.from_options({"size": 6}).named == "each"
