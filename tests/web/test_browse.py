"""Browsing a workspace on the web over HTTP: turned on and off in chat, the same numbers as the
chat's leaderboards, player pages, replays of the public table only, 404s, forget-me and purge.

A real aiohttp server and a real SQLite database; the chat is the local web platform's runtime
(the same core every platform runs), its games recorded by the store's game log."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlsplit

import aiohttp
import pytest

from adapters.web.server import CSP
from bot.core.clock import FakeClock
from tests.web.browse_site import ADMIN, ANN, BOB, CHAT, Site, browse_site, link_of


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with browse_site(tmp_path, FakeClock(1_000_000.0)) as s:
        yield s


def path_of(url: str) -> str:
    split = urlsplit(url)
    return split.path + (f"?{split.query}" if split.query else "")


async def get(site: Site, path: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as client, client.get(site.url + path) as response:
        return response.status, await response.text()


async def test_the_web_is_off_by_default_and_an_admin_turns_it_on_and_off(site: Site) -> None:
    await site.play_a_game()
    board = await site.say(ANN, "leaderboard")
    assert link_of(board) is None  # off by default: no link
    refused = await site.say(ANN, "config", "web", "on")
    assert "Only workspace admins" in refused.plain() and link_of(refused) is None
    on = await site.say(ADMIN, "config", "web", "on")
    first = link_of(on)
    assert first is not None and first.startswith(f"{site.url}/w/")
    token = urlsplit(first).path.split("/")[2]
    assert len(token) >= 32
    listing = await site.say(ADMIN, "config")
    assert "web = on" in listing.plain()

    # leaderboard and stats carry the link; the pages answer
    board = await site.say(ANN, "leaderboard")
    assert link_of(board) == f"{site.url}/w/{token}/?game=&period=all&lang="
    stats = await site.say(ANN, "stats")
    assert link_of(stats) == f"{site.url}/w/{token}/p/ann"
    for url in (link_of(board), link_of(stats), f"{site.url}/w/{token}/games"):
        assert url is not None
        status, html = await get(site, path_of(url))
        assert status == 200, html

    # on again keeps the address; off then on makes a new one, and the old one answers 404
    again = await site.say(ADMIN, "config", "web", "on")
    assert link_of(again) == first
    off = await site.say(ADMIN, "config", "web", "off")
    assert "off" in off.plain() and link_of(off) is None
    assert link_of(await site.say(ANN, "leaderboard")) is None
    for path in (f"/w/{token}/", f"/w/{token}/p/ann", f"/w/{token}/games"):
        status, html = await get(site, path)
        assert status == 404 and "Nothing here" in html, path
    fresh = link_of(await site.say(ADMIN, "config", "web", "on"))
    assert fresh is not None and fresh != first
    assert (await get(site, f"/w/{token}/"))[0] == 404
    assert (await get(site, path_of(fresh)))[0] == 200


async def test_pages_carry_the_security_headers_and_no_inline_script(site: Site) -> None:
    game_id = await site.play_a_game()
    base = path_of(link_of(await site.say(ADMIN, "config", "web", "on")) or "")
    async with aiohttp.ClientSession(site.url) as client:
        for path in (base, f"{base}p/ann", f"{base}games", f"{base}r/{game_id}", "/w/nothing/"):
            response = await client.get(path)
            html = await response.text()
            assert response.headers["Content-Security-Policy"] == CSP, path
            assert response.headers["Referrer-Policy"] == "no-referrer"
            assert response.headers["Cache-Control"] == "no-store"
            assert '<meta name="robots" content="noindex, nofollow">' in html, path
            assert "<script>" not in html and "style=" not in html and " on" + "click" not in html, path
        missing = await client.get(base.rstrip("/"), allow_redirects=False)
        assert missing.status == 302 and missing.headers["Location"] == base


async def test_leaderboard_pages_show_the_numbers_the_chat_shows(site: Site) -> None:
    await site.play_a_game()
    await site.play_a_game()
    base = path_of(link_of(await site.say(ADMIN, "config", "web", "on")) or "")
    for args, query in (
        ((), ""),
        (("board",), "?game=board"),
        (("board", "season"), "?game=board&period=season"),
        (("language=en",), "?lang=en"),
        (("board", "rating"), "?by=rating&game=board"),
    ):
        chat = await site.say(ANN, "leaderboard", *args)
        status, html = await get(site, base + query)
        assert status == 200
        rows = re.findall(
            r"<tr>\s*<td>(\d+)</td>\s*<th scope=\"row\"><a [^>]*>([^<]+)</a></th>\s*"
            r"<td class=\"num\">([^<]+)</td>\s*<td class=\"num\">(\d+)</td>\s*"
            r"<td class=\"num\">(\d+)</td>",
            html,
        )
        lines = [line for line in chat.plain().splitlines() if re.match(r"^\d+\. ", line)]
        assert rows and len(rows) == len(lines), (args, chat.plain(), rows)
        for (rank, name, points, games, wins), line in zip(rows, lines, strict=True):
            assert line.startswith(f"{rank}. {name} — "), (line, rows)
            assert points.split(" ")[0] in line and f"{games} games" in line and f"{wins} wins" in line


async def test_a_player_page_shows_record_rating_trend_best_words_and_recent_games(site: Site) -> None:
    game_id = await site.play_a_game()
    base = path_of(link_of(await site.say(ADMIN, "config", "web", "on")) or "")
    stats = await site.say(ANN, "stats")
    status, html = await get(site, f"{base}p/ann")
    assert status == 200
    assert "<caption>Record per game (all time)</caption>" in html and "MOJO" in html
    assert "<caption>Ratings and their trend</caption>" in html
    assert "<caption>Recent games</caption>" in html and f"r/{game_id}" in html
    games = re.search(r"(\d+) games? · (\d+) wins? · (\d+) points?", stats.plain())
    assert games is not None
    assert re.search(
        rf"<td class=\"num\">{games.group(1)}</td><td class=\"num\">{games.group(2)}</td>"
        rf"<td class=\"num\">{games.group(3)}</td>",
        html,
    )
    if "QUIZ" in stats.plain():
        assert "QUIZ" in html
    assert (await get(site, f"{base}p/nobody"))[0] == 404


async def test_a_replay_steps_through_the_public_table_and_never_a_rack(site: Site) -> None:
    game_id = await site.play_a_game()
    base = path_of(link_of(await site.say(ADMIN, "config", "web", "on")) or "")
    status, html = await get(site, f"{base}games")
    assert status == 200 and f"r/{game_id}" in html
    status, first = await get(site, f"{base}r/{game_id}")
    assert status == 200 and "Step 0 of" in first and 'rel="next"' in first and 'rel="prev"' not in first
    last = int(re.search(r"Step 0 of (\d+)", first).group(1))  # type: ignore[union-attr]
    assert last >= 3  # two moves, the resignation
    pages = [first] + [(await get(site, f"{base}r/{game_id}?step={n}"))[1] for n in range(1, last + 1)]
    tiles = [len(re.findall(r"<td class=\"tile", page)) for page in pages]
    assert tiles[0] == 0 and tiles[1] > 0 and tiles[2] > tiles[1], tiles  # each move's tiles, in turn
    word = site.moves[0].split()[-1].upper()
    assert word in pages[1] and "resign" in pages[last].lower()
    assert 'rel="next"' not in pages[-1] and f"Step {last} of {last}" in pages[-1]
    assert "<caption>The board after step 1</caption>" in pages[1] and 'scope="col"' in pages[1]
    # what the chat read, as the chat shows it: its `code` as code, never raw backticks
    said = [m for page in pages for m in re.findall(r'<section id="said".*?</section>', page, re.S)]
    assert said and not any("`" in part for part in said), said
    # the public table only: nothing any player was told privately (their racks) is ever on a page
    private = [
        line
        for view in site.said
        if view.kind == "private"
        for line in view.plain().splitlines()
        if "rack" in line.lower() and len(line) > 10
    ]
    assert private, "the players were told their racks privately"
    for page in pages:
        assert "Your rack" not in page and not any(line in page for line in private)
    # beyond the last step: the last step
    assert f"Step {last} of {last}" in (await get(site, f"{base}r/{game_id}?step=999"))[1]
    assert (await get(site, f"{base}r/nothing"))[0] == 404


async def test_voided_games_are_not_listed_nor_replayable(site: Site) -> None:
    await site.table.start([ANN, BOB], "board", ("bots=0",), chat=CHAT)
    session = site.table.runtime.session(CHAT)
    assert session is not None
    voided = session.game_id
    await site.say(ANN, "stop")
    assert await site.store.game_status(voided) == "void"
    base = path_of(link_of(await site.say(ADMIN, "config", "web", "on")) or "")
    status, html = await get(site, f"{base}games")
    assert status == 200 and voided not in html
    assert (await get(site, f"{base}r/{voided}"))[0] == 404


async def test_forget_me_and_purge_take_a_player_off_every_page(site: Site) -> None:
    game_id = await site.play_a_game()
    base = path_of(link_of(await site.say(ADMIN, "config", "web", "on")) or "")
    assert "Bob" in (await get(site, base))[1]
    forgot = await site.say(BOB, "forget-me", "confirm")
    assert "forgot" in forgot.plain().lower() or "deleted" in forgot.plain().lower(), forgot.plain()
    board = (await get(site, base))[1]
    assert "Bob" not in board and "p/bob" not in board and "Ann" in board
    assert (await get(site, f"{base}p/bob"))[0] == 404
    assert "Bob" not in (await get(site, f"{base}p/ann"))[1]
    games = (await get(site, f"{base}games"))[1]
    assert game_id not in games and "Bob" not in games  # (forget-me deletes the logs of their games)
    assert (await get(site, f"{base}r/{game_id}"))[0] == 404
    purged = await site.say(ADMIN, "purge", "confirm")
    assert "deleted" in purged.plain().lower(), purged.plain()
    assert (await get(site, base))[0] == 404
    assert (await get(site, f"{base}p/ann"))[0] == 404


def test_the_access_log_never_shows_a_workspace_s_token() -> None:
    from aiohttp.test_utils import make_mocked_request

    from bot.process.health import logged_path

    for path, shown in (
        ("/w/SECRETtoken123/", "/w/…/"),
        ("/w/SECRETtoken123", "/w/…"),
        ("/w/SECRETtoken123/r/g1?step=3", "/w/…/r/g1?step=…"),
        ("/g/game1", "/g/game1"),
    ):
        assert logged_path(make_mocked_request("GET", path)) == shown
