"""A workspace's tournaments on its browsing pages, over HTTP: the list, a Swiss tournament's
standings, pairings, crosstable and replay links, an arena's standings, the live part as JSON,
404s for an unknown tournament or another workspace's, and a hostile name escaped everywhere.

A real aiohttp server and a real SQLite database (tests/web/browse_site.py); tournaments are
written through ``store.tournaments``, as the bot writes them."""

from __future__ import annotations

import html as htmlib
import re
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from markupsafe import escape

from adapters.web.server import CSP
from bot.core.clock import FakeClock
from storage.tournament_records import tournament_game_id
from tests.web.browse_site import Site, browse_site
from tests.web.tournament_data import HOSTILE, NOW, arena, finish, record_as, swiss, tournament


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Site]:
    async with browse_site(tmp_path, FakeClock(NOW)) as s:
        yield s


async def base_of(site: Site) -> str:
    """The workspace's pages' base path (its web turned on)."""
    return f"/w/{await site.store.browse.turn_on('web', 'W1', NOW)}/"


async def get(site: Site, path: str, **headers: str) -> tuple[int, str]:
    async with aiohttp.ClientSession() as client, client.get(site.url + path, headers=headers) as response:
        return response.status, await response.text()


def section(html: str, caption: str) -> str:
    """The table whose caption is ``caption``."""
    found = re.search(rf"<caption>{re.escape(str(escape(caption)))}</caption>(.*?)</table>", html, re.S)
    assert found is not None, caption
    return found.group(1)


def rows(table: str) -> list[list[str]]:
    """A table's body rows, each cell's text (tags dropped, entities read)."""
    body = table.split("<tbody>", 1)[1]
    return [
        [
            htmlib.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        ]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S)
    ]


async def test_the_list_shows_the_workspace_s_tournaments_newest_first_and_the_nav_links_it(
    site: Site,
) -> None:
    await swiss(site.store)
    await arena(site.store)
    await site.store.tournaments.create_tournament(tournament("elsewhere", workspace="W2"))
    base = await base_of(site)
    status, html = await get(site, base)
    assert status == 200 and f'<a href="{base}tournaments">Tournaments</a>' in html
    status, html = await get(site, f"{base}tournaments")
    assert status == 200, html
    listed = rows(section(html, "This workspace's tournaments, newest first"))
    assert [r[0] for r in listed] == ["MOJO · arena", "MOJO · Swiss"]  # (the same created_at: by id)
    assert listed[1][1:] == ["running", "1970-01-12 13:46 UTC", "5"]
    assert f'href="{base}tournaments/sw1"' in html and f'href="{base}tournaments/ar1"' in html
    assert "elsewhere" not in html


async def test_a_swiss_tournament_shows_standings_pairings_crosstable_and_replay_links(site: Site) -> None:
    played = await site.play_a_game()
    await swiss(site.store)
    await record_as(site.store, played, tournament_game_id("sw1", 1, 1))
    base = await base_of(site)
    status, html = await get(site, f"{base}tournaments/sw1")
    assert status == 200, html
    assert "<h1>MOJO · Swiss</h1>" in html
    assert "Round 3 of 3" in html and "Each round lasts up to 1 h." in html

    standings = rows(section(html, "Standings"))
    # place, player, points, Buchholz, Sonneborn-Berger, game points
    assert standings[0][:3] == ["1", "Ann", "2"]
    assert [r[1] for r in standings].index("Ann") < [r[1] for r in standings].index("Bob")
    assert ["Cat", "1½"] in [r[1:3] for r in standings] and ["Dan", "1½"] in [r[1:3] for r in standings]
    assert standings[-1][1:3] == ["Bob", "0"]

    first = rows(section(html, "Pairings and results of round 1"))
    assert first == [
        ["1", "Ann", "Bob", "1–0", "Replay the game of Ann, Bob"],
        ["2", "Cat", "Dan", "½–½", ""],
        ["3", HOSTILE, "—", "bye", ""],
    ]
    second = rows(section(html, "Pairings and results of round 2"))
    assert second[0][3] == "1–0 (adjudicated)" and second[1][3] == "1–0" and second[2][3] == "bye"
    third = rows(section(html, "Pairings and results of round 3"))
    assert [r[3] for r in third] == ["playing", "playing", "bye"]
    assert html.index("round 3</caption>") < html.index("round 1</caption>")  # the newest first

    # the replay link of the recorded game, and only of it; it opens the replay
    replay = f"{base}r/{tournament_game_id('sw1', 1, 1)}"
    assert html.count(f'href="{base}r/') == 1 and f'href="{replay}"' in html
    assert (await get(site, replay))[0] == 200

    cross = rows(section(html, "Points each player scored against each opponent"))
    order = [r[1] for r in standings]
    assert [r[0] for r in cross] == [f"{n}. {name}" for n, name in enumerate(order, 1)]
    ann = cross[order.index("Ann")]
    assert ann[1 + order.index("Bob")] == "1" and ann[1 + order.index("Cat")] == "1"
    assert ann[1 + order.index("Ann")] == "×" and ann[1 + order.index("Dan")] == ""
    cat = cross[order.index("Cat")]
    assert cat[1 + order.index("Dan")] == "½" and cat[1 + order.index("Ann")] == "0"


