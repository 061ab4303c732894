"""A game added in one folder plays on every platform, with its rules, help and start options.

Spell (``game.py``, ``RULES.md``) is registered by the one line of :func:`registry`, next to
every installed game, and played through the contract suite's harness of each front door
(tests/contract/harness.py: Discord, Slack, the terminal); nothing outside this folder names
it. Discord's ``/moji start`` offers its options from its own declaration (``start_form``),
alongside the real games', within Discord's 25.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.core import views
from bot.core.registry import Registry, load_default
from games.common.text import plain
from tests.contract.harness import PlatformHarness, game_session, open_platform
from tests.toy_game.game import RULES, SPELL

PLATFORMS = ("discord", "slack", "terminal")


def registry() -> Registry:
    """The one line that adds the toy game to a bot."""
    return Registry([*load_default(), SPELL])


def rules_lines() -> list[str]:
    """What ``rules spell`` says, as plain text."""
    return [plain(line) for line in views.rules(SPELL).lines]


def test_the_game_is_declared_in_its_folder() -> None:
    assert RULES.startswith("A length is shown.")
    assert registry().get("spelling") is SPELL
    assert SPELL.form_options()[1].name == "tally"


# ---------------------------------------------------------------- every platform


@pytest.fixture(params=PLATFORMS)
async def p(
    request: pytest.FixtureRequest, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[PlatformHarness]:
    """The contract suite's harness of each front door, with Spell installed by the one line."""
    async with open_platform(request.param, registry(), tmp_path, monkeypatch) as harness:
        yield harness


def _shown(texts: list[str]) -> str:
    return plain("\n".join(texts))


async def test_spell_plays_on_every_platform_with_its_rules_and_help(p: PlatformHarness) -> None:
    # (the terminal opens its game from the first command line: start comes first)
    await p.command("ann", "start spell tally=letters shortest=4 longest=4")
    await p.until(lambda: game_session(p) is not None)
    await p.command("ann", "rules spell")
    await p.until(lambda: "How to play Spell" in _shown(p.told("ann")))
    told = _shown(p.told("ann"))
    assert all(line in told for line in rules_lines() if line), "the rules as the game wrote them"
    assert "tally=words|letters" in told
    await p.command("ann", "help")
    await p.until(lambda: "spell (Spell)" in _shown(p.told("ann")))

    await p.command("ann", "go")
    await p.until(lambda: "Spell a word of 4 letters." in _shown(p.channel()))
    await p.say("ann", "word")
    await p.until(lambda: "game over" in _shown(p.channel()))
    over = _shown(p.channel()).split("game over", 1)[1]
    assert "— 4 pts" in over, "a point per letter, as the option says"
    assert not p.manager.errors


# ---------------------------------------------------------------- Discord's /moji start


def _start_options(sync: Any) -> dict[str, dict[str, Any]]:
    [group] = sync.json
    start = next(o for o in group["options"] if o["name"] == "start")
    return {o["name"]: o for o in start["options"]}


@pytest.mark.parametrize("p", ["discord"], indirect=True)
async def test_discords_start_command_offers_spells_options(p: PlatformHarness) -> None:
    [sync] = p.fake.of("PUT", r"^/applications/\d+/commands$")  # type: ignore[attr-defined]
    options = _start_options(sync)
    assert len(options) <= 25
    assert {"game", "more", "cards", "bots", "language"} <= set(options)  # the real games' too
    assert "spell" in [c["value"] for c in options["game"]["choices"]]
    target, tally = options["target"], options["tally"]
    assert (target["type"], target["min_value"], target["max_value"]) == (4, 1, 5)
    assert [c["value"] for c in tally["choices"]] == ["words", "letters"]
    assert target["description"] == "Points to win"

    await p.fake.slash(  # type: ignore[attr-defined]
        p.ids["ann"],
        "Ann",
        "start",
        {"game": "spell", "tally": "letters", "shortest": 4, "longest": 4},  # type: ignore[attr-defined]
    )
    await p.until(lambda: "tally=letters" in _shown(p.channel()))
