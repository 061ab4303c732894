"""What is meant for one person reaches only them: hidden hands and racks, a hand asked for,
a definition, what moji keeps. Nothing of it is ever shown in the channel."""

from __future__ import annotations

import pytest

from bot.core.registry import Registry
from tests.bot.toygame import TOY
from tests.contract.harness import PEOPLE_CAP, PlatformHarness, game_session
from tests.contract.secret import SECRET, SECRET_GAME


@pytest.fixture
def registry() -> Registry:
    return Registry([TOY, SECRET_GAME])


def secrets_told(p: PlatformHarness, who: str) -> int:
    return len([t for t in p.told(who) if SECRET in t])


async def test_hidden_hands_only_ever_go_to_their_owner(p: PlatformHarness) -> None:
    players = ("ann",) if PEOPLE_CAP in p.lacks else ("ann", "bob")
    await p.command("ann", "start secret")
    await p.until(lambda: game_session(p) is not None)
    for who in players[1:]:
        await p.command(who, "join")
    await p.until(lambda: len(game_session(p).players) == len(players))
    await p.command("ann", "go")
    await p.until(lambda: all(secrets_told(p, who) >= 1 for who in players))  # the game's private notices
    await p.command(players[-1], "hand")  # asked for: an answer only they see
    await p.until(lambda: any(f"Your hand: {SECRET}" in t for t in p.told(players[-1])))
    letter = game_session(p).engine.letter
    answer = await p.say("ann", letter + "ab")  # the game goes on in the channel
    await p.until(lambda: p.marks(answer))
    await p.drain()
    shown = p.channel()
    assert shown, "the lobby and the table are in the channel"
    assert not [t for t in shown if SECRET in t]
    if PEOPLE_CAP not in p.lacks:
        assert not [t for t in p.told("ann") if f"{SECRET}-Bob" in t], "nor is one player's hand told another"
    assert not p.manager.errors


async def test_define_and_privacy_answer_only_the_asker(p: PlatformHarness) -> None:
    asks = [
        ("define zebra", ("ZEBRA", "any of several fleet black-and-white striped African equines")),
        ("define Zucker language=de", ("ZUCKER (German)", "sugar")),
        ("define maison language=fr", ("MAISON", "house")),
        ("define big cat", ("one word at a time",)),
        ("define c4t", ("look up", "letters only")),
        ("privacy", ("What moji keeps", "docs/PRIVACY.md", "30 days")),
    ]
    for command, words in asks:
        await p.command("ann", command)
        await p.until(lambda words=words: any(all(w in t for w in words) for t in p.told("ann")))  # type: ignore[misc]
    await p.drain()
    said = [w for _, words in asks for w in words]
    assert not [t for t in p.channel() if any(w in t for w in said)], "nothing of it in the channel"
    if PEOPLE_CAP not in p.lacks:  # (on the terminal, you are always at a table)
        assert p.channel() == [] and p.told("bob") == []
