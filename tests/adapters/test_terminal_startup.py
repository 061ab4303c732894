"""``python -m bot`` with no platform token: a terminal game only where someone can play it.

A service manager starts the bot with standard input on ``/dev/null`` (systemd, ``docker run
-d``); without a token it must say what to configure and stop, not play computer players
against each other for ever. A pipe or a file holds moves written in advance: the explicit
``terminal`` mode plays them.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import pytest

from adapters.terminal.app import stdin_lines
from adapters.terminal.live import input_source

ROOT = Path(__file__).resolve().parents[2]
TOKENS = ("DISCORD_TOKEN", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET", "SLACK_CLIENT_ID")


def run_bot(tmp_path: Path, *args: str, **kwargs: Any) -> subprocess.CompletedProcess[str]:
    """The bot as a process in an empty folder (no .env), with no platform token set."""
    env = {key: value for key, value in os.environ.items() if key not in TOKENS}
    env.update(PYTHONPATH=str(ROOT), DATABASE_URL=f"sqlite:///{tmp_path}/moji.db", NO_COLOR="1")
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=tmp_path,
        env=env,
        check=False,
        **kwargs,
    )


def test_a_service_without_a_token_says_what_to_configure_and_stops(tmp_path: Path) -> None:
    result = run_bot(tmp_path, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert result.stdout == ""  # no game, no table
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for name in ("DISCORD_TOKEN", "SLACK_BOT_TOKEN", "SLACK_APP_TOKEN", "SLACK_SIGNING_SECRET"):
        assert name in lines[0]
    assert "`python -m bot terminal`" in lines[0]


def test_without_a_token_a_pipe_is_not_a_player_either(tmp_path: Path) -> None:
    # a supervisor may hand the process a pipe nobody writes to: only a terminal means a player
    result = run_bot(tmp_path, input="cat\n")
    assert result.returncode == 2 and result.stdout == ""
    assert "python -m bot terminal" in result.stderr


def test_terminal_mode_with_nothing_to_read_is_one_line(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "terminal", stdin=subprocess.DEVNULL)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.strip().count("\n") == 0
    assert "/dev/null" in result.stderr and "Traceback" not in result.stderr


def test_terminal_mode_plays_moves_from_a_pipe(tmp_path: Path) -> None:
    result = run_bot(tmp_path, "terminal", "--bots", "1", input="/quit\n")
    assert result.returncode == 0, result.stderr
    assert "moji race" in result.stdout and "Thanks for playing moji!" in result.stdout


def test_terminal_mode_plays_moves_from_a_file(tmp_path: Path) -> None:
    moves = tmp_path / "moves.txt"
    moves.write_text("/quit\n")
    with moves.open() as stdin:
        result = run_bot(tmp_path, "terminal", "--bots", "1", stdin=stdin)
    assert result.returncode == 0, result.stderr
    assert "Thanks for playing moji!" in result.stdout


@pytest.fixture
def devnull() -> Iterator[IO[str]]:
    with open(os.devnull) as stream:
        yield stream


def test_input_sources(devnull: IO[str], tmp_path: Path) -> None:
    assert input_source(devnull) == "none"
    read, write = os.pipe()
    with open(read) as pipe, open(write, "w"):
        assert input_source(pipe) == "pipe"
    path = tmp_path / "moves.txt"
    path.write_text("")
    with path.open() as file:
        assert input_source(file) == "file"
    left, right = socket.socketpair()
    with left, right, left.makefile() as stream:
        assert input_source(stream) == "pipe"
    closed = open(os.devnull)  # noqa: SIM115
    closed.close()
    assert input_source(closed) == "none"
    assert input_source(object()) == "none"


async def test_dev_null_has_no_lines(devnull: IO[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # The event loop cannot watch /dev/null: reading it through the loop waited for ever.
    monkeypatch.setattr(sys, "stdin", devnull)
    assert [line async for line in stdin_lines()] == []


async def test_a_file_is_read_line_by_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "moves.txt"
    path.write_text("cat\n/quit\n")
    with path.open() as file:
        monkeypatch.setattr(sys, "stdin", file)
        assert [line async for line in stdin_lines()] == ["cat", "/quit"]


def test_a_database_that_cannot_open_is_one_line_and_nothing_more(tmp_path: Path) -> None:
    # (a folder where the SQLite file should be: the connection fails in aiosqlite's thread,
    # which used to print "Event loop is closed" tracebacks after the message, now and then)
    (tmp_path / "moji.db").mkdir()
    for _ in range(2):
        result = run_bot(tmp_path, "terminal", input="/quit\n")
        assert result.returncode == 2 and result.stdout == ""
        assert result.stderr.startswith("moji: cannot open the database: cannot open the SQLite database")
        assert result.stderr.strip().count("\n") == 0, result.stderr


def test_the_readmes_sample_session_is_what_the_bot_prints(tmp_path: Path) -> None:
    from adapters.terminal.app import LOCAL_GAME

    readme = (ROOT / "README.md").read_text()
    sample = readme.split('```text\n$ make run ARGS="cards=3"\n', 1)[1].split("```", 1)[0].splitlines()
    assert sample[0] == LOCAL_GAME  # (printed only at a terminal: `run` mode needs one)
    opening = sample[1 : sample.index("No proper nouns, abbreviations, contractions or foreign words.") + 1]
    result = run_bot(tmp_path, "terminal", "--bots", "2", "cards=3", input="/quit\n")
    printed = result.stdout.splitlines()
    start = printed.index(opening[0])
    assert printed[start : start + len(opening)] == opening
