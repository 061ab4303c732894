"""``python -m games.dice``: faces, solve and check, in process."""

from __future__ import annotations

import json

import pytest

from games.dice.__main__ import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, object]:
    code = main(list(args))
    out = capsys.readouterr().out
    return code, json.loads(out) if out else None


def test_faces(capsys: pytest.CaptureFixture[str]) -> None:
    code, faces = run(capsys, "faces")
    assert code == 0 and isinstance(faces, list) and len(faces) == 10
    assert sum(label == "?0" for die in faces for label in die) == 2


def test_solve_lists_the_best_words_and_proves_a_hopeless_roll(capsys: pytest.CaptureFixture[str]) -> None:
    code, found = run(capsys, "solve", "--roll", "E T ? A S N", "--mat", "CAT", "--top", "3")
    assert code == 0 and isinstance(found, dict)
    assert found["possible"] is True and len(found["words"]) == 3
    assert found["words"][0]["score"] >= found["words"][-1]["score"]
    code, none = run(capsys, "solve", "--roll", "X C")
    assert code == 0 and isinstance(none, dict)
    assert (none["possible"], none["count"], none["words"]) == (False, 0, [])


def test_check_rules_on_one_move(capsys: pytest.CaptureFixture[str]) -> None:
    # crossing CaT at its A, a blank: it keeps its letter and scores 0
    _, ok = run(capsys, "check", "--roll", "E T ? A S N", "--mat", "CaT", "--move", "SEAT 3 2")
    assert isinstance(ok, dict) and ok["valid"] is True and ok["score"] == 3 and ok["word"] == "SEaT"
    _, bad = run(capsys, "check", "--roll", "E T", "--mat", "CAT", "--move", "TEE")
    assert isinstance(bad, dict) and bad["valid"] is False and "TEE" in str(bad["reason"])


def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", "--roll", "1 2"]) == 2
    assert "not a letter" in capsys.readouterr().err
