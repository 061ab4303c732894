"""A local fake Discord: REST v10 routes the bot uses plus a gateway websocket.

It speaks the real payloads (HELLO, IDENTIFY, READY, GUILD_CREATE,
MESSAGE_CREATE, INTERACTION_CREATE, MESSAGE_REACTION_ADD, RESUME), records
every request the bot makes, and can inject REST faults (429 with
retry-after, 500, a hang that the bot's time limit cuts short). Tests wait on
recorded requests with :meth:`FakeDiscord.wait_for`, never on wall-clock sleeps.

It also enforces Discord's rate limits (:class:`DiscordLimits`) on the injected
clock: per-channel buckets for posting, editing and reacting, the global limit
per bot token, with Discord's headers and 429 bodies.

And, in every test, what else Discord documents (each cited where it is done):
message and embed length limits (400, 50035), direct messages refused by a member's setting
(:attr:`FakeDiscord.dms_closed`, 403, 50007), threads archived when idle or when told, with
edits, reactions and commands refused there (50083) and a message unarchiving them,
shared-scope 429s (not counted as invalid requests), deleted channels and threads (their
gateway events, then 404 10003) and channels the bot may no longer see (403 50001), and a
gateway that replays missed events on RESUME or invalidates the session (op 9).

Every request is also judged by Discord's published OpenAPI spec (tests/specs): what it refuses is
kept on the :class:`Request` (``violations``) and fails the test that made it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import itertools
import json
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

import discord
import yarl
from aiohttp import web
from discord.gateway import DiscordWebSocket

from tests import specs
from tests.waiting import PATIENCE

DISCORD_EPOCH_MS = 1420070400000
#: How long Discord remembers a message's nonce for ``enforce_nonce`` ("the past few minutes").
NONCE_WINDOW = 300.0
APP_ID = "900000000000000001"
BOT_ID = APP_ID
GUILD_ID = "800000000000000001"
CHANNEL_ID = "800000000000000002"
OTHER_CHANNEL_ID = "800000000000000003"
EVERYONE = GUILD_ID

#: Permissions a normal member has in the test guild (no Manage Server).
MEMBER_PERMS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    read_message_history=True,
    add_reactions=True,
    use_application_commands=True,
)
ADMIN_PERMS = discord.Permissions(MEMBER_PERMS.value | discord.Permissions(manage_guild=True).value)
BOT_PERMS = discord.Permissions(
    view_channel=True,
    send_messages=True,
    embed_links=True,
    attach_files=True,
    add_reactions=True,
    read_message_history=True,
    create_public_threads=True,
    send_messages_in_threads=True,
)


@dataclass
class Request:
    """One REST call the bot made."""

    method: str
    path: str  # after /api/v10
    query: dict[str, str]
    json: Any
    files: list[bytes] = field(default_factory=list)
    status: int = 200
    #: the fake clock's time when the request arrived
    at: float = 0.0
    #: the rate-limit bucket kind that answered it 429 ("global", "message_create", ...); "" if none did
    limited: str = ""
    #: a post whose ``enforce_nonce`` matched an earlier message: that one was returned, none created
    duplicate: bool = False
    #: answered 429 by a shared resource limit (``X-RateLimit-Scope: shared``)
    shared: bool = False
    #: what Discord's published OpenAPI spec refuses in it (tests/specs; [] when it takes it)
    violations: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """Everything a reader of the message would see, as one string."""
        return json.dumps(self.json, ensure_ascii=False) if self.json is not None else ""

    @property
    def ephemeral(self) -> bool:
        """Only the invoker sees it (flags 64 on the message or the callback's data)."""
        body = self.json or {}
        data = body.get("data", body) if isinstance(body, dict) else {}
        return bool(isinstance(data, dict) and (data.get("flags", 0) or 0) & 64)


@dataclass
class Fault:
    """Make the next ``times`` matching requests fail."""

    method: str
    pattern: str
    kind: str  # "429" | "shared" (a shared resource's 429) | "500" | "403" | "hang"
    times: int = 1
    retry_after: float = 0.05
    #: only requests whose JSON body matches this pattern (e.g. one message's text)
    body: str | None = None


@dataclass(frozen=True)
class RouteLimit:
    """At most ``limit`` requests per fixed window of ``window`` seconds."""

    limit: int
    window: float  # seconds


@dataclass(frozen=True)
class DiscordLimits:
    """The rate limits the fake enforces (Discord's own numbers by default).

    Every bucket is a fixed window that opens with the first request after the
    previous window ended and resets ``window`` seconds later; a request over
    the limit is answered 429 and not carried out, and does not use a slot.

    * ``global_limit``: per bot token, every route except interaction callbacks
      (``POST /interactions/{id}/{token}/callback``) and interaction webhooks
      (``/webhooks/{application_id}/{token}...``).
    * ``message_create``: ``POST /channels/{cid}/messages``, per channel.
    * ``message_edit``: ``PATCH /channels/{cid}/messages/{mid}``, per channel.
    * ``reaction``: ``PUT``/``DELETE /channels/{cid}/messages/{mid}/reactions/...``, per channel.

    ``reset_scale`` multiplies the ``X-RateLimit-Reset-After`` header (only that
    header: ``X-RateLimit-Reset``, ``Retry-After`` and the 429 body's
    ``retry_after`` stay honest). discord.py sleeps ``Reset-After`` seconds of
    *wall* time once a bucket's ``Remaining`` reaches 0; a harness on a fake
    clock passes ``reset_scale=0.0`` so the library never sleeps, while the
    limits are still enforced on the fake clock (overrunning them gets 429s,
    and discord.py then sleeps the honest ``retry_after`` of wall time before
    retrying).
    """

    global_limit: RouteLimit = RouteLimit(50, 1.0)
    message_create: RouteLimit = RouteLimit(5, 5.0)
    message_edit: RouteLimit = RouteLimit(5, 5.0)
    reaction: RouteLimit = RouteLimit(1, 0.25)
    #: reactions added to one message by everyone (members and the bot): a *shared* resource
    #: limit. Discord publishes no number for shared limits; this one exists so the shared 429
    #: (docs/topics/Rate_Limits.md, "Example Exceeded Resource Rate Limit Response") is met in
    #: any test where many people react to one message at once.
    shared_reactions: RouteLimit = RouteLimit(10, 1.0)
    reset_scale: float = 1.0


#: Discord's limits, the fake's default.
DEFAULT_LIMITS = DiscordLimits()


def bucket_hash(kind: str) -> str:
    """The ``X-RateLimit-Bucket`` value of a bucket kind ("message_create", ...).

    Like Discord's, it names the route, not the channel (top-level resources are
    not part of it; discord.py keys its buckets by hash + channel itself).
    """
    return hashlib.sha1(kind.encode()).hexdigest()[:16]


def _seconds(value: float) -> str:
    """A float header value with millisecond precision, as Discord sends it."""
    return f"{value:.3f}"


@dataclass(frozen=True)
class _Verdict:
    """What the limits say about one request: allowed (with headers) or not."""

    headers: dict[str, str]
    limited: str = ""  # the bucket kind that refused it
    retry_after: float = 0.0


#: Discord's limits on one message's text, measured after trimming white space
#: (docs/resources/Message.md: "content: Message contents (up to 2000 characters)" and
#: "Embed Limits": title 256, description 4096, up to 25 fields, field.name 256, field.value
#: 1024, footer.text 2048, author.name 256, and "the combined sum of characters in all title,
#: description, field.name, field.value, footer.text, and author.name fields across all embeds
#: attached to a message must not exceed 6000 characters. Violating any of these constraints
#: will result in a Bad Request response"; Create Message: "up to 10 embeds"). The answer is
#: error 50035 "Invalid Form Body" with an ``errors`` object naming the key
#: (docs/reference.md, "Error Messages"; docs/topics/Opcodes_and_Status_Codes.md: "50035
#: Invalid form body").
CONTENT_MAX = 2000
EMBED_FIELD_MAX = {"title": 256, "description": 4096}
EMBED_PART_MAX = {("footer", "text"): 2048, ("author", "name"): 256}
FIELD_MAX = {"name": 256, "value": 1024}
EMBEDS_MAX = 10
FIELDS_MAX = 25
EMBED_TOTAL_MAX = 6000


def _too_long(limit: int) -> dict[str, Any]:
    return {"_errors": [{"code": "BASE_TYPE_MAX_LENGTH", "message": f"Must be {limit} or fewer in length."}]}


def form_errors(body: Any) -> dict[str, Any]:
    """What Discord's form validation says about a message body: {} when it is valid."""
    if not isinstance(body, dict):
        return {}
    errors: dict[str, Any] = {}
    content = body.get("content")
    if isinstance(content, str) and len(content.strip()) > CONTENT_MAX:
        errors["content"] = _too_long(CONTENT_MAX)
    embeds = body.get("embeds") or []
    if len(embeds) > EMBEDS_MAX:
        errors["embeds"] = _too_long(EMBEDS_MAX)
        return errors
    total = 0
    for i, embed in enumerate(embeds):
        found: dict[str, Any] = {}
        for key, limit in EMBED_FIELD_MAX.items():
            value = str(embed.get(key) or "").strip()
            total += len(value)
            if len(value) > limit:
                found[key] = _too_long(limit)
        for (part, key), limit in EMBED_PART_MAX.items():
            value = str((embed.get(part) or {}).get(key) or "").strip()
            total += len(value)
            if len(value) > limit:
                found.setdefault(part, {})[key] = _too_long(limit)
        fields = embed.get("fields") or []
        if len(fields) > FIELDS_MAX:
            found["fields"] = _too_long(FIELDS_MAX)
        for j, item in enumerate(fields):
            for key, limit in FIELD_MAX.items():
                value = str(item.get(key) or "").strip()
                total += len(value)
                if len(value) > limit:
                    found.setdefault("fields", {}).setdefault(str(j), {})[key] = _too_long(limit)
        if found:
            errors.setdefault("embeds", {})[str(i)] = found
    if total > EMBED_TOTAL_MAX and "embeds" not in errors:
        errors["embeds"] = {
            "_errors": [
                {"code": "MAX_EMBED_SIZE_EXCEEDED", "message": "Embed size exceeds maximum size of 6000"}
            ]
        }
    return errors


#: Discord's locales (docs/reference.md, "Locales"): the keys a localizations dictionary may have.
LOCALES = frozenset(locale.value for locale in discord.Locale)
#: Application command limits (docs/interactions/Application_Commands.md): "CHAT_INPUT command
#: names and command option names must match the following regex
#: ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$ … If there is a lowercase variant of any letters
#: used, you must use those"; descriptions 1-100 characters, choice names 1-100; localizations
#: "follow the same restrictions"; "Localized option names … must be distinct from all other
#: default option names of that command, as well as all other option names within that locale".
COMMAND_NAME_MAX = 32
COMMAND_DESCRIPTION_MAX = 100
CHOICE_NAME_MAX = 100


def command_name_ok(name: object) -> bool:
    """Whether Discord takes ``name`` as a slash command's or an option's name."""
    return (
        isinstance(name, str)
        and 0 < len(name) <= COMMAND_NAME_MAX
        and all(ch.isalnum() or ch in "-_'" for ch in name)
        and name == name.lower()
    )


def command_errors(command: dict[str, Any], path: str = "") -> list[str]:
    """What Discord would refuse in one command (or option) of a bulk overwrite: [] when valid."""
    errors: list[str] = []
    where = f"{path}/{command.get('name')}"
    names = {None: command.get("name"), **(command.get("name_localizations") or {})}
    descriptions = {None: command.get("description"), **(command.get("description_localizations") or {})}
    for locale, name in names.items():
        if locale is not None and locale not in LOCALES:
            errors.append(f"{where}: unknown locale {locale}")
        if not command_name_ok(name):
            errors.append(f"{where}: invalid name {name!r} ({locale or 'default'})")
    for locale, text in descriptions.items():
        if locale is not None and locale not in LOCALES:
            errors.append(f"{where}: unknown locale {locale}")
        if not isinstance(text, str) or not 0 < len(text) <= COMMAND_DESCRIPTION_MAX:
            errors.append(f"{where}: description of {len(str(text))} characters ({locale or 'default'})")
    for choice in command.get("choices") or []:
        for locale, name in {None: choice.get("name"), **(choice.get("name_localizations") or {})}.items():
            if not isinstance(name, str) or not 0 < len(name) <= CHOICE_NAME_MAX:
                errors.append(f"{where}: choice name {name!r} ({locale or 'default'})")
    options = command.get("options") or []
    if len(options) > 25:
        errors.append(f"{where}: {len(options)} options")
    plain = [o for o in options if o.get("type") not in (1, 2)]  # (a subcommand is a command)
    defaults = {o.get("name") for o in plain}
    for locale in {key for o in plain for key in (o.get("name_localizations") or {})}:
        shown = [(o.get("name_localizations") or {}).get(locale, o.get("name")) for o in plain]
        if len(set(shown)) < len(shown):
            errors.append(f"{where}: option names repeat in {locale}: {sorted(shown)}")
        for o in plain:
            local = (o.get("name_localizations") or {}).get(locale)
            if local is not None and local != o.get("name") and local in defaults:
                errors.append(f"{where}: {locale} name {local!r} is another option's name")
    for option in options:
        errors += command_errors(option, where)
    return errors


def invalid_form(errors: dict[str, Any]) -> web.Response:
    """Discord's 400 answer to a body that breaks a limit (error 50035)."""
    return _json({"code": 50035, "errors": errors, "message": "Invalid Form Body"}, status=400)


#: "the thread will stop showing in the channel list after auto_archive_duration minutes of
#: inactivity, can be set to: 60, 1440, 4320, 10080" (docs/resources/Channel.md, Thread Metadata)
ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
#: "Tried to perform an operation on an archived thread, such as editing a message or adding a
#: user to the thread" (docs/topics/Opcodes_and_Status_Codes.md, JSON error codes)
ARCHIVED_THREAD = 50083


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat()


def _json(data: Any, status: int = 200, headers: dict[str, str] | None = None) -> web.Response:
    """A JSON answer with Discord's exact content type (discord.py compares it verbatim)."""
    return web.Response(
        body=json.dumps(data).encode(),
        status=status,
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def user(uid: str, name: str, *, bot: bool = False) -> dict[str, Any]:
    return {
        "id": uid,
        "username": name.lower(),
        "global_name": name,
        "discriminator": "0",
        "avatar": None,
        "bot": bot,
    }


BOT_USER = user(BOT_ID, "moji", bot=True)
#: The gateway intent that brings direct messages (docs/topics/Gateway.md, "List of Intents").
DIRECT_MESSAGES = 1 << 12


def role_payload(rid: str, name: str, position: int) -> dict[str, Any]:
    """A role as Discord describes it (no permissions of its own)."""
    return {
        "id": rid,
        "name": name,
        "permissions": "0",
        "position": position,
        "color": 0,
        "hoist": False,
        "managed": False,
        "mentionable": False,
        "flags": 0,
    }


def message_payload(
    mid: str, channel: str, guild: str, member: dict[str, Any], content: str
) -> dict[str, Any]:
    """A MESSAGE_CREATE payload: ``member`` (as :meth:`FakeDiscord.member` gives it) typed ``content``."""
    return {
        "id": mid,
        "channel_id": channel,
        "guild_id": guild,
        "author": member["user"],
        "member": {k: v for k, v in member.items() if k != "user"},
        "content": content,
        "timestamp": "2026-01-01T00:00:00+00:00",
        "edited_timestamp": None,
        "tts": False,
        "mention_everyone": False,
        "mentions": [],
        "mention_roles": [],
        "attachments": [],
        "embeds": [],
        "pinned": False,
        "type": 0,
        "flags": 0,
    }


class FakeDiscord:
    """REST + gateway on 127.0.0.1; ``now`` stamps snowflakes and runs the rate limits (the test's clock).

    ``limits`` are the rate limits enforced (see :class:`DiscordLimits`; pass
    ``DiscordLimits(reset_scale=0.0)`` when discord.py runs against a fake
    clock); ``None`` turns enforcement off and sends no rate-limit headers.
    """

    def __init__(
        self,
        now: Callable[[], float] = time.time,
        *,
        guilds: tuple[str, ...] = (GUILD_ID,),
        limits: DiscordLimits | None = DEFAULT_LIMITS,
    ) -> None:
        self.now = now
        self.guilds = guilds
        self.limits = limits
        #: (bucket kind, channel id or "") → (window start, requests taken in it)
        self._windows: dict[tuple[str, str], tuple[float, int]] = {}
        self.requests: list[Request] = []
        self.faults: list[Fault] = []
        self.identifies: list[dict[str, Any]] = []
        self.resumes: list[dict[str, Any]] = []
        self.sockets: dict[int, web.WebSocketResponse] = {}
        #: shard → gateway events sent while its connection was down (replayed on RESUME)
        self.missed: dict[int, list[dict[str, Any]]] = {}
        #: shards whose session was invalidated: a RESUME is answered op 9 too
        self.invalidated: set[int] = set()
        self._door = asyncio.Event()
        self._door.set()
        self.seq: dict[int, int] = {}
        self.shard_count = 1
        self.base = ""
        self._counter = itertools.count(1)
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self._connected = asyncio.Event()
        self._closing = asyncio.Event()
        #: answer GET /users/@me with 401 (a bad token)
        self.faults_401 = False
        #: REST requests being answered right now
        self.inflight = 0
        self.messages: dict[str, dict[str, Any]] = {}
        #: user id → their direct-message channel id
        self.dm_channels: dict[str, str] = {}
        #: users who closed their direct messages from this server's members (or blocked the
        #: bot): every message to their DM channel is refused, 403 with code 50007 "Cannot send
        #: messages to this user" (docs/topics/Opcodes_and_Status_Codes.md, JSON error codes).
        #: Opening the DM channel still works (docs/resources/User.md, Create DM: "Returns a DM
        #: channel object"); only sending in it is refused. Open by default, as is Discord's
        #: default for a new member ("Allow direct messages from server members").
        self.dms_closed: set[str] = set()
        #: thread id → its channel object (threads the bot opened: POST /channels/{id}/threads)
        self.threads: dict[str, dict[str, Any]] = {}
        #: thread id → its last activity on the fake clock (see :meth:`archive_idle`)
        self.thread_activity: dict[str, float] = {}
        #: (thread id, what) of the commands and button presses Discord's client would not even
        #: send: "Users cannot edit messages, add reactions, use application commands, or join
        #: archived threads" (docs/topics/Threads.md, "Active & Archived Threads")
        self.refused_in_archived: list[tuple[str, str]] = []
        #: What Discord refused in the last bulk overwrite of the application commands (if any).
        self.refused_commands: list[str] = []
        #: guild id → roles made after it was created (see :meth:`create_role`)
        self.more_roles: dict[str, list[dict[str, Any]]] = {}
        #: interaction ids Discord has had an initial response for (a second one is refused)
        self.answered: set[str] = set()
        #: interaction payloads sent, by id (see :meth:`redeliver`)
        self.interactions: dict[str, dict[str, Any]] = {}
        #: channels and threads deleted: every request in them is 404, 10003 "Unknown channel"
        self.deleted: set[str] = set()
        #: channels the bot may no longer see (removed from them, View Channel denied): every
        #: request in them is 403, 50001 "Missing access" (docs/topics/Opcodes_and_Status_Codes.md)
        self.no_access: set[str] = set()
        #: message id → when reactions were added to it (by anyone), for the shared limit
        self._reactions: dict[str, list[float]] = {}
        #: (channel id, nonce) → (when, message id): ``enforce_nonce`` posts
        self._nonces: dict[tuple[str, str], tuple[float, str]] = {}
        app = web.Application(client_max_size=16 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/api/v10/{tail:.*}", self._rest)
        self.app = app

    # ------------------------------------------------------------ life

    async def start(self) -> None:
        self._runner = web.AppRunner(self.app, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = self._runner.addresses[0][1]
        self.base = f"http://127.0.0.1:{port}"

    @property
    def gateway_url(self) -> str:
        return self.base.replace("http://", "ws://") + "/gateway"

    def patch(self, monkeypatch: Any) -> None:
        """Point discord.py at this server (REST base and default gateway)."""
        monkeypatch.setattr(discord.http.Route, "BASE", self.base + "/api/v10")
        monkeypatch.setattr(DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(self.gateway_url))

    async def close(self) -> None:
        self._closing.set()
        for ws in list(self.sockets.values()):
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ------------------------------------------------------------ ids

    def snowflake(self, at: float | None = None) -> str:
        ms = int((self.now() if at is None else at) * 1000) - DISCORD_EPOCH_MS
        return str((ms << 22) | (next(self._counter) & 0x3FFFFF))

    # ------------------------------------------------------------ recording

    async def _record(self, request: Request) -> None:
        async with self._changed:
            self.requests.append(request)
            self._changed.notify_all()

    def of(self, method: str, pattern: str) -> list[Request]:
        """Recorded requests whose path matches ``pattern`` (a regex)."""
        rx = re.compile(pattern)
        return [r for r in self.requests if r.method == method and rx.search(r.path)]

    async def wait_for(
        self,
        method: str,
        pattern: str,
        check: Callable[[Request], bool] = lambda r: True,
        *,
        count: int = 1,
        within: float = PATIENCE,
    ) -> list[Request]:
        """Wait until ``count`` matching requests were recorded; returns them."""
        rx = re.compile(pattern)

        def found() -> list[Request]:
            return [r for r in self.requests if r.method == method and rx.search(r.path) and check(r)]

        async with asyncio.timeout(within):
            async with self._changed:
                await self._changed.wait_for(lambda: len(found()) >= count)
        return found()

    async def until(self, predicate: Callable[[], bool], within: float = PATIENCE) -> None:
        """Wait until ``predicate()`` holds (re-checked on each request and briefly in between)."""
        async with asyncio.timeout(within):
            while not predicate():
                async with self._changed:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(self._changed.wait(), 0.02)

    def rate_limited(self) -> list[Request]:
        """Requests answered 429 by the rate limits (not by :class:`Fault`)."""
        return [r for r in self.requests if r.limited]

    @property
    def invalid_requests(self) -> int:
        """Answers Discord counts as invalid (401, 403, 429); it bans an IP after 10,000 in 10 minutes.

        "429 errors returned with X-RateLimit-Scope: shared are not counted against you"
        (docs/topics/Rate_Limits.md, "Invalid Request Limit")."""
        return sum(1 for r in self.requests if r.status in (401, 403, 429) and not r.shared)

    def _shared_verdict(self, method: str, path: str, at: float) -> float:
        """Seconds to wait when a shared resource limit refuses the request (0: allowed)."""
        if self.limits is None or method != "PUT":
            return 0.0
        parts = path.strip("/").split("/")
        if len(parts) < 5 or parts[0] != "channels" or parts[4] != "reactions":
            return 0.0
        rule = self.limits.shared_reactions
        recent = [t for t in self._reactions.get(parts[3], []) if t > at - rule.window]
        self._reactions[parts[3]] = recent
        if len(recent) >= rule.limit:
            return round(recent[0] + rule.window - at, 3)
        recent.append(at)
        return 0.0

    @staticmethod
    def _shared_429(retry_after: float) -> web.Response:
        """Discord's answer when a shared resource is limited (docs/topics/Rate_Limits.md,
        "Example Exceeded Resource Rate Limit Response"): the route's headers, Remaining not 0,
        ``X-RateLimit-Scope: shared``, "The resource is being rate limited."."""
        return _json(
            {"message": "The resource is being rate limited.", "retry_after": retry_after, "global": False},
            status=429,
            headers={
                "Retry-After": str(retry_after),
                "X-RateLimit-Limit": "10",
                "X-RateLimit-Remaining": "9",
                "X-RateLimit-Reset-After": _seconds(retry_after),
                "X-RateLimit-Bucket": bucket_hash("shared"),
                "X-RateLimit-Scope": "shared",
                "Via": "1.1 google",  # discord.py treats a 429 without it as a Cloudflare ban
            },
        )

    # ------------------------------------------------------------ rate limits

    @staticmethod
    def _route_bucket(method: str, parts: list[str]) -> tuple[str, str] | None:
        """(bucket kind, channel id) of a route with its own bucket, else None."""
        if len(parts) < 3 or parts[0] != "channels" or parts[2] != "messages":
            return None
        if method == "POST" and len(parts) == 3:
            return "message_create", parts[1]
        if method == "PATCH" and len(parts) == 4:
            return "message_edit", parts[1]
        if method in ("PUT", "DELETE") and len(parts) >= 5 and parts[4] == "reactions":
            return "reaction", parts[1]
        return None

    @staticmethod
    def _global_exempt(method: str, parts: list[str]) -> bool:
        """Interaction callbacks and interaction webhooks are not bound by the global limit."""
        if parts[0] == "interactions" and parts[-1] == "callback" and method == "POST":
            return True
        return parts[0] == "webhooks" and len(parts) >= 3

    def _window(self, key: tuple[str, str], rule: RouteLimit, at: float) -> tuple[float, int]:
        """(start, used) of the bucket's window at ``at``; a new one if the last has ended."""
        window = self._windows.get(key)
        if window is None or at >= window[0] + rule.window:
            return at, 0
        return window

    def _limit(self, method: str, path: str, at: float) -> _Verdict:
        """Check the request against the limits; take its slots when it is allowed."""
        limits = self.limits
        assert limits is not None
        parts = path.strip("/").split("/")
        checks: list[tuple[tuple[str, str], RouteLimit]] = []
        if not self._global_exempt(method, parts):
            checks.append((("global", ""), limits.global_limit))
        route = self._route_bucket(method, parts)
        if route is not None:
            checks.append((route, getattr(limits, route[0])))
        windows = [self._window(key, rule, at) for key, rule in checks]
        for (key, rule), (start, used) in zip(checks, windows, strict=True):
            if used >= rule.limit:
                kind = key[0]
                is_global = kind == "global"
                reset = start + rule.window
                retry_after = round(reset - at, 3)
                refused = {
                    "Retry-After": str(retry_after),
                    "X-RateLimit-Limit": str(rule.limit),
                    "X-RateLimit-Remaining": "0",
                    "X-RateLimit-Reset": _seconds(reset),
                    "X-RateLimit-Reset-After": _seconds((reset - at) * limits.reset_scale),
                    "X-RateLimit-Scope": "global" if is_global else "user",
                    "Via": "1.1 google",  # discord.py treats a 429 without it as a Cloudflare ban
                }
                if is_global:
                    # Discord names no bucket on a global 429; a hash here would make
                    # discord.py re-key the route's bucket under it.
                    refused["X-RateLimit-Global"] = "true"
                else:
                    refused["X-RateLimit-Bucket"] = bucket_hash(kind)
                return _Verdict(refused, limited=kind, retry_after=retry_after)
        headers: dict[str, str] = {}
        for (key, rule), (start, used) in zip(checks, windows, strict=True):
            self._windows[key] = (start, used + 1)
            if key[0] != "global":
                reset = start + rule.window
                headers = {
                    "X-RateLimit-Limit": str(rule.limit),
                    "X-RateLimit-Remaining": str(rule.limit - used - 1),
                    "X-RateLimit-Reset": _seconds(reset),
                    "X-RateLimit-Reset-After": _seconds((reset - at) * limits.reset_scale),
                    "X-RateLimit-Bucket": bucket_hash(key[0]),
                }
        return _Verdict(headers)

    # ------------------------------------------------------------ REST

    def _fault_for(self, method: str, path: str, body: Any = None) -> Fault | None:
        for fault in self.faults:
            if fault.times > 0 and fault.method == method and re.search(fault.pattern, path):
                if fault.body is not None and not re.search(fault.body, json.dumps(body, ensure_ascii=False)):
                    continue
                fault.times -= 1
                return fault
        return None

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        self.inflight += 1
        try:
            return await self._rest_inner(request)
        finally:
            self.inflight -= 1

    async def _rest_inner(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body: Any = None
        files: list[bytes] = []
        if request.content_type == "multipart/form-data":
            form = await request.post()
            for key, value in form.items():
                if key == "payload_json":
                    body = json.loads(str(value))
                elif isinstance(value, web.FileField):
                    files.append(value.file.read())
        elif request.can_read_body:
            raw = await request.read()
            body = json.loads(raw) if raw else None
        at = self.now()
        record = Request(request.method, path, dict(request.query), body, files, at=at)
        record.violations = [v.problem for v in specs.judge_discord(record.method, path, record.query, body)]
        fault = self._fault_for(request.method, path, body)
        if fault is not None:
            record.status = {"429": 429, "shared": 429, "500": 500, "403": 403, "hang": 0}[fault.kind]
            record.shared = fault.kind == "shared"
            await self._record(record)
            if fault.kind == "shared":
                return self._shared_429(fault.retry_after)
            if fault.kind == "429":
                return _json(
                    {
                        "message": "You are being rate limited.",
                        "retry_after": fault.retry_after,
                        "global": False,
                    },
                    status=429,
                    headers={
                        "Retry-After": str(fault.retry_after),
                        "X-RateLimit-Scope": "user",
                        "X-RateLimit-Limit": "5",
                        "X-RateLimit-Remaining": "0",
                        "X-RateLimit-Reset-After": str(fault.retry_after),
                        "X-RateLimit-Bucket": "fake-bucket",
                        "Via": "1.1 google",  # discord.py treats a 429 without it as a Cloudflare ban
                    },
                )
            if fault.kind == "403":
                return _json({"message": "Missing Permissions", "code": 50013}, status=403)
            if fault.kind == "500":
                return _json({"message": "500: Internal Server Error", "code": 0}, status=500)
            # the bot's own time limit must cut this short; a hung request is no work in flight
            # (a test's settle() waits for those), since only the fake's closing ends it
            self.inflight -= 1
            try:
                await self._closing.wait()
            finally:
                self.inflight += 1
            return _json({"message": "too late"}, status=503)
        verdict = self._limit(request.method, path, at) if self.limits is not None else _Verdict({})
        if verdict.limited:
            record.status = 429
            record.limited = verdict.limited
            await self._record(record)
            return _json(
                {
                    "message": "You are being rate limited.",
                    "retry_after": verdict.retry_after,
                    "global": verdict.limited == "global",
                    "code": 0,
                },
                status=429,
                headers=verdict.headers,
            )
        gone = self._gone(path)
        if gone is not None:
            record.status = gone.status
            await self._record(record)
            return gone
        shared = self._shared_verdict(request.method, path, at)
        if shared:
            record.status, record.shared = 429, True
            await self._record(record)
            return self._shared_429(shared)
        # (not `refused or …`: an empty web.Response is falsy in older aiohttp, whose
        # StreamResponse had __len__ and no __bool__)
        refused = await self._thread_rules(request.method, path, body, record)
        response = refused if refused is not None else self._answer(request.method, path, body, record)
        response.headers.update(verdict.headers)
        await self._record(record)
        return response

    # ------------------------------------------------------------ channels that are gone

    def _gone(self, path: str) -> web.Response | None:
        """Discord's answer to a request in a deleted channel (404, 10003 "Unknown channel") or
        one the bot may not see (403, 50001 "Missing access"); None for any other."""
        parts = path.strip("/").split("/")
        if parts[0] != "channels" or len(parts) < 2:
            return None
        channel = parts[1]
        parent = str(self.threads[channel]["parent_id"]) if channel in self.threads else None
        if channel in self.deleted or parent in self.deleted:
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)
        if channel in self.no_access or parent in self.no_access:
            return _json({"message": "Missing Access", "code": 50001}, status=403)
        return None

    async def delete_channel(self, channel_id: str, guild: str = GUILD_ID) -> None:
        """Someone deletes a channel or a thread: CHANNEL_DELETE ("Sent when a channel relevant
        to the current user is deleted", a channel object) or THREAD_DELETE ("Sent when a thread
        relevant to the current user is deleted … containing just the id, guild_id, parent_id,
        and type fields"), docs/topics/Gateway_Events.md; every later request there is 404."""
        self.deleted.add(channel_id)
        if channel_id in self.threads:
            thread = self.threads[channel_id]
            data = {k: thread[k] for k in ("id", "guild_id", "parent_id", "type")}
            await self.send("THREAD_DELETE", data, shard=self.shard_of(str(thread["guild_id"])))
            return
        channel = next(c for c in self.guild_payload(guild)["channels"] if c["id"] == channel_id)
        await self.send("CHANNEL_DELETE", channel, shard=self.shard_of(guild))

    async def remove_bot(self, guild: str = GUILD_ID) -> None:
        """The bot is removed from a server: GUILD_DELETE without ``unavailable`` ("If the
        unavailable field is not set, the user was removed from the guild", docs/topics/
        Gateway_Events.md, Guild Delete); its channels are out of the bot's reach from then on."""
        for channel in self.guild_payload(guild)["channels"]:
            self.no_access.add(str(channel["id"]))
        await self.send("GUILD_DELETE", {"id": guild}, shard=self.shard_of(guild))

    def revoke_access(self, channel_id: str) -> None:
        """The bot may no longer see a channel (and its threads): no event says so; every
        request there is refused 403, 50001."""
        self.no_access.add(channel_id)

    # ------------------------------------------------------------ threads

    def archived(self, thread_id: str) -> bool:
        """True while the thread is archived."""
        thread = self.threads.get(thread_id)
        return bool(thread and thread["thread_metadata"]["archived"])

    async def _thread_changed(self, thread_id: str) -> None:
        """THREAD_UPDATE: "Sent when a thread is updated. The inner payload is a channel object"
        (docs/topics/Gateway_Events.md)."""
        thread = self.threads[thread_id]
        await self.send("THREAD_UPDATE", dict(thread), shard=self.shard_of(str(thread["guild_id"])))

    async def archive(self, thread_id: str, *, locked: bool = False) -> None:
        """Archive a thread now (a moderator, or Discord itself in a busy server: "As a server
        approaches the max thread limit this timer will automatically lower")."""
        meta = self.threads[thread_id]["thread_metadata"]
        meta.update(archived=True, locked=locked or meta["locked"], archive_timestamp=_iso(self.now()))
        await self._thread_changed(thread_id)

    async def _unarchive(self, thread_id: str) -> None:
        meta = self.threads[thread_id]["thread_metadata"]
        meta.update(archived=False, archive_timestamp=_iso(self.now()))
        self.thread_activity[thread_id] = self.now()
        await self._thread_changed(thread_id)

    async def archive_idle(self) -> list[str]:
        """Archive every thread idle for its ``auto_archive_duration``: "Threads automatically
        archive after a period of inactivity. … 'Activity' is defined as sending a message,
        unarchiving a thread, or changing the auto-archive time" (docs/topics/Threads.md).
        Also done on its own before each request or event that touches a thread."""
        done = []
        for thread_id in list(self.threads):
            if await self._archive_if_idle(thread_id):
                done.append(thread_id)
        return done

    async def _archive_if_idle(self, thread_id: str) -> bool:
        thread = self.threads.get(thread_id)
        if thread is None or thread["thread_metadata"]["archived"]:
            return False
        idle = self.now() - self.thread_activity.get(thread_id, self.now())
        if idle < thread["thread_metadata"]["auto_archive_duration"] * 60:
            return False
        await self.archive(thread_id)
        return True

    async def _thread_rules(self, method: str, path: str, body: Any, record: Request) -> web.Response | None:
        """What Discord does with a request in a thread (docs/topics/Threads.md, "Active &
        Archived Threads"): "Users cannot edit messages, add reactions, use application commands,
        or join archived threads. … Sending a message will automatically unarchive the thread,
        unless the thread has been locked by a moderator." Refusals are 400 with error 50083."""
        parts = path.strip("/").split("/")
        if parts[0] != "channels" or len(parts) < 2 or parts[1] not in self.threads:
            return None
        thread_id = parts[1]
        await self._archive_if_idle(thread_id)
        meta = self.threads[thread_id]["thread_metadata"]
        if len(parts) == 2 and method == "PATCH":
            changes = body or {}
            if "auto_archive_duration" in changes:
                if changes["auto_archive_duration"] not in ARCHIVE_DURATIONS:
                    record.status = 400
                    return invalid_form({"auto_archive_duration": _too_long(10080)})
                meta["auto_archive_duration"] = changes["auto_archive_duration"]
                self.thread_activity[thread_id] = self.now()
            if changes.get("archived") is False and meta["archived"]:
                if meta["locked"]:  # "can only be unarchived by a user with the MANAGE_THREADS permission"
                    record.status = 403
                    return _json({"message": "Missing Permissions", "code": 50013}, status=403)
                await self._unarchive(thread_id)
            elif "auto_archive_duration" in changes:
                await self._thread_changed(thread_id)
            return None
        if not meta["archived"]:
            if method == "POST" and len(parts) == 3 and parts[2] == "messages":
                self.thread_activity[thread_id] = self.now()
            return None
        if method == "POST" and len(parts) == 3 and parts[2] == "messages" and not meta["locked"]:
            await self._unarchive(thread_id)  # a message unarchives an unlocked thread
            return None
        record.status = 400
        return _json({"message": "Thread is archived", "code": ARCHIVED_THREAD}, status=400)

    def _message(
        self, channel_id: str, body: dict[str, Any] | None, *, ephemeral: bool = False
    ) -> dict[str, Any]:
        body = body or {}
        mid = self.snowflake()
        message = {
            "id": mid,
            "channel_id": channel_id,
            "author": BOT_USER,
            "content": body.get("content") or "",
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": 64 if ephemeral else 0,
        }
        if channel_id not in self.dm_channels.values():
            message["guild_id"] = self.guild_of_channel(channel_id)
        self.messages[mid] = message
        return message

    def _answer(self, method: str, path: str, body: Any, record: Request) -> web.StreamResponse:
        parts = path.strip("/").split("/")
        sends = (parts[0] == "channels" and "messages" in parts and method in ("POST", "PATCH")) or (
            parts[0] == "webhooks" and method in ("POST", "PATCH")
        )
        message_body = (body or {}).get("data") if parts[0] == "interactions" else body
        if sends or parts[0] == "interactions":
            errors = form_errors(message_body)
            if errors:
                record.status = 400
                return invalid_form(errors)
        if method == "GET" and path == "/users/@me":
            if self.faults_401:
                record.status = 401
                return _json({"message": "401: Unauthorized", "code": 0}, status=401)
            return _json(BOT_USER)
        if method == "GET" and path == "/oauth2/applications/@me":
            return _json(
                {
                    "id": APP_ID,
                    "name": "moji",
                    "description": "",
                    "icon": None,
                    "bot_public": True,
                    "bot_require_code_grant": False,
                    "owner": user("700000000000000001", "Owner"),
                    "verify_key": "0" * 64,
                    "flags": 0,
                    "rpc_origins": [],
                }
            )
        if method == "GET" and path == "/gateway/bot":
            return _json(
                {
                    "url": self.gateway_url,
                    "shards": self.shard_count,
                    "session_start_limit": {
                        "total": 1000,
                        "remaining": 999,
                        "reset_after": 0,
                        "max_concurrency": 1,
                    },
                }
            )
        if method == "PUT" and parts[0] == "applications" and parts[-1] == "commands":
            refused = [error for command in body or [] for error in command_errors(command)]
            if refused:
                self.refused_commands = refused
                return invalid_form(
                    {"_errors": [{"code": "APPLICATION_COMMAND_INVALID", "message": m} for m in refused]}
                )
            out = []
            for command in body or []:
                out.append({**command, "id": self.snowflake(), "application_id": APP_ID, "version": "1"})
            return _json(out)
        if parts[0] == "channels" and len(parts) == 3 and parts[2] == "messages" and method == "GET":
            # Get Channel Messages: "Returns an array of message objects from newest to oldest";
            # ``after`` a message id, ``limit`` 1-100, default 50 (docs/resources/Message.md)
            after = int(record.query.get("after", "0"))
            limit = max(1, min(100, int(record.query.get("limit", "50"))))
            found = sorted(
                (m for m in self.messages.values() if m["channel_id"] == parts[1] and int(m["id"]) > after),
                key=lambda m: int(m["id"]),
            )[:limit]
            return _json(list(reversed(found)))
        if parts[0] == "channels" and len(parts) == 3 and parts[2] == "messages" and method == "POST":
            recipient = next((u for u, c in self.dm_channels.items() if c == parts[1]), None)
            if recipient is not None and recipient in self.dms_closed:
                record.status = 403
                return _json({"message": "Cannot send messages to this user", "code": 50007}, status=403)
            nonce = (body or {}).get("nonce")
            if nonce is not None and (body or {}).get("enforce_nonce"):
                # Discord: "checked for uniqueness in the past few minutes"; the same author's
                # message with that nonce is returned and no new message is created
                key = (parts[1], str(nonce))
                earlier = self._nonces.get(key)
                if earlier is not None and record.at - earlier[0] < NONCE_WINDOW:
                    record.duplicate = True
                    return _json(self.messages.get(earlier[1]) or {"id": earlier[1], "channel_id": parts[1]})
                message = self._message(parts[1], body)
                self._nonces[key] = (record.at, message["id"])
                return _json(message)
            return _json(self._message(parts[1], body))
        if parts[0] == "channels" and len(parts) == 4 and parts[2] == "messages" and method == "PATCH":
            old = self.messages.get(parts[3]) or self._message(parts[1], None)
            old.update({k: v for k, v in (body or {}).items() if k in ("content", "embeds", "components")})
            return _json({**old, "id": parts[3], "channel_id": parts[1]})
        if parts[0] == "channels" and "reactions" in parts and method in {"PUT", "DELETE"}:
            return web.Response(status=204)
        if parts[0] == "channels" and parts[-1] == "threads" and method == "POST":
            tid = self.snowflake()
            duration = int((body or {}).get("auto_archive_duration") or 4320)
            if duration not in ARCHIVE_DURATIONS:
                record.status = 400
                return invalid_form(
                    {
                        "auto_archive_duration": {
                            "_errors": [
                                {
                                    "code": "BASE_TYPE_CHOICES",
                                    "message": "Value must be one of (60, 1440, 4320, 10080).",
                                }
                            ]
                        }
                    }
                )
            thread = {
                "id": tid,
                "guild_id": self.guild_of_channel(parts[1]),
                "parent_id": parts[1],
                "owner_id": BOT_ID,
                "name": (body or {}).get("name", "thread"),
                "type": 11,
                "last_message_id": None,
                "message_count": 0,
                "member_count": 1,
                "rate_limit_per_user": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": duration,
                    "archive_timestamp": _iso(record.at),
                    "locked": False,
                },
            }
            self.threads[tid] = thread
            self.thread_activity[tid] = record.at
            return _json(thread)
        if parts[0] == "channels" and len(parts) == 2 and method == "PATCH" and parts[1] in self.threads:
            return _json(self.threads[parts[1]])  # (changed by _thread_rules)
        if method == "POST" and path == "/users/@me/channels":
            recipient = str((body or {}).get("recipient_id"))
            dm = self.dm_channels.setdefault(recipient, self.snowflake())
            return _json(
                {
                    "id": dm,
                    "type": 1,
                    "recipients": [user(recipient, "someone")],
                    "last_message_id": None,
                }
            )
        if parts[0] == "interactions" and parts[-1] == "callback":
            # One initial response per interaction: a second is 400, 40060 "Interaction has already
            # been acknowledged" (docs/topics/Opcodes_and_Status_Codes.md, JSON error codes).
            if parts[1] in self.answered:
                record.status = 400
                return _json(
                    {"message": "Interaction has already been acknowledged.", "code": 40060}, status=400
                )
            self.answered.add(parts[1])
            data = (body or {}).get("data") or {}
            kind = (body or {}).get("type")
            return _json(
                {
                    "interaction": {
                        "id": parts[1],
                        "type": 2,
                        "response_message_loading": kind == 5,
                        "response_message_ephemeral": bool((data.get("flags") or 0) & 64),
                    }
                }
            )
        if parts[0] == "webhooks" and len(parts) == 3 and method == "POST":
            ephemeral = bool(((body or {}).get("flags") or 0) & 64)
            return _json(self._message(CHANNEL_ID, body, ephemeral=ephemeral))
        if parts[0] == "webhooks" and parts[-1] == "@original" and method == "DELETE":
            return web.Response(status=204)
        if parts[0] == "webhooks" and "messages" in parts and method == "PATCH":
            return _json(self._message(CHANNEL_ID, body))
        record.status = 404
        return _json({"message": f"Unknown route {method} {path}", "code": 0}, status=404)

    # ------------------------------------------------------------ gateway

    def channel_of(self, guild_id: str) -> str:
        """The text channel "games" of a guild (``CHANNEL_ID`` in ``GUILD_ID``)."""
        return CHANNEL_ID if guild_id == GUILD_ID else str(int(guild_id) + 1)

    def guild_of_channel(self, channel_id: str) -> str:
        """The guild whose "games" channel is ``channel_id`` (``GUILD_ID`` for any other)."""
        return next((g for g in self.guilds if self.channel_of(g) == channel_id), GUILD_ID)

    def guild_payload(self, guild_id: str) -> dict[str, Any]:
        channel = {
            "id": self.channel_of(guild_id),
            "type": 0,
            "name": "games",
            "position": 0,
            "guild_id": guild_id,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
        }
        other = (
            {**channel, "id": OTHER_CHANNEL_ID, "name": "chat", "position": 1}
            if guild_id == GUILD_ID
            else None
        )
        return {
            "id": guild_id,
            "name": "Word Club",
            "icon": None,
            "owner_id": "700000000000000001",
            "roles": [
                {
                    "id": guild_id,
                    "name": "@everyone",
                    "permissions": str(MEMBER_PERMS.value),
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                },
                role_payload("600000000000000009", "Game Masters", 1),
                *self.more_roles.get(guild_id, []),
            ],
            "emojis": [],
            "stickers": [],
            "features": [],
            "channels": [channel, *([other] if other else [])],
            # "All active threads in the guild that current user has permission to view"
            # (docs/resources/Guild.md, Guild Create extra fields)
            "threads": [
                dict(t)
                for t in self.threads.values()
                if str(t["guild_id"]) == guild_id and not t["thread_metadata"]["archived"]
            ],
            "members": [],
            "member_count": 3,
            "large": False,
            "unavailable": False,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "system_channel_flags": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "afk_timeout": 300,
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "joined_at": "2026-01-01T00:00:00+00:00",
        }

    def shard_of(self, guild_id: str) -> int:
        return (int(guild_id) >> 22) % self.shard_count

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        await self._door.wait()
        await ws.send_json({"op": 10, "d": {"heartbeat_interval": 45000}, "s": None, "t": None})
        shard_id = 0
        async for msg in ws:
            if msg.type != 1:  # TEXT
                continue
            data = json.loads(msg.data)
            op = data.get("op")
            if op == 1:
                await ws.send_json({"op": 11, "d": None, "s": None, "t": None})
            elif op == 2:
                self.identifies.append(data["d"])
                shard_id, count = data["d"].get("shard", [0, 1])
                self.invalidated.discard(shard_id)
                self.missed.pop(shard_id, None)  # a new session: nothing is replayed
                self.sockets[shard_id] = ws
                self.seq[shard_id] = 0
                mine = [g for g in self.guilds if self.shard_of(g) == shard_id]
                await self.send(
                    "READY",
                    {
                        "v": 10,
                        "user": BOT_USER,
                        "guilds": [{"id": g, "unavailable": True} for g in mine],
                        "session_id": f"session-{shard_id}-{len(self.identifies)}",
                        "resume_gateway_url": self.gateway_url,
                        "shard": [shard_id, count],
                        "application": {"id": APP_ID, "flags": 0},
                        "private_channels": [],
                        "relationships": [],
                    },
                    shard=shard_id,
                )
                for g in mine:
                    await self.send("GUILD_CREATE", self.guild_payload(g), shard=shard_id)
                self._connected.set()
            elif op == 6:
                self.resumes.append(data["d"])
                # the session id names the shard ("session-{shard}-{n}", see READY)
                session = str(data["d"].get("session_id", "")).split("-")
                shard_id = int(session[1]) if len(session) == 3 and session[1].isdigit() else 0
                if shard_id in self.invalidated:
                    await ws.send_json({"op": 9, "d": False, "s": None, "t": None})
                    continue
                self.sockets[shard_id] = ws
                for payload in self.missed.pop(shard_id, []):
                    await ws.send_json(payload)  # the missed events in order, then RESUMED
                await self.send("RESUMED", {}, shard=shard_id)
                self._connected.set()
        if self.sockets.get(shard_id) is ws:
            del self.sockets[shard_id]
        return ws

    async def send(self, event: str, data: dict[str, Any], *, shard: int = 0) -> None:
        """Dispatch a gateway event to the bot.

        While the shard's connection is down (:meth:`drop_connection`) the event is kept for
        the session, as Discord does: a RESUME replays it (docs/topics/Gateway.md, "Resuming":
        "the Gateway will send the missed events in order, finishing with a Resumed event").
        """
        self.seq[shard] = self.seq.get(shard, 0) + 1
        payload = {"op": 0, "t": event, "s": self.seq[shard], "d": data}
        ws = self.sockets.get(shard)
        if ws is None and shard in self.missed:
            self.missed[shard].append(payload)
            return
        if ws is None and shard in self.invalidated:
            return  # lost: the session is gone (a new one replays nothing)
        if ws is None:
            raise KeyError(shard)  # no session at all: a test's mistake
        await ws.send_json(payload)

    async def create_role(self, guild: str, rid: str, name: str) -> None:
        """Someone allowed to manage roles makes a role (GUILD_ROLE_CREATE)."""
        role = role_payload(rid, name, 2 + len(self.more_roles.get(guild, [])))
        self.more_roles.setdefault(guild, []).append(role)
        await self.send("GUILD_ROLE_CREATE", {"guild_id": guild, "role": role}, shard=self.shard_of(guild))

    async def redeliver(self, interaction_id: str) -> None:
        """Send an interaction's gateway event again, unchanged (same id and token)."""
        payload = self.interactions[interaction_id]
        await self.send("INTERACTION_CREATE", payload, shard=self.shard_of(str(payload["guild_id"])))

    async def drop_connection(self, shard: int = 0, *, hold: bool = False) -> None:
        """Close the gateway socket as Discord does before asking for a RESUME; events sent
        meanwhile are kept for the session and replayed on RESUME.

        ``hold``: wait for :meth:`let_in` before answering the bot's reconnection (so a test
        can send events while the bot is away)."""
        self._connected.clear()
        self.missed.setdefault(shard, [])
        if hold:
            self._door.clear()
        ws = self.sockets.pop(shard)
        await ws.close(code=4000)

    def let_in(self) -> None:
        """Answer the reconnections :meth:`drop_connection` held back."""
        self._door.set()

    async def invalidate_session(self, shard: int = 0, *, hold: bool = False) -> None:
        """Invalidate the shard's session (op 9, ``d: false``): "your app should disconnect …
        then send an Identify" (docs/topics/Gateway.md, "Resuming"); the events it missed are
        lost, never replayed. ``hold``: as for :meth:`drop_connection`."""
        self._connected.clear()
        if hold:
            self._door.clear()
        self.missed.pop(shard, None)
        self.invalidated.add(shard)
        ws = self.sockets.get(shard)
        if ws is not None:
            await ws.send_json({"op": 9, "d": False, "s": None, "t": None})

    async def connected(self, within: float = PATIENCE) -> None:
        async with asyncio.timeout(within):
            await self._connected.wait()

    # ------------------------------------------------------------ what people do

    def member(
        self, uid: str, name: str, *, admin: bool = False, roles: tuple[str, ...] = ()
    ) -> dict[str, Any]:
        perms = ADMIN_PERMS if admin else MEMBER_PERMS
        return {
            "user": user(uid, name),
            "roles": list(roles),
            "joined_at": "2026-01-01T00:00:00+00:00",
            "deaf": False,
            "mute": False,
            "flags": 0,
            "permissions": str(perms.value),
        }

    async def say(
        self,
        uid: str,
        name: str,
        content: str,
        *,
        channel: str | None = None,
        at: float | None = None,
        guild: str = GUILD_ID,
    ) -> str:
        """A member types a message (in ``guild``'s "games" channel unless ``channel``); its id.

        The gateway event goes to the guild's shard, as Discord sends it."""
        if channel in self.threads:
            await self._archive_if_idle(channel)
            if self.archived(channel) and not self.threads[channel]["thread_metadata"]["locked"]:
                await self._unarchive(channel)  # "Sending a message will automatically unarchive"
            self.thread_activity[channel] = self.now()
        mid = self.snowflake(at)
        member = self.member(uid, name)
        payload = message_payload(mid, channel or self.channel_of(guild), guild, member, content)
        self.messages[mid] = payload
        await self.send("MESSAGE_CREATE", payload, shard=self.shard_of(guild))
        return mid

    async def dm(self, uid: str, name: str, content: str, *, at: float | None = None) -> str:
        """A member types ``content`` in their direct messages with the bot; the message's id.

        As Discord does: the DM channel is the one Create DM gives (made now if the member writes
        first); the MESSAGE_CREATE has no ``guild_id`` nor ``member`` and goes to shard 0 ("DMs
        will only be sent to shard 0", docs/topics/Gateway.md, Sharding), and only to a session
        that identified with the DIRECT_MESSAGES intent (1 << 12): without it the bot never
        hears of it. A DM's content comes without the MESSAGE_CONTENT privilege."""
        channel = self.dm_channels.setdefault(uid, self.snowflake())
        mid = self.snowflake(at)
        payload = {
            "id": mid,
            "channel_id": channel,
            "author": user(uid, name),
            "content": content,
            "timestamp": "2026-01-01T00:00:00+00:00",
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "pinned": False,
            "type": 0,
            "flags": 0,
        }
        self.messages[mid] = payload
        intents = int(self.identifies[-1].get("intents", 0)) if self.identifies else 0
        if intents & DIRECT_MESSAGES:
            await self.send("MESSAGE_CREATE", payload, shard=0)
        return mid

    async def edit(self, mid: str, content: str) -> None:
        """A member edits a message (MESSAGE_UPDATE)."""
        payload = {**self.messages[mid], "content": content, "edited_timestamp": "2026-01-01T00:00:01+00:00"}
        await self.send(
            "MESSAGE_UPDATE", payload, shard=self.shard_of(str(payload.get("guild_id") or GUILD_ID))
        )

    async def react(
        self, uid: str, name: str, mid: str, emoji: str, *, channel: str | None = None, guild: str = GUILD_ID
    ) -> None:
        self._reactions.setdefault(mid, []).append(self.now())  # (the message's shared limit)
        await self.send(
            "MESSAGE_REACTION_ADD",
            {
                "user_id": uid,
                "channel_id": channel or self.channel_of(guild),
                "message_id": mid,
                "guild_id": guild,
                "member": self.member(uid, name),
                "emoji": {"id": None, "name": emoji},
                "type": 0,
                "burst": False,
            },
            shard=self.shard_of(guild),
        )

    def _interaction(
        self,
        kind: int,
        uid: str,
        name: str,
        data: dict[str, Any],
        *,
        admin: bool = False,
        roles: tuple[str, ...] = (),
        channel: str | None = None,
        app_permissions: discord.Permissions = BOT_PERMS,
        thread_parent: str | None = None,
        guild: str = GUILD_ID,
        locale: str = "en-US",
    ) -> dict[str, Any]:
        """An interaction in ``guild`` (in its "games" channel unless ``channel``), from a client
        set to ``locale`` (the interaction's ``locale``: docs/interactions/Receiving_and_Responding.md)."""
        iid = self.snowflake()
        channel = channel or self.channel_of(guild)
        channel_payload: dict[str, Any] = {
            "id": channel,
            "type": 11 if thread_parent else 0,
            "name": "games",
            "position": 0,
            "guild_id": guild,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": thread_parent,
        }
        if thread_parent:
            channel_payload.update(
                owner_id=BOT_ID, message_count=1, member_count=1, rate_limit_per_user=0, last_message_id=None
            )
            known = self.threads.get(channel)
            channel_payload["thread_metadata"] = (
                dict(known["thread_metadata"])
                if known is not None
                else {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": "2026-01-01T00:00:00+00:00",
                    "locked": False,
                }
            )
        return {
            "id": iid,
            "application_id": APP_ID,
            "type": kind,
            "token": f"token-{iid}",
            "version": 1,
            "guild_id": guild,
            "channel_id": channel,
            "channel": channel_payload,
            "member": self.member(uid, name, admin=admin, roles=roles),
            "app_permissions": str(app_permissions.value),
            "locale": locale,
            "guild_locale": "en-US",
            "entitlements": [],
            "authorizing_integration_owners": {"0": guild},
            "context": 0,
            "attachment_size_limit": 10 * 1024 * 1024,
            "data": data,
        }

    async def _refused_in_thread(self, channel: str | None, what: str) -> bool:
        """True (and recorded) when ``channel`` is an archived thread: Discord's client sends no
        interaction from there."""
        if channel is None or channel not in self.threads:
            return False
        await self._archive_if_idle(channel)
        if not self.archived(channel):
            return False
        self.refused_in_archived.append((channel, what))
        return True

    async def slash(
        self,
        uid: str,
        name: str,
        sub: str,
        options: dict[str, Any] | None = None,
        *,
        group: str | None = None,
        **kw: Any,
    ) -> str:
        """``/moji sub option:value …`` (``group`` for ``/moji words add``); returns the interaction id."""
        opts = []
        resolved: dict[str, Any] = {}
        for key, value in (options or {}).items():
            if isinstance(value, tuple):  # (user id, name): a member option
                member_id, member_name = value
                member = self.member(member_id, member_name)
                resolved.setdefault("users", {})[member_id] = member["user"]
                resolved.setdefault("members", {})[member_id] = {
                    k: v for k, v in member.items() if k != "user"
                }
                opts.append({"name": key, "type": 6, "value": member_id})
                continue
            if isinstance(value, bool):
                kind = 5
            elif isinstance(value, int):
                kind = 4
            else:
                kind = 3
            opts.append({"name": key, "type": kind, "value": value})
        node: dict[str, Any] = {"name": sub, "type": 1, "options": opts}
        if group:
            node = {"name": group, "type": 2, "options": [node]}
        data: dict[str, Any] = {"id": "500000000000000001", "name": "moji", "type": 1, "options": [node]}
        if resolved:
            data["resolved"] = resolved
        guild = str(kw.get("guild", GUILD_ID))
        if await self._refused_in_thread(kw.get("channel"), f"/moji {sub}"):
            return ""
        if self.of("PUT", rf"^/applications/\d+/guilds/{guild}/commands$"):
            data["guild_id"] = guild  # a server's own commands say which server
        payload = self._interaction(2, uid, name, data, **kw)
        self.interactions[str(payload["id"])] = payload
        await self.send("INTERACTION_CREATE", payload, shard=self.shard_of(guild))
        return str(payload["id"])

    async def press(self, uid: str, name: str, custom_id: str, message_id: str, **kw: Any) -> str:
        """Press a button under one of the bot's messages; returns the interaction id."""
        guild = str(kw.get("guild", GUILD_ID))
        if await self._refused_in_thread(kw.get("channel"), custom_id):
            return ""
        message = self.messages.get(message_id) or self._message(self.channel_of(guild), None)
        data = {"custom_id": custom_id, "component_type": 2}
        payload = self._interaction(3, uid, name, data, **kw)
        payload["message"] = {**message, "id": message_id}
        self.interactions[str(payload["id"])] = payload
        await self.send("INTERACTION_CREATE", payload, shard=self.shard_of(guild))
        return str(payload["id"])

    # ------------------------------------------------------------ reading what the bot said

    def channel_posts(self, channel: str = CHANNEL_ID) -> list[Request]:
        """Messages the bot posted in a channel (public)."""
        return [r for r in self.of("POST", rf"^/channels/{channel}/messages$") if r.status == 200]

    def replies_to(self, interaction_id: str) -> list[Request]:
        """Everything the bot sent in answer to one interaction (callback and follow-ups)."""
        token = f"token-{interaction_id}"
        return [r for r in self.requests if token in r.path and r.status == 200]

    async def submit_modal(
        self, uid: str, name: str, modal: dict[str, Any], values: list[str], **kw: Any
    ) -> str:
        """Fill in and submit a modal the bot opened (``modal`` is the callback's data)."""
        rows = []
        inputs = [c for row in modal["components"] for c in row["components"]]
        for component, value in zip(inputs, values, strict=True):
            rows.append(
                {"type": 1, "components": [{"type": 4, "custom_id": component["custom_id"], "value": value}]}
            )
        payload = self._interaction(5, uid, name, {"custom_id": modal["custom_id"], "components": rows}, **kw)
        await self.send("INTERACTION_CREATE", payload, shard=self.shard_of(str(payload["guild_id"])))
        return str(payload["id"])

    async def autocomplete(self, uid: str, name: str, sub: str, options: dict[str, Any], focused: str) -> str:
        """Typing in a slash option: an autocomplete interaction for option ``focused``."""
        opts = [
            {
                "name": key,
                "type": 4 if isinstance(v, int) else 3,
                "value": v,
                **({"focused": True} if key == focused else {}),
            }
            for key, v in options.items()
        ]
        data = {
            "id": "500000000000000001",
            "name": "moji",
            "type": 1,
            "options": [{"name": sub, "type": 1, "options": opts}],
        }
        payload = self._interaction(4, uid, name, data)
        await self.send("INTERACTION_CREATE", payload, shard=self.shard_of(GUILD_ID))
        return str(payload["id"])
