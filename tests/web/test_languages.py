"""Which language a page speaks (docs/LANGUAGES.md): the browser's ``Accept-Language`` where a
catalogue speaks it, else the chat's; and every text a page shows comes through the catalogue
(the pseudo-language scan)."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import aiohttp
import pytest
from markupsafe import Markup

from adapters.web.i18n import accepted, gettext, ngettext, page_language
from adapters.web.scripts import messages
from bot.core.clock import FakeClock
from games.common.languages import LANGUAGES
from games.common.speech import _, speaking
from tests.speech.pseudo import english_words, unmarked
from tests.web.browse_site import ADMIN, browse_site, link_of
from tests.web.browse_site import CHAT as BROWSED
from tests.web.helpers import ANN, CHAT, Table, web_table
from tests.web.test_pages import opened


@pytest.fixture
async def table(tmp_path: Path):  # type: ignore[no-untyped-def]
    async with web_table(tmp_path, FakeClock(1_000_000.0)) as t:
        yield t


@pytest.mark.parametrize(
    ("header", "code"),
    [
        ("de-CH, fr;q=0.8", "de"),
        ("pt-BR, es;q=0.5", "es"),
        ("fr;q=0.2, nl;q=0.9", "nl"),
        ("en-GB,en;q=0.9", "en"),
        ("es-419", "es"),
        ("pt-BR, ja", None),
        ("de;q=0, fr", "fr"),
        ("*", None),
        ("", None),
        (None, None),
    ],
)
def test_a_browser_s_best_liked_language_that_moji_speaks(header: str | None, code: str | None) -> None:
    assert accepted(header) == code


def test_a_page_falls_back_to_the_chat_s_language_then_english() -> None:
    assert page_language("pt-BR", "nl") == "nl"
    assert page_language("fr-FR", "nl") == "fr"
    assert page_language(None, None) == "en"
    assert page_language(None, "xx") == "en"


def test_template_text_escapes_its_values_once_and_shows_commands_as_code() -> None:
    said = gettext("Ask moji for `leaderboard` in the chat: its button opens the current one.")
    assert isinstance(said, Markup) and "<code>leaderboard</code>" in said
    assert gettext("{name} (you)", name="<b>Ann</b>") == "&lt;b&gt;Ann&lt;/b&gt; (you)"
    assert gettext("Time left: {clock}", clock=Markup("<span>1</span>")) == "Time left: <span>1</span>"
    assert ngettext("{count} point", "{count} points", 1) == "1 point"
    with speaking("de"):
        assert ngettext("{count} point", "{count} points", 1234).startswith("1.234 ")


class _Visible(HTMLParser):
    """What a person reads or hears of a page: its text, its accessible names and prompts, and
    the scripts' messages (each value of the JSON block)."""

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0
        self._messages = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = dict(attrs)
        if tag in ("script", "style"):
            self._skip += 1
            self._messages = named.get("id") == "moji-messages"
        for name in ("aria-label", "placeholder", "title", "alt", "data-empty"):
            if named.get(name):
                self.parts.append(str(named[name]))

    def handle_endtag(self, tag: str) -> None:
        if tag in ("script", "style"):
            self._skip -= 1
            self._messages = False

    def handle_data(self, data: str) -> None:
        if self._messages:
            self.parts.extend(json.loads(data).values())
        elif not self._skip:
            self.parts.append(data)


def visible(html: str) -> str:
    reader = _Visible()
    reader.feed(html)
    return "\n".join(reader.parts)


async def test_a_page_speaks_the_browser_s_language_then_the_chat_s(table: Table) -> None:
    client, game = await opened(table, ANN)
    try:
        german = await (await client.get(f"/g/{game}", headers={"Accept-Language": "de-DE,de;q=0.9"})).text()
        assert '<html lang="de">' in german
        with speaking("de"):
            assert _("Your rack") in german and json.dumps(messages()["tilesBack"])[1:-1] in german
        # a browser whose languages moji does not speak reads the chat's (here: English)
        other = await (await client.get(f"/g/{game}", headers={"Accept-Language": "pt-BR"})).text()
        assert '<html lang="en">' in other and "Your rack" in other
        # a refusal speaks the page's language too
        refused = await client.post(
            f"/g/{game}/move", json={"action": "jump"}, headers={"Origin": table.url, "Accept-Language": "de"}
        )
        with speaking("de"):
            assert (await refused.json())["reason"] == _("That's not a move: place, pass, swap or resign.")
    finally:
        await client.close()


