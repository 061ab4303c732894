"""`/moji watch` on Discord, through discord.py against the fake Discord: the answer is ephemeral
with a Watch live link button (a race too), the race's table carries the same link, and the
link opens the public view only."""

from __future__ import annotations

import json

import pytest

from bot.core.registry import Registry
from tests.adapters.discord.conftest import Harness, h, is_lobby, is_table  # noqa: F401 (the fixture)
from tests.web.on_discord import ANN, BOB, PUBLIC, companion, link_buttons, only


@pytest.fixture
def registry() -> Registry:
    return only("race")


async def test_moji_watch_answers_ephemerally_with_the_race_s_watch_link(h: Harness) -> None:  # noqa: F811
    iid = await h.fake.slash(*BOB, "watch")
    [refused] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert refused.ephemeral and "no game in this channel to watch" in refused.text

    await h.fake.slash(*ANN, "start", {"game": "race", "more": "bots=1"})
    await h.fake.wait_for("POST", r"^/channels/\d+/messages$", is_lobby)
    await h.fake.slash(*ANN, "go")
    await h.fake.until(lambda: any(s.engine is not None for s in h.manager.sessions.values()))
    await h.drain()
    session = next(iter(h.manager.sessions.values()))

    iid = await h.fake.slash(*BOB, "watch")
    [answer] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    [button] = link_buttons(answer)
    assert answer.ephemeral and button["label"] == "Watch live" and button["style"] == 5
    assert button["url"].startswith(f"{PUBLIC}/g/{session.game_id}#") and "custom_id" not in button

    tables = await h.fake.wait_for("POST", r"^/channels/\d+/messages$", is_table)
    shown = [b for r in tables for b in link_buttons(r)]
    assert shown and {b["url"] for b in shown} == {button["url"]}, "the table's Watch live: the same link"
    for _ in range(2):  # anyone's, again and again: the public view only
        opened = await companion(h).links.open(button["url"].split("#", 1)[1])
        assert opened is not None and opened.grant.watcher and opened.grant.game_id == session.game_id
    assert json.dumps(answer.json).count(PUBLIC) == 1
