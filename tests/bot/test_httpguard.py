"""Slow and greedy clients against the real HTTP server, over real sockets on 127.0.0.1.

The deadlines are made small (tenths of a second) so that the only waiting is the guard's
own; nothing asserts an upper bound on time, only that the deadline was not cut short.
"""

from __future__ import annotations

import asyncio
import logging
import socket
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest
from aiohttp import web

from bot.process.health import HealthServer
from bot.process.httpguard import Limits, QuietLog

SHORT = Limits(header_timeout=0.3, body_timeout=0.3, idle_timeout=1.0, per_peer=4)
TRICKLE = 0.02  # s between the bytes a slow client sends


@asynccontextmanager
async def guarded(limits: Limits = SHORT) -> AsyncIterator[HealthServer]:
    async def echo(request: web.Request) -> web.Response:
        return web.Response(body=await request.read())

    app = web.Application()
    app.router.add_post("/echo", echo)
    server = HealthServer("127.0.0.1", 0, limits=limits)
    server.mount(app)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def connect(
    server: HealthServer, source: str = "127.0.0.1"
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))  # any 127.x.y.z is this machine: another "peer"
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", server.port))
    return await asyncio.open_connection(sock=sock)


async def get(server: HealthServer, path: str, source: str = "127.0.0.1") -> bytes:
    reader, writer = await connect(server, source)
    writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode())
    answer = await asyncio.wait_for(reader.read(), 5)
    writer.close()
    return answer


async def read_all(reader: asyncio.StreamReader) -> bytes:
    """Everything the server sends until it closes (a reset, when the client wrote after the
    server closed, counts as closed)."""
    try:
        return await reader.read()
    except ConnectionResetError:
        return b""


async def trickle(writer: asyncio.StreamWriter, closed: asyncio.Task[bytes], data: bytes) -> int:
    """Send ``data`` a byte at a time until the server closes the connection; the bytes sent."""
    for sent, byte in enumerate(data):
        if closed.done():
            return sent
        try:
            writer.write(bytes([byte]))
            await writer.drain()
        except ConnectionError:
            return sent
        await asyncio.sleep(TRICKLE)
    raise AssertionError("the server never closed the slow connection")


async def until(predicate: Callable[[], bool]) -> None:
    for _ in range(500):
        if predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("condition not met")


SLOW_HEADERS = b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"X-Slow: " + b"a" * 5000 + b"\r\n\r\n"


async def test_a_client_sending_its_headers_a_byte_at_a_time_is_closed_at_the_deadline() -> None:
    async with guarded() as server:
        reader, writer = await connect(server)
        loop = asyncio.get_running_loop()
        started = loop.time()
        closed = asyncio.ensure_future(read_all(reader))
        sent = await trickle(writer, closed, SLOW_HEADERS)
        answer = await asyncio.wait_for(closed, 5)
        assert answer == b""  # closed, nothing answered
        assert loop.time() - started >= SHORT.header_timeout
        assert 0 < sent < len(SLOW_HEADERS)
        assert server.guard.refusals.counts == {"headers too slow": 1}
        await until(lambda: not server.guard.open)
        writer.close()
        # the server still answers everyone else
        assert (await get(server, "/healthz")).startswith(b"HTTP/1.1 200")


async def test_an_idle_connection_is_closed_and_a_quick_one_is_not() -> None:
    async with guarded() as server:
        reader, writer = await connect(server)
        assert await asyncio.wait_for(reader.read(), 5) == b""
        assert server.guard.refusals.counts == {"idle connection": 1}
        writer.close()
        # keep-alive: several requests on one connection, each well within the deadlines
        reader, writer = await connect(server)
        for _ in range(3):
            writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            status = await asyncio.wait_for(reader.readline(), 5)
            assert status.startswith(b"HTTP/1.1 200")
            while (await reader.readline()) != b"\r\n":
                pass  # headers
            await reader.readexactly(len(b'{"status": "ok", "games": 0}'))
        writer.close()
        assert server.guard.refusals.counts == {"idle connection": 1}


