"""A Slack user with a hostile display name, through signed requests to the real Bolt app: what
the fake Web API receives — blocks and the ``text`` fallback alike — shows the name as typed,
with no ``<!channel>``, mention or link token of its own and no unescaped ``&``, ``<`` or ``>``."""

from __future__ import annotations

import pytest

pytest.importorskip("slack_bolt")

from tests.adapters.liveness import leaks, slack_live, slack_texts
from tests.adapters.slack.conftest import CHAT, Harness, until
from tests.adapters.slack.fakeslack import Call

EVIL = "UEVIL"
NAME = "<!channel> <@UANN> <https://evil.example|login> & *b* _i_ ~s~ `c` > q \x1b[31m\u202e"


def _mrkdwn(call: Call) -> list[str]:
    """Every mrkdwn text of a call: its blocks' and its ``text`` fallback."""
    texts, _ = slack_texts(call.args.get("blocks") or [])
    return [*texts, str(call.args.get("text") or "")]


def _tokens(call: Call) -> set[str]:
    """The ``<…>`` tokens of a call, but for the dates moji writes (the table's hourglass)."""
    keys = {key for text in _mrkdwn(call) for key in slack_live(text)}
    return {key for key in keys if key.startswith("token:") and not key.startswith("token:<!date^")}


def _assert_shown_as_typed(call: Call) -> None:
    assert not _tokens(call), _mrkdwn(call)  # no <…> but moji's own dates
    for text in _mrkdwn(call):
        assert not slack_live(text)["raw-ampersand"], text
        assert not leaks(text) and "\x1b" not in text, text
    _, plain = slack_texts(call.args.get("blocks") or [])
    assert not [text for text in plain if "\x1b" in text or leaks(text)], plain


async def test_a_hostile_display_name_is_shown_as_typed_in_blocks_and_text(h: Harness) -> None:
    h.slack.names[EVIL] = NAME
    assert await h.command(EVIL, "start toy") == 200
    [lobby] = await h.slack.wait_for("chat.postMessage", lambda c: "lobby" in str(c.args.get("text")))
    _assert_shown_as_typed(lobby)
    assert "&lt;!channel&gt;" in lobby.args["text"]  # the fallback, escaped too
    assert any("&lt;!channel&gt;" in text for text in slack_texts(lobby.args["blocks"])[0])

    assert await h.button("UBOB", "moji:join") == 200
    await until(lambda: len(h.adapter.manager.sessions[CHAT].players) == 2)
    assert await h.command("UBOB", "go") == 200  # only the host starts: the refusal names them
    [refused] = await h.slack.wait_for(
        "chat.postEphemeral", lambda c: "Only the host" in str(c.args.get("text"))
    )
    _assert_shown_as_typed(refused)

    assert await h.command(EVIL, "go") == 200
    await h.drain()
    tables = [c for c in h.slack.of("chat.postMessage") if "Letters:" in c.text()]
    assert tables
    _assert_shown_as_typed(tables[0])


async def test_typed_input_quoted_back_is_escaped(h: Harness) -> None:
    assert await h.command(EVIL, "start toy <https://evil.example|login>=1") == 200
    [quoted] = await h.slack.wait_for("chat.postEphemeral", lambda c: "option" in str(c.args.get("text")))
    _assert_shown_as_typed(quoted)
    assert "evil.example" in quoted.args["text"]
