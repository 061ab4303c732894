"""A member with a hostile display name, through discord.py and the fake Discord server: the name
is escaped as Discord markdown, and a message may only ever mention users (never @everyone).

That the name and typed input are inert in every message, on every platform, is the contract
suite's (tests/contract/test_escaping.py)."""

from __future__ import annotations

from typing import Any

from tests.adapters.discord.conftest import Harness, is_lobby
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


async def test_a_hostile_display_name_is_escaped_as_markdown_and_only_users_may_be_mentioned(
    h: Harness,
) -> None:
    # (that it is inert everywhere, on every platform, is in tests/contract/test_escaping.py)
    await h.fake.slash(*EVIL, "start", {"game": "toy"})
    [lobby] = await h.fake.wait_for("POST", MESSAGES, is_lobby)
    texts = _shown(lobby.json)
    description = texts[2]
    assert "\\[Free Nitro\\]\\(https\\:\\/\\/evil\\.example\\)" in description  # the name, as typed
    assert "\x1b" not in description and "\u202e" not in description
    assert not _live_from_the_name(texts), texts
    assert lobby.json["allowed_mentions"]["parse"] == ["users"]  # (and never @everyone)
