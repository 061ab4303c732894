"""Limits on what one HTTP client may cost moji's server: time, connections, log lines.

aiohttp bounds the size of a request (line, header fields, body) but not how long a client
may take to send it: a client that sends its headers a byte at a time holds a connection
(and a file descriptor) for as long as it likes. :class:`Guard` wraps each connection's
aiohttp protocol (:class:`GuardedConnection`) and closes it when

- no request arrives within ``idle_timeout`` seconds of the connection opening or of the
  previous request's end (an idle keep-alive connection),
- a request's headers are not complete within ``header_timeout`` seconds of its first
  byte (slowloris),
- its body is not complete within ``body_timeout`` seconds of its headers (answered 408),

and answers a connection from an address that already holds ``per_peer`` connections with
503 at once, before reading anything. Each refusal is logged quietly (:class:`QuietLog`).

Behind a reverse proxy every connection comes from the proxy's address. A proxy named in
``trusted`` (``TRUSTED_PROXIES``: addresses or networks) is not counted itself: its
``X-Forwarded-For`` is believed, and ``per_peer`` bounds each *client* it names, counted by
requests in flight (a page's live channel is one for as long as it is open) and answered 503
beyond it. The client's address is the last one in ``X-Forwarded-For`` that is not a trusted
proxy's (a client may write any addresses it likes before it: they are never believed);
:func:`client_of` gives it to handlers. Another moji process proxying pages to this one is
trusted the same way once it has shown, by a signed request, that it is one (:meth:`Guard.trust`).
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass

from aiohttp import web
from aiohttp.web_protocol import RequestHandler

log = logging.getLogger(__name__)

#: What a connection refused for its address's count gets before it is closed.
_TOO_MANY = (
    b"HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nRetry-After: 1\r\n"
    b"Content-Type: text/plain\r\nContent-Length: 30\r\n\r\ntoo many connections from you\n"
)


#: s a refused connection stays open (reading nothing) after its 503, before it is closed.
REFUSED_LINGER = 1.0


@dataclass(frozen=True, slots=True)
class Limits:
    """How long a client may take and how many connections one address may hold."""

    #: s from a request's first byte to the end of its headers.
    header_timeout: float = 10.0
    #: s to receive a request's body once its headers are in.
    body_timeout: float = 10.0
    #: s a connection may wait for its (next) request.
    idle_timeout: float = 30.0
    #: connections open at once from one address.
    per_peer: int = 64
    #: bytes in the request line and in each header field (aiohttp's defaults).
    max_line_size: int = 8190
    max_field_size: int = 8190
    #: connections the kernel queues before moji accepts them.
    backlog: int = 128
    #: reverse proxies (addresses or networks) whose X-Forwarded-For is believed; their clients
    #: are counted instead of them.
    trusted: tuple[str, ...] = ()


#: Where a request's client address is kept for handlers (:func:`client_of`). (A plain string
#: key: ``web.RequestKey`` is aiohttp 3.10+, and moji supports aiohttp from its floor.)
CLIENT = "moji.client"


def client_of(request: web.Request) -> str:
    """The address of the client a request is from: behind a trusted proxy, the one it names;
    else the connection's peer."""
    found = request.get(CLIENT)
    return found if isinstance(found, str) else (request.remote or "")


def forwarded_client(values: Iterable[str], peer: str, trusted: Callable[[str], bool]) -> str:
    """The client a request came through trusted proxies for: the last address of its
    ``X-Forwarded-For`` headers (``values``, in order) that is not a trusted proxy's; ``peer``
    when every address is one (or there is none). Anything before that address is the client's
    own claim, never believed."""
    hops = [part.strip() for value in values for part in value.split(",") if part.strip()]
    for hop in reversed(hops):
        if not trusted(hop):
            return hop
    return peer


