"""Behind a reverse proxy (bot/process/httpguard.py, TRUSTED_PROXIES and HTTP_PER_ADDRESS): a trusted
proxy's connections are not counted against it, the clients it names are; a client's own
X-Forwarded-For is never believed. Over real sockets on 127.0.0.1 (any 127.x.y.z is a peer)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from aiohttp import web
from hypothesis import given
from hypothesis import strategies as st

from bot.process.config import ConfigError, load_config
from bot.process.health import HealthServer
from bot.process.httpguard import Limits, client_of, forwarded_client
from tests.bot.test_httpguard import connect, until

PROXY = "127.0.0.1"


def test_the_client_is_the_last_address_no_trusted_proxy_wrote() -> None:
    trusted = {"10.0.0.1", "10.0.0.2"}.__contains__
    assert forwarded_client(["203.0.113.9"], "10.0.0.1", trusted) == "203.0.113.9"
    # the client wrote "1.2.3.4" itself: only what the proxies added is believed
    assert forwarded_client(["1.2.3.4, 203.0.113.9, 10.0.0.2"], "10.0.0.1", trusted) == "203.0.113.9"
    assert forwarded_client(["1.2.3.4", "203.0.113.9"], "10.0.0.1", trusted) == "203.0.113.9"
    assert forwarded_client([], "10.0.0.1", trusted) == "10.0.0.1", "the proxy's own request"
    assert forwarded_client(["10.0.0.2"], "10.0.0.1", trusted) == "10.0.0.1"


@given(
    st.lists(st.sampled_from(["1.1.1.1", "2.2.2.2", "10.0.0.1", "10.0.0.2", "junk", " "]), max_size=6),
    st.sampled_from(["10.0.0.1", "10.0.0.2"]),
)
def test_the_client_is_never_a_trusted_proxy_nor_invented(hops: list[str], peer: str) -> None:
    trusted = {"10.0.0.1", "10.0.0.2"}.__contains__
    found = forwarded_client([", ".join(hops)], peer, trusted)
    assert found == peer or (not trusted(found) and found in [h.strip() for h in hops])


def test_the_settings_are_read_and_checked() -> None:
    config = load_config(
        {"TRUSTED_PROXIES": "127.0.0.1, 10.0.0.0/8", "HTTP_PER_ADDRESS": "500"}, env_file=None
    )
    assert config.trusted_proxies == ("127.0.0.1", "10.0.0.0/8") and config.http_per_address == 500
    assert load_config({}, env_file=None).http_per_address == 64
    with pytest.raises(ConfigError, match="TRUSTED_PROXIES"):
        load_config({"TRUSTED_PROXIES": "proxy.example"}, env_file=None)
    with pytest.raises(ConfigError, match="HTTP_PER_ADDRESS"):
        load_config({"HTTP_PER_ADDRESS": "0"}, env_file=None)
    with pytest.raises(ConfigError, match="WEB_INTERNAL_URL"):
        load_config({"WEB_INTERNAL_URL": "10.0.0.5:3000"}, env_file=None)


@asynccontextmanager
async def held_open(limits: Limits) -> AsyncIterator[tuple[HealthServer, list[str], asyncio.Event]]:
    """A server whose /hold answers when ``release`` is set (a live channel, as long as it is
    open); each request's client, as the handler sees it, goes to ``clients``."""
    clients: list[str] = []
    release = asyncio.Event()

    async def hold(request: web.Request) -> web.Response:
        clients.append(client_of(request))
        await release.wait()
        return web.Response(text="ok")

    app = web.Application()
    app.router.add_get("/hold", hold)
    server = HealthServer("127.0.0.1", 0, limits=limits)
    server.mount(app)
    await server.start()
    try:
        yield server, clients, release
    finally:
        release.set()
        for writer in OPEN:
            writer.close()
        OPEN.clear()
        await server.stop()


#: The connections the tests opened (a writer that goes out of scope closes its connection).
OPEN: list[asyncio.StreamWriter] = []


async def ask(server: HealthServer, source: str, forwarded: str | None) -> asyncio.StreamReader:
    reader, writer = await connect(server, source)
    header = f"X-Forwarded-For: {forwarded}\r\n" if forwarded else ""
    writer.write(f"GET /hold HTTP/1.1\r\nHost: x\r\n{header}Connection: close\r\n\r\n".encode())
    await writer.drain()
    OPEN.append(writer)
    return reader


async def test_a_trusted_proxy_holds_many_channels_and_each_client_is_counted() -> None:
    limits = Limits(header_timeout=30, idle_timeout=30, per_peer=2, trusted=(PROXY,))
    async with held_open(limits) as (server, clients, release):
        # six clients through the proxy, each with a live channel: none refused for the proxy's count
        readers = [await ask(server, PROXY, f"203.0.113.{n}") for n in range(6)]
        await until(lambda: len(clients) == 6)
        assert sorted(clients) == sorted(f"203.0.113.{n}" for n in range(6))
        # one client holds two (its limit): its third is refused, another client is not
        readers.append(await ask(server, PROXY, "203.0.113.0"))
        refused = await asyncio.wait_for((await ask(server, PROXY, "198.51.100.1, 203.0.113.0")).read(), 5)
        assert refused.startswith(b"HTTP/1.1 503") and b"too many connections" in refused
        readers.append(await ask(server, PROXY, "198.51.100.7"))
        await until(lambda: len(clients) == 8)
        assert server.guard.clients["203.0.113.0"] == 2 and server.guard.clients["198.51.100.7"] == 1
        release.set()
        answers = [(await asyncio.wait_for(reader.read(), 5))[:12] for reader in readers]
        assert answers == [b"HTTP/1.1 200"] * len(readers)
        await until(lambda: not server.guard.clients)


async def test_an_untrusted_peer_s_forwarded_for_is_not_believed() -> None:
    limits = Limits(header_timeout=30, idle_timeout=30, per_peer=2, trusted=(PROXY,))
    async with held_open(limits) as (server, clients, release):
        readers = [await ask(server, "127.0.0.2", f"203.0.113.{n}") for n in range(2)]
        await until(lambda: len(clients) == 2)
        assert clients == ["127.0.0.2", "127.0.0.2"], "its own address, whatever it claims"
        refused = await asyncio.wait_for((await ask(server, "127.0.0.2", "203.0.113.9")).read(), 5)
        assert refused.startswith(b"HTTP/1.1 503"), "counted by its connections, as without a proxy"
        release.set()
        for reader in readers:
            await asyncio.wait_for(reader.read(), 5)


async def test_a_moji_process_that_proved_itself_is_trusted_from_then_on() -> None:
    limits = Limits(header_timeout=30, idle_timeout=30, per_peer=1)
    async with held_open(limits) as (server, clients, release):
        first = await ask(server, "127.0.0.3", "203.0.113.1")
        await until(lambda: len(clients) == 1)
        assert clients == ["127.0.0.3"]
        server.guard.trust("127.0.0.3")  # (what the web proxy does on a signed request)
        second = await ask(server, "127.0.0.3", "203.0.113.2")
        await until(lambda: len(clients) == 2)
        assert clients[1] == "203.0.113.2"
        release.set()
        for reader in (first, second):
            assert (await asyncio.wait_for(reader.read(), 5)).startswith(b"HTTP/1.1 200")
