"""``python -m bot web --game shed``: the real process serves a Shed game against a computer
player on 127.0.0.1, prints its link, and the link opens the player's page with their hand."""

from __future__ import annotations

from pathlib import Path

import aiohttp

from tests.web.local_process import local_web


async def test_python_m_bot_web_game_shed_serves_a_shed_page(tmp_path: Path) -> None:
    async with local_web(tmp_path, "--game", "shed", "--bots", "1") as web:
        found = await web.line(r"Your Shed game is ready: open (http://127\.0\.0\.1:\d+/g/\w+)#(\S+)")
        url, token = found.group(1), found.group(2)
        origin = url.split("/g/")[0]
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(f"{url}/session", json={"token": token}, headers={"Origin": origin}) as r:
                assert r.status == 200
            async with http.get(url) as r:
                page = await r.text()
                assert r.status == 200 and 'id="hand"' in page and "/static/shed.js" in page
        status, _ = await web.stopped()
        assert status == 0
