"""A game's own command, declared in its folder only, is a command on every front door.

Spell (tests/toy_game) declares ``shout WORD`` (:data:`tests.toy_game.game.SHOUT`), a move read as
typed text; nothing outside its folder names it. On Discord it is a real ``/moji shout``
subcommand with a text option (synced from the declaration, through the fake Discord) — or,
when the games' verbs outnumber /moji's 25 subcommands, ``/moji game verb:shout`` — on Slack
``/moji shout tree``, in the terminal ``/shout tree``; the help lists it under the game, and a
verb another game declares (the race's ``skip``) is explained, not played, in Spell.
"""

from __future__ import annotations

from typing import Any

import pytest

from bot.core.registry import Registry, load_default
from games.common.text import plain
from tests.contract.harness import PlatformHarness, game_session
from tests.toy_game.game import SPELL

#: Subcommands a command group may have on Discord.
DISCORD_MOST = 25


@pytest.fixture
def registry() -> Registry:
    """Every installed game, and Spell by its one line."""
    return Registry([*load_default(), SPELL])


def _told(p: PlatformHarness, who: str) -> str:
    return plain("\n".join(p.told(who)))


def _shown(p: PlatformHarness) -> str:
    return plain("\n".join(p.channel()))


async def test_a_games_own_verb_is_played_on_every_platform(p: PlatformHarness) -> None:
    # (the terminal opens its game from the first command line: start comes first)
    await p.command("ann", "start spell shortest=4 longest=4 target=4")
    await p.until(lambda: game_session(p) is not None)
    await p.command("ann", "help")
    await p.until(lambda: "In Spell (spell):" in _told(p, "ann"))
    assert "shout WORD" in _told(p, "ann") and "scores twice" in _told(p, "ann")
    await p.command("ann", "go")
    await p.until(lambda: "Spell a word of 4 letters." in _shown(p))

    # another game's verb: what it is there, and what to do here (privately)
    await p.command("ann", "skip")
    await p.until(lambda: "Spell has no skip vote" in _told(p, "ann"))
    assert "Type your words in the channel" in _told(p, "ann")
    assert not [t for t in p.channel() if "no skip vote" in t]

    # the verb as a command: a move the game reads
    await p.command("ann", "shout tree")
    await p.until(lambda: "TREE spells 4! Shouted: twice the points." in _shown(p))
    # … and the same move typed in the chat (by its alias)
    await p.say("ann", "yell bird")
    await p.until(lambda: "game over" in _shown(p))
    assert "BIRD spells 4! Shouted" in _shown(p)
    assert "— 4 pts" in _shown(p).split("game over", 1)[1], "two shouted words: two points each"
    assert not p.manager.errors


def _group(p: PlatformHarness) -> dict[str, Any]:
    [*_, sync] = p.fake.of("PUT", r"^/applications/\d+/(guilds/\d+/)?commands$")  # type: ignore[attr-defined]
    [group] = sync.json
    return dict(group)


@pytest.mark.parametrize("platform", ["discord"], indirect=True)
async def test_discord_has_a_subcommand_for_every_declared_verb_within_its_limit(p: PlatformHarness) -> None:
    await p.until(lambda: bool(p.fake.of("PUT", r"^/applications/\d+/(guilds/\d+/)?commands$")))  # type: ignore[attr-defined]
    subcommands = {c["name"]: c for c in _group(p)["options"]}
    assert len(subcommands) <= DISCORD_MOST
    # (the shipped games fill /moji's 25 subcommands: Spell's verb, and the last shipped one,
    # go through /moji game, chosen by name)
    more = subcommands.get("game", {"options": [{"choices": []}]})
    chosen = {c["value"] for c in more["options"][0]["choices"]}
    assert {"shout", "skip", "vote", "list"} <= set(subcommands) | chosen
    if "shout" in subcommands:
        [word] = subcommands["shout"]["options"]
        assert (word["name"], word["type"], word["required"]) == ("word", 3, True)
        assert subcommands["shout"]["description"] == "Shout a word: if it fits, it scores twice"
    [choice] = subcommands["vote"]["options"]
    assert [c["value"] for c in choice["choices"]] == ["yes", "no"]
    if "list" in subcommands:
        assert not subcommands["list"].get("options"), "private words: a form, not an option"
    [who] = subcommands["skip"]["options"]  # shed's `skip NAME`; the race's skip takes none
    assert (who["name"], who.get("required", False)) == ("who", False)
