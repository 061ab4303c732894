"""The vertical slice: connect, /moji start → lobby, go, an answer gets ✅."""

from __future__ import annotations

from urllib.parse import unquote

from tests.adapters.discord.conftest import ANN, CHAT, Harness, is_lobby, is_table


async def test_connects_and_syncs_commands(h: Harness) -> None:
    assert h.fake.identifies, "the bot never identified"
    intents = h.fake.identifies[0]["intents"]
    assert intents & (1 << 15), "message content intent"
    [sync] = h.fake.of("PUT", r"^/applications/\d+/commands$")
    [group] = sync.json
    assert group["name"] == "moji"
    names = {o["name"] for o in group["options"]}
    assert {
        "start",
        "join",
        "leave",
        "go",
        "stop",
        "rules",
        "leaderboard",
        "stats",
        "config",
        "words",
    } <= names
    assert {"hand", "play", "why", "help"} <= names


async def test_start_lobby_go_and_a_word_is_accepted(h: Harness) -> None:
    await h.fake.slash(*ANN, "start", {"game": "toy"})
    [lobby] = await h.fake.wait_for("POST", r"^/channels/\d+/messages$", is_lobby)
    buttons = [c["custom_id"] for row in lobby.json["components"] for c in row["components"]]
    assert buttons == ["moji:join", "moji:leave", "moji:go"]
    await h.fake.slash(*ANN, "go")
    [table] = await h.fake.wait_for("POST", r"^/channels/\d+/messages$", is_table)
    assert table.files and table.files[0].startswith(b"\x89PNG")
    session = h.manager.sessions[CHAT]
    letter = session.engine.letter
    mid = await h.fake.say(*ANN, letter + "zz")
    await h.fake.until(lambda: bool(session.settle.pending))
    await h.advance(0.2)
    [mark] = await h.fake.wait_for("PUT", rf"/messages/{mid}/reactions/.+/@me$")
    assert unquote(mark.path.split("/reactions/")[1].split("/")[0]) == "✅"
