"""Hidden information only ever goes to one person: ephemeral, response_url or DM."""

from __future__ import annotations

from dataclasses import replace

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.transport import Interaction
from bot.core import views
from bot.core.events import Player, Private
from bot.core.registry import Registry
from games.common.protocol import Action, Notice, Setup, Snapshot
from tests.adapters.slack.conftest import CHAT, Harness, until
from tests.adapters.slack.test_game import is_table
from tests.bot.toygame import TOY, ToyEngine

SECRET_WORD = "QZXJV"


class SecretEngine(ToyEngine):
    """The toy game plus a hidden rack for every person (like a Scrabble-style game), taking
    private word lists (like an Eagle Eyes race)."""

    takes_lists = True

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        self.said: list[str] = []

    def apply(self, action: Action) -> list[Notice]:
        out = super().apply(action)
        if action.kind == "begin":
            out += [Notice("private", f"Your rack: {SECRET_WORD}", s.id) for s in self.seats if s.bot is None]
        if action.kind == "say" and action.private and action.text:
            self.said.append(action.text)
            out.append(Notice("private", f"Noted your list: {action.text}", action.seat))
        return out

    def snapshot(self, viewer: str | None = None) -> Snapshot:
        public = super().snapshot(viewer)
        return replace(public, lines=(f"Your rack: {SECRET_WORD}",)) if viewer else public


SECRET = replace(TOY, name="secret", title="Secret", aliases=(), create=SecretEngine)


@pytest.fixture
def registry() -> Registry:
    return Registry([SECRET])


async def test_private_answers_by_direct_message(h: Harness) -> None:
    await h.command("UANN", "start secret")
    await h.command("UANN", "go")
    await h.drain()
    await h.slack.wait_for("chat.postEphemeral", lambda c: SECRET_WORD in c.text())
    await h.event(
        {
            "type": "message",
            "channel": "D1",
            "channel_type": "im",
            "user": "UANN",
            "text": "cat dog",
            "ts": h.next_ts(),
        }
    )
    await h.slack.wait_for("chat.postEphemeral", lambda c: "Noted your list: cat dog" in c.text())
    engine = h.adapter.runtime.manager.sessions[CHAT].engine
    assert isinstance(engine, SecretEngine) and engine.said == ["cat dog"]
    # Someone with no running game gets a friendly pointer, by DM.
    await h.event(
        {
            "type": "message",
            "channel": "D2",
            "channel_type": "im",
            "user": "UBOB",
            "text": "hi",
            "ts": h.next_ts(),
        }
    )
    [dm] = await h.slack.wait_for("chat.postMessage", lambda c: c.args.get("channel") == "UBOB")
    assert "not in a running game" in dm.args["text"]


async def test_private_falls_back_to_response_url_then_dm(h: Harness) -> None:
    ann = Player("slack", "UANN", "Ann")
    secret = views.message(f"Your rack: {SECRET_WORD}", "private")
    not_in = (200, {}, {"ok": False, "error": "not_in_channel"})
    h.slack.fail["chat.postEphemeral"] = [not_in, not_in]
    await h.adapter.outbox.send(Private(CHAT, ann, secret, Interaction(f"{h.slack.url}/respond/UANN")))
    [via_url] = await h.slack.wait_for("response_url")
    assert via_url.args["response_type"] == "ephemeral" and SECRET_WORD in via_url.text()
    await h.adapter.outbox.send(Private(CHAT, ann, secret))
    [dm] = await h.slack.wait_for("chat.postMessage")
    assert dm.args["channel"] == "UANN"
    assert not [c for c in h.slack.calls if c.args.get("channel") == "C1" and c.method == "chat.postMessage"]


async def test_failed_reaction_or_edit_never_stops_a_game(h: Harness) -> None:
    await h.command("UANN", "start secret target=1")
    await h.command("UANN", "go")
    await h.drain()
    await h.slack.wait_for("chat.postEphemeral", lambda c: SECRET_WORD in c.text())
    session = h.adapter.runtime.manager.sessions[CHAT]
    h.slack.fail["reactions.add"] = [(200, {}, {"ok": False, "error": "message_not_found"})]
    h.slack.fail["chat.update"] = [(200, {}, {"ok": False, "error": "internal_error"})]
    letter = session.engine.snapshot(None).cards[0].letter.lower()  # type: ignore[union-attr]
    await h.say("UANN", letter + "zz")
    await until(lambda: len(session.settle.pending) == 1)
    await h.clock.advance(0.2)
    await h.drain()
    await h.slack.wait_for("chat.postMessage", lambda c: "game over" in str(c.args.get("text")))
    [mark] = h.slack.of("reactions.add")  # refused by Slack, not tried again
    assert mark.args["name"] == "white_check_mark"
    # The table's edit was refused too: it is posted anew instead, so the channel still sees it.
    [*_, edit] = [c for c in h.slack.of("chat.update") if is_table(c)]
    [*_, reposted, over] = h.slack.of("chat.postMessage")
    assert is_table(reposted) and reposted.at > edit.at and reposted.args["text"] == edit.args["text"]
    assert "game over" in over.args["text"]
    assert h.adapter.runtime.manager.errors == []
    assert CHAT not in h.adapter.runtime.manager.sessions


async def test_a_channel_the_bot_cannot_post_in_gets_a_private_hint(h: Harness) -> None:
    not_in = (200, {}, {"ok": False, "error": "not_in_channel"})
    h.slack.fail["conversations.join"] = [
        (200, {}, {"ok": False, "error": "method_not_supported_for_channel_type"})
    ]
    h.slack.fail["chat.postMessage"] = [not_in, not_in]
    h.slack.fail["chat.postEphemeral"] = [not_in]
    await h.command("UANN", "start secret")
    [hint] = await h.slack.wait_for("response_url")
    assert "/invite @moji" in hint.text() and hint.args["response_type"] == "ephemeral"
    assert CHAT not in h.adapter.runtime.manager.sessions
