"""Every board game ends: scoreless turns in a row (docs/BOARD.md, "Scoreless turns")."""

from __future__ import annotations

from games.board.options import OPTIONS, BoardConfig
from games.common.options import parse_options
from tests.games.board.helpers import ANN, BOB, kinds, new_game, say


def test_swaps_alone_end_the_game_after_six_scoreless_turns() -> None:
    g = new_game()
    assert len(g.bag) >= 7
    for turn in range(6):
        seat = g.current
        notes = say(g, f"swap {''.join(g.racks[seat][:2])}", seat)
        assert "accepted" in kinds(notes), notes
        assert g.finished == (turn == 5), turn
    assert "6 scoreless turns in a row, so the game ends." in g.summary
    assert g.passes == {ANN.id: 0, BOB.id: 0}, "the rulebook's three passes never came"


def test_passes_and_swaps_mixed_count_a_word_that_scores_resets() -> None:
    g = new_game()
    for _ in range(5):
        seat = g.current
        text = "pass" if g.scoreless % 2 else f"swap {g.racks[seat][0]}"
        say(g, text, seat)
    assert g.scoreless == 5 and not g.finished
    g._scoreless(2.0, False)  # a word that scores
    assert g.scoreless == 0 and not g.finished


def test_the_scoreless_option_and_old_records() -> None:
    assert parse_options(OPTIONS, ())["scoreless"] == 3
    assert BoardConfig.from_options({}).scoreless == 3
    assert BoardConfig.from_options({"scoreless": 1}).scoreless == 1
    old = {k: v for k, v in parse_options(OPTIONS, ()).items() if k != "scoreless"}
    assert BoardConfig.from_options(old).scoreless == 0, "a record from before replays with no limit"
    g = new_game(options={**old, "bots": 0})
    for _ in range(8):
        seat = g.current
        say(g, f"swap {g.racks[seat][0]}", seat)
    assert not g.finished and g.scoreless == 8


def test_one_round_of_scoreless_turns_with_scoreless_1() -> None:
    g = new_game(options={"scoreless": 1})
    say(g, "pass", g.current)
    assert not g.finished
    say(g, "pass", g.current)
    assert g.finished and "2 scoreless turns in a row" in g.summary
