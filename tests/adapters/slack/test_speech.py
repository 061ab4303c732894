"""moji speaks each Slack person's language: their locale from ``users.info`` (asked once with
``include_locale``, cached like their name), and the adapter's own words (blocks, fallback text,
date tokens, help, App Home, notices) through the catalogue (scanned in the pseudo-language)."""

from __future__ import annotations

import dataclasses

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.blocks import fallback_text, render
from adapters.slack.commands import help_view, slack_time
from adapters.slack.home import home_view
from adapters.slack.pictures import _alt
from bot.core import views
from bot.core.registry import Registry
from games.common.protocol import CardFace, SeatLine
from games.common.speech import PSEUDO, speaking
from games.common.text import user
from tests.adapters.slack.conftest import CHAT, Harness
from tests.bot.toygame import TOY
from tests.speech.pseudo import unmarked


async def test_a_persons_locale_comes_with_their_name_in_one_lookup(h: Harness) -> None:
    h.slack.locales["UANN"] = "de-DE"
    await h.command("UANN", "start toy")
    await h.slack.wait_for("chat.postMessage")
    await h.drain()
    [lookup] = h.slack.of("users.info")
    assert str(lookup.args.get("include_locale")).lower() in ("1", "true")
    assert h.adapter.runtime.manager.sessions[CHAT].host.locale == "de-DE"
    await h.command("UANN", "join")
    await h.drain()
    assert len(h.slack.of("users.info")) == 1  # cached: no second call for the same person
    player = await h.adapter.people.player("T1", "UANN")
    assert player.locale == "de-DE" and h.adapter.people.known_locale("T1", "UANN") == "de-DE"


async def test_what_one_person_reads_speaks_their_locale(h: Harness) -> None:
    h.slack.locales["UANN"] = PSEUDO  # (the pseudo-language stands in for a Slack locale)
    await h.command("UANN", "help")  # an answer for them alone
    [answer] = await h.slack.wait_for("chat.postEphemeral")
    assert "⟦moji commands⟧" in str(answer.args.get("blocks"))


def test_renders_hold_no_text_outside_the_catalogue() -> None:
    registry = Registry([TOY])
    with speaking(PSEUDO):
        table = views.View(
            kind="table",
            title=user("Ann") + " ⟦table⟧",
            lines=("⟦a line⟧",),
            cards=(CardFace("A", "red", 1), CardFace("Q", "blue", 10, under=2)),
            seats=(SeatLine("slack:U1", "Ann", 3, active=True),),
            deadline=1_700_000_000.0,
        )
        turn = dataclasses.replace(table, kind="turn", mentions=("slack:U1",))
        helped = help_view(registry)
        home = home_view(views.message("⟦Nobody played yet.⟧", "leaderboard"), None)
        when = slack_time(1_700_000_000.0)
    texts = [str(render(view)) for view in (table, turn)]
    # (the fallback's "Cards:" line is bot/views.View.text()'s, outside this area)
    texts += [fallback_text(turn), _alt(table), helped.title, str(home), when]
    allowed = {"Ann", "type", "plain_text", "text", "mrkdwn", "verbatim", "section", "context", "elements"}
    allowed |= {"header", "emoji", "True", "False", "blocks", "home", "divider", "date", "short", "long"}
    allowed |= {"pretty", "time", "secs", "actions", "block_id", "slack", "plain"}
    found = [word for text in texts for word in unmarked(text, allowed)]
    assert found == []
