"""One way to drive and watch every front door: the :class:`PlatformHarness` interface.

A contract test speaks neutral actions (a person types a line in the chat, runs a command,
presses a button; the platform delivers an event again; the clock moves) and reads neutral
observations (what the channel shows, what one person was told privately, what was stored,
what the platform refused as over its limits). Each implementation puts those on a real
front door, built from the existing harnesses (which stay where they are):

- :class:`DiscordHarness`: the real discord.py client against the fake Discord
  (``tests/adapters/discord/conftest.py``: gateway, REST, rate limits on the test's clock);
- :class:`SlackHarness`: the real slack-bolt app fed signed requests, talking to the fake Web API
  (``tests/adapters/slack/conftest.py``);
- :class:`TerminalHarness`: the terminal adapter reading typed lines (``tests.doubles.Keyboard``).

All three run on the real services on a fresh SQLite file, so "what was stored" is the whole
database. People are named neutrally (``ann``, ``bob``, ``cat``, ``dan``, ``eve``; ``ada`` is an
admin); each harness maps them onto its platform's ids. What a platform truly lacks (several
people at a terminal, threads, rate limits…) is listed in :attr:`PlatformHarness.lacks` with the
reason, and a contract test that needs it is skipped with that reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Protocol
from urllib.parse import unquote, urlencode

import pytest

from bot.core.clock import FakeClock
from bot.core.events import ChatKey, Outbound, Private
from bot.core.registry import Registry
from bot.features.workspace import Workspace
from bot.process.app import Services
from bot.sessions.gamelog import StoreGameLog
from storage import open_store
from storage.sqlstore import SQLStore
from tests.adapters.liveness import discord_live, leaks, slack_live, slack_texts, terminal_live
from tests.storage.scan import every_text
from tests.waiting import PATIENCE, eventually

#: The neutral people of the contract suite (``ada`` is an admin where the platform has admins).
PEOPLE = ("ann", "bob", "cat", "dan", "eve", "ada")

#: Capabilities a platform may lack (keys of :attr:`PlatformHarness.lacks`).
PEOPLE_CAP = "people"  # several people in one chat, each with a name they chose
BUTTONS = "buttons"
REDELIVERY = "redelivery"
ADMINS = "admins"
LIMITS = "limits"
THREADS = "threads"
PINGS = "pings"
CHATS = "chats"  # other chats (channels) of the workspace, each with a game of its own


@dataclass(frozen=True)
class Sent:
    """Something a person sent, as the platform identified it (for a redelivery or its marks)."""

    kind: str  # "command", "press" or "say"
    who: str
    text: str
    ref: Any = None


@dataclass(frozen=True)
class Ping:
    """A message that mentions someone, and whether the platform notifies them of it (the
    mention comes first, in a form the platform turns into a notification)."""

    text: str
    notifies: bool


class PlatformHarness(Protocol):
    """A front door under test, driven and observed in neutral terms."""

    #: "discord", "slack" or "terminal".
    name: str
    #: Capability → why this platform does not have it (see the constants above).
    lacks: ClassVar[dict[str, str]]
    #: At most how many calls that change what the chat shows (posts, edits, reactions, uploads)
    #: a lively game may make per accepted answer (bench/bench_delivery.py measures them).
    call_budget: ClassVar[float]
    #: The most malformed ``/moji`` command the platform delivers (Discord checks a command's
    #: name and options before sending it; a typed command can be anything).
    malformed: ClassVar[str]
    #: The chat the game is played in.
    chat: ChatKey
    clock: FakeClock
    store: SQLStore

    @property
    def manager(self) -> Any:
        """The game manager behind the front door (for the game's state: sessions, errors)."""

    @property
    def runtime(self) -> Any:
        """The front door's runtime (its inbound pipeline: allowances, once-only record)."""

    def seat(self, who: str) -> str:
        """``who``'s seat id in a game (``platform:user``)."""

    def rename(self, who: str, name: str) -> None:
        """``who`` takes the display name ``name`` (where people choose their names)."""

    def people_speak(self, locale: str) -> None:
        """Everyone's own client is set to ``locale`` (``nl-NL``), where the platform tells it."""

    async def command(self, who: str, text: str, *, thread: str | None = None) -> Sent:
        """``who`` runs ``/moji text`` (``text`` as typed after ``/moji``: ``start toy target=1``)."""

    async def press(self, who: str, action: str) -> Sent:
        """``who`` presses the button ``action`` (e.g. ``moji:join``) under the bot's latest message
        that has it."""

    def elsewhere(self, n: int) -> ChatKey:
        """The ``n``-th other chat of the workspace (``n`` from 0): a channel of its own."""

    async def command_elsewhere(self, n: int, text: str) -> Sent:
        """The ``n``-th other person (someone of :meth:`elsewhere`'s chat ``n``) runs ``/moji text``
        in that chat."""

    async def say_direct(self, who: str, text: str) -> Sent:
        """``who`` types ``text`` in their own chat with moji (a direct message; the terminal)."""

    async def say(self, who: str, text: str, *, thread: str | None = None) -> Sent:
        """``who`` types ``text`` in the chat (or in the game's ``thread``)."""

    async def redeliver(self, sent: Sent) -> None:
        """The platform delivers ``sent`` again, as it does when an acknowledgement was lost (or a
        captured request is replayed)."""

    def channel(self, thread: str | None = None) -> list[str]:
        """What everyone in the chat (or ``thread``) was shown, one text per message or edit."""

    def told(self, who: str) -> list[str]:
        """What ``who`` alone was told: ephemeral replies and direct messages, in order."""

    def everything(self) -> list[str]:
        """Every text the bot sent anywhere (any chat, anyone), one per call."""

    def buttons_told(self, who: str) -> list[str]:
        """The action ids of the buttons on what ``who`` alone was told, in order."""

    def boards(self, thread: str, title: str) -> tuple[int, int]:
        """How many messages showing the game ``title``'s board were posted in ``thread``, and
        how many edits of them were made."""

    def boards_expected(self, turns: int) -> tuple[int, int]:
        """After ``turns`` turns of a turn-based game in a thread: at most how many board messages
        were posted, and at least how many edits of them were made."""

    def local_date(self, text: str) -> bool:
        """Whether ``text`` has a date the platform shows in each reader's own time zone."""

    def pings(self, who: str, thread: str | None = None) -> list[Ping]:
        """Messages posted in the chat (or ``thread``) that mention ``who``."""

    def marks(self, sent: Sent) -> list[str]:
        """The bot's marks on a typed answer: ``"accepted"`` or ``"rejected"`` for each."""

    def thread(self) -> str | None:
        """The thread the chat's game plays in, if it has one."""

    def rate_limited(self) -> list[Any]:
        """Calls the platform refused as over its rate limits (429), in order."""

    def final_table(self, title: str) -> list[str]:
        """What the last table of the game ``title`` (e.g. ``moji race``) posted or edited shows
        that a finished game's table may not (buttons to play on, cards face-up), or lacks (the
        game's end, where the platform shows outcomes on the table): empty when it shows the
        game's final state."""

    def shown_calls(self) -> list[Any]:
        """The calls that changed what the chat shows (posts, edits, reactions, uploads) from the
        first table of a game on, that the platform took."""

    def accepted_marks(self) -> int:
        """How many "accepted" marks the bot put on anything in the chat."""

    def calls_in_flight(self) -> int:
        """How many calls to the platform are on their way (sent, not yet answered)."""

    def hostile_live(self, text: str) -> list[str]:
        """Live constructs in one shown text that a hostile name or word could have added: links,
        mentions, tokens, formatting, control characters, direction overrides."""

    async def stored(self) -> str:
        """The whole database as text."""

    async def advance(self, seconds: float) -> None:
        """Move the fake clock on by ``seconds`` (everything due meanwhile runs)."""

    async def settle(self) -> None:
        """Let in-flight work finish: the clock's sleepers and the calls on their way."""

    async def until(self, predicate: Callable[[], object], most: float = 30.0) -> None:
        """Let the fake clock run in small steps (deliveries are paced on it) until ``predicate()``
        holds; fail after ``most`` fake seconds."""

    async def drain(self) -> None:
        """Let the clock run until every queued outbound message is sent."""


def game_session(p: PlatformHarness) -> Any:
    """The chat's running session (or None)."""
    sessions = p.manager.sessions
    return sessions.get(p.chat) or next(
        (s for c, s in sessions.items() if c.channel_id == p.chat.channel_id), None
    )


# --------------------------------------------------------------------------- shared parts


async def _real_services(
    tmp_path: Path, registry: Registry, database: SQLStore | None = None
) -> tuple[Services, SQLStore]:
    """The real services on ``database`` (opened, and closed by whoever opened it), or on a fresh
    SQLite file (opened here: close it with :func:`_close_own`)."""
    store: SQLStore = database or open_store(f"sqlite:///{tmp_path / 'moji.db'}")
    if database is None:
        await store.open()
    return Services(registry, Workspace(store, registry), StoreGameLog(store), store), store


async def _close_own(store: SQLStore, database: SQLStore | None) -> None:
    """Close ``store`` unless it is the ``database`` a caller gave (and so closes)."""
    if store is not database:
        await store.close()


async def _database_caught_up(store: SQLStore) -> None:
    """Return once what the game asked of the database so far is done: a read queued behind it
    (on SQLite one thread runs the connection's calls in turn), then a few turns of the loop for
    the callers to go on."""
    for _ in range(3):
        await asyncio.sleep(0)
    await store.get_settings("contract", "caught-up")
    for _ in range(3):
        await asyncio.sleep(0)


#: (for a test that moves the clock itself, in steps too small for :meth:`PlatformHarness.settle`)
database_caught_up = _database_caught_up


async def _tick_until(p: PlatformHarness, predicate: Callable[[], object], most: float) -> None:
    """Let the fake clock run in steps of 0.25 s, at most ``most`` s, until ``predicate()`` holds;
    then, as work in real threads (a dictionary loading, the database) may still be on its way,
    keep waiting without moving the clock, up to :data:`~tests.waiting.PATIENCE` real seconds."""
    waited = 0.0
    deadline = time.monotonic() + PATIENCE
    await p.settle()
    while not predicate():
        if waited < most:
            await p.clock.advance(0.25)
            waited += 0.25
        else:
            assert time.monotonic() < deadline, f"condition not met within {most} s on the fake clock"
            await asyncio.sleep(0.01)
        await p.settle()


def _discord_slash(text: str) -> tuple[str, dict[str, Any], str | None]:
    """``/moji text`` as Discord's slash command: (subcommand, options, group)."""
    verb, *rest = text.split()
    words = " ".join(rest)
    if verb == "start":
        options: dict[str, Any] = {"game": rest[0]} if rest else {}
        if rest[1:]:
            options["more"] = " ".join(rest[1:])
        return "start", options, None
    if verb == "words":
        return rest[0], {"word": rest[1]} if rest[1:] else {}, "words"
    if verb == "define":
        word = " ".join(w for w in rest if not w.startswith("language="))
        language = [w.split("=", 1)[1] for w in rest if w.startswith("language=")]
        return "define", {"word": word, **({"language": language[0]} if language else {})}, None
    if verb == "config":
        values = [rest[0], " ".join(rest[1:])] if rest[1:] else rest
        return "config", dict(zip(("key", "value")[: len(values)], values, strict=True)), None
    if verb in ("purge", "forget-me"):  # (/moji privacy forget-me|purge)
        return verb, {"confirm": True} if rest == ["confirm"] else {}, "privacy"
    if verb == "privacy":
        return "show", {}, "privacy"
    if verb == "daily":
        return "daily", {"share": True} if rest == ["share"] else {}, None
    keyed = {"vote": "choice", "play": "move", "rules": "game", "season": "which", "schedule": "when"}
    if verb in keyed:
        return verb, {keyed[verb]: words} if words else {}, None
    return verb, {}, None


# --------------------------------------------------------------------------- Discord


class DiscordHarness:
    """The real discord.py client (moji's MojiBot) against the fake Discord."""

    name = "discord"
    lacks: ClassVar[dict[str, str]] = {}
    # (the budget at human pace is 2; here the fake clock runs on while pictures are drawn and
    # scores are written in real time, so a state meant to pass unseen is sometimes sent)
    call_budget: ClassVar[float] = 3.0
    malformed: ClassVar[str] = "rules nonsense"

    def __init__(self, h: Any, store: SQLStore) -> None:
        from tests.adapters.discord.conftest import CHAT

        self.h = h
        self.fake = h.fake
        self.clock: FakeClock = h.clock
        self.store = store
        self.chat = CHAT
        self.ids = {who: f"10000000000000000{i}" for i, who in enumerate(PEOPLE, start=1)}
        self.names = {who: who.title() for who in PEOPLE}
        #: the ``locale`` of every interaction (Discord always sends the client's language)
        self.client_locale = "en-US"

    @property
    def manager(self) -> Any:
        return self.h.manager

    @property
    def runtime(self) -> Any:
        return self.h.bot.runtime

    def people_speak(self, locale: str) -> None:
        self.client_locale = locale

    def rename(self, who: str, name: str) -> None:
        self.names[who] = name

    def seat(self, who: str) -> str:
        return f"discord:{self.ids[who]}"

    def _member(self, who: str) -> tuple[str, str]:
        return self.ids[who], self.names[who]

    async def command(self, who: str, text: str, *, thread: str | None = None) -> Sent:
        from tests.adapters.discord.fakediscord import CHANNEL_ID

        sub, options, group = _discord_slash(text)
        if group is None and self._overflows(sub):  # a verb without a subcommand: /moji game verb:…
            rest = text.split(None, 1)[1:]
            sub, options = "game", {"verb": sub, **({"words": rest[0]} if rest else {})}
        elif not options and group is None and len(text.split()) > 1:
            options = self._in_its_option(sub, text.split(None, 1)[1])
        kw: dict[str, Any] = {"admin": who == "ada", "locale": self.client_locale}
        if thread:
            kw.update(channel=thread, thread_parent=CHANNEL_ID)
        iid = await self.fake.slash(*self._member(who), sub, options, group=group, **kw)
        return Sent("command", who, text, iid)

    def _overflows(self, sub: str) -> bool:
        """Whether ``sub`` is one of the verbs that did not fit in /moji's 25 subcommands, as
        moji synced them to Discord (they go through ``/moji game``)."""
        for sync in reversed(self.fake.of("PUT", r"^/applications/\d+/(guilds/\d+/)?commands$")):
            for group in sync.json:
                names = {c.get("name") for c in group.get("options") or []}
                return sub not in names and "game" in names
        return False

    def _in_its_option(self, sub: str, words: str) -> dict[str, Any]:
        """The words after ``/moji sub`` in the subcommand's first option, as moji synced it to
        Discord (a game's own verb: ``shout tree`` is ``/moji shout word:tree``)."""
        for sync in reversed(self.fake.of("PUT", r"^/applications/\d+/(guilds/\d+/)?commands$")):
            for group in sync.json:
                command = next((c for c in group.get("options") or [] if c.get("name") == sub), None)
                if command is not None and command.get("options"):
                    return {command["options"][0]["name"]: words}
        return {}

    def elsewhere(self, n: int) -> ChatKey:
        from tests.adapters.discord.fakediscord import GUILD_ID

        return ChatKey("discord", GUILD_ID, str(810000000000000000 + n))

    async def command_elsewhere(self, n: int, text: str) -> Sent:
        sub, options, group = _discord_slash(text)
        uid, channel = str(820000000000000000 + n), self.elsewhere(n).channel_id
        iid = await self.fake.slash(uid, f"P{n}", sub, options, group=group, channel=channel)
        return Sent("command", f"P{n}", text, iid)

    def _message_with(self, action: str) -> str:
        for mid, message in reversed(list(self.fake.messages.items())):
            rows = message.get("components") or []
            if any(c.get("custom_id") == action for row in rows for c in row.get("components", [])):
                return str(mid)
        return "900000000000000001"  # (a button on a message the fake did not keep, e.g. an ephemeral one)

    async def press(self, who: str, action: str) -> Sent:
        iid = await self.fake.press(
            *self._member(who),
            action,
            self._message_with(action),
            admin=who == "ada",
            locale=self.client_locale,
        )
        return Sent("press", who, action, iid)

    async def say(self, who: str, text: str, *, thread: str | None = None) -> Sent:
        mid = await self.fake.say(*self._member(who), text, channel=thread)
        return Sent("say", who, text, mid)

    async def say_direct(self, who: str, text: str) -> Sent:
        mid = await self.fake.dm(*self._member(who), text)
        return Sent("say", who, text, mid)

    async def redeliver(self, sent: Sent) -> None:
        # as Discord would to another process (or after moji's answer was lost): taken again
        acks = len(self.fake.of("POST", rf"/interactions/{sent.ref}/"))
        self.fake.answered.discard(sent.ref)
        await self.fake.redeliver(sent.ref)
        # acknowledged (and so answered, for Discord) before another delivery of it may come
        await self.fake.until(lambda: len(self.fake.of("POST", rf"/interactions/{sent.ref}/")) > acks)

    @staticmethod
    def _shown(body: Any) -> str:
        body = body.get("data", body) if isinstance(body, dict) else {}
        if not isinstance(body, dict):
            return ""
        texts = [str(body.get("content") or "")]
        for embed in body.get("embeds") or []:
            texts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
            texts += [f"{f.get('name')}\n{f.get('value')}" for f in embed.get("fields") or []]
        return "\n".join(t for t in texts if t)

    def everything(self) -> list[str]:
        return [r.text for r in self.fake.requests]

    def _dm_paths(self) -> dict[str, str]:
        return {f"/channels/{c}/messages": uid for uid, c in self.fake.dm_channels.items()}

    def channel(self, thread: str | None = None) -> list[str]:
        from tests.adapters.discord.fakediscord import CHANNEL_ID

        where = f"/channels/{thread or CHANNEL_ID}/messages"
        shown = [
            self._shown(r.json)
            for r in self.fake.requests
            if r.status == 200 and r.method in ("POST", "PATCH") and r.path.startswith(where)
        ]
        if thread is None:  # interaction replies everyone sees
            shown += [
                self._shown(r.json)
                for r in self.fake.requests
                if r.status == 200
                and r.method in ("POST", "PATCH")
                and (r.path.startswith("/webhooks/") or r.path.startswith("/interactions/"))
                and not r.ephemeral
            ]
        return [s for s in shown if s]

    def _told(self, who: str) -> list[Any]:
        """The requests that told ``who`` something privately: ephemeral answers to their own
        interactions, and messages in their direct-message channel."""
        uid = self.ids[who]
        mine = {
            iid
            for iid, payload in self.fake.interactions.items()
            if payload.get("member", {}).get("user", {}).get("id") == uid
        }
        dm = self._dm_paths()
        return [
            r
            for r in self.fake.requests
            if r.status == 200
            and r.method in ("POST", "PATCH")
            and (dm.get(r.path) == uid or (r.ephemeral and any(f"token-{iid}" in r.path for iid in mine)))
        ]

    def told(self, who: str) -> list[str]:
        return [s for s in (self._shown(r.json) for r in self._told(who)) if s]

    def buttons_told(self, who: str) -> list[str]:
        found = []
        for r in self._told(who):
            body = r.json if isinstance(r.json, dict) else {}
            body = body.get("data", body) if isinstance(body.get("data"), dict) else body
            for row in body.get("components") or []:
                found += [str(c.get("custom_id")) for c in row.get("components", []) if c.get("custom_id")]
        return found

    def pings(self, who: str, thread: str | None = None) -> list[Ping]:
        from tests.adapters.discord.fakediscord import CHANNEL_ID

        uid = self.ids[who]
        found = []
        for r in self.fake.of("POST", rf"^/channels/{thread or CHANNEL_ID}/messages$"):
            body = r.json if isinstance(r.json, dict) else {}
            content = str(body.get("content") or "")
            if r.status != 200 or f"<@{uid}>" not in content:
                continue
            allowed = body.get("allowed_mentions") or {}
            permitted = "users" in (allowed.get("parse") or []) or uid in (allowed.get("users") or [])
            found.append(Ping(content, content.startswith(f"<@{uid}>") and permitted))
        return found

    def boards(self, thread: str, title: str) -> tuple[int, int]:
        posts = [r for r in self.fake.of("POST", rf"^/channels/{thread}/messages$") if r.status == 200]
        edits = self.fake.of("PATCH", rf"^/channels/{thread}/messages/\d+$")
        return (
            len([r for r in posts if "attachment://" in r.text]),
            len([r for r in edits if "attachment://" in r.text]),
        )

    def boards_expected(self, turns: int) -> tuple[int, int]:
        from bot.delivery.tables import SCROLLED_AWAY

        # one board message, edited as the game goes; a new one only once the thread scrolled on
        # (each turn adds about four messages); the delivery may fold two turns' boards into one
        # edit under Discord's edit limit: pacing, not a lost board
        return 1 + (4 * turns) // SCROLLED_AWAY, 1

    def local_date(self, text: str) -> bool:
        return "<t:" in text and ":F>" in text

    def marks(self, sent: Sent) -> list[str]:
        return [
            "accepted" if unquote(r.path.split("/reactions/")[1].split("/")[0]) == "✅" else "rejected"
            for r in self.fake.of("PUT", rf"/messages/{sent.ref}/reactions/")
            if r.status == 200
        ]

    def thread(self) -> str | None:
        chat = next(iter(self.manager.sessions), None)
        return chat.thread_id if chat is not None else None

    def rate_limited(self) -> list[Any]:
        return list(self.fake.rate_limited())

    def final_table(self, title: str) -> list[str]:
        tables = [
            r
            for r in self.fake.requests
            if r.method in ("POST", "PATCH") and r.status == 200 and f'"title": "{title}' in r.text
        ]
        last = tables[-1].json if tables and isinstance(tables[-1].json, dict) else {}
        # (Discord shows outcomes as messages of their own, and the cards face-up as its content)
        return [what for what in ("components", "content") if last.get(what)] if tables else ["no table"]

    def shown_calls(self) -> list[Any]:
        from tests.adapters.discord.conftest import is_table

        tables = [r for r in self.fake.requests if r.method == "POST" and r.status == 200 and is_table(r)]
        first = self.fake.requests.index(tables[0]) if tables else len(self.fake.requests)
        return [
            r
            for r in self.fake.requests[first:]
            if r.method in ("POST", "PATCH", "PUT") and r.path.startswith("/channels/") and r.status == 200
        ]

    def calls_in_flight(self) -> int:
        return int(self.fake.inflight)

    def accepted_marks(self) -> int:
        ticks = self.fake.of("PUT", r"/reactions/")
        return len([r for r in ticks if r.status == 200 and ("%E2%9C%85" in r.path or "✅" in r.path)])

    def hostile_live(self, text: str) -> list[str]:
        kinds = discord_live(text)
        named = ("masked-link", "url", "everyone", "here", "fmt:||")
        found = [k for k in kinds if k in named or k.startswith("token:<@") or k.startswith("token:<#")]
        return found + leaks(text) + (["\\x1b"] if "\x1b" in text else [])

    async def stored(self) -> str:
        return await every_text(self.store)

    async def advance(self, seconds: float) -> None:
        await self.clock.advance(seconds)
        await self.settle()

    async def settle(self) -> None:
        await self.h.settle()
        await _database_caught_up(self.store)
        await self.clock.settle()

    async def until(self, predicate: Callable[[], object], most: float = 30.0) -> None:
        await _tick_until(self, predicate, most)

    async def drain(self) -> None:
        await self.h.drain()


@asynccontextmanager
async def discord_harness(
    registry: Registry, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, database: SQLStore | None = None
) -> AsyncIterator[DiscordHarness]:
    """The Discord ``h`` fixture's set-up (tests/adapters/discord/conftest.py), on real services."""
    from discord.http import Ratelimit

    from tests.adapters.discord.conftest import (
        ON_A_FAKE_CLOCK,
        _refresh_without_sleeping,
        make_config,
        start_bot,
    )
    from tests.adapters.discord.fakediscord import FakeDiscord

    svc, store = await _real_services(tmp_path, registry, database)
    try:
        clock = FakeClock(start=time.time())
        fake = FakeDiscord(now=clock.now, limits=ON_A_FAKE_CLOCK)
        monkeypatch.setattr(Ratelimit, "_refresh", _refresh_without_sleeping)
        await fake.start()
        fake.patch(monkeypatch)
        try:
            h = await start_bot(fake, clock, svc, make_config())
            try:
                yield DiscordHarness(h, store)
            finally:
                await h.stop()
        finally:
            await fake.close()
    finally:
        await _close_own(store, database)


# --------------------------------------------------------------------------- Slack


class SlackHarness:
    """The real slack-bolt app on 127.0.0.1, fed signed requests, talking to the fake Web API."""

    name = "slack"
    lacks: ClassVar[dict[str, str]] = {}
    call_budget: ClassVar[float] = 3.0  # (pictures included: each is an upload)
    malformed: ClassVar[str] = "nonsense"

    def __init__(self, h: Any, store: SQLStore) -> None:
        from tests.adapters.slack.conftest import CHAT

        self.h = h
        self.slack = h.slack
        self.clock: FakeClock = h.clock
        self.store = store
        self.chat = CHAT
        self.ids = {who: "UADMIN" if who == "ada" else f"U{who.upper()}" for who in PEOPLE}
        for who, uid in self.ids.items():
            self.slack.names.setdefault(uid, who.title())

    @property
    def manager(self) -> Any:
        return self.h.adapter.runtime.manager

    @property
    def runtime(self) -> Any:
        return self.h.adapter.runtime

    def people_speak(self, locale: str) -> None:
        for uid in self.ids.values():
            self.slack.locales[uid] = locale

    def rename(self, who: str, name: str) -> None:
        self.slack.names[self.ids[who]] = name

    def seat(self, who: str) -> str:
        return f"slack:{self.ids[who]}"

    async def _signed(self, body: str) -> Sent:
        from tests.adapters.slack.conftest import sign

        headers = sign(body)
        resp = await self.h.post(body, "application/x-www-form-urlencoded", headers)
        assert resp.status == 200, resp.status
        return Sent("", "", "", (body, headers))

    async def command(self, who: str, text: str, *, thread: str | None = None) -> Sent:
        from tests.adapters.slack.conftest import CHANNEL, TEAM

        uid = self.ids[who]
        form = {
            "token": "legacy",
            "team_id": TEAM,
            "team_domain": "acme",
            "channel_id": CHANNEL,
            "channel_name": "general",
            "user_id": uid,
            "user_name": uid.lower(),
            "command": "/moji",
            "text": text,
            "api_app_id": "A1",
            "response_url": f"{self.slack.url}/respond/{uid}",
            "trigger_id": self.h.trigger_id(),
        }
        sent = await self._signed(urlencode(form))
        return Sent("command", who, text, sent.ref)

    def elsewhere(self, n: int) -> ChatKey:
        from tests.adapters.slack.conftest import TEAM

        return ChatKey("slack", TEAM, f"C{n:03d}")

    async def command_elsewhere(self, n: int, text: str) -> Sent:
        channel = self.elsewhere(n).channel_id
        assert await self.h.command(f"U{channel}", text, channel=channel) == 200
        return Sent("command", f"U{channel}", text)

    async def press(self, who: str, action: str) -> Sent:
        from tests.adapters.slack.conftest import CHANNEL, TEAM

        uid = self.ids[who]
        payload = {
            "type": "block_actions",
            "team": {"id": TEAM, "domain": "acme"},
            "user": {"id": uid, "name": uid.lower(), "team_id": TEAM},
            "api_app_id": "A1",
            "channel": {"id": CHANNEL, "name": "general"},
            "container": {"type": "message", "channel_id": CHANNEL, "message_ts": "1700000000.000001"},
            "trigger_id": self.h.trigger_id(),
            "response_url": f"{self.slack.url}/respond/{uid}",
            "actions": [
                {"action_id": action, "block_id": "moji:actions", "type": "button", "action_ts": "1"}
            ],
        }
        sent = await self._signed(urlencode({"payload": json.dumps(payload)}))
        return Sent("press", who, action, sent.ref)

    async def say(self, who: str, text: str, *, thread: str | None = None) -> Sent:
        extra = {"thread_ts": thread} if thread else {}
        ts = await self.h.say(self.ids[who], text, **extra)
        return Sent("say", who, text, ts)

    async def say_direct(self, who: str, text: str) -> Sent:
        uid = self.ids[who]
        channel = self.slack.ims.setdefault(uid, f"D{uid}")  # (the IM conversations.open gives)
        ts = await self.h.say(uid, text, channel=channel, channel_type="im")
        return Sent("say", who, text, ts)

    async def redeliver(self, sent: Sent) -> None:
        # the same signed request again, within Slack's five minutes: the signature holds
        body, headers = sent.ref
        resp = await self.h.post(body, "application/x-www-form-urlencoded", headers)
        assert resp.status == 200, resp.status

    @staticmethod
    def _shown(call: Any) -> str:
        blocks = call.args.get("blocks") or []
        if isinstance(blocks, str):
            blocks = json.loads(blocks)
        mrkdwn, plain = slack_texts(blocks)
        return "\n".join([*mrkdwn, *plain, str(call.args.get("text") or "")])

    def channel(self, thread: str | None = None) -> list[str]:
        from tests.adapters.slack.conftest import CHANNEL

        return [
            self._shown(c)
            for c in self.slack.calls
            if c.ok
            and c.method in ("chat.postMessage", "chat.update")
            and c.args.get("channel") == CHANNEL
            and (thread is None or c.args.get("thread_ts") == thread)
        ] + [
            self._shown(c)
            for c in self.slack.of("response_url")
            if thread is None and c.args.get("response_type") == "in_channel"
        ]

    def everything(self) -> list[str]:
        return [c.text() for c in self.slack.calls]

    def _told(self, who: str) -> list[Any]:
        """Ephemeral messages to ``who`` in the chat's channel (an ephemeral elsewhere would not be
        seen there: it does not count), and direct messages."""
        from tests.adapters.slack.conftest import CHANNEL

        uid = self.ids[who]
        return [
            c
            for c in self.slack.calls
            if c.ok
            and (
                (
                    c.method == "chat.postEphemeral"
                    and c.args.get("user") == uid
                    and c.args.get("channel") == CHANNEL
                )
                or (
                    c.method == "chat.postMessage"
                    and c.args.get("channel") in (uid, self.slack.ims.get(uid))  # (its DMs, its IM)
                )
            )
        ]

    def told(self, who: str) -> list[str]:
        return [self._shown(c) for c in self._told(who)]

    def buttons_told(self, who: str) -> list[str]:
        found = []
        for c in self._told(who):
            blocks = c.args.get("blocks") or []
            if isinstance(blocks, str):
                blocks = json.loads(blocks)
            found += [e["action_id"] for b in blocks if b.get("type") == "actions" for e in b["elements"]]
        return found

    def pings(self, who: str, thread: str | None = None) -> list[Ping]:
        from tests.adapters.slack.conftest import CHANNEL

        uid = self.ids[who]
        return [
            # a mention in the text (not only in blocks) notifies; in the thread when it is the thread's
            Ping(text, text.startswith(f"<@{uid}>") and (thread is None or c.args.get("thread_ts") == thread))
            for c in self.slack.of("chat.postMessage")
            if c.ok and c.args.get("channel") == CHANNEL and f"<@{uid}>" in (text := str(c.args.get("text")))
        ]

    def boards(self, thread: str, title: str) -> tuple[int, int]:
        posts = [
            c
            for c in self.slack.of("chat.postMessage")
            if c.ok and str(c.args.get("text")).startswith(title) and "lobby" not in str(c.args.get("text"))
        ]
        assert all(c.args.get("thread_ts") == thread for c in posts), "every board in the thread"
        edits = [
            c
            for c in self.slack.of("chat.update")
            if c.ok and str(c.args.get("text")).startswith(title + " ")
        ]
        return len(posts), len(edits)

    def boards_expected(self, turns: int) -> tuple[int, int]:
        return 2, turns  # (every turn's board is an edit: Slack's chat.update limit is per workspace)

    def local_date(self, text: str) -> bool:
        return "<!date^" in text and "date_long_pretty" in text

    def marks(self, sent: Sent) -> list[str]:
        return [
            "accepted" if c.args.get("name") == "white_check_mark" else "rejected"
            for c in self.slack.of("reactions.add")
            if c.args.get("timestamp") == sent.ref
        ]

    def thread(self) -> str | None:
        thread: str | None = self.h.adapter.transport.threads.get(self.chat)
        return thread

    def rate_limited(self) -> list[Any]:
        return list(self.slack.rate_limited())

    def final_table(self, title: str) -> list[str]:
        tables = [
            c
            for c in self.slack.calls
            if c.ok
            and c.method in ("chat.postMessage", "chat.update")
            and str(c.args.get("text")).startswith(title)
        ]
        if not tables:
            return ["no table"]
        last = tables[-1].text()
        # (Slack shows outcomes on the table: the last is the game's end)
        return (["no game over"] if "Game over" not in last else []) + (
            ["moji:skip"] if "moji:skip" in last else []
        )

    def shown_calls(self) -> list[Any]:
        from tests.adapters.slack.test_game import is_table

        shown = ("chat.postMessage", "chat.update", "reactions.add", "files.completeUploadExternal")
        tables = [
            c for c in self.slack.calls if c.method in ("chat.postMessage", "chat.update") and is_table(c)
        ]
        first = self.slack.calls.index(tables[0]) if tables else len(self.slack.calls)
        return [c for c in self.slack.calls[first:] if c.ok and c.method in shown]

    def calls_in_flight(self) -> int:
        return int(self.slack.inflight)

    def accepted_marks(self) -> int:
        return len(
            [c for c in self.slack.of("reactions.add") if c.ok and c.args.get("name") == "white_check_mark"]
        )

    def hostile_live(self, text: str) -> list[str]:
        kinds = slack_live(text)
        found = [k for k in kinds if k.startswith("token:") and not k.startswith("token:<!date^")]
        if kinds["raw-ampersand"]:
            found.append("raw-ampersand")
        return found + leaks(text) + (["\\x1b"] if "\x1b" in text else [])

    async def stored(self) -> str:
        return await every_text(self.store)

    async def advance(self, seconds: float) -> None:
        await self.clock.advance(seconds)
        await self.settle()

    async def settle(self) -> None:
        await self.clock.settle()
        await eventually(lambda: self.slack.inflight == 0, "the fake Slack's calls answered")
        await asyncio.sleep(0.005)  # (a call on its way to the fake gets there)
        await _database_caught_up(self.store)
        await self.clock.settle()

    async def until(self, predicate: Callable[[], object], most: float = 30.0) -> None:
        await _tick_until(self, predicate, most)

    async def drain(self) -> None:
        await self.h.drain()
        await self.settle()


@asynccontextmanager
async def slack_harness(
    registry: Registry, tmp_path: Path, database: SQLStore | None = None
) -> AsyncIterator[SlackHarness]:
    """The Slack ``h`` fixture's set-up (tests/adapters/slack/conftest.py), on real services."""
    pytest.importorskip("slack_bolt")
    from adapters.slack.store import attach
    from tests.adapters.slack.conftest import MONDAY_1459, running
    from tests.adapters.slack.fakeslack import FakeSlack

    svc, store = await _real_services(tmp_path, registry, database)
    try:
        clock = FakeClock(MONDAY_1459)
        fake = FakeSlack(names={"UADMIN": "Ada"}, admins={"UADMIN"}, now=clock.now)
        await fake.start()
        try:
            async with running(fake, clock, svc, attach(store)) as h:  # type: ignore[arg-type]
                yield SlackHarness(h, store)
        finally:
            await fake.stop()
    finally:
        await _close_own(store, database)


# --------------------------------------------------------------------------- terminal


@dataclass
class _Screen:
    """What the terminal wrote, each piece marked private when it was a Private message."""

    pieces: list[tuple[bool, str]] = field(default_factory=list)
    private: bool = False

    def write(self, text: str) -> None:
        self.pieces.append((self.private, text))


class TerminalHarness:
    """The terminal adapter: one person ("you", an admin) typing lines, computer players."""

    name = "terminal"
    call_budget: ClassVar[float] = float("inf")  # (no calls: it writes to the screen)
    malformed: ClassVar[str] = "nonsense"
    lacks: ClassVar[dict[str, str]] = {
        PEOPLE_CAP: "the terminal has one person at the keyboard, called You",
        BUTTONS: "the terminal has no buttons",
        REDELIVERY: "a typed line is read once: the terminal has no deliveries to repeat",
        ADMINS: "the one person at the terminal is its admin",
        LIMITS: "the terminal has no rate limits",
        THREADS: "the terminal has no threads",
        CHATS: "the terminal is one chat",
        PINGS: "the one person at the terminal is always at the table: there is no one to notify",
    }

    def __init__(self, registry: Registry, svc: Services, store: SQLStore) -> None:
        from adapters.terminal.app import CHAT, TerminalOutbox
        from bot.hosting.manager import GameManager
        from tests.doubles import Keyboard

        self.clock = FakeClock()
        self.store = store
        self.chat = CHAT
        self.screen = _Screen()
        self.outbox = TerminalOutbox(self.screen.write, self.clock, colour=False)
        send = self.outbox.send

        async def marked(message: Outbound) -> Any:
            # (TerminalOutbox.send writes before it awaits anything: the mark is the message's)
            self.screen.private = isinstance(message, Private)
            try:
                return await send(message)
            finally:
                self.screen.private = False

        self.outbox.send = marked  # type: ignore[method-assign]
        self._manager = GameManager(
            registry, self.outbox, svc.game_log, self.clock, workspace=svc.workspace, rng=random.Random(3)
        )
        self.keys = Keyboard()
        self.run: asyncio.Future[int] | None = None

    @property
    def manager(self) -> Any:
        return self._manager

    async def command(self, who: str, text: str, *, thread: str | None = None) -> Sent:
        from adapters.terminal.app import TerminalAdapter

        verb, *words = text.split()
        daily = False
        if self.run is None:
            # the terminal opens its game itself, from the command line's game and options (there
            # is always one: a command typed before is typed at the default game's table); a
            # `daily` first is `python -m bot terminal --daily`
            game, *options = words if verb == "start" and words else [self._manager.registry.names()[0]]
            daily = text == "daily"
            if daily:
                game, options = "daily", []
            adapter = TerminalAdapter(
                self._manager,
                self.outbox,
                self.keys.lines(),
                self.screen.write,
                game=game,
                options=options,
                countdown=0,
            )
            self.run = asyncio.ensure_future(adapter.run())
            run = self.run

            def begun() -> bool:  # (or refused: the adapter has returned)
                session = self._manager.sessions.get(self.chat)
                return run.done() or (session is not None and session.phase.value == "running")

            # the game begins in real time (its start is written to the database) before the
            # clock may move: a countdown of 0
            await eventually(begun, "the terminal's game begun")
        if verb not in ("start", "go", "join") and not daily:
            self.keys.type("/" + text)  # (the terminal starts its game itself, with You in it)
        await self.settle()
        return Sent("command", who, text)

    def seat(self, who: str) -> str:
        return "terminal:you"

    def rename(self, who: str, name: str) -> None:
        raise AssertionError(self.lacks[PEOPLE_CAP])

    def people_speak(self, locale: str) -> None:
        pass  # (the terminal's one person speaks the system locale: LC_ALL, LANG)

    async def press(self, who: str, action: str) -> Sent:
        raise AssertionError(self.lacks[BUTTONS])

    def elsewhere(self, n: int) -> ChatKey:
        raise AssertionError(self.lacks[CHATS])

    async def command_elsewhere(self, n: int, text: str) -> Sent:
        raise AssertionError(self.lacks[CHATS])

    async def say(self, who: str, text: str, *, thread: str | None = None) -> Sent:
        self.keys.type(text)
        await self.settle()
        return Sent("say", who, text)

    async def say_direct(self, who: str, text: str) -> Sent:
        return await self.say(who, text)  # (the terminal is its one person's own chat)

    async def redeliver(self, sent: Sent) -> None:
        raise AssertionError(self.lacks[REDELIVERY])

    def channel(self, thread: str | None = None) -> list[str]:
        return [text for private, text in self.screen.pieces if not private]

    def told(self, who: str) -> list[str]:
        return [text for private, text in self.screen.pieces if private]

    def everything(self) -> list[str]:
        return [text for _, text in self.screen.pieces]

    def buttons_told(self, who: str) -> list[str]:
        return []

    def boards(self, thread: str, title: str) -> tuple[int, int]:
        raise AssertionError(self.lacks[THREADS])

    def boards_expected(self, turns: int) -> tuple[int, int]:
        raise AssertionError(self.lacks[THREADS])

    def local_date(self, text: str) -> bool:
        return False

    def pings(self, who: str, thread: str | None = None) -> list[Ping]:
        return []

    def marks(self, sent: Sent) -> list[str]:
        word = sent.text.upper()
        out = []
        for _, text in self.screen.pieces:
            if text.strip() == f"✔ {word}":
                out.append("accepted")
            elif text.strip().startswith(f"✘ {word}:"):
                out.append("rejected")
        return out

    def thread(self) -> str | None:
        return None

    def rate_limited(self) -> list[Any]:
        return []

    def final_table(self, title: str) -> list[str]:
        raise AssertionError(self.lacks[LIMITS])  # (a table is written anew each time: no buttons)

    def shown_calls(self) -> list[Any]:
        raise AssertionError(self.lacks[LIMITS])

    def calls_in_flight(self) -> int:
        return 0

    def accepted_marks(self) -> int:
        return len([text for _, text in self.screen.pieces if text.strip().startswith("✔ ")])

    def hostile_live(self, text: str) -> list[str]:
        return terminal_live(text) + leaks(text)

    async def stored(self) -> str:
        return await every_text(self.store)

    async def advance(self, seconds: float) -> None:
        await self.clock.advance(seconds)
        await self.settle()

    async def settle(self) -> None:
        await self.clock.settle()
        await eventually(self._waiting_for_a_line, "the terminal waiting for the next line")
        await _database_caught_up(self.store)
        await self.clock.settle()

    def _waiting_for_a_line(self) -> bool:
        """Whether the adapter has read every typed line and handled it: it waits on the keyboard
        again (or it has returned)."""
        if self.run is None or self.run.done():
            return True
        queue = self.keys.queue
        return queue.empty() and bool(getattr(queue, "_getters", None))  # (asyncio.Queue's waiters)

    async def until(self, predicate: Callable[[], object], most: float = 30.0) -> None:
        await _tick_until(self, predicate, most)

    async def drain(self) -> None:
        await self.settle()

    async def close(self) -> None:
        self.keys.type(None)  # end of input: the adapter stops its game and returns
        if self.run is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.run, PATIENCE)
        await self._manager.shutdown()


@asynccontextmanager
async def terminal_harness(
    registry: Registry, tmp_path: Path, database: SQLStore | None = None
) -> AsyncIterator[TerminalHarness]:
    """The terminal adapter on the real services, as ``python -m bot`` runs it."""
    svc, store = await _real_services(tmp_path, registry, database)
    try:
        harness = TerminalHarness(registry, svc, store)
        try:
            yield harness
        finally:
            await harness.close()
    finally:
        await _close_own(store, database)


@asynccontextmanager
async def open_platform(
    name: str,
    registry: Registry,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    database: SQLStore | None = None,
) -> AsyncIterator[PlatformHarness]:
    """The harness of platform ``name`` ("discord", "slack" or "terminal"), on ``database`` (an
    opened store the caller closes) or on a fresh SQLite file."""
    if name == "discord":
        async with discord_harness(registry, tmp_path, monkeypatch, database) as d:
            yield d
    elif name == "slack":
        async with slack_harness(registry, tmp_path, database) as s:
            yield s
    else:
        async with terminal_harness(registry, tmp_path, database) as t:
            yield t
