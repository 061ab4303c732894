"""`/moji watch` on Discord, through discord.py against the fake Discord: the answer is ephemeral
with a Watch live link button (a race too), the race's table carries the same link, and the
link opens the public view only."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from adapters.web.companion import WebCompanion
from adapters.web.links import Links
from bot.app import Services
from bot.clock import SystemClock
from bot.recording import StoreGameLog
from bot.registry import Registry, load_default
from bot.workspace import Workspace
from storage import open_store
from tests.adapters.discord.conftest import Harness, h, is_lobby, is_table  # noqa: F401 (the fixture)

ANN = ("100000000000000101", "Ann")
BOB = ("100000000000000102", "Bob")
PUBLIC = "https://moji.example"


@pytest.fixture
def registry() -> Registry:
    return Registry([g for g in load_default() if g.name == "race"])


@pytest.fixture
async def services(tmp_path: Path, registry: Registry) -> AsyncIterator[Services]:
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    try:
        svc = Services(registry, Workspace(store, registry), StoreGameLog(store), store)
        svc.companions.append(WebCompanion(Links(store.web_links, SystemClock(), PUBLIC)))
        yield svc
    finally:
        await store.close()


def link_buttons(request: Any) -> list[dict[str, Any]]:
    body = getattr(request, "json", None) or {}
    if "data" in body and isinstance(body["data"], dict):  # an interaction's callback
        body = body["data"]
    rows = body.get("components") or []
    return [c for row in rows for c in row.get("components") or [] if c.get("url")]


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
    companion = h.svc.companions[0]
    assert isinstance(companion, WebCompanion)
    for _ in range(2):  # anyone's, again and again: the public view only
        opened = await companion.links.open(button["url"].split("#", 1)[1])
        assert opened is not None and opened.grant.watcher and opened.grant.game_id == session.game_id
    assert json.dumps(answer.json).count(PUBLIC) == 1
