"""The real bot as a child process (``python -m bot``'s own ``main``) on the fake platforms.

Run as a script, this file *is* the child: it points discord.py's REST base and gateway at
``MOJI_TEST_DISCORD_API`` and Slack's Web API at ``MOJI_TEST_SLACK_API``, and starts the bot
exactly as ``python -m bot`` does (settings from the environment only). ``MOJI_TEST_SKEW``
(seconds) moves the child's game clock on: a process started with ``MOJI_TEST_SKEW=90`` sees
the world 90 s later than it is, as if it had been down 90 s longer. That is how the tests
give a process a long outage without waiting for one on the wall clock.

Imported, it gives the parent side: :class:`BotProcess` to start, SIGKILL or SIGTERM the
child and wait for what it logs.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import re
import signal
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parents[2]
_TRIGGERS = itertools.count(1)


def child() -> int:
    """The bot, pointed at the fakes named in the environment."""
    skew = float(os.environ.get("MOJI_TEST_SKEW", "0") or 0)
    if skew:
        import bot.core.clock

        plain_init = bot.core.clock.SystemClock.__init__

        def skewed_init(self: bot.core.clock.SystemClock, *args: Any, **kwargs: Any) -> None:
            plain_init(self, *args, **kwargs)
            self._origin_wall += skew

        bot.core.clock.SystemClock.__init__ = skewed_init  # type: ignore[method-assign]
    discord_api = os.environ.get("MOJI_TEST_DISCORD_API")
    if discord_api:
        import discord
        import yarl
        from discord.gateway import DiscordWebSocket

        discord.http.Route.BASE = discord_api + "/api/v10"
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(discord_api.replace("http://", "ws://") + "/gateway")
    slack_api = os.environ.get("MOJI_TEST_SLACK_API")
    if slack_api:
        from dataclasses import replace

        import adapters.slack.settings as slack_settings

        plain = slack_settings.settings_from_config

        def pointed(config: Any) -> Any:
            return replace(plain(config), base_url=slack_api)

        slack_settings.settings_from_config = pointed  # type: ignore[assignment]
    import bot.__main__

    return bot.__main__.main(["run", "--env-file", os.devnull])


class BotProcess:
    """One ``python -m bot`` child; its output goes to ``log`` (kept across restarts)."""

    def __init__(self, workdir: Path, env: dict[str, str]) -> None:
        self.workdir = workdir
        self.log = workdir / "bot.log"
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "SLACK_", "MOJI_TEST_"))},
            "DATABASE_URL": f"sqlite:///{workdir}/moji.db",
            "LOG_LEVEL": "DEBUG",
            "PYTHONUNBUFFERED": "1",
            # this checkout's code, whichever checkout the environment's editable install points at
            # (the child runs this file as a script: its own directory, not ROOT, heads sys.path)
            "PYTHONPATH": os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
            "PORT": "0",  # the bot's HTTP server (/healthz…): any free port, so runs never collide
            # no game's word tables at start (a game's first lobby builds its own): building all five
            # costs each start about 13 s of CPU, and these tests start dozens of processes
            "PREPARE_AT_START": "none",
            **env,
        }
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self, **env: str) -> None:
        """Start the child (again), with ``env`` over the environment it was made with."""
        assert self.proc is None or self.proc.poll() is not None, "already running"
        self.starts += 1
        with open(self.log, "ab") as out:
            out.write(f"\n===== start {self.starts} =====\n".encode())
            out.flush()
            self.proc = subprocess.Popen(
                [sys.executable, __file__],
                env={**self.env, **env},
                cwd=self.workdir,
                stdout=out,
                stderr=subprocess.STDOUT,
            )

    def output(self, since_start: bool = True) -> str:
        """What the bot has written (by default since its latest start)."""
        text = self.log.read_text(errors="replace")
        return text.rsplit(f"===== start {self.starts} =====", 1)[-1] if since_start else text

    async def logged(self, pattern: str, within: float = 180.0) -> re.Match[str]:
        """Wait until the child's latest run logs ``pattern`` (``within`` is a hang guard: generous, as a
        start-up on a busy 2-core machine can take a minute)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while True:
            found = re.search(pattern, self.output())
            if found:
                return found
            assert self.proc is not None
            assert self.proc.poll() is None, f"the bot exited:\n{self.output()[-3000:]}"
            assert loop.time() < deadline, f"{pattern!r} never logged:\n{self.output()[-3000:]}"
            await asyncio.sleep(0.05)

    def kill9(self) -> None:
        """SIGKILL: no handler, no flush, no goodbye."""
        assert self.proc is not None
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=30)

    async def stopped(self, within: float = 15.0) -> int:
        """Wait for the child to exit; its exit code."""
        assert self.proc is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        while self.proc.poll() is None:
            assert loop.time() < deadline, "the bot did not stop"
            await asyncio.sleep(0.05)
        return self.proc.returncode

    async def close(self) -> None:
        """Stop the child if it still runs (SIGTERM, then SIGKILL)."""
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            await self.stopped()
        except AssertionError:
            self.proc.kill()
            self.proc.wait(timeout=30)


