"""The code and docs say what is true now: nothing points at this project's issue numbers
("(#34)", "issue 31, item 9"), which mean nothing to someone reading it without the tracker.
(Another project's issue, ``aiohttp #7869``, is a citation and stays.)"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("bot", "games", "storage", "adapters", "tests", "bench", "docs")
SUFFIXES = {".py", ".sql", ".html", ".js", ".md"}
OURS = re.compile(r"\b[Ii]ssues? #?\d+\b|(?<![\w/.-])\(#\d+\b|(?<![\w/.-])#\d+,? (?:item|part)\b")


def test_no_comment_points_at_an_issue_number() -> None:
    found = []
    for folder in FOLDERS:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix not in SUFFIXES or ".venv" in path.parts or path == Path(__file__):
                continue
            for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), 1):
                if OURS.search(line):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)