async def test_a_slow_body_gets_408_and_the_connection_is_closed() -> None:
    async with guarded() as server:
        reader, writer = await connect(server)
        writer.write(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n")
        closed = asyncio.ensure_future(read_all(reader))
        await trickle(writer, closed, b"b" * 1000)
        answer = await asyncio.wait_for(closed, 5)
        assert answer.startswith(b"HTTP/1.1 408")
        assert server.guard.refusals.counts == {"body too slow": 1}
        writer.close()
        # a quick body is echoed
        reader, writer = await connect(server)
        writer.write(b"POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello")
        answer = await asyncio.wait_for(reader.read(), 5)
        assert answer.startswith(b"HTTP/1.1 200") and answer.endswith(b"hello")


async def test_one_address_holds_at_most_per_peer_connections_while_others_are_served() -> None:
    async with guarded(Limits(header_timeout=30, idle_timeout=30, per_peer=4)) as server:
        held = [await connect(server) for _ in range(4)]
        for _, writer in held:
            writer.write(b"GET /healthz HTTP/1.1\r\n")  # and never the rest
        await until(lambda: server.guard.open["127.0.0.1"] == 4)
        # the fifth from the same address: 503 at once, and closed
        refused = await get(server, "/healthz")
        assert refused.startswith(b"HTTP/1.1 503") and b"too many connections" in refused
        # another address is served
        assert (await get(server, "/healthz", source="127.0.0.2")).startswith(b"HTTP/1.1 200")
        # once one of the four goes, the address may connect again
        held[0][1].close()
        await until(lambda: server.guard.open["127.0.0.1"] == 3)
        assert (await get(server, "/healthz")).startswith(b"HTTP/1.1 200")
        assert server.guard.refusals.counts == {"too many connections": 1}
        for _, writer in held[1:]:
            writer.close()
    assert not server.guard.open and not server.guard.lingering


async def test_a_hundred_slow_connections_from_one_address_cost_a_bounded_time(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The review's attack, scaled down: many connections sending headers a byte at a time.
    All but ``per_peer`` are refused at once, those few are closed at the header deadline,
    and the whole flood leaves one WARNING in the log."""
    caplog.set_level(logging.DEBUG, logger="bot.process.httpguard")
    async with guarded(Limits(header_timeout=0.3, idle_timeout=30, per_peer=4)) as server:
        connections = [await connect(server) for _ in range(100)]
        closed = [asyncio.ensure_future(read_all(reader)) for reader, _ in connections]

        async def slow(index: int) -> None:
            await trickle(connections[index][1], closed[index], SLOW_HEADERS)

        await asyncio.gather(*(slow(i) for i in range(len(connections))))
        answers = await asyncio.gather(*closed)
        assert sum(a.startswith(b"HTTP/1.1 503") for a in answers) == 100 - SHORT.per_peer
        assert sum(a == b"" for a in answers) == SHORT.per_peer
        assert server.guard.refusals.counts == {
            "too many connections": 100 - SHORT.per_peer,
            "headers too slow": SHORT.per_peer,
        }
        await until(lambda: not server.guard.open)
        for _, writer in connections:
            writer.close()
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1


def test_the_quiet_log_warns_once_a_minute_with_a_count(caplog: pytest.LogCaptureFixture) -> None:
    now = [0.0]
    quiet = QuietLog(logging.getLogger("test.quiet"), "refused", clock=lambda: now[0])
    caplog.set_level(logging.DEBUG, logger="test.quiet")
    for second in range(130):
        now[0] = float(second)
        quiet.note("10.0.0.1", "wrong signature")
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert warnings == [
        "refused: 1 since the last such warning (the latest from 10.0.0.1: wrong signature)",
        "refused: 60 since the last such warning (the latest from 10.0.0.1: wrong signature)",
        "refused: 60 since the last such warning (the latest from 10.0.0.1: wrong signature)",
    ]
    assert quiet.counts == {"wrong signature": 130}
