"""A member with a hostile display name, through discord.py and the fake Discord server:
what the channel receives shows the name as typed, with no link, mention or markdown of its own."""

from __future__ import annotations

from typing import Any

from tests.adapters.discord.conftest import ANN, CHAT, Harness, is_lobby, is_table
from tests.adapters.liveness import discord_live

MESSAGES = r"^/channels/\d+/messages$"
NITRO = "[Free Nitro](https://evil.example)"
EVIL = (
    "100000000000000007",
    f"{NITRO} @everyone <@100000000000000001> <#1> <@&1> ||x|| **b** \x1b[31m\u202e",
)


def _shown(body: Any) -> list[str]:
    """Every text a reader sees in a message: content, embed titles and descriptions."""
    body = body.get("data", body) if isinstance(body, dict) else {}
    texts = [str(body.get("content") or "")]
    for embed in body.get("embeds") or []:
        texts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
    return texts


def _live_from_the_name(texts: list[str]) -> set[str]:
    """Live constructs a hostile name could add (moji's own lobby and table have none of these)."""
    kinds = {kind for text in texts for kind in discord_live(text)}
    named = ("masked-link", "url", "everyone", "fmt:||")
    return {k for k in kinds if k in named or k.startswith("token:<@1")}


async def test_a_hostile_display_name_is_shown_as_typed_in_the_lobby_and_the_table(h: Harness) -> None:
    await h.fake.slash(*EVIL, "start", {"game": "toy"})
    [lobby] = await h.fake.wait_for("POST", MESSAGES, is_lobby)
    texts = _shown(lobby.json)
    description = texts[2]
    assert "\\[Free Nitro\\]\\(https\\:\\/\\/evil\\.example\\)" in description  # the name, as typed
    assert "\x1b" not in description and "\u202e" not in description
    assert not _live_from_the_name(texts), texts
    assert lobby.json["allowed_mentions"]["parse"] == ["users"]  # (and never @everyone)

    await h.fake.slash(*ANN, "join")
    await h.fake.until(lambda: len(h.manager.sessions[CHAT].players) == 2)
    await h.fake.slash(*EVIL, "go")
    [table] = await h.fake.wait_for("POST", MESSAGES, is_table)
    texts = _shown(table.json)
    assert any("Free Nitro" in text for text in texts)  # the seat's name…
    assert not _live_from_the_name(texts), texts  # …with nothing live in it


async def test_a_hostile_name_in_a_refusal_and_an_ephemeral_reply(h: Harness) -> None:
    typed = "[FreeNitro](https://evil.example)"
    iid = await h.fake.slash(*EVIL, "start", {"game": "toy", "more": typed})  # quoted back
    [quoted] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    texts = _shown(quoted.json)
    assert "evil\\.example" in " ".join(texts) and not _live_from_the_name(texts), texts
    await h.fake.slash(*ANN, "start", {"game": "toy"})
    await h.fake.wait_for("POST", MESSAGES, is_lobby)
    iid = await h.fake.slash(*EVIL, "join")
    [joined] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert joined.ephemeral and "joined" in joined.text
    texts = _shown(joined.json)
    assert not _live_from_the_name(texts), texts
    iid = await h.fake.slash(*EVIL, "go")  # only the host (Ann) starts: named in the refusal
    [refused] = await h.fake.wait_for("POST", rf"/webhooks/\d+/token-{iid}$")
    assert "Only the host" in refused.text
