"""The preview of a placed tile (the web page's): judged as the move itself would be, and it
changes nothing."""

from __future__ import annotations

import copy

from hypothesis import given, settings
from hypothesis import strategies as st

from games.paths.engine import PathsPreview
from tests.games.paths.helpers import ANN, BOB, WORDS, engine, give, put, refused, say, skip_first_round


def _state(game):  # type: ignore[no-untyped-def]
    return (
        list(game.squares),
        {s: list(r) for s, r in game.racks.items()},
        dict(game.scores),
        copy.deepcopy(game.board.used),
        game.current,
        list(game.pile),
    )


def test_a_tile_s_words_are_judged_one_by_one_with_the_score() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"B2": "a", "C2": "t"})
    give(game, ANN, "e")
    found = game.preview(ANN, "D2 e ate zzz")
    assert isinstance(found, PathsPreview)
    assert found.move == "D2 E ATE ZZZ"
    assert found.words[0] == ("ATE", 1, "")
    assert found.words[1][0] == "ZZZ" and found.words[1][1] == 0 and found.words[1][2]
    assert found.score == 1 and found.reason == ""


def test_a_move_that_would_cost_the_tile_says_so_and_a_bad_line_says_why() -> None:
    game = engine()
    skip_first_round(game)
    put(game, {"B2": "a", "C2": "t"})
    give(game, ANN, "e")
    found = game.preview(ANN, "D2 E TEA")
    assert isinstance(found, PathsPreview) and found.score == 0
    assert "Free Letter Pile" in found.reason
    assert isinstance(game.preview(ANN, "pass"), str)
    assert "not a square" in str(game.preview(ANN, "Z9 E ATE"))
    other = game.preview(BOB, "D2 E ATE")
    assert isinstance(other, PathsPreview) and "turn" in other.reason


@settings(max_examples=40, deadline=None)
@given(
    letters=st.text("aetonc", min_size=1, max_size=6),
    square=st.integers(0, 35),
    named=st.lists(st.sampled_from((*WORDS, "zz", "qat")), max_size=3),
    first=st.booleans(),
)
def test_the_preview_agrees_with_the_move_and_changes_nothing(
    letters: str, square: int, named: list[str], first: bool
) -> None:
    game = engine()
    if not first:
        skip_first_round(game)
        put(game, {"B2": "a", "C2": "t", "C3": "o", "D3": "n"})
    give(game, ANN, letters)
    name = f"{chr(65 + square % 6)}{square // 6 + 1}"
    text = " ".join([name, letters[0], *named])
    before = _state(game)
    found = game.preview(ANN, text)
    assert _state(game) == before, "a preview changes nothing"
    assert isinstance(found, PathsPreview)
    score = game.scores[ANN]
    notices = say(game, ANN, text)
    if found.reason:
        assert refused(notices) is not None
        assert game.scores[ANN] == score
    else:
        assert refused(notices) is None
        assert game.scores[ANN] == score + found.score
