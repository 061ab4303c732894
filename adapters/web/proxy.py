"""Pages of a game another process runs: passed on to that process (the HTTP side of routing).

Several moji processes may share one database and one public address (PUBLIC_URL, behind a
load balancer): a page's request may reach any of them. Links and sessions are in the database,
so every process checks a page's session cookie; but only the process that runs a game
(``active_games.owner``, :mod:`bot.inbound.routing`) can show it and play its moves. A process that
receives a page request (the page, its live channel, a preview, a move) for a game it does not
run asks the database who does and where that process serves pages (``instances.web_url``,
its ``WEB_INTERNAL_URL``), and passes the request on to it — the live channel streamed as it
comes — and the answer back.

A request passed on is signed with the key the owner put beside its address (random, made at
each start; :data:`HEADER`: HMAC-SHA256 of the sender, the time, the method and the path), so
no client can pass a request off as one from another process: the owner believes the client
address it names (its ``X-Forwarded-For``; from then on :meth:`bot.process.httpguard.Guard.trust` counts
that process's clients, not the process), and never passes a signed request on again (no loop:
a game that moved meanwhile is "moving", and the page asks again). The session cookie travels
with the request and is checked again by the owner.

When the owner dies its game is adopted by another process (:mod:`bot.inbound.routing`); meanwhile a
page's request is answered "moving" (a live channel: a stream that asks the browser to come
back in a second, which every EventSource does), then reaches the adopter.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import socket
from dataclasses import dataclass
from typing import Protocol

import aiohttp
from aiohttp import web

from adapters.web.links import chat_of
from bot.core.clock import Clock
from bot.process.httpguard import Guard, client_of
from storage.records import ChatOwner
from storage.weblinks import Grant

log = logging.getLogger(__name__)

#: The header that signs a request one process passes on to another: ``sender;time;signature``.
HEADER = "X-Moji-Proxy"
#: Seconds a signed request stays good (the processes' clocks are the same wall clock, give or take).
WINDOW = 60.0
#: Request headers passed on (the rest stay with this hop).
PASSED_ON = ("Cookie", "Origin", "Sec-Fetch-Site", "Content-Type", "Accept", "Last-Event-ID", "User-Agent")
#: Response headers that belong to one hop only.
HOP_BY_HOP = frozenset(
    {
        "connection",
        "keep-alive",
        "transfer-encoding",
        "content-length",
        "content-encoding",
        "date",
        "server",
        "upgrade",
        "proxy-authenticate",
    }
)
#: Seconds a live channel passed on may stay silent (the owner sends a keep-alive every 15 s).
SILENT = 40.0


class PeerStore(Protocol):
    """What the proxy reads and writes in the database (:class:`storage.leases.SQLLeases`)."""

    async def chat_owner(
        self, platform: str, workspace_id: str, channel_id: str, thread_id: str | None
    ) -> ChatOwner | None:
        """Who runs the chat's active game (None: nobody)."""
        ...

    async def set_instance_web(self, instance_id: str, url: str, key: str) -> None:
        """This process serves pages at ``url`` and signs with ``key``."""
        ...

    async def instance_web(self, instance_id: str) -> tuple[str, str] | None:
        """A live process's address for pages and its key."""
        ...


@dataclass(frozen=True, slots=True)
class Peer:
    """Another process, running a page's game: where it serves pages and its key."""

    instance: str
    url: str
    key: str


#: Where a page's game is, when not here: nowhere (ended, or another game holds its chat now) …
GONE = "gone"
#: … or changing hands (its owner died and nobody has adopted it yet, or it is being adopted here).
MOVING = "moving"


def internal_url(setting: str, host: str, port: int) -> str:
    """This process's address for the other processes: ``WEB_INTERNAL_URL``, else
    ``http://HOST:PORT``, where a HOST that listens everywhere (0.0.0.0, ::) is replaced by
    the address this machine's name resolves to (a container's own address)."""
    if setting:
        return setting.rstrip("/")
    if host in ("", "0.0.0.0", "::"):
        try:
            host = socket.gethostbyname(socket.gethostname())
        except OSError:
            host = "127.0.0.1"
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}"


def signature(key: str, sender: str, at: str, method: str, path: str) -> str:
    """The HMAC-SHA256 that signs a request passed on (hex)."""
    message = "\n".join((sender, at, method.upper(), path)).encode()
    return hmac.new(key.encode(), message, hashlib.sha256).hexdigest()


