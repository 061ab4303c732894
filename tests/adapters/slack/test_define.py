"""``/moji define``: the meaning as an ephemeral message, never in the channel."""

from __future__ import annotations

import pytest

pytest.importorskip("slack_bolt")

from tests.adapters.slack.conftest import Harness
from tests.adapters.slack.test_privacy import public_calls


async def test_define_answers_only_the_asker(h: Harness) -> None:
    assert await h.command("UANN", "define zebra") == 200
    await h.drain()
    [reply] = await h.slack.wait_for("chat.postEphemeral", lambda c: "equines" in c.text())
    assert reply.args["user"] == "UANN" and reply.args.get("channel") == "C1"
    assert "ZEBRA" in reply.text()
    assert not [c for c in public_calls(h) if "equines" in c.text()]


async def test_define_in_another_language_and_bad_input(h: Harness) -> None:
    await h.command("UBOB", "define maison language=fr")
    await h.drain()
    [reply] = await h.slack.wait_for("chat.postEphemeral", lambda c: "MAISON" in c.text())
    assert reply.args["user"] == "UBOB" and "house" in reply.text()
    await h.command("UBOB", "define c4t")
    await h.drain()
    [refused] = await h.slack.wait_for("chat.postEphemeral", lambda c: "look up" in c.text())
    assert refused.args["user"] == "UBOB" and "letters only" in refused.text()
    assert not [c for c in public_calls(h) if "house" in c.text() or "look up" in c.text()]
