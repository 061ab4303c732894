"""A local fake of the Slack Web API (aiohttp on 127.0.0.1) that records every call.

Point a ``slack_sdk`` client at :attr:`FakeSlack.api_url`. Each call is kept as
a :class:`Call` (method, merged arguments, token, time, HTTP status). Tests can
inject failures (``fail``, e.g. a 429 with ``Retry-After``), hold a method's
answer until they release it (``hold``), and wait for a call to arrive
(``wait_for``).

The fake enforces Slack's rate limits (:data:`SLACK_LIMITS`, per test in
``FakeSlack.limits``; ``None`` turns them off) as a sliding window on its clock
(``FakeSlack.now``) and, for the tiers, also a token bucket of an assumed burst
(:attr:`MethodLimit.burst`; Slack says "sporadic bursts welcome" without a size): a call
over the limit is answered like Slack does, HTTP 429 with ``Retry-After: <seconds>`` and
``{"ok": false, "error": "ratelimited"}``, is not executed, and is recorded with
``limited=True`` (see :meth:`FakeSlack.rate_limited`, :attr:`Call.ok`). ``auth.test`` has
its own "special" limit; ``conversations.join``/``leave`` track the bot's membership
(``already_in_channel``, ``not_in_channel`` as Slack answers).

Pictures, as Slack documents them (on in every test):

- A file completed by ``files.completeUploadExternal`` without ``channel_id``/``channels`` is
  private to the app ("If not specified the file will be private",
  https://api.slack.com/methods/files.completeUploadExternal); one completed into a channel is
  shared there as a message of its own (in ``thread_ts``'s thread when given). Uploads finish
  asynchronously: the file can be shown only :attr:`FakeSlack.file_processing` seconds after
  completion (Slack's maintainers: "File uploads … are completed in an asynchronous fashion.
  It takes a few moments for all file properties to become available",
  github.com/slackapi/slack-github-action/issues/413; python-slack-sdk#1521).
- An image block's or image element's ``slack_file`` must name an image "the user posting these
  blocks must have access to" (https://docs.slack.dev/reference/block-kit/composition-objects/slack-file-object):
  a file that does not exist, or was uploaded with another workspace's token, makes the whole
  message ``invalid_blocks`` with ``"invalid slack file [json-pointer:/blocks/N/slack_file]"``
  (``/blocks/N/elements/M/slack_file`` for an element of a context block,
  ``/blocks/N/accessory/slack_file`` for a section's, as java-slack-sdk#1335 reports it). With
  :attr:`FakeSlack.strict_files` (on by default) so does a private file (no channel: "only the bot
  would have access to that file", seratch in java-slack-sdk#1349; bolt-python#1251) and one not
  processed yet. (Off, those pass: Metabase references private files once their upload reports a
  ``filetype``, metabase/metabase#54276 — the stricter rules are the ones moji must live with.)
- An image block's ``image_url`` is "The URL for a publicly hosted image"
  (https://docs.slack.dev/reference/block-kit/blocks/image-block), fetched by Slack when the
  message is posted or updated: a URL it cannot download makes the whole message
  ``invalid_blocks`` with ``"downloading image failed [json-pointer:/blocks/N/image_url]"``
  (an unreachable URL: otiai10/amesh-bot#24, ``chat.postMessage`` with an image at
  ``http://localhost:8080/…``; and intermittently for reachable images, python-slack-sdk#1782,
  whose body :func:`invalid_blocks` copies: :attr:`FakeSlack.image_failures` refuses the next
  messages' pictures so). The fake downloads a URL under one of :attr:`FakeSlack.image_hosts`'
  public prefixes from the local address it maps to; any other URL is unreachable. A message
  refused so was still a call Slack answered: it counts in the method's rate limit (Slack does
  not say otherwise; the fake admits a call before it judges its blocks).

Lost channels (:meth:`FakeSlack.lose_channel`; the test harness also delivers the event Slack
sends, see ``Harness.channel_deleted`` and friends): every call naming the channel is refused as
chat.postMessage documents it (https://api.slack.com/methods/chat.postMessage): a deleted channel
``channel_not_found`` ("Value passed for channel was invalid"), an archived one ``is_archived``
("Channel has been archived"), one the bot was removed from ``not_in_channel``.

Every call (and every message sent to a ``response_url``) is also judged by Slack's published Web
API spec and slack_sdk's Block Kit models (tests/specs): what they refuse is kept on the
:class:`Call` (``violations``) and fails the test that made it.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import math
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl

import aiohttp
from aiohttp import web

from tests import specs
from tests.waiting import PATIENCE


@dataclass(frozen=True)
class MethodLimit:
    """A Slack rate limit: at most ``limit`` calls in any ``window`` seconds.

    ``scope`` says what shares the budget: ``"workspace"`` (all calls of the
    method with one workspace's token) or ``"channel"`` (per workspace and
    ``channel`` argument).

    ``burst``: Slack's tiers also welcome "sporadic bursts" without saying how big
    (https://api.slack.com/apis/rate-limits). With a ``burst``, the method is also a token
    bucket of that many tokens refilling at ``limit / window`` a second: a call finding no
    token is refused like any other over the limit. ``None``: the sliding window alone (a whole
    window's budget may then leave at once).
    """

    limit: int
    window: float  # seconds
    scope: str  # "channel" or "workspace"
    burst: int | None = None

    def __post_init__(self) -> None:
        if self.scope not in ("channel", "workspace"):
            raise ValueError(f"unknown rate limit scope {self.scope!r}")
        if self.limit < 1 or self.window <= 0:
            raise ValueError("a rate limit needs limit >= 1 and window > 0")
        if self.burst is not None and self.burst < 1:
            raise ValueError("a burst needs at least one call")


#: The burst the fake allows by default: the size moji assumes (adapters/slack/limits.py, BURST),
#: a fifth of each tier's minute. Slack documents none: change ``FakeSlack.limits`` to try others.
BURST = {"tier2": 4, "tier3": 10, "tier4": 20}

#: Slack's Web API tiers (per workspace, per method): "20+", "50+", "100+ per minute", with bursts.
TIER_2 = MethodLimit(20, 60.0, "workspace", burst=BURST["tier2"])
TIER_3 = MethodLimit(50, 60.0, "workspace", burst=BURST["tier3"])
TIER_4 = MethodLimit(100, 60.0, "workspace", burst=BURST["tier4"])

#: The limits of the methods the bot uses; chat.postMessage is "special":
#: about one message per second per channel.
SLACK_LIMITS: dict[str, MethodLimit] = {
    # auth.test: "Special rate limits apply … This method allows hundreds of requests per minute.
    # Use it as often as is reasonably required." (https://docs.slack.dev/reference/methods/auth.test)
    # Modelled as 200 a minute per workspace: an app that checks a token per inbound event (Bolt's
    # OAuth authorizer with its cache off) meets it in a busy workspace.
    "auth.test": MethodLimit(200, 60.0, "workspace"),
    "chat.postMessage": MethodLimit(1, 1.0, "channel"),
    "chat.update": TIER_3,
    "reactions.add": TIER_3,
    "reactions.remove": TIER_3,
    "conversations.join": TIER_3,
    "conversations.open": TIER_3,
    "conversations.leave": TIER_3,
    "chat.postEphemeral": TIER_4,
    "files.getUploadURLExternal": TIER_4,
    "files.completeUploadExternal": TIER_4,
    "users.info": TIER_4,
    "views.publish": TIER_4,
    "views.open": TIER_4,
    "usergroups.list": TIER_2,
    "usergroups.users.list": TIER_2,
}


@dataclass
class Call:
    """One Web API call as the fake received it.

    ``at`` is the fake's clock time on arrival, ``status`` the HTTP status it
    answered (an injected ``fail`` answer's status too) and ``limited`` whether
    the fake's rate limits refused it (answered 429, not executed).
    """

    method: str
    args: dict[str, Any]
    token: str = ""
    at: float = 0.0
    status: int = 200
    limited: bool = False
    #: What the fake answered (once it has; e.g. a posted message's ``ts``).
    answer: dict[str, Any] | None = None
    #: What Slack's published spec and Block Kit refuse in it (tests/specs; [] when they take it).
    violations: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """Whether the call got through: HTTP 200 and not rate limited."""
        return self.status == 200 and not self.limited

    def text(self) -> str:
        """Everything a person could read in this call (text and blocks)."""
        return json.dumps({k: self.args.get(k) for k in ("text", "blocks", "view")}, ensure_ascii=False)


@dataclass
class FakeFile:
    """An uploaded file: where it was shared ("" = private to the app), when it can be shown, and
    the workspace whose token uploaded it."""

    id: str
    channel: str
    thread_ts: str
    ready_at: float
    team: str = "T1"


#: Methods that name a channel (``channel``, or ``channel_id`` for a file's share): refused in a lost one.
CHANNEL_METHODS = frozenset(
    {
        "chat.postMessage",
        "chat.update",
        "chat.postEphemeral",
        "reactions.add",
        "reactions.remove",
        "conversations.join",
        "files.completeUploadExternal",
    }
)
#: Why a lost channel refuses calls, as Slack answers.
LOST_BECAUSE = {"deleted": "channel_not_found", "archived": "is_archived", "removed": "not_in_channel"}

#: Methods whose blocks Slack validates (and whose image blocks it resolves) before posting.
BLOCK_METHODS = frozenset({"chat.postMessage", "chat.update", "chat.postEphemeral"})


def _images(blocks: list[Any]) -> list[tuple[str, dict[str, Any]]]:
    """Every image of a message with its JSON pointer: image blocks, and the image elements of
    context blocks and of section accessories."""
    found: list[tuple[str, dict[str, Any]]] = []
    for i, block in enumerate(blocks):
        if not isinstance(block, dict):
            continue
        if block.get("type") == "image":
            found.append((f"/blocks/{i}", block))
        elements = block.get("elements") if block.get("type") == "context" else None
        for j, element in enumerate(elements or []):
            if isinstance(element, dict) and element.get("type") == "image":
                found.append((f"/blocks/{i}/elements/{j}", element))
        accessory = block.get("accessory")
        if isinstance(accessory, dict) and accessory.get("type") == "image":
            found.append((f"/blocks/{i}/accessory", accessory))
    return found


def invalid_blocks(problem: str, pointer: str) -> dict[str, Any]:
    """Slack's answer to a message whose blocks it refuses (python-slack-sdk#1782's body)."""
    message = f"{problem} [json-pointer:{pointer}]"
    return {
        "ok": False,
        "error": "invalid_blocks",
        "errors": [message],
        "response_metadata": {"messages": [f"[ERROR] {message}"]},
    }


@dataclass
class FakeSlack:
    """The fake API server and what it saw."""

    calls: list[Call] = field(default_factory=list)
    names: dict[str, str] = field(default_factory=dict)
    #: user id → their Slack locale ("de-DE"); users.info tells it only when asked with
    #: ``include_locale`` ("Set this to true to receive the locale for this user. Defaults to
    #: false", https://api.slack.com/methods/users.info); everyone else is "en-US".
    locales: dict[str, str] = field(default_factory=dict)
    admins: set[str] = field(default_factory=set)
    groups: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # id -> (handle, users)
    fail: dict[str, list[tuple[int, dict[str, str], dict[str, Any]]]] = field(default_factory=dict)
    held: dict[str, asyncio.Event] = field(default_factory=dict)
    oauth_team: tuple[str, str] = ("T2", "xoxb-team-two")
    url: str = ""
    inflight: int = 0
    uploads: dict[str, bytes] = field(default_factory=dict)
    sockets: list[web.WebSocketResponse] = field(default_factory=list)
    acks: list[dict[str, Any]] = field(default_factory=list)
    now: Callable[[], float] = time.time
    limits: dict[str, MethodLimit] | None = field(default_factory=lambda: dict(SLACK_LIMITS))
    #: Uploaded files by id (see the module docstring).
    files: dict[str, FakeFile] = field(default_factory=dict)
    #: Seconds (fake clock) after files.completeUploadExternal before a file can be shown.
    file_processing: float = 2.0
    #: A ``slack_file`` naming a private or unprocessed file is refused (see the module docstring).
    strict_files: bool = True
    #: Public URL prefix → the local base URL the fake downloads it from (anything else is unreachable).
    image_hosts: dict[str, str] = field(default_factory=dict)
    #: The next this many image downloads fail although the image is there (Slack's own failures).
    image_failures: int = 0
    #: image URLs Slack downloaded (it keeps an image it fetched once).
    fetched: set[str] = field(default_factory=set)
    #: channel → the error every call naming it gets (see :meth:`lose_channel`).
    lost: dict[str, str] = field(default_factory=dict)
    #: Channels the bot is in (conversations.join / conversations.leave, or invited by a test).
    members: set[str] = field(default_factory=set)
    #: user id → the id of their direct-message conversation (IM) with the bot (conversations.open).
    ims: dict[str, str] = field(default_factory=dict)
    _arrivals: dict[tuple[str, ...], deque[float]] = field(default_factory=dict, init=False, repr=False)
    #: Token buckets: key → (tokens, when they were counted).
    _buckets: dict[tuple[str, ...], tuple[float, float]] = field(default_factory=dict, init=False, repr=False)
    _ts: itertools.count[int] = field(default_factory=lambda: itertools.count(1))
    _changed: asyncio.Condition = field(default_factory=asyncio.Condition)
    _runner: web.AppRunner | None = None

    @property
    def api_url(self) -> str:
        """The base URL for ``AsyncWebClient(base_url=…)``."""
        return self.url + "/api/"

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port."""
        app = web.Application()
        app.router.add_route("*", "/api/{method}", self._api)
        app.router.add_post("/respond/{token}", self._respond)
        app.router.add_get("/socket", self._socket)
        app.router.add_post("/upload/{file_id}", self._upload)
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        """Shut the server down."""
        for event in self.held.values():
            event.set()
        for ws in self.sockets:
            await ws.close()
        if self._runner is not None:
            await self._runner.cleanup()

    # ------------------------------------------------------------ queries

    def of(self, method: str) -> list[Call]:
        """Every call of one method, in order (rate-limited ones too; see :attr:`Call.ok`)."""
        return [c for c in self.calls if c.method == method]

    def rate_limited(self) -> list[Call]:
        """The calls the fake's rate limits refused (not injected ``fail`` answers), in order."""
        return [c for c in self.calls if c.limited]

    def team_of(self, token: str) -> str:
        """The workspace a token belongs to: ``oauth_team``'s token is its team, any other is T1."""
        return self.oauth_team[0] if token == self.oauth_team[1] else "T1"

    async def wait_for(
        self,
        method: str,
        where: Callable[[Call], bool] = lambda c: True,
        *,
        count: int = 1,
        within: float = PATIENCE,
    ) -> list[Call]:
        """Wait until ``count`` calls of ``method`` match ``where``; returns them."""

        def matching() -> list[Call]:
            return [c for c in self.of(method) if where(c)]

        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(lambda: len(matching()) >= count), within)
        return matching()

    def lose_channel(self, channel: str, how: str) -> None:
        """The channel is ``"deleted"``, ``"archived"``, or the bot was ``"removed"`` from it."""
        self.lost[channel] = LOST_BECAUSE[how]

    def hold(self, method: str) -> asyncio.Event:
        """Answer ``method`` only once the returned event is set."""
        event = asyncio.Event()
        self.held[method] = event
        return event

    async def wait_until(self, predicate: Callable[[], bool], *, within: float = PATIENCE) -> None:
        """Wait until ``predicate()`` holds, re-checking after every call or socket message."""
        async with self._changed:
            await asyncio.wait_for(self._changed.wait_for(predicate), within)

    async def push(self, envelope: dict[str, Any]) -> dict[str, Any]:
        """Send a Socket Mode envelope to the connected app; returns its acknowledgement."""
        await self.wait_until(lambda: bool(self.sockets))
        await self.sockets[-1].send_json(envelope)
        envelope_id = envelope["envelope_id"]
        await self.wait_until(lambda: any(a.get("envelope_id") == envelope_id for a in self.acks))
        return next(a for a in self.acks if a.get("envelope_id") == envelope_id)

    # ------------------------------------------------------------ server

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        await ws.send_json({"type": "hello", "num_connections": 1, "debug_info": {"host": "fake"}})
        self.sockets.append(ws)
        async with self._changed:
            self._changed.notify_all()
        async for message in ws:
            if message.type == web.WSMsgType.TEXT:
                self.acks.append(json.loads(message.data))
                async with self._changed:
                    self._changed.notify_all()
        return ws

    async def _record(self, call: Call) -> None:
        self.calls.append(call)
        async with self._changed:
            self._changed.notify_all()

    async def _upload(self, request: web.Request) -> web.Response:
        self.inflight += 1
        try:
            data = await request.read()
            file_id = request.match_info["file_id"]
            await self._record(Call("upload", {"file_id": file_id, "size": len(data)}, at=self.now()))
            self.uploads[file_id] = data
            return web.Response(text="OK")
        finally:
            self.inflight -= 1

    async def _respond(self, request: web.Request) -> web.Response:
        body = await request.json()
        call = Call("response_url", dict(body), at=self.now())
        call.violations = [v.problem for v in specs.judge_slack_message(call.args)]
        await self._record(call)
        return web.Response(text="ok")

    async def _api(self, request: web.Request) -> web.Response:
        self.inflight += 1
        try:
            return await self._api_call(request)
        finally:
            self.inflight -= 1

    async def _api_call(self, request: web.Request) -> web.Response:
        method = request.match_info["method"]
        args: dict[str, Any] = dict(request.query)
        raw = await request.text()
        if raw:
            if request.content_type == "application/json":
                args.update(json.loads(raw))
            else:
                args.update(dict(parse_qsl(raw)))
        for key in ("blocks", "view"):
            if isinstance(args.get(key), str):
                args[key] = json.loads(args[key])
        token = request.headers.get("Authorization", "").removeprefix("Bearer ")
        call = Call(method, args, token, at=self.now())
        call.violations = [v.problem for v in specs.judge_slack(method, args)]
        # Decide the answer before recording, so a waiter never sees a call whose status changes.
        failures = self.fail.get(method)
        if failures:
            status, headers, body = failures.pop(0)
            call.status = status
            await self._record(call)
            return web.json_response(body, status=status, headers=headers)
        retry_after = self._admit(method, args, token, call.at)
        if retry_after is not None:
            call.status, call.limited = 429, True
            await self._record(call)
            return web.json_response(
                {"ok": False, "error": "ratelimited"}, status=429, headers={"Retry-After": str(retry_after)}
            )
        await self._record(call)
        gate = self.held.get(method)
        if gate is not None:
            await gate.wait()
        channel = str(args.get("channel") or args.get("channel_id") or "")
        if method in CHANNEL_METHODS and channel in self.lost:
            call.answer = {"ok": False, "error": self.lost[channel]}
            return web.json_response(call.answer)
        team = self.team_of(token)
        refused = await self._check_blocks(args, call.at, team) if method in BLOCK_METHODS else None
        if refused is not None:
            call.answer = refused
            return web.json_response(refused)
        call.answer = self._answer(method, args, token)
        return web.json_response(call.answer)

    async def _check_blocks(self, args: dict[str, Any], at: float, team: str) -> dict[str, Any] | None:
        """Slack resolves a message's images (image blocks, and image elements of context blocks and
        section accessories) before it posts: ``invalid_blocks`` if one cannot be shown (see the
        module docstring)."""
        for pointer, image in _images(args.get("blocks") or []):
            slack_file = image.get("slack_file")
            if isinstance(slack_file, dict) and not self._shown(slack_file, at, team):
                return invalid_blocks("invalid slack file", f"{pointer}/slack_file")
            url = image.get("image_url")
            if isinstance(url, str) and not await self._download(url):
                return invalid_blocks("downloading image failed", f"{pointer}/image_url")
        return None

    def _shown(self, slack_file: dict[str, Any], at: float, team: str) -> bool:
        file = self.files.get(str(slack_file.get("id")))
        if file is None or file.team != team:
            return False
        return not self.strict_files or (bool(file.channel) and at >= file.ready_at)

    async def _download(self, url: str) -> bool:
        if self.image_failures > 0:
            self.image_failures -= 1
            return False
        if url in self.fetched:
            return True
        local = next(
            (
                base + url[len(prefix) :]
                for prefix, base in self.image_hosts.items()
                if url.startswith(prefix)
            ),
            None,
        )
        if local is None:
            return False
        try:
            async with aiohttp.ClientSession() as http, http.get(local) as resp:
                ok = resp.status == 200 and resp.content_type.startswith("image/") and bool(await resp.read())
        except aiohttp.ClientError:
            return False
        if ok:
            self.fetched.add(url)
        return ok

    def _admit(self, method: str, args: dict[str, Any], token: str, at: float) -> int | None:
        """Take a slot of ``method``'s budget at time ``at``, or say how long until one frees.

        Sliding window: the call fits if fewer than ``limit`` admitted calls
        arrived in the ``window`` seconds before it. Returns ``None`` (slot
        taken) or the ``Retry-After`` seconds (rounded up, at least 1).
        """
        rule = None if self.limits is None else self.limits.get(method)
        if rule is None:
            return None
        key: tuple[str, ...] = (method, self.team_of(token))
        if rule.scope == "channel":
            key += (str(args.get("channel", "")),)
        arrivals = self._arrivals.setdefault(key, deque())
        while arrivals and arrivals[0] <= at - rule.window:
            arrivals.popleft()
        if len(arrivals) >= rule.limit:
            frees_at = arrivals[-rule.limit] + rule.window
            return max(1, math.ceil(round(frees_at - at, 6)))
        if rule.burst is not None:
            rate = rule.limit / rule.window
            tokens, counted = self._buckets.get(key, (float(rule.burst), at))
            tokens = min(float(rule.burst), tokens + (at - counted) * rate)
            if tokens < 1.0 - 1e-9:
                self._buckets[key] = (tokens, at)
                return max(1, math.ceil(round((1.0 - tokens) / rate, 6)))
            self._buckets[key] = (tokens - 1.0, at)
        arrivals.append(at)
        return None

    def _answer(self, method: str, args: dict[str, Any], token: str) -> dict[str, Any]:
        if method == "auth.test":
            team = self.team_of(token)
            return {"ok": True, "user_id": "UBOT", "bot_id": "BBOT", "team_id": team, "user": "moji"}
        if method == "files.getUploadURLExternal":
            file_id = f"F{next(self._ts)}"
            return {"ok": True, "file_id": file_id, "upload_url": f"{self.url}/upload/{file_id}"}
        if method == "files.completeUploadExternal":
            files = args.get("files")
            files = json.loads(files) if isinstance(files, str) else files
            channel = str(args.get("channel_id") or str(args.get("channels") or "").split(",")[0])
            thread = str(args.get("thread_ts") or "")
            for f in files:
                ready = self.now() + self.file_processing
                self.files[f["id"]] = FakeFile(f["id"], channel, thread, ready, self.team_of(token))
            shares = {"public": {channel: [{"ts": f"1700000000.{next(self._ts):06d}"}]}} if channel else {}
            return {
                "ok": True,
                "files": [
                    {
                        "id": f["id"],
                        "title": f.get("title"),
                        "channels": [channel] if channel else [],
                        "shares": shares,
                    }
                    for f in files
                ],
            }
        if method == "conversations.join":
            # "already_in_channel" warning when the caller was in already
            # (https://api.slack.com/methods/conversations.join, "Typical success response").
            channel = str(args.get("channel"))
            answer: dict[str, Any] = {"ok": True, "channel": {"id": channel}}
            if channel in self.members:
                answer |= {
                    "warning": "already_in_channel",
                    "response_metadata": {"warnings": ["already_in_channel"]},
                }
            self.members.add(channel)
            return answer
        if method == "conversations.open":
            # with one user: their IM with the bot, the same id each time ("If the conversation is
            # already open, the existing conversation is returned",
            # https://api.slack.com/methods/conversations.open); needs im:write
            users = str(args.get("users") or "").split(",")
            if len(users) != 1 or not users[0]:
                return {"ok": False, "error": "users_list_not_supplied"}
            channel = self.ims.setdefault(users[0], f"D{users[0]}")
            return {"ok": True, "channel": {"id": channel}}
        if method == "conversations.leave":
            # "This method will not return an error if the user was not in the conversation before it
            # was called. Instead the response will include a not_in_channel property"
            # (https://api.slack.com/methods/conversations.leave)
            channel = str(args.get("channel"))
            if channel not in self.members:
                return {"ok": False, "not_in_channel": True}
            self.members.discard(channel)
            return {"ok": True}
        if method == "apps.connections.open":
            return {"ok": True, "url": self.url.replace("http://", "ws://") + "/socket"}
        if method == "chat.postMessage":
            ts = f"1700000000.{next(self._ts):06d}"
            return {"ok": True, "ts": ts, "channel": args.get("channel"), "message": {"ts": ts}}
        if method == "chat.postEphemeral":
            return {"ok": True, "message_ts": f"1700000000.{next(self._ts):06d}"}
        if method == "users.info":
            user = str(args.get("user"))
            name = self.names.get(user, user)
            found: dict[str, Any] = {
                "id": user,
                "name": name.lower(),
                "is_admin": user in self.admins,
                "profile": {"display_name": name, "real_name": name},
            }
            if str(args.get("include_locale", "")).lower() in ("1", "true"):
                found["locale"] = self.locales.get(user, "en-US")
            return {"ok": True, "user": found}
        if method == "usergroups.list":
            return {
                "ok": True,
                "usergroups": [{"id": gid, "handle": handle} for gid, (handle, _) in self.groups.items()],
            }
        if method == "usergroups.users.list":
            return {"ok": True, "users": self.groups.get(str(args.get("usergroup")), ("", []))[1]}
        if method == "oauth.v2.access":
            team, bot_token = self.oauth_team
            return {
                "ok": True,
                "app_id": "A1",
                "access_token": bot_token,
                "token_type": "bot",
                "scope": "chat:write,commands",
                "bot_user_id": "UBOT2",
                "team": {"id": team, "name": "Team Two"},
                "enterprise": None,
                "is_enterprise_install": False,
                "authed_user": {"id": "U9"},
            }
        return {"ok": True}