class PageProxy:
    """Passes page requests on to the process that runs their game, and checks the ones passed
    on to this process."""

    def __init__(
        self,
        store: PeerStore,
        instance: str,
        clock: Clock,
        url: str,
        *,
        guard: Guard | None = None,
        key: str | None = None,
    ) -> None:
        self.store = store
        self.instance = instance
        self.clock = clock
        self.url = url.rstrip("/")
        self.guard = guard
        self.key = key or secrets.token_urlsafe(32)
        #: Requests passed on to other processes, and received from them (for tests and logs).
        self.sent = 0
        self.received = 0
        self._http: aiohttp.ClientSession | None = None
        self._registering: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ lifecycle

    async def register(self) -> None:
        """Tell the other processes where this one serves pages (and its key)."""
        await self.store.set_instance_web(self.instance, self.url, self.key)
        log.info("web: pages of this process's games are passed on to it at %s", self.url)

    def start(self) -> None:
        """Register in the background, again until the database takes it."""

        async def keep_trying() -> None:
            wait = 1.0
            while True:
                try:
                    await self.register()
                    return
                except Exception as exc:
                    log.warning("web: could not record this process's address for pages: %s", exc)
                await asyncio.sleep(wait)
                wait = min(wait * 2, 30.0)

        self._registering = asyncio.get_running_loop().create_task(keep_trying(), name="web address")

    async def close(self) -> None:
        """Stop: no more requests passed on."""
        if self._registering is not None:
            self._registering.cancel()
        if self._http is not None:
            await self._http.close()
            self._http = None

    # ------------------------------------------------------------ where a game is

    async def where(self, grant: Grant) -> Peer | str:
        """The process running ``grant``'s game (a :class:`Peer`), or :data:`GONE` or :data:`MOVING`."""
        chat = chat_of(grant)
        owner = await self.store.chat_owner(chat.platform, chat.workspace_id, chat.channel_id, chat.thread_id)
        if owner is None or owner.game_id != grant.game_id:
            return GONE
        if not owner.live or owner.owner == self.instance:
            return MOVING  # (its owner died; or it is being adopted here, or was just dropped here)
        found = await self.store.instance_web(owner.owner)
        if found is None:
            return MOVING  # (its owner serves no pages, or its word has lapsed: it may be dying)
        return Peer(owner.owner, found[0], found[1])

    # ------------------------------------------------------------ requests passed on here

    def passed_on(self, request: web.Request) -> bool:
        """True when another process passed ``request`` on to this one (signed with this
        process's key); raises 403 when it claims to be passed on and is not."""
        claim = request.headers.get(HEADER)
        if claim is None:
            return False
        sender, _, rest = claim.partition(";")
        at, _, signed = rest.partition(";")
        try:
            age = abs(self.clock.now() - float(at))
        except ValueError:
            age = WINDOW + 1
        expected = signature(self.key, sender, at, request.method, request.path_qs)
        if age > WINDOW or not hmac.compare_digest(expected, signed):
            raise web.HTTPForbidden(text="That request does not come from a moji process.\n")
        self.received += 1
        if self.guard is not None and request.remote:
            self.guard.trust(request.remote)  # (its next connections count its clients, not it)
        return True

    # ------------------------------------------------------------ passing requests on

    def _session(self) -> aiohttp.ClientSession:
        if self._http is None or self._http.closed:
            self._http = aiohttp.ClientSession(
                auto_decompress=False,
                connector=aiohttp.TCPConnector(limit=0),  # (each live channel holds a connection)
            )
        return self._http

    async def forward(self, request: web.Request, peer: Peer) -> web.StreamResponse | None:
        """Pass ``request`` on to ``peer`` and its answer back, streamed (a live channel as long
        as it lasts). None when ``peer`` cannot be reached (nothing was sent back yet)."""
        body = await request.read() if request.body_exists else None
        at = repr(self.clock.now())
        headers = {name: request.headers[name] for name in PASSED_ON if name in request.headers}
        headers["Host"] = request.host
        headers["X-Forwarded-For"] = client_of(request)
        headers["X-Forwarded-Proto"] = request.scheme
        headers[HEADER] = ";".join(
            (self.instance, at, signature(peer.key, self.instance, at, request.method, request.path_qs))
        )
        live = request.path.endswith("/events")
        timeout = aiohttp.ClientTimeout(total=None if live else 30.0, connect=5.0, sock_read=SILENT)
        target = peer.url + request.path_qs
        try:
            upstream = await self._session().request(
                request.method, target, headers=headers, data=body, allow_redirects=False, timeout=timeout
            )
        except (aiohttp.ClientError, TimeoutError) as exc:
            log.info("web: could not pass a page request on to %s (%s): %s", peer.instance, peer.url, exc)
            return None
        self.sent += 1
        async with upstream:
            response = web.StreamResponse(status=upstream.status, reason=upstream.reason)
            for name, value in upstream.headers.items():
                if name.lower() not in HOP_BY_HOP:
                    response.headers.add(name, value)
            await response.prepare(request)
            try:
                async for chunk in upstream.content.iter_any():
                    await response.write(chunk)
            except (aiohttp.ClientError, TimeoutError):
                # the owner went away mid-answer (died, or stopped): the page's live channel
                # reconnects (EventSource does), and then reaches whoever runs the game
                return response
            except ConnectionResetError:
                return response  # the page went away
            with contextlib.suppress(ConnectionResetError):
                await response.write_eof()
            return response


__all__ = ["GONE", "HEADER", "MOVING", "PageProxy", "Peer", "PeerStore", "internal_url", "signature"]
