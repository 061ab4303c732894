"""Languages on Slack: /moji config language, a game started in it, answers with accents
reaching the game as typed, and /moji leaderboard language=."""

from __future__ import annotations

import pytest

from bot.features.workspace_settings import language_name
from games.common.speech import _, speaking

pytest.importorskip("slack_bolt")

from bot.core.registry import Registry
from tests.adapters.slack.conftest import CHAT, TEAM, Harness, until
from tests.adapters.slack.test_game import claim
from tests.bot.toygame import LINGO, TOY, LingoEngine


@pytest.fixture
def registry() -> Registry:
    return Registry([LINGO, TOY])


async def test_a_game_in_the_workspace_language_from_config_to_leaderboard(h: Harness) -> None:
    await h.command("UANN", "config language es")
    await h.slack.wait_for("chat.postEphemeral", lambda c: "Only workspace admins" in str(c.args.get("text")))
    await h.command("UADMIN", "config language Spanish")
    await h.slack.wait_for("chat.postEphemeral", lambda c: "language is now es" in str(c.args.get("text")))
    assert h.svc.store.settings[("slack", TEAM)]["language"] == "es"
    await h.command("UADMIN", "config language klingon")
    await h.slack.wait_for(
        "chat.postEphemeral", lambda c: "doesn't play in 'klingon'" in str(c.args.get("text"))
    )

    await h.command("UANN", "start lingo target=2")
    # (a Spanish workspace: moji speaks Spanish there, and its games play Spanish words)
    with speaking("es"):
        lobby = _("{game} — lobby · {language}", game="Lingo", language=language_name("es"))
    await h.slack.wait_for("chat.postMessage", lambda c: lobby in str(c.args.get("text")))
    await h.button("UBOB", "moji:join")
    await until(lambda: len(h.adapter.runtime.manager.sessions[CHAT].players) == 2)
    await h.command("UANN", "go")
    await h.drain()
    engine = h.adapter.runtime.manager.sessions[CHAT].engine
    assert isinstance(engine, LingoEngine) and engine.language.code == "es"
    for user, word in (("UBOB", "Niño"), ("UANN", "*Äpfel*"), ("UBOB", "Mañana")):
        await claim(h, user, word)
        await h.drain()
    assert engine.heard == ["Niño", "Äpfel", "Mañana"]  # (Slack's bold marks are not typed letters)
    assert engine.folded == ["niño", "apfel", "mañana"]
    await until(lambda: CHAT not in h.adapter.runtime.manager.sessions)

    # (an answer only Ann sees speaks her own Slack locale, en-US, not the workspace's Spanish)
    await h.command("UANN", "leaderboard lingo language=es")
    [board] = await h.slack.wait_for(
        "chat.postEphemeral", lambda c: "all time, in Spanish" in str(c.args.get("text"))
    )
    assert "Bob" in board.args["text"]
    await h.command("UANN", "leaderboard lingo lang=fr")
    await h.slack.wait_for(
        "chat.postEphemeral",
        lambda c: (
            "in French" in str(c.args.get("text")) and "No games finished yet" in str(c.args.get("text"))
        ),
    )
