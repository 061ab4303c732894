"""Discord's message limits: the fake refuses what Discord refuses (50035),
and moji splits long texts into embeds and messages, never cutting them."""

from __future__ import annotations

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from adapters.discord.render import (
    CONTENT_LIMIT,
    DESCRIPTION_LIMIT,
    MESSAGE_EMBED_TOTAL,
    Rendered,
    render,
    size,
    split_text,
    text,
)
from bot.core import views
from bot.core.registry import Registry
from tests import specs
from tests.adapters.discord.conftest import ANN, Harness
from tests.adapters.discord.fakediscord import CHANNEL_ID, form_errors

race = pytest.importorskip("games.race")
shed = pytest.importorskip("games.shed")
paths = pytest.importorskip("games.paths")


@pytest.fixture
def registry() -> Registry:
    return Registry([race.GAME, shed.GAME, paths.GAME])


def _all(rendered: Rendered) -> list[Rendered]:
    return [rendered, *rendered.then]


def _body(part: Rendered) -> dict[str, object]:
    return {"content": part.content, "embeds": [e.to_dict() for e in part.embeds]}


def test_the_fake_refuses_what_discord_refuses() -> None:
    assert form_errors({"content": "x" * 2000}) == {}
    assert "content" in form_errors({"content": "x" * 2001})
    assert form_errors({"content": " " * 10 + "x" * 2000 + "\n"}) == {}, "trimmed before counting"
    errors = form_errors({"embeds": [{"description": "x" * 4097}]})
    assert errors["embeds"]["0"]["description"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert form_errors({"embeds": [{"title": "t" * 257}]})["embeds"]["0"]["title"]
    two = {"embeds": [{"description": "x" * 4000}, {"description": "y" * 2001}]}
    assert form_errors(two)["embeds"]["_errors"][0]["code"] == "MAX_EMBED_SIZE_EXCEEDED"
    assert form_errors({"embeds": [{"description": "x"}] * 11})
    assert form_errors({"embeds": [{"fields": [{"name": "n", "value": "v" * 1025}]}]})


@given(st.text(alphabet=st.sampled_from("ab 🎲\n"), max_size=9000), st.integers(20, 4096))
def test_split_text_keeps_everything_within_the_limit(value: str, limit: int) -> None:
    pieces = split_text(value, limit)
    assert all(0 < size(p) <= limit for p in pieces)
    assert "".join("".join(pieces).split()) == "".join(value.split()), "nothing cut, nothing added"


@pytest.mark.parametrize("game", ["race", "shed", "paths"])
def test_long_rules_render_whole_and_within_every_limit(game: str) -> None:
    info = {"race": race.GAME, "shed": shed.GAME, "paths": paths.GAME}[game]
    view = views.rules(info)
    out = render(view)
    said = " ".join(e.description or "" for part in _all(out) for e in part.embeds)
    assert said.split() == " ".join(text(line) for line in view.lines).split()
    for part in _all(out):
        assert form_errors(_body(part)) == {}
        assert all(size(e.description or "") <= DESCRIPTION_LIMIT for e in part.embeds)
        assert (
            sum(size(e.description or "") + size(e.title or "") for e in part.embeds) <= MESSAGE_EMBED_TOTAL
        )


def test_a_text_longer_than_a_message_goes_on_in_more_messages() -> None:
    lines = tuple(f"line {i}: " + "word " * 30 for i in range(200))  # about 31,000 characters
    out = render(views.View(kind="info", title="Long", lines=lines))
    assert out.messages > 1
    said = " ".join(e.description or "" for part in _all(out) for e in part.embeds)
    assert said.split() == " ".join(lines).split()
    assert out.buttons == () or out.embed is not None
    assert all(form_errors(_body(part)) == {} for part in _all(out))
    long_turn = render(views.View(kind="turn", lines=("go " * 900,)))
    assert all(size(part.content) <= CONTENT_LIMIT for part in _all(long_turn))
    assert " ".join(p.content for p in _all(long_turn)).split() == ("go " * 900).split()


@pytest.mark.parametrize("game", ["race", "shed"])
async def test_rules_reach_the_player_whole_through_discord(h: Harness, game: str) -> None:
    iid = await h.fake.slash(*ANN, "rules", {"game": game})
    info = {"race": race.GAME, "shed": shed.GAME}[game]
    want = " ".join(text(line) for line in views.rules(info).lines).split()

    def said() -> list[str]:
        replies = [r for r in h.fake.replies_to(iid) if isinstance(r.json, dict)]
        return " ".join(
            str(e.get("description") or "")
            for r in replies
            for e in (r.json.get("embeds") or (r.json.get("data") or {}).get("embeds") or [])
        ).split()

    await h.fake.until(lambda: said() == want)
    await h.settle()
    assert said() == want
    refused = [r for r in h.fake.requests if r.status == 400]
    assert refused == [], [r.path for r in refused]
    assert all(r.ephemeral for r in h.fake.replies_to(iid) if r.method == "POST" and "webhooks" in r.path)
    assert not h.fake.channel_posts(CHANNEL_ID), "rules are private"


async def test_the_fake_answers_50035_to_discord_py(h: Harness) -> None:
    channel = h.bot.get_partial_messageable(int(CHANNEL_ID))
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send(embed=discord.Embed(description="x" * 4097))
    assert caught.value.status == 400 and caught.value.code == 50035
    # Discord's published spec refuses it too (RichEmbed's description: maxLength 4096)
    problems = specs.take_problems()
    assert specs.discord_spec() is None or ["body/embeds/0/description" in p for p in problems] == [True]
