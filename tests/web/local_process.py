"""``python -m bot web`` as a real process, for the tests that play it: started on a free port and
its own SQLite file, read line by line as a person reads its terminal."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
#: How long a line or the exit may take at most (a hang guard for a loaded machine, not a budget).
PATIENCE = 120.0
LINK = r"open (http://127\.0\.0\.1:\d+/g/(\w+))#(\S+)"


@dataclass
class LocalWeb:
    """The running process and what it printed."""

    process: asyncio.subprocess.Process
    seen: list[str] = field(default_factory=list)

    async def line(self, pattern: str) -> re.Match[str]:
        """The first line from now on that matches ``pattern``."""
        assert self.process.stdout is not None
        while True:
            line = (await asyncio.wait_for(self.process.stdout.readline(), PATIENCE)).decode()
            assert line, f"the process ended without printing {pattern!r}: {self.seen}"
            self.seen.append(line)
            found = re.search(pattern, line)
            if found:
                return found

    async def link(self) -> tuple[str, str, str]:
        """The next game's link, as (page address, game id, token)."""
        found = await self.line(LINK)
        return found.group(1), found.group(2), found.group(3)

    async def stopped(self, how: signal.Signals = signal.SIGINT) -> tuple[int, str]:
        """Send ``how``; the exit status and what the process printed after it."""
        assert self.process.stdout is not None
        self.process.send_signal(how)
        rest = await asyncio.wait_for(self.process.stdout.read(), PATIENCE)
        return await asyncio.wait_for(self.process.wait(), PATIENCE), rest.decode()


def moji_env(tmp_path: Path, database: str = "moji.db", **settings: str) -> dict[str, str]:
    """A child's environment: this checkout's code, any free port, its own SQLite file in
    ``tmp_path``, and ``settings``."""
    return {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "PORT": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path}/{database}",
        **settings,
    }


async def start_moji(
    tmp_path: Path, *args: str, env: dict[str, str], **options: Any
) -> asyncio.subprocess.Process:
    """``python -m bot ARGS`` in ``tmp_path`` with ``env`` only (no .env file), its output piped;
    ``options`` go to :func:`asyncio.create_subprocess_exec` (stdin, preexec_fn…)."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        *args,
        "--env-file",
        os.devnull,
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        **options,
    )


def _ignore_sigint() -> None:  # (in the child, before it runs Python)
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextlib.asynccontextmanager
async def local_web(
    tmp_path: Path, *args: str, sigint_ignored: bool = False, database: str = "moji.db"
) -> AsyncIterator[LocalWeb]:
    """``python -m bot web ARGS`` on 127.0.0.1 (``sigint_ignored``: started as a shell starts a
    background job, or nohup a service, with SIGINT ignored); killed if a test leaves it running."""
    process = await start_moji(
        tmp_path,
        "web",
        *args,
        env=moji_env(tmp_path, database),
        preexec_fn=_ignore_sigint if sigint_ignored else None,
    )
    try:
        yield LocalWeb(process)
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