class QuietLog:
    """Refusals logged without letting anyone fill the log: each at DEBUG, and a WARNING that
    counts them at most once every ``every`` seconds (the first one at once)."""

    def __init__(
        self,
        logger: logging.Logger,
        what: str,
        *,
        every: float = 60.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.logger = logger
        self.what = what
        self.every = every
        self.clock = clock
        #: Refusals since the process started, by reason.
        self.counts: Counter[str] = Counter()
        self._since_warning = 0
        self._warned_at: float | None = None

    def note(self, peer: str | None, why: str) -> None:
        """One refusal of a request from ``peer`` for ``why`` (a short fixed reason)."""
        self.counts[why] += 1
        self._since_warning += 1
        self.logger.debug("%s from %s: %s", self.what, peer, why)
        now = self.clock()
        if self._warned_at is None or now - self._warned_at >= self.every:
            self.logger.warning(
                "%s: %d since the last such warning (the latest from %s: %s)",
                self.what,
                self._since_warning,
                peer,
                why,
            )
            self._warned_at = now
            self._since_warning = 0


class GuardedConnection(asyncio.Protocol):
    """One connection: aiohttp's protocol inside, deadlines and the per-address count outside."""

    def __init__(self, guard: Guard) -> None:
        self.guard = guard
        self.inner: RequestHandler | None = None
        self.transport: asyncio.Transport | None = None
        self.peer = ""
        #: "idle" (waiting for a request), "header" (its first bytes came), "busy" (being
        #: handled), "closed" (dropped).
        self.state = "idle"
        self._timer: asyncio.TimerHandle | None = None

    # ------------------------------------------------------------ asyncio's side

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        peername = transport.get_extra_info("peername")
        self.peer = str(peername[0]) if isinstance(peername, tuple) and peername else str(peername or "")
        guard = self.guard
        if guard.open[self.peer] >= guard.limits.per_peer and not guard.trusted(self.peer):
            guard.refuse(self.peer, "too many connections")
            self.state = "closed"
            transport.write(_TOO_MANY)
            if transport.can_write_eof():
                transport.write_eof()
            # what the client still sends is read and dropped for a moment, so that closing
            # does not reset the connection before the client has read the 503
            self._timer = asyncio.get_running_loop().call_later(REFUSED_LINGER, transport.close)
            guard.lingering.add(self)
            return
        guard.open[self.peer] += 1
        self.inner = guard.handler()
        self.inner.connection_made(transport)
        self._arm(guard.limits.idle_timeout, "idle connection")

    def data_received(self, data: bytes) -> None:
        if self.inner is None:
            return
        if self.state == "idle" and data:
            self.state = "header"
            self._arm(self.guard.limits.header_timeout, "headers too slow")
        self.inner.data_received(data)

    def eof_received(self) -> bool | None:
        if self.inner is not None:
            self.inner.eof_received()
        return None  # (the transport closes its side, as aiohttp's protocol would have it)

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self.transport = None
        self.guard.lingering.discard(self)
        if self.inner is None:
            return
        inner, self.inner = self.inner, None
        self.guard.open[self.peer] -= 1
        if self.guard.open[self.peer] <= 0:
            del self.guard.open[self.peer]
        inner.connection_lost(exc)

    def pause_writing(self) -> None:
        if self.inner is not None:
            self.inner.pause_writing()

    def resume_writing(self) -> None:
        if self.inner is not None:
            self.inner.resume_writing()

    # ------------------------------------------------------------ the request's side

    def request_started(self) -> None:
        """Its headers are in: the request is being handled (no deadline but the body's)."""
        self.state = "busy"
        self._disarm()

    def request_done(self) -> None:
        """The request was handled: the connection waits for the next one."""
        self.state = "idle"
        self._arm(self.guard.limits.idle_timeout, "idle connection")

    def drop(self, why: str) -> None:
        """Close the connection now (what was written is still sent)."""
        self._disarm()
        self.state = "closed"
        self.guard.refuse(self.peer, why)
        if self.inner is not None:
            self.inner.force_close()
        elif self.transport is not None:
            self.transport.close()

    def drop_refused(self) -> None:
        """Close a refused connection before its linger ends."""
        self._disarm()
        self.guard.lingering.discard(self)
        if self.transport is not None:
            self.transport.close()

    def _arm(self, seconds: float, why: str) -> None:
        self._disarm()
        if self.inner is not None and self.state != "closed":
            self._timer = asyncio.get_running_loop().call_later(seconds, self.drop, why)

    def _disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None


class Guard:
    """The limits of one server: a protocol factory for the listening socket, and an aiohttp
    middleware that tells each connection when its request starts and ends and bounds the
    time its body takes."""

    def __init__(self, limits: Limits, log_as: str = "http: refused a slow or greedy client") -> None:
        self.limits = limits
        #: Connections open now, by peer address.
        self.open: Counter[str] = Counter()
        self.refusals = QuietLog(log, log_as)
        #: Refused connections not closed yet (see :data:`REFUSED_LINGER`).
        self.lingering: set[GuardedConnection] = set()
        #: Requests in flight, by client of a trusted proxy (their live channels among them).
        self.clients: Counter[str] = Counter()
        self._networks = [ipaddress.ip_network(item, strict=False) for item in limits.trusted]
        #: Addresses trusted since the process started (other moji processes: :meth:`trust`).
        self._also: set[str] = set()
        self._verdicts: dict[str, bool] = {}
        self._runner: web.BaseRunner | None = None

    def trusted(self, address: str) -> bool:
        """``address`` is a trusted proxy's (configured, or another moji process's)."""
        verdict = self._verdicts.get(address)
        if verdict is None:
            try:
                ip = ipaddress.ip_address(address)
            except ValueError:
                verdict = False
            else:
                verdict = any(ip in network for network in self._networks)
            if len(self._verdicts) > 10_000:
                self._verdicts.clear()
            self._verdicts[address] = verdict
        return verdict or address in self._also

    def trust(self, address: str) -> None:
        """Trust ``address`` as a proxy from now on (another moji process, which proved it is
        one: its connections are not counted, the clients it names are)."""
        if address and len(self._also) < 1000:
            self._also.add(address)

    def handler_args(self) -> dict[str, object]:
        """aiohttp's own request limits (:class:`~aiohttp.web.AppRunner` keyword arguments)."""
        return {
            "max_line_size": self.limits.max_line_size,
            "max_field_size": self.limits.max_field_size,
            # our idle deadline comes first; aiohttp's is the backstop
            "keepalive_timeout": self.limits.idle_timeout + 1.0,
        }

    def refuse(self, peer: str, why: str) -> None:
        """Count and log a refusal (quietly)."""
        self.refusals.note(peer, why)

    def handler(self) -> RequestHandler:
        """A new aiohttp protocol for a connection the guard accepted."""
        assert self._runner is not None and self._runner.server is not None
        return self._runner.server()

    async def listen(self, runner: web.BaseRunner, host: str, port: int) -> asyncio.Server:
        """Listen on ``host:port`` with guarded connections (``runner`` must be set up)."""
        self._runner = runner
        loop = asyncio.get_running_loop()
        return await loop.create_server(
            lambda: GuardedConnection(self), host, port, backlog=self.limits.backlog, reuse_address=True
        )

    def close(self) -> None:
        """Close the refused connections still lingering (the server stops)."""
        for connection in list(self.lingering):
            connection.drop_refused()

    @web.middleware
    async def middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        """Mark the request's start and end on its connection; read its body within the deadline."""
        transport = request.transport
        connection = transport.get_protocol() if transport is not None else None
        if not isinstance(connection, GuardedConnection):
            return await handler(request)
        connection.request_started()
        client = ""
        try:
            if self.trusted(connection.peer):
                client = forwarded_client(
                    request.headers.getall("X-Forwarded-For", ()), connection.peer, self.trusted
                )
                request[CLIENT] = client
                if self.clients[client] >= self.limits.per_peer:
                    client = ""
                    self.refuse(connection.peer, "too many requests from one client of a proxy")
                    return web.Response(
                        status=503, text="too many connections from you\n", headers={"Retry-After": "1"}
                    )
                self.clients[client] += 1
            if request.body_exists:
                try:
                    await asyncio.wait_for(request.read(), self.limits.body_timeout)
                except TimeoutError:
                    return await self._too_slow(request, connection)
            return await handler(request)
        finally:
            if client:
                self.clients[client] -= 1
                if self.clients[client] <= 0:
                    del self.clients[client]
            if connection.state == "busy":
                connection.request_done()

    @staticmethod
    async def _too_slow(request: web.Request, connection: GuardedConnection) -> web.StreamResponse:
        """408, sent now, and the connection closed (the rest of the body is not waited for)."""
        response = web.Response(status=408, text="request body too slow\n")
        response.force_close()
        await response.prepare(request)
        await response.write_eof()
        connection.drop("body too slow")
        return response
