"""``python -m games.race explain``: the referee from the command line."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from games.race.__main__ import main


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, dict[str, object] | str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, json.loads(out) if code == 0 else err


@pytest.mark.parametrize(
    ("word", "placement", "collects"),
    [
        ("TEACH", "first-or-last", ["A", "C", "T"]),
        ("ache", "first-or-last", ["A", "C"]),
        ("cart", "first-and-last", ["A", "C", "T"]),
        ("pact", "in-between", ["A", "C", "T"]),
    ],
)
def test_valid_words_say_what_they_collect(
    capsys: pytest.CaptureFixture[str], word: str, placement: str, collects: list[str]
) -> None:
    code, answer = run(capsys, "explain", "--cards", "A C T", "--word", word, "--placement", placement)
    assert code == 0
    assert answer == {"valid": True, "collects": collects, "reason": "ok"}


def test_refusals_carry_the_reason(capsys: pytest.CaptureFixture[str]) -> None:
    _, answer = run(capsys, "explain", "--cards", "A C T", "--word", "back", "--placement", "first-or-last")
    assert answer == {
        "valid": False,
        "collects": [],
        "reason": "No face-up letter is the first or last letter of BACK",
    }
    _, answer = run(capsys, "explain", "--cards", "W D E", "--word", "walked", "--ban", "ed")
    assert isinstance(answer, dict) and "past tense" in str(answer["reason"])
    _, answer = run(capsys, "explain", "--cards", "A C T", "--word", "cat", "--min-length", "4")
    assert isinstance(answer, dict) and "too short" in str(answer["reason"])


def test_bad_arguments_get_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = run(capsys, "explain", "--cards", "1 2", "--word", "cat")
    assert code == 2 and "letters A to Z" in str(err)
    code, err = run(capsys, "explain", "--cards", "A T", "--word", "cat", "--ban", "swearing")
    assert code == 2 and "unknown ban" in str(err)


def test_module_entry_point() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "games.race", "explain", "--cards", "A C T", "--word", "cat"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout)["valid"] is True
