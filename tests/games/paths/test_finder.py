"""The path word finder: agrees with a brute-force search; grids, square names and the CLI."""

from __future__ import annotations

import io
import json
import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.paths.__main__ import find_words, main
from games.paths.finder import Finder, WordList
from games.paths.grid import BLANK, EMPTY, GridError, neighbours, parse_square, read_grid, square_name

FUZZ = settings(max_examples=400 if os.environ.get("MOJI_FUZZ") == "long" else 60, deadline=None)


Found = set[tuple[str, tuple[int, ...]]]


def brute_force(squares: list[str], width: int, height: int, words: set[str]) -> Found:
    """Every simple path of edge-adjacent letter squares, kept when it spells a listed word."""
    near = neighbours(width, height)
    longest = max((len(w) for w in words), default=0)
    out: Found = set()

    def walk(path: list[int]) -> None:
        word = "".join(squares[i] for i in path)
        if word in words:
            out.add((word, tuple(path)))
        if len(path) == longest:
            return
        for nb in near[path[-1]]:
            if nb not in path and squares[nb].isalpha():
                walk([*path, nb])

    for start, cell in enumerate(squares):
        if cell.isalpha():
            walk([start])
    return out


LETTERS = "aeiotnrs"
cell = st.sampled_from([*LETTERS, EMPTY, BLANK])


@st.composite
def grids(draw: st.DrawFn) -> tuple[list[str], int, int, set[str]]:
    width = draw(st.integers(1, 4))
    height = draw(st.integers(1, 4))
    squares = draw(st.lists(cell, min_size=width * height, max_size=width * height))
    words = set(draw(st.lists(st.text(LETTERS, min_size=2, max_size=5), max_size=40)))
    # some words certainly on the grid: read along random walks
    near = neighbours(width, height)
    for start in draw(st.lists(st.integers(0, width * height - 1), max_size=6)):
        path = [start]
        for choice in draw(st.lists(st.integers(0, 3), max_size=4)):
            options = [n for n in near[path[-1]] if n not in path]
            if options:
                path.append(options[choice % len(options)])
        if all(squares[i].isalpha() for i in path) and len(path) >= 2:
            words.add("".join(squares[i] for i in path))
    return squares, width, height, words


@FUZZ
@given(grids())
def test_the_finder_agrees_with_brute_force(case: tuple[list[str], int, int, set[str]]) -> None:
    squares, width, height, words = case
    finder = Finder(WordList(words), width, height)
    found = {(h.word, h.path) for h in finder.all_paths(squares)}
    assert found == brute_force(squares, width, height, words)
    # the single-word search finds exactly the same paths
    for word in words:
        expected = {p for w, p in found if w == word}
        assert set(finder.paths_of(squares, word)) == expected


@FUZZ
@given(grids(), st.data())
def test_words_through_a_square_are_the_words_whose_paths_use_it(
    case: tuple[list[str], int, int, set[str]], data: st.DataObject
) -> None:
    squares, width, height, words = case
    finder = Finder(WordList(words), width, height)
    square = data.draw(st.integers(0, width * height - 1))
    letters = data.draw(st.text("aeiotnrs", min_size=1, max_size=3))
    expected: set[tuple[str, tuple[int, ...]]] = set()
    for letter in set(letters):
        trial = list(squares)
        trial[square] = letter
        expected |= {(w, p) for w, p in brute_force(trial, width, height, words) if square in p}
    found = {(h.word, h.path) for h in finder.through(squares, square, letters)}
    assert found == expected


def test_paths_need_edges_not_corners() -> None:
    squares, width, height = read_grid("c.\n.a\n")
    finder = Finder(WordList(["ca"]), width, height)
    assert finder.all_paths(squares) == []
    squares, width, height = read_grid("ca\n..\n")
    assert [h.word for h in Finder(WordList(["ca"]), width, height).all_paths(squares)] == ["ca"]


def test_a_stop_callback_ends_the_search_early() -> None:
    squares, width, height = read_grid("cat\nate\n")
    finder = Finder(WordList(["cat", "at", "ate", "tea", "eat"]), width, height)
    assert len(finder.all_paths(squares, stop=lambda word, path: True)) == 1


def test_word_list_keeps_only_lower_case_letter_words_of_the_minimum_length() -> None:
    words = WordList(["cat", "a", "Dog", "e-mail", "ox", "café"], min_length=2)
    assert words.words == ["cat", "ox"] and "cat" in words and "a" not in words and len(words) == 2


def test_square_names() -> None:
    assert square_name(0, 12) == "A1" and square_name(143, 12) == "L12" and square_name(13, 12) == "B2"
    assert parse_square("b2", 12, 12) == 13 and parse_square("L12", 12, 12) == 143
    assert parse_square("M1", 12, 12) is None and parse_square("A13", 12, 12) is None
    assert parse_square("A0", 12, 12) is None and parse_square("hello", 12, 12) is None


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "empty"), ("ab\nc\n", "same number"), ("a1\n", "not a letter"), ("a" * 27, "26 squares")],
)
def test_bad_grids_say_why(text: str, message: str) -> None:
    with pytest.raises(GridError, match=message):
        read_grid(text)


def test_grids_read_dots_blanks_and_spaces() -> None:
    squares, width, height = read_grid("C A T\n. # e\n\n")
    assert (width, height) == (3, 2) and squares == ["c", "a", "t", EMPTY, BLANK, "e"]


def test_the_command_line_prints_every_word_with_a_path(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("C A T\n. E .\n")
    assert main(["words", "--grid", str(grid)]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    by_word = {row["word"]: row["path"] for row in rows}
    assert by_word["cat"] == ["A1", "B1", "C1"]
    assert by_word["eat"] == ["B2", "B1", "C1"]
    assert [r["word"] for r in rows] == sorted(by_word)
    assert all(len(r["path"]) == len(r["word"]) for r in rows)


def test_the_command_line_matches_find_words_and_reports_bad_input(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = find_words("CAT\n", min_length=3)
    assert [r["word"] for r in rows] == ["cat"]
    bad = tmp_path / "bad.txt"
    bad.write_text("C4T\n")
    assert main(["words", "--grid", str(bad)]) == 2
    assert "not a letter" in capsys.readouterr().err
    assert main(["words", "--grid", str(tmp_path / "missing.txt")]) == 2


def test_the_command_line_judges_words_as_the_game_and_its_finder_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert main(["judge", "LE", "Paris", "mary"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(r["word"], r["ok"], r["reason"]) for r in rows] == [
        ("le", False, "non-place"),
        ("paris", True, None),
        ("mary", False, "names"),
    ]
    # the rules a game recorded before the non-place default: LE is judged and found alike
    assert main(["judge", "--rules", "names,abbrev,contraction", "le"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    grid = tmp_path / "grid.txt"
    grid.write_text("L E\n")
    assert main(["words", "--grid", str(grid), "--rules", "names,abbrev,contraction"]) == 0
    assert "le" in {json.loads(line)["word"] for line in capsys.readouterr().out.splitlines()}
    assert [r["word"] for r in find_words("L E\n")] == ["el"]
    # one word a line on standard input, and a ban the game doesn't know
    monkeypatch.setattr("sys.stdin", io.StringIO("le\n\n"))
    assert main(["judge", "--language", "fr"]) == 0
    assert json.loads(capsys.readouterr().out)["ok"] is True
    assert main(["judge", "--rules", "vowels", "le"]) == 2
    assert "unknown kind of word: vowels" in capsys.readouterr().err
