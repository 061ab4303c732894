"""``python -m bot web``: the real process serves a MOJO game against computer players on
127.0.0.1 and prints its link; the link opens the player's page; when the game ends, the next
one's link is printed; Ctrl-C stops it at once, and it starts again where it stopped. (And a
terminal board game's page link.)"""

from __future__ import annotations

import asyncio
import re
import signal
from pathlib import Path

import aiohttp

from tests.web.local_process import local_web, moji_env, start_moji


async def test_python_m_bot_web_serves_a_game_and_prints_its_link(tmp_path: Path) -> None:
    async with local_web(tmp_path, "--bots", "1") as web:
        url, game, token = await web.link()
        origin = url.split("/g/")[0]
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:  # (an IP)
            async with http.post(f"{url}/session", json={"token": token}, headers={"Origin": origin}) as r:
                assert r.status == 200
            async with http.get(url) as r:
                page = await r.text()
                assert r.status == 200 and 'role="grid"' in page and 'id="rack"' in page and game in page
            # resigning from the page ends the game (a move out of turn too: resigning is always
            # allowed); the process offers the next game's link
            async with http.post(f"{url}/move", json={"action": "resign"}, headers={"Origin": origin}) as r:
                assert r.status == 200, await r.text()
        found = await web.line(r"A new game is ready|Traceback")
        assert found.group(0) != "Traceback"
        assert re.search(r"open http://127\.0\.0\.1:\d+/g/\w+#\S+", web.seen[-1])
        status, _ = await web.stopped()
        assert status in (0, 130)


async def test_ctrl_c_stops_it_with_a_page_open_even_started_in_the_background_and_it_starts_again(
    tmp_path: Path,
) -> None:
    """Ctrl-C (SIGINT) stops ``python -m bot web`` at once, with a page's live channel still
    open, also when it was started with SIGINT ignored (a shell's background job, nohup, a test
    harness: Python would keep it ignored); started again on the same database, the game it left
    is void and a new one is ready. SIGTERM (systemd, docker stop) stops it the same way."""
    async with local_web(tmp_path, "--bots", "1", sigint_ignored=True) as web:
        url, game, token = await web.link()
        origin = url.split("/g/")[0]
        async with aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True)) as http:
            async with http.post(f"{url}/session", json={"token": token}, headers={"Origin": origin}) as r:
                assert r.status == 200
            async with http.get(f"{url}/events", headers={"Origin": origin}) as live:
                assert live.status == 200
                await live.content.readline()  # the page is live
                status, said = await web.stopped(signal.SIGINT)
                assert await live.content.read() is not None  # (the channel ended with the process)
        assert status == 0 and "Bye!" in said and "Traceback" not in said

    async with local_web(tmp_path, "--bots", "1") as again:
        _, second, _ = await again.link()
        assert second != game
        assert "Traceback" not in "".join(again.seen)
        status, said = await again.stopped(signal.SIGTERM)
        assert status == 0 and "Traceback" not in said

    from storage import open_store

    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    try:
        assert await store.game_status(game) == "void", "the game left by Ctrl-C never counts"
    finally:
        await store.close()


async def test_a_terminal_board_game_prints_its_page_s_link_when_public_url_is_set(tmp_path: Path) -> None:
    # (PUBLIC_URL: the base of links; the page itself is not fetched here)
    env = moji_env(tmp_path, HOST="127.0.0.1", PUBLIC_URL="http://127.0.0.1:1")
    process = await start_moji(
        tmp_path,
        *("terminal", "--game", "board", "--bots", "1", "--speed", "20", "--no-colour"),
        env=env,
        stdin=asyncio.subprocess.PIPE,
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
