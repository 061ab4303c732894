"""Slow clients against moji's HTTP server: the review's slowloris, measured.

``CONNECTIONS`` connections from 127.0.0.1 send their headers a byte at a time; meanwhile
another address (127.0.0.2) asks ``/healthz`` every 50 ms. Prints JSON: how many of the slow
connections were refused at once, how many were closed at the header deadline, how long the
last one stayed open, and the other address's answer times.

    PYTHONPATH=. python bench/bench_slowclients.py [CONNECTIONS] [HEADER_TIMEOUT]
"""

from __future__ import annotations

import asyncio
import json
import socket
import statistics
import sys
import time

from bot.process.health import HealthServer
from bot.process.httpguard import Limits


async def connect(port: int, source: str) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    return await asyncio.open_connection(sock=sock)


async def slow(port: int, started: float) -> tuple[bytes, float]:
    reader, writer = await connect(port, "127.0.0.1")
    closed = asyncio.ensure_future(reader.read())
    header = b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: " + b"a" * 100_000
    try:
        for byte in header:
            if closed.done():
                break
            writer.write(bytes([byte]))
            await writer.drain()
            await asyncio.sleep(0.1)
        answer = await closed
    except ConnectionError:
        answer = b""
    writer.close()
    return answer, time.monotonic() - started


async def main(connections: int, header_timeout: float) -> dict[str, object]:
    server = HealthServer("127.0.0.1", 0, limits=Limits(header_timeout=header_timeout))
    await server.start()
    started = time.monotonic()
    slow_ones = [asyncio.ensure_future(slow(server.port, started)) for _ in range(connections)]
    answer_ms: list[float] = []
    while not all(task.done() for task in slow_ones):
        asked = time.monotonic()
        reader, writer = await connect(server.port, "127.0.0.2")
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        assert (await reader.read()).startswith(b"HTTP/1.1 200")
        writer.close()
        answer_ms.append((time.monotonic() - asked) * 1000)
        await asyncio.sleep(0.05)
    results = [task.result() for task in slow_ones]
    await server.stop()
    answer_ms.sort()
    return {
        "slow_connections": connections,
        "per_peer": server.guard.limits.per_peer,
        "header_timeout_s": header_timeout,
        "refused_at_once": sum(answer.startswith(b"HTTP/1.1 503") for answer, _ in results),
        "closed_at_deadline": sum(answer == b"" for answer, _ in results),
        "last_closed_after_s": round(max(seconds for _, seconds in results), 2),
        "other_address_requests": len(answer_ms),
        "other_address_median_ms": round(statistics.median(answer_ms), 2),
        "other_address_max_ms": round(answer_ms[-1], 2),
    }


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 500
    timeout = float(sys.argv[2]) if len(sys.argv) > 2 else Limits().header_timeout
    print(json.dumps(asyncio.run(main(count, timeout)), indent=2))