async def test_every_text_of_a_player_s_page_comes_through_the_catalogue(table: Table) -> None:
    client, game = await opened(table, ANN)
    try:
        html = await (await client.get(f"/g/{game}", headers={"Accept-Language": "qps"})).text()
        assert '<html lang="en">' in html
        # the game's own words (its title, lines, scores, moves, names, letters) are the game's:
        # its own scan checks them; the page's own text is checked here
        with speaking("qps"):
            snapshot = table.session.snapshot(None)
        said = table.table.companion.moves.get(CHAT, [])
        played = " ".join(
            [snapshot.title, *snapshot.lines, *(f"{s.name} {s.detail}" for s in snapshot.seats), *said]
        )
        allowed = set(re.findall(r"[^\W\d_]{2,}", played)) | {"Ann", "Bob"}
        found = unmarked(visible(html), allowed)
        assert found == [], found
    finally:
        await client.close()


async def test_every_text_of_the_browsing_pages_comes_through_the_catalogue(tmp_path: Path) -> None:
    async with browse_site(tmp_path, FakeClock(1_000_000.0)) as site:
        await site.play_a_game()
        on = await site.say(ADMIN, "config", "web", "on")
        base = link_of(on)
        assert base is not None
        token = base.split("/w/", 1)[1].split("/", 1)[0]
        # what the pages show that is not moji's sentences: names, game titles and language
        # names (the games' and the languages' own), results kept as the chat read them, dates
        allowed = {"Ann", "Bob", "UTC"} | {info.title for info in site.table.runtime.manager.registry}
        allowed |= {language.name for language in LANGUAGES.values()}
        for kept in await site.browse.browse.finished_games(BROWSED.platform, BROWSED.workspace_id, limit=50):
            allowed |= set(re.findall(r"[^\W\d_]{2,}", kept.summary))
        words = {w for title in list(allowed) for w in re.findall(r"[^\W\d_]{2,}", title)}
        async with aiohttp.ClientSession(headers={"Accept-Language": "qps"}) as client:
            for path in ("/", "/?by=rating", "/p/ann", "/games", "/p/nobody", "/r/nogame"):
                async with client.get(f"{site.url}/w/{token}{path}") as response:
                    html = await response.text()
                found = unmarked(visible(html), allowed | words)
                assert found == [], (path, found)
            async with client.get(f"{site.url}/w/{token}/", headers={"Accept-Language": "de"}) as response:
                html = await response.text()
            assert '<html lang="de">' in html


@pytest.mark.parametrize("game", ["paths", "shed", "dice"])
async def test_every_text_of_each_game_s_page_comes_through_the_catalogue(tmp_path: Path, game: str) -> None:
    async with web_table(tmp_path, FakeClock(1_000_000.0), game=game) as table:
        client, game_id = await opened(table, ANN)
        try:
            html = await (await client.get(f"/g/{game_id}", headers={"Accept-Language": "qps"})).text()
            with speaking("qps"):
                snapshot = table.session.snapshot(ANN.seat_id)
                hand = [table.session.snapshot(None)]
            said = table.table.companion.moves.get(CHAT, [])
            played = " ".join(
                [
                    s.title
                    + " "
                    + " ".join(s.lines)
                    + " "
                    + " ".join(f"{x.name} {x.detail}" for x in s.seats)
                    for s in (snapshot, *hand)
                ]
                + said
            )
            # (a shed action card's name and help are the game's own words)
            engine = table.session.engine
            if game == "shed":
                with speaking("qps"):
                    played += " ".join(f"{c.name} {c.help}" for c in engine.hand_of(ANN.seat_id))
            allowed = set(re.findall(r"[^\W\d_]{2,}", played)) | {"Ann", "Bob", "SHOCK", "ATE", "TEA"}
            found = unmarked(visible(html), allowed)
            assert found == [], found
        finally:
            await client.close()


@pytest.mark.parametrize("code", ["nl", "fr", "de", "es"])
@pytest.mark.parametrize("game", ["board", "paths", "shed", "dice"])
async def test_each_game_s_page_speaks_the_browser_s_language(tmp_path: Path, game: str, code: str) -> None:
    """In a workspace that speaks ``code``, a player whose browser says it too reads the whole page
    in it: the page's own words, the game's (its title, lines, seats) and what the chat read, with
    no English word among them (nor in the messages its script shows)."""
    async with web_table(tmp_path, FakeClock(1_000_000.0), game=game, language=code) as table:
        client, game_id = await opened(table, ANN)
        try:
            html = await (await client.get(f"/g/{game_id}", headers={"Accept-Language": code})).text()
            assert f'<html lang="{code}">' in html
            english = english_words([visible(html)], {"Ann", "Bob"})
            assert english == [], english
        finally:
            await client.close()
