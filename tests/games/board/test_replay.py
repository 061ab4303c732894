"""A hand-written classic 15×15 game, scored by hand, replayed through the CLI.

The moves are in ``data/classic_game.jsonl``; the layout is the shipped
``games/board/layouts/classic.json``. Premium squares used below (classic
board): H8 double word (the star), D8 O4 M7 double letter, J6 N6 triple letter,
L4 double word, O8 triple word.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from games.board.__main__ import main
from games.board.layout import LAYOUT_DIR
from games.common.text import plain

DATA = Path(__file__).with_name("data")
CLASSIC = str(LAYOUT_DIR / "classic.json")

# (score, words) of each move, worked out by hand.
HAND_WORKED = [
    # 1 ZEALOTS D8-J8: Z 10 on D8 (DL) = 20, E A L O T S = 6 -> 26; O on H8 (DW) -> 52;
    #   all 7 tiles: +50 -> 102.
    (102, [("ZEALOTS", 52)]),
    # 2 FIXES J4-J8 (S on the board): F 4 + I 1 + X 8 on J6 (TL) = 24 + E 1 + S 1 = 31; no cross words.
    (31, [("FIXES", 31)]),
    # 3 QuIZ D5-D8 (Z on the board, U a blank): Q 10 + u 0 + I 1 + Z 10 = 21 (D5-D7 plain).
    (21, [("QUIZ", 21)]),
    # 4 FERN J4-M4 (F on the board): (F 4 + E 1 + R 1 on L4 + N 1) x2 (L4 DW) = 14.
    (14, [("FERN", 14)]),
    # 5 HA E9-F9: HA = H 4 + A 1 = 5; EH (E8 E + E9 H) = 5; AA (F8 A + F9 A) = 2 -> 12.
    (12, [("HA", 5), ("EH", 5), ("AA", 2)]),
    # 6 SLOB N4-N7: S 1 + L 1 + O 1 on N6 (TL) = 3 + B 3 = 8; FERNS across row 4 = 4+1+1+1 + S 1 = 8 -> 16.
    (16, [("SLOB", 8), ("FERNS", 8)]),
    # 7 IRES O5-O8: (1+1+1+1) x3 (O8 TW) = 12; LI = 2; OR = 2; BE = B 3 + E 1 = 4 -> 20.
    (20, [("IRES", 12), ("LI", 2), ("OR", 2), ("BE", 4)]),
    # 8 TAG at A1 touches nothing: illegal.
    (0, []),
    # 9 OB at M7 runs into the E of IRES on O7: illegal (write the whole word).
    (0, []),
    # 10 OBE M7-O7 (B, E on the board): O 1 on M7 (DL) = 2 + B 3 + E 1 = 6; no cross words.
    (6, [("OBE", 6)]),
    # 11 pass, 12 swap GM: nothing scored.
    (0, []),
    (0, []),
]
# Running totals: Ann 102 + 21 + 12 + 20 = 155; Bob 31 + 14 + 16 + 6 = 67.


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, object]]]:
    status = main(["replay", *args])
    out = capsys.readouterr().out
    return status, [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("dictionary", ["tournament", "none"])
def test_the_hand_worked_game_scores_as_worked_by_hand(
    capsys: pytest.CaptureFixture[str], dictionary: str
) -> None:
    status, answers = run(
        capsys, "--layout", CLASSIC, "--moves", str(DATA / "classic_game.jsonl"), "--dict", dictionary
    )
    assert status == 1  # two moves are illegal
    assert len(answers) == len(HAND_WORKED)
    for answer, (score, words) in zip(answers, HAND_WORKED, strict=True):
        assert answer["score"] == score, answer
        formed = answer["words"]
        assert isinstance(formed, list)
        assert [(w["word"], w["score"]) for w in formed] == words
    assert [a["ok"] for a in answers].count(False) == 2
    assert answers[0]["bingo"] == 50
    assert "must touch" in str(answers[7]["reason"])
    assert "runs into the E at O7" in str(answers[8]["reason"])
    assert answers[-2]["total"] == 155 and answers[-1]["total"] == 67


def test_the_dictionary_refuses_a_non_word_that_none_lets_through(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    moves = tmp_path / "m.jsonl"
    moves.write_text('{"player": "a", "rack": "QXZ", "move": "H8 across QXZ"}\n')
    _, (answer,) = run(capsys, "--layout", "classic", "--moves", str(moves))
    assert answer["ok"] is False and "QXZ isn't in the tournament dictionary" in str(answer["reason"])
    _, (answer,) = run(capsys, "--layout", "classic", "--moves", str(moves), "--dict", "none")
    # geometry and scoring only: (10 + 8 + 10) x2 on the star (DW) = 56
    assert answer["ok"] is True and answer["score"] == 56


def test_bad_lines_and_files_get_reasons(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    moves = tmp_path / "m.jsonl"
    moves.write_text(
        'not json\n{"player": "a", "rack": "AB1", "move": "pass"}\n{"player": "a", "move": "Z99 across HI"}\n'
    )
    status, answers = run(capsys, "--layout", "classic", "--moves", str(moves), "--dict", "none")
    assert status == 1
    assert "not a move line" in str(answers[0]["reason"])
    assert "not a rack" in str(answers[1]["reason"])
    assert "Z99 is not a square" in plain(str(answers[2]["reason"]))
    assert main(["replay", "--layout", str(tmp_path / "nope.json"), "--moves", str(moves)]) == 2
    assert "cannot read layout" in capsys.readouterr().err


def test_moves_can_come_from_stdin(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO('{"player": "a", "rack": "HI", "move": "H8 down HI"}\n'))
    status, (answer,) = run(capsys, "--layout", "classic", "--moves", "-")
    assert status == 0 and answer["score"] == 10  # (4 + 1) x2 on the star