async def poll(predicate: Callable[[], bool], within: float = 180.0) -> None:
    """Wait until ``predicate()`` holds (it reads what a process wrote, e.g. its database)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not predicate():
        assert loop.time() < deadline, "never happened"
        await asyncio.sleep(0.05)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class SlackClient:
    """Slack's side of the HTTP mode: signed slash commands and event deliveries."""

    def __init__(self, http: aiohttp.ClientSession, url: str, slack: Any) -> None:
        self.http, self.url, self.slack = http, url, slack

    async def post(self, body: str, content_type: str, headers: dict[str, str] | None = None) -> int:
        all_headers = {"Content-Type": content_type, **_sign(body), **(headers or {})}
        async with self.http.post(self.url + "/slack/events", data=body.encode(), headers=all_headers) as r:
            await r.read()
            return r.status

    async def up(self, within: float = 180.0) -> None:
        """Wait until the bot takes Slack's requests (answers Slack's URL check). Several bot
        processes starting at once on a busy 2-core machine can take a minute: ``within`` only
        catches one that never comes up."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + within
        body = json.dumps({"type": "url_verification", "challenge": "up?", "token": "t"})
        while True:
            try:
                if await self.post(body, "application/json") == 200:
                    return
            except aiohttp.ClientConnectionError:
                pass
            assert loop.time() < deadline, "the Slack bot never answered"
            await asyncio.sleep(0.05)

    def _trigger(self) -> str:
        """A fresh trigger id: Slack gives each slash command and button press its own (a
        process forwarding one to another names it by it)."""
        return f"{next(_TRIGGERS)}.2.3"

    async def command(self, user: str, text: str, channel: str = "C1") -> int:
        from urllib.parse import urlencode

        form = {
            "team_id": "T1",
            "channel_id": channel,
            "user_id": user,
            "user_name": user.lower(),
            "command": "/moji",
            "text": text,
            "api_app_id": "A1",
            "response_url": f"{self.slack.url}/respond/{user}",
            "trigger_id": self._trigger(),
        }
        return await self.post(urlencode(form), "application/x-www-form-urlencoded")

    async def button(self, user: str, action_id: str, message_ts: str = "1700000000.000001") -> int:
        """``user`` presses the button ``action_id`` (on the message ``message_ts``) in C1."""
        from urllib.parse import urlencode

        payload = {
            "type": "block_actions",
            "team": {"id": "T1", "domain": "acme"},
            "user": {"id": user, "name": user.lower(), "team_id": "T1"},
            "api_app_id": "A1",
            "channel": {"id": "C1", "name": "general"},
            "container": {"type": "message", "channel_id": "C1", "message_ts": message_ts},
            "trigger_id": self._trigger(),
            "response_url": f"{self.slack.url}/respond/{user}",
            "actions": [
                {"action_id": action_id, "block_id": "moji:actions", "type": "button", "action_ts": "1"}
            ],
        }
        return await self.post(
            urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded"
        )

    async def message(self, user: str, text: str, ts: str, event_id: str, retry: int = 0) -> int:
        body = json.dumps(
            {
                "team_id": "T1",
                "api_app_id": "A1",
                "type": "event_callback",
                "event_id": event_id,
                "event_time": int(float(ts)),
                "event": {
                    "type": "message",
                    "channel": "C1",
                    "user": user,
                    "text": text,
                    "ts": ts,
                    "channel_type": "channel",
                },
                "authorizations": [{"team_id": "T1", "user_id": "UBOT", "is_bot": True}],
            }
        )
        headers = {"X-Slack-Retry-Num": str(retry), "X-Slack-Retry-Reason": "http_timeout"} if retry else {}
        return await self.post(body, "application/json", headers)


class RoundRobin:
    """A load balancer in front of several Slack HTTP-mode processes.

    ``POST /slack/events`` (body and headers as they came, so Slack's signature still holds)
    goes to the next of ``targets`` (base URLs such as ``http://127.0.0.1:8001``) in turn;
    its answer is returned as it is. A target that refuses the connection (a dead process)
    is skipped and the next one tried, as a load balancer would; with none left: 502.

    ``served`` lists the index of the target that answered each request, in order;
    ``targets`` may be changed while it runs (a restarted process on a new port).
    """

    def __init__(self, targets: list[str]) -> None:
        self.targets = list(targets)
        self.served: list[int] = []
        self.url = ""
        self._next = 0
        self._http: aiohttp.ClientSession | None = None
        self._runner: Any = None

    async def start(self) -> None:
        """Listen on 127.0.0.1 on a free port (:attr:`url`)."""
        from aiohttp import web

        app = web.Application()
        app.router.add_post("/slack/events", self._forward)
        self._http = aiohttp.ClientSession()
        self._runner = web.AppRunner(app)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"

    async def close(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
        if self._http is not None:
            await self._http.close()

    async def _forward(self, request: Any) -> Any:
        from aiohttp import web

        assert self._http is not None
        body = await request.read()
        skip = {"host", "content-length", "transfer-encoding", "connection"}
        headers = {k: v for k, v in request.headers.items() if k.lower() not in skip}
        for _ in range(len(self.targets)):
            index = self._next % len(self.targets)
            self._next = index + 1
            try:
                async with self._http.post(
                    self.targets[index] + "/slack/events", data=body, headers=headers
                ) as response:
                    answer = await response.read()
                    self.served.append(index)
                    return web.Response(
                        status=response.status,
                        body=answer,
                        headers={"Content-Type": response.headers.get("Content-Type", "text/plain")},
                    )
            except aiohttp.ClientConnectionError:
                continue  # that process is gone: the next one
        return web.Response(status=502, text="no process answered")


def _sign(body: str) -> dict[str, str]:
    from tests.adapters.slack.conftest import sign

    return sign(body)


if __name__ == "__main__":
    sys.exit(child())