async def test_an_arena_shows_points_games_wins_and_who_is_on_fire(site: Site) -> None:
    await arena(site.store)
    base = await base_of(site)
    status, html = await get(site, f"{base}tournaments/ar1")
    assert status == 200, html
    assert "<h1>MOJO · arena</h1>" in html and "The arena is open for 1 h." in html
    standings = rows(section(html, "Standings"))
    assert standings == [
        ["1", "Ann 🔥", "6", "2", "2"],
        ["2", "Bob", "2", "2", "1"],
        ["3", "Cat", "0", "3", "0"],
    ]
    assert 'aria-label="on fire"' in html
    assert "Crosstable" not in html and "Buchholz" not in html
    games = rows(section(html, "The arena's latest games"))
    assert games[0][1:3] == ["Ann, Cat", "Ann 4, Cat 0"]


async def test_unknown_and_other_workspaces_tournaments_answer_404(site: Site) -> None:
    await swiss(site.store)
    await site.store.tournaments.create_tournament(tournament("theirs", workspace="W2", channel="C9"))
    base = await base_of(site)
    for path in (
        f"{base}tournaments/nope",
        f"{base}tournaments/theirs",
        f"{base}tournaments/theirs/live",
        f"{base}tournaments/{'x' * 200}",
        "/w/not-a-token/tournaments",
        "/w/not-a-token/tournaments/sw1",
    ):
        status, html = await get(site, path)
        assert status == 404 and "Nothing here" in html, path
    assert "This workspace has no such tournament." in (await get(site, f"{base}tournaments/theirs"))[1]


async def test_a_hostile_name_is_escaped_on_every_page_and_in_the_live_part(site: Site) -> None:
    await swiss(site.store)
    base = await base_of(site)
    escaped = "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&lt;b&gt;Eve&lt;/b&gt;"
    for path in (f"{base}tournaments/sw1",):
        status, html = await get(site, path)
        assert status == 200 and HOSTILE not in html and "<b>Eve" not in html and escaped in html
    async with (
        aiohttp.ClientSession() as client,
        client.get(f"{site.url}{base}tournaments/sw1/live") as response,
    ):
        assert response.status == 200 and response.headers["Content-Security-Policy"] == CSP
        data = await response.json()
    assert HOSTILE not in data["html"] and escaped in data["html"]


async def test_the_live_part_changes_with_a_result_and_says_whether_the_tournament_is_live(
    site: Site,
) -> None:
    await swiss(site.store)
    base = await base_of(site)
    status, page = await get(site, f"{base}tournaments/sw1")
    assert status == 200 and 'data-live="true"' in page
    version = re.search(r'data-version="([0-9a-f]+)"', page)
    assert version is not None
    async with aiohttp.ClientSession() as client:
        async with client.get(f"{site.url}{base}tournaments/sw1/live") as response:
            before = await response.json()
        assert before["live"] is True and before["version"] == version.group(1)
        await finish(site.store, "sw1", 3, 1, [("ann", 300, 1, 1.0), ("eve", 100, 2, 0.0)])
        async with client.get(f"{site.url}{base}tournaments/sw1/live") as response:
            after = await response.json()
        assert after["version"] != before["version"]
        assert "1–0" in after["html"].split("round 3</caption>", 1)[1].split("</table>", 1)[0]
        await site.store.tournaments.end_tournament("sw1", "finished", NOW + 20_000)
        async with client.get(f"{site.url}{base}tournaments/sw1/live") as response:
            ended = await response.json()
        assert ended["live"] is False and "finished" in ended["html"]


async def test_the_pages_speak_the_reader_s_language(site: Site) -> None:
    await swiss(site.store)
    base = await base_of(site)
    status, html = await get(site, f"{base}tournaments/sw1", **{"Accept-Language": "de-DE"})
    assert status == 200 and '<html lang="de">' in html
    assert "Standings" not in html and "Round 3 of 3" not in html


async def test_the_chat_answers_link_to_the_tournaments_page(site: Site) -> None:
    from urllib.parse import urlsplit

    from tests.web.browse_site import ADMIN, ANN, link_of

    await site.say(ANN, "tournament", "swiss", "dice", "bots=3", "register=1h")
    status = await site.say(ANN, "tournament")
    assert "Registration is open" in status.plain() and link_of(status) is None  # (web off)
    await site.say(ADMIN, "config", "web", "on")
    for asked in (("tournament",), ("tournament", "standings")):
        answer = await site.say(ANN, *asked)
        url = link_of(answer)
        assert url is not None and "/tournaments/" in url, answer
        code, html = await get(site, urlsplit(url).path)
        assert code == 200 and "Ann" in html
