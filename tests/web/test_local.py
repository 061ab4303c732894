"""``python -m bot web``: the real process serves a MOJO game against computer players on
127.0.0.1 and prints its link; the link opens the player's page; when the game ends, the next
one's link is printed."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]


async def test_python_m_bot_web_serves_a_game_and_prints_its_link(tmp_path: Path) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "PORT": "0",
        "DATABASE_URL": f"sqlite:///{tmp_path}/moji.db",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "web",
        "--bots",
        "1",
        "--env-file",
        os.devnull,
        cwd=tmp_path,
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    assert process.stdout is not None
    try:
        link = None
        seen = []
        while link is None:
            line = (await asyncio.wait_for(process.stdout.readline(), 120)).decode()
            assert line, f"the process ended without a link: {seen}"
            seen.append(line)
            found = re.search(r"open (http://127\.0\.0\.1:\d+/g/(\w+))#(\S+)", line)
            if found:
                link = found
        url, game, token = link.group(1), link.group(2), link.group(3)
        origin = url.split("/g/")[0]
        async with aiohttp.ClientSession(
            cookie_jar=aiohttp.CookieJar(unsafe=True)
        ) as http:  # (an IP address)
            async with http.post(f"{url}/session", json={"token": token}, headers={"Origin": origin}) as r:
                assert r.status == 200
            async with http.get(url) as r:
                page = await r.text()
                assert r.status == 200 and 'role="grid"' in page and 'id="rack"' in page and game in page
            # resigning from the page ends the game (a move out of turn too: resigning is always
            # allowed); the process offers the next game's link
            async with http.post(f"{url}/move", json={"action": "resign"}, headers={"Origin": origin}) as r:
                assert r.status == 200, await r.text()
        line = ""
        while "A new game is ready" not in line:
            line = (await asyncio.wait_for(process.stdout.readline(), 120)).decode()
            assert line, "the process ended instead of offering a new game"
        assert re.search(r"open http://127\.0\.0\.1:\d+/g/\w+#\S+", line)
    finally:
        process.send_signal(signal.SIGINT)
        await asyncio.wait_for(process.wait(), 120)


async def test_a_terminal_board_game_prints_its_page_s_link_when_public_url_is_set(tmp_path: Path) -> None:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "PYTHONPATH": str(ROOT),
        "PORT": "0",
        "HOST": "127.0.0.1",
        "PUBLIC_URL": "http://127.0.0.1:1",  # (the base of links; the page itself is not fetched here)
        "DATABASE_URL": f"sqlite:///{tmp_path}/moji.db",
    }
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "terminal",
        "--game",
        "board",
        "--bots",
        "1",
        "--speed",
        "20",
        "--no-colour",
        "--env-file",
        os.devnull,
        cwd=tmp_path,
        env=env,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )
    assert process.stdin is not None and process.stdout is not None
    try:
        seen: list[str] = []
        while not any("Go!" in line for line in seen):
            line = (await asyncio.wait_for(process.stdout.readline(), 120)).decode()
            assert line, f"the game never started: {seen}"
            seen.append(line)
        process.stdin.write(b"/hand\n")
        await process.stdin.drain()
        while not any("Open the board: " in line for line in seen):
            line = (await asyncio.wait_for(process.stdout.readline(), 120)).decode()
            assert line, f"no link was printed: {seen}"
            seen.append(line)
        printed = next(line for line in seen if "Open the board: " in line)
        assert re.search(r"Open the board: http://127\.0\.0\.1:1/g/\w+#\S+", printed)
    finally:
        process.stdin.write(b"/quit\n")
        process.stdin.close()
        try:
            await asyncio.wait_for(process.wait(), 120)
        except TimeoutError:
            process.kill()
            await process.wait()
