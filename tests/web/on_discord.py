"""A game on Discord with the web companion attached: moji's bot through discord.py against the
fake Discord (the ``h`` harness of tests/adapters/discord), for the tests of links, pages and
watching in chat. A test module picks its games with a ``registry`` fixture (:func:`only`);
tests/web/conftest.py's ``services`` fixture attaches the companion."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

from aiohttp.test_utils import TestClient, TestServer

from adapters.web.companion import WebCompanion
from adapters.web.links import Links
from adapters.web.server import WebServer
from bot.core.clock import SystemClock
from bot.core.events import ChatKey
from bot.core.registry import Registry, load_default
from bot.features.workspace import Workspace
from bot.process.app import Services
from bot.sessions.gamelog import StoreGameLog
from bot.sessions.session import Session
from storage import open_store
from tests.adapters.discord.conftest import Harness, is_lobby
from tests.adapters.discord.fakediscord import CHANNEL_ID

ANN = ("100000000000000101", "Ann")
BOB = ("100000000000000102", "Bob")
#: The base of the links the companion hands out (``PUBLIC_URL``).
PUBLIC = "https://moji.example"
#: The origin pages are served from in the HTTP tests (plain http: the test client keeps no
#: Secure cookie).
SITE = "http://moji.example"


def only(*games: str) -> Registry:
    """The default registry, cut to ``games``."""
    return Registry([g for g in load_default() if g.name in games])


@contextlib.asynccontextmanager
async def web_services(tmp_path: Path, registry: Registry, public: str = PUBLIC) -> AsyncIterator[Services]:
    """moji's services on a fresh SQLite file, with the web companion handing out links under
    ``public``."""
    store = open_store(f"sqlite:///{tmp_path}/moji.db")
    await store.open()
    try:
        svc = Services(registry, Workspace(store, registry), StoreGameLog(store), store)
        svc.companions.append(WebCompanion(Links(store.web_links, SystemClock(), public)))
        yield svc
    finally:
        await store.close()


def companion(h: Harness) -> WebCompanion:
    """The bot's web companion."""
    [found] = h.svc.companions
    assert isinstance(found, WebCompanion)
    return found


def components(request: Any) -> list[dict[str, Any]]:
    """The components of a message (or of an interaction's answer) the bot sent."""
    body = getattr(request, "json", None) or {}
    if "data" in body and isinstance(body["data"], dict):  # an interaction's callback
        body = body["data"]
    return [c for row in body.get("components") or [] for c in row.get("components") or []]


def link_buttons(request: Any) -> list[dict[str, Any]]:
    """The link buttons (``url``, no ``custom_id``) of a message the bot sent."""
    return [c for c in components(request) if c.get("url")]


def thread_text(h: Harness, thread: str) -> list[str]:
    """Everything the bot got through to the game's thread (posts and edits), in order."""
    return [r.text for r in h.fake.requests if thread in r.path and r.status == 200]


def tables(h: Harness, thread: str, marker: str) -> list[str]:
    """The ids of the thread's messages whose body holds ``marker`` (a button's label, say)."""
    return [m for m, p in h.fake.messages.items() if p["channel_id"] == thread and marker in json.dumps(p)]


async def start_game(h: Harness, game: str) -> tuple[ChatKey, str, Session]:
    """Ann opens a ``game`` (turn-based) of people only, Bob joins in its thread, Ann starts it:
    its chat, its thread and its session, once its first turn is dealt and everything it posted
    has gone out."""
    await h.fake.slash(*ANN, "start", {"game": game, "more": "bots=0"})
    await h.fake.wait_for("POST", r"^/channels/\d+/messages$", is_lobby)
    chat = next(iter(h.manager.sessions))
    thread = chat.thread_id
    assert thread is not None
    await h.fake.slash(*BOB, "join", channel=thread, thread_parent=CHANNEL_ID)
    await h.fake.until(lambda: len(h.manager.sessions[chat].players) == 2)
    await h.fake.slash(*ANN, "go", channel=thread, thread_parent=CHANNEL_ID)
    # (the engine exists before the game's start is stored and its first turn dealt: a slow
    # store write would leave nothing queued yet for drain() to wait on)
    await h.fake.until(lambda: bool(h.manager.sessions[chat].state.turn_seats()), within=60)
    await h.drain()
    return chat, thread, h.manager.sessions[chat]


@contextlib.asynccontextmanager
async def page_clients(
    h: Harness, chat: ChatKey, session: Session, users: Sequence[tuple[str, str]]
) -> AsyncIterator[tuple[str, list[TestClient[Any, Any]]]]:
    """The game's pages served from :data:`SITE`, and one HTTP client per user in ``users``,
    each with the session their own link opened: (the game's id in links, the clients)."""
    web = companion(h)
    players = {p.user_id: p for p in session.players}
    server = TestServer(WebServer(web, h.clock, SITE).app())
    clients: list[TestClient[Any, Any]] = []
    game = ""
    try:
        for user_id, _ in users:
            link = await web.link(chat, players[user_id])
            assert link is not None
            client = TestClient(server)
            await client.start_server()
            clients.append(client)
            game, token = link.split("/g/", 1)[1].split("#", 1)
            opened = await client.post(f"/g/{game}/session", json={"token": token}, headers={"Origin": SITE})
            assert opened.status == 200
        yield game, clients
    finally:
        for client in clients:
            await client.close()
        await server.close()
