"""What people typed is shown as typed: a hostile display name or option quoted back adds no
link, mention, token, formatting, control sequence or direction override of its own — in the
channel and in what one person is told — on every platform."""

from __future__ import annotations

import html

import pytest

from tests.contract.harness import PEOPLE_CAP, PlatformHarness, game_session

#: Markup every platform knows, mentions of everyone and of someone, a control sequence and a
#: right-to-left override.
NAME = (
    "[Free Nitro](https://evil.example) @everyone <@100000000000000001> <#1> <@&1> <!channel> <@UANN> "
    "<https://evil.example|login> & *b* **b** _i_ ~s~ `c` > q ||x|| \x1b[31m\u202e"
)
#: A hostile option typed at ``start``: quoted back in the refusal.
TYPED = "[FreeNitro](https://evil.example)<https://evil.example|login>\x1b[31m\u202e=1"


def as_read(text: str) -> str:
    """A shown text as a person reads it: escapes (backslashes, entities, zero-width fences) gone."""
    return html.unescape(text.replace("\\", "")).replace("\u200b", "")


def live(p: PlatformHarness, texts: list[str]) -> list[tuple[str, list[str]]]:
    return [(t, found) for t in texts if (found := p.hostile_live(t))]


@pytest.mark.needs(PEOPLE_CAP)
async def test_a_hostile_display_name_is_shown_as_typed_in_the_lobby_the_table_and_replies(
    p: PlatformHarness,
) -> None:
    p.rename("eve", NAME)
    await p.command("eve", "start toy")
    await p.until(lambda: any("lobby" in t for t in p.channel()))
    [lobby] = [t for t in p.channel() if "lobby" in t][:1]
    assert "[Free Nitro](https://evil.example)" in as_read(lobby) and "<!channel>" in as_read(lobby)
    await p.command("ann", "join")
    await p.until(lambda: len(game_session(p).players) == 2)
    await p.command("ann", "go")  # only the host (Eve) starts: the refusal names her
    await p.until(lambda: any("Only the host" in t for t in p.told("ann")))
    await p.command("eve", "go")
    # the seat's name on the table…
    await p.until(lambda: any("Free Nitro" in t for t in p.channel() if "lobby" not in t))
    await p.drain()
    shown = p.channel()
    assert live(p, shown) == [], "…with nothing live in it"
    assert live(p, p.told("ann") + p.told("eve")) == []
    assert not p.manager.errors


async def test_a_hostile_option_quoted_back_is_shown_as_typed(p: PlatformHarness) -> None:
    await p.command("ann", f"start toy {TYPED}")
    await p.until(lambda: any("evil.example" in as_read(t) for t in p.told("ann") + p.channel()))
    shown = p.told("ann") + p.channel()
    assert any("[freenitro](https://evil.example)" in as_read(t).lower() for t in shown), "quoted as typed"
    assert live(p, shown) == []
    assert game_session(p) is None, "nothing started"
