"""moji's text on a page (adapters/web/text.py): moji's `code` as <code>, user parts escaped and
never read as markup; the page's Last moves show a move as the chat reads it, without backticks."""

from __future__ import annotations

import html
import re
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from adapters.web.text import web_html
from bot.core.clock import FakeClock
from bot.core.events import Command
from games.common.text import tidy, user
from tests.web.helpers import CHAT, current, give, web_table


def test_moji_s_code_is_code_and_the_rest_is_escaped() -> None:
    shown = web_html(f"{user('Ann')} plays `H8 across QUIZ` for 22 <points> & more")
    assert str(shown) == "Ann plays <code>H8 across QUIZ</code> for 22 &lt;points&gt; &amp; more"


def test_a_player_s_backticks_and_tags_stay_text() -> None:
    shown = str(web_html(f"{user('`Bob` <script>alert(1)</script>')} passes."))
    assert "<code>" not in shown and "<script>" not in shown
    assert shown == "`Bob` &lt;script&gt;alert(1)&lt;/script&gt; passes."


@given(st.text(max_size=40), st.text(max_size=40))
def test_user_text_is_only_ever_escaped(name: str, rest: str) -> None:
    shown = str(web_html(f"{user(name)}: {user(rest)}"))
    assert html.unescape(shown) == f"{tidy(name)}: {tidy(rest)}"
    assert "<code>" not in shown and not re.search(r"<[^ ]", shown.replace("&lt;", ""))


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=60))
def test_nothing_unescaped_gets_through(text: str) -> None:
    shown = str(web_html(text))
    assert "<" not in re.sub(r"</?code>", "", shown)
    assert "\ufdd0" not in shown and "\ufdd1" not in shown


async def test_the_last_moves_show_a_move_as_code_not_backticks(tmp_path: Path) -> None:
    async with web_table(tmp_path, FakeClock(1_000_000.0)) as table:
        first = current(table)
        give(table.session, {first: "QUIZSAT"})
        await table.table.runtime.ingest(Command("play", ("H8", "across", "QUIZ"), CHAT, first))
        game, token = (await table.link(None)).split("/g/", 1)[1].split("#", 1)
        client = table.client()
        await client.start_server()
        try:
            opened = await client.post(
                f"/g/{game}/session", json={"token": token}, headers={"Origin": table.url}
            )
            assert opened.status == 200
            page = await (await client.get(f"/g/{game}")).text()
        finally:
            await client.close()
        moves = re.search(r'<ol id="log">(.*?)</ol>', page, re.S)
        assert moves is not None
        # the game's opening line names its moves in backticks (`H8 across WORD`): code here
        assert "<code>H8 across WORD</code>" in moves.group(1), moves.group(1)
        assert f"{first.display_name} plays H8 across QUIZ for" in moves.group(1)
        assert "`" not in moves.group(1)
