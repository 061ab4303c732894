"""Socket Mode: the same app, reached over a WebSocket instead of HTTP."""

from __future__ import annotations

import asyncio
import contextlib

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.store import MemorySlackStore
from bot.core.clock import FakeClock
from tests.adapters.slack.conftest import CHAT, make_adapter, tick_until, until
from tests.adapters.slack.fakes import FakeServices
from tests.adapters.slack.fakeslack import FakeSlack
from tests.adapters.slack.test_game import is_table
from tests.waiting import eventually_true


async def test_commands_and_events_over_socket_mode(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    adapter = make_adapter(
        slack, clock, svc, slack_store, app_token="xapp-1-test", signing_secret="", host="127.0.0.1", port=0
    )
    running = asyncio.ensure_future(adapter.run())

    def busy() -> bool:
        return slack.inflight > 0

    try:
        command = {
            "team_id": "T1",
            "channel_id": "C1",
            "user_id": "UANN",
            "user_name": "ann",
            "command": "/moji",
            "text": "start toy target=1",
            "response_url": f"{slack.url}/respond/UANN",
            "trigger_id": "1.2",
        }
        ack = await slack.push(
            {
                "envelope_id": "e1",
                "type": "slash_commands",
                "accepts_response_payload": True,
                "payload": command,
            }
        )
        assert ack["envelope_id"] == "e1"
        [opened] = slack.of("apps.connections.open")
        assert opened.token == "xapp-1-test"
        await slack.wait_for("chat.postMessage", lambda c: "lobby" in str(c.args.get("text")))
        await slack.push(
            {
                "envelope_id": "e2",
                "type": "slash_commands",
                "accepts_response_payload": True,
                "payload": {**command, "text": "go", "trigger_id": "1.3"},
            }
        )
        # The game has begun: its table goes out in the channel's next chat.postMessage slot.
        await tick_until(clock, lambda: any(is_table(c) for c in slack.of("chat.postMessage")), busy=busy)
        session = adapter.runtime.manager.sessions[CHAT]
        letter = session.engine.snapshot(None).cards[0].letter.lower()  # type: ignore[union-attr]
        event = {
            "type": "event_callback",
            "team_id": "T1",
            "event_id": "Ev1",
            "event": {
                "type": "message",
                "channel": "C1",
                "user": "UANN",
                "text": letter + "zz",
                "ts": "1795445940.000100",
            },
        }
        await slack.push({"envelope_id": "e3", "type": "events_api", "payload": event})
        await until(lambda: len(session.settle.pending) == 1)
        await clock.advance(0.2)
        await tick_until(
            clock, lambda: any("game over" in str(c.args.get("text")) for c in slack.calls), busy=busy
        )
        [over] = [c for c in slack.of("chat.postMessage") if "game over" in str(c.args.get("text"))]
        assert "Ann — 1 pt" in over.args["text"]
        [table] = [c for c in slack.of("chat.postMessage") if is_table(c)]  # edited since, never reposted
        edits = [c for c in slack.of("chat.update") if is_table(c)]
        assert edits and table.answer is not None and {c.args["ts"] for c in edits} == {table.answer["ts"]}
        assert slack.rate_limited() == []
        assert CHAT not in adapter.runtime.manager.sessions
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running


async def test_ready_once_the_socket_is_connected(
    slack: FakeSlack, clock: FakeClock, svc: FakeServices, slack_store: MemorySlackStore
) -> None:
    """/readyz on the process's server: Socket Mode is ready while its WebSocket is connected."""
    from bot.process.health import HealthServer

    adapter = make_adapter(slack, clock, svc, slack_store, app_token="xapp-1-test", signing_secret="")
    server = HealthServer("127.0.0.1", 0)
    server.expect("slack")
    assert await server.readiness() == (False, {"slack": "starting"})
    running = asyncio.ensure_future(adapter.run(server))
    try:
        await slack.wait_for("apps.connections.open")

        async def ready() -> bool:
            return (await server.readiness())[0]

        await eventually_true(ready, "ready")
        assert await server.readiness() == (True, {"slack": "ok"})
    finally:
        running.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await running
    assert await server.readiness() == (False, {"slack": "stopped"})
