"""``python -m bot web --game shed``: the real process serves a Shed game against a computer
player on 127.0.0.1, prints its link, and the link opens the player's page with their hand."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
from pathlib import Path

import aiohttp

ROOT = Path(__file__).resolve().parents[2]


async def test_python_m_bot_web_game_shed_serves_a_shed_page(tmp_path: Path) -> None:
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
        "--game",
        "shed",
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
        seen: list[str] = []
        found = None
        while found is None:
            line = (await asyncio.wait_for(process.stdout.readline(), 120)).decode()
            assert line, f"the process ended without a link: {seen}"
            seen.append(line)
            found = re.search(r"Your Shed game is ready: open (http://127\.0\.0\.1:\d+/g/\w+)#(\S+)", line)
        url, token = found.group(1), found.group(2)
        origin = url.split("/g/")[0]
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(f"{url}/session", json={"token": token}, headers={"Origin": origin}) as r:
                assert r.status == 200
            async with http.get(url) as r:
                page = await r.text()
                assert r.status == 200 and 'id="hand"' in page and "/static/shed.js" in page
    finally:
        process.send_signal(signal.SIGINT)
        await asyncio.wait_for(process.wait(), 60)
