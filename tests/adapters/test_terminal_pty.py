"""`python -m bot terminal` in a real pseudo-terminal: a whole race to the result.

The bot runs with a sped-up clock (``--speed``); the test waits for what it
expects to read, never for a length of time.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pexpect = pytest.importorskip("pexpect")

from games.common.words import WordRules  # noqa: E402
from games.lexicon import load  # noqa: E402
from storage import open_store  # noqa: E402

END = r"moji Master|Nobody scored"


class AnswersCursorRequests:
    """Plays the terminal's part in prompt_toolkit's cursor position request (``ESC [6n``).

    A real terminal answers it at once; unanswered, the prompt waits for the answer before
    it draws, and never shows the table under the input line.
    """

    def __init__(self, child: Any) -> None:  # a pexpect.spawn
        self.child = child
        self.tail = ""

    def write(self, data: str) -> None:
        seen = self.tail + data
        for _ in range(seen.count("\x1b[6n")):
            self.child.send("\x1b[1;1R")  # the cursor is on the first row: room below for the table
        self.tail = seen[-3:] if not seen.endswith("\x1b[6n") else ""

    def flush(self) -> None:
        pass


def terminal(args: list[str], env: dict[str, str], **kwargs: Any) -> Any:
    """``python -m bot`` in a pseudo-terminal that answers like a real one."""
    child = pexpect.spawn(
        sys.executable, args, env=dict(env, TERM="xterm"), encoding="utf-8", dimensions=(40, 120), **kwargs
    )
    child.logfile_read = AnswersCursorRequests(child)
    return child


def test_make_run_with_no_tokens_plays_a_terminal_race_to_the_end(tmp_path: Path) -> None:
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path}/moji.db", NO_COLOR="1")
    for key in ("DISCORD_TOKEN", "SLACK_BOT_TOKEN", "SLACK_CLIENT_ID"):
        env.pop(key, None)
    # No mode and no tokens: what `make run` does on a fresh machine. It runs in an empty
    # directory, so a developer's own .env cannot turn a platform on.
    args = ["-m", "bot", "--bots", "2", "--level", "hard", "--speed", "20", "--no-colour", "cards=3"]
    child = terminal(args, env, cwd=str(tmp_path), timeout=90)
    lexicon = load("casual")
    typed = 0
    while True:
        found = child.expect([r"letters: ([A-Z](?: [A-Z])*)", END])
        if found == 1:
            break
        letters = child.match.group(1).lower().split()
        words = lexicon.examples(letters, WordRules())
        if words and typed < 3:
            child.sendline(words[-1])
            typed += 1
    child.expect(r"Press Enter to play again, or type /quit\.")
    transcript = child.before
    assert "1. " in transcript and "pts" in transcript
    child.sendline("/quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    async def recorded() -> int:
        store = open_store(env["DATABASE_URL"])
        await store.open()
        try:
            stats = await store.player_stats("terminal", "local", "you")
            return stats.games if stats else 0
        finally:
            await store.close()

    assert asyncio.run(recorded()) == 1


def test_help_and_a_bad_setting_are_one_liners(tmp_path: Path) -> None:
    env = dict(os.environ, DATABASE_URL="mysql://nope")
    out = pexpect.run(f"{sys.executable} -m bot terminal", env=env, encoding="utf-8", timeout=60)
    lines = [line for line in out.strip().splitlines() if line.strip()]
    assert len(lines) == 1 and re.search(r"DATABASE_URL", lines[0]), out
    assert "Traceback" not in out


def test_eagle_eyes_in_the_terminal_takes_a_private_list(tmp_path: Path) -> None:
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path}/moji.db", NO_COLOR="1")
    # The test's own word finder is ready before the round's (sped-up) clock starts, so a
    # slow lexicon load on a busy machine cannot make it miss the round.
    lexicon = load("casual").prepare()
    child = terminal(
        [
            "-m",
            "bot",
            "terminal",
            "--bots",
            "1",
            "--speed",
            "10",
            "--no-colour",
            "variation=eagle-eyes",
            "rounds=1",
        ],
        env,
        timeout=90,
    )
    child.expect(r"letters: ([A-Z](?: [A-Z])*)")
    letters = child.match.group(1).lower().split()
    words = lexicon.examples(letters, WordRules(), limit=2)
    assert words
    child.sendline(words[0])  # typed in the open: refused, not added
    child.expect("lists are secret")
    child.sendline("/list " + " ".join(words))
    child.expect(r"Your list \(\d+ words?\)")
    child.expect("Time! Round 1")
    child.expect(r"Press Enter to play again, or type /quit\.")
    child.sendline("/quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


COLOUR = re.compile(r"\x1b\[(?:\d+;)*(?:3[0-8]|4[0-8]|9[0-7]|10[0-7])(?:;\d+)*m")


def test_the_table_holds_still_under_the_line_being_typed(tmp_path: Path) -> None:
    # NO_COLOR alone (no --no-colour) turns colour off.
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path}/moji.db", NO_COLOR="1")
    args = ["-m", "bot", "terminal", "--bots", "2", "--level", "hard", "--speed", "20"]
    child = terminal(args, env, timeout=90)
    child.expect(r"letters: [A-Z]")
    child.send("xy")  # half a word, not yet sent…
    child.expect(r"takes [A-Z ]+ with")  # …when a computer player claims cards
    child.expect(r"> xy")  # the message scrolls above the prompt, and the typed line is drawn again, whole
    child.expect(r"⏳ \d+ s left")  # the table stays under it, the hourglass ticking
    shown = child.before + child.after
    child.send("\x15/quit\r")  # Ctrl-U clears the half word
    child.expect("Thanks for playing moji!")
    shown += child.before
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert not COLOUR.search(shown)


def test_a_dumb_terminal_gets_plain_lines(tmp_path: Path) -> None:
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path}/moji.db", TERM="dumb")
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "bot", "terminal", "--bots", "1", "--speed", "20"],
        env=env,
        encoding="utf-8",
        timeout=90,
        dimensions=(40, 120),
    )
    child.logfile_read = screen = io.StringIO()
    child.expect(r"letters: [A-Z]")
    child.sendline("/quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "Thanks for playing moji!" in screen.getvalue()
    assert "\x1b" not in screen.getvalue(), "no colours, no prompt drawing"


RACK = re.compile(r"^Your rack: ((?:[A-Z?] ){6}[A-Z?])$")
ONLY_YOU = "(only you see this)"


def _stripped(display: list[str]) -> list[str]:
    lines = [line.rstrip() for line in display]
    while lines and not lines[-1]:
        lines.pop()
    return lines


def _live_area(lines: list[str]) -> list[str]:
    """The lines of the live table at the bottom of the window: under its rule."""
    rules = [n for n, line in enumerate(lines) if line.startswith("────")]
    return lines[rules[-1] + 1 :] if rules else []


def _racks(lines: list[str]) -> list[str]:
    return [found.group(1) for line in lines if (found := RACK.match(line))]


def _notes(lines: list[str]) -> list[str]:
    """The racks the game told the person privately, printed above the live table."""
    return _racks([line for line, after in itertools.pairwise(lines) if after == ONLY_YOU])


def test_a_board_game_keeps_your_own_rack_in_the_live_table(tmp_path: Path) -> None:
    pyte = pytest.importorskip("pyte")
    from tests.adapters.test_terminal_width import Screen

    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path}/moji.db", NO_COLOR="1")
    args = [
        "-m",
        "bot",
        "terminal",
        "--game",
        "board",
        "--bots",
        "1",
        "--speed",
        "4",
        "--no-colour",
        "live=on",
    ]
    child = terminal(args, env, timeout=120)
    child.logfile_read = None  # the screen answers the cursor requests
    screen = Screen(120, 40, child)
    stream = pyte.Stream(screen)

    def until(wanted: Callable[[list[str]], object]) -> list[str]:
        """Read what the bot draws until ``wanted(the window's lines)``; those lines then."""
        while True:
            stream.feed(child.read_nonblocking(4096, timeout=90))
            lines = _stripped(screen.display)
            if wanted(lines):
                return lines
            assert "Press Enter to play again" not in "\n".join(lines), "game over first"

    try:
        lines = until(
            lambda lines: "Your turn. Bag:" in "\n".join(_live_area(lines)) and _racks(_live_area(lines))
        )
        area = _live_area(lines)
        (rack,) = _racks(area)  # one rack in the live table: yours, the only one a player may see
        assert area[-1] == f"Your rack: {rack}", "under the table, nearest the line typed"
        assert not any("rack" in line.lower() for line in area[:-1]), area
        child.send(f"swap {rack.replace(' ', '')}\r")
        # the game tells the new rack privately, and the live table shows it
        lines = until(lambda lines: _notes(lines)[-1:] == _racks(_live_area(lines)) not in ([], [rack]))
        assert "You swapped 7 tiles." in "\n".join(lines)
        child.send("/quit\r")
        child.expect(pexpect.EOF)
    finally:
        child.close(force=True)


def test_at_the_play_again_question_a_command_is_answered(tmp_path: Path) -> None:
    env = dict(os.environ, DATABASE_URL=f"sqlite:///{tmp_path}/moji.db", NO_COLOR="1")
    args = [
        "-m",
        "bot",
        "terminal",
        "--bots",
        "1",
        "--level",
        "hard",
        "--speed",
        "20",
        "--no-colour",
        "cards=3",
    ]
    child = terminal(args, env, timeout=90)
    child.expect(r"Press Enter to play again, or type /quit\.")
    child.sendline("/leaderboard race rating")
    child.expect(r"Ratings — moji")
    child.expect(r"1\. You — [\d,]+ \(provisional\) · 1 game")
    child.expect(r"Press Enter to play again, or type /quit\.")  # asked again, under the answer
    assert "(The game is over.)" not in child.before
    child.sendline("/quit")
    child.expect("Thanks for playing moji!")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
