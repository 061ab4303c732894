"""One command set everywhere: every command of the shared grammar exists on every platform."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from bot.core.commands import COMMANDS, split
from bot.core.registry import Registry
from tests.bot.toygame import TOY

NAMES = [spec.name for spec in COMMANDS]


async def _noop(*_: Any) -> None:
    return None


@pytest.mark.parametrize("name", NAMES)
def test_discord_has_every_command(name: str) -> None:
    from adapters.discord.commands import build_group

    bot: Any = SimpleNamespace(registry=Registry([TOY]), run_command=_noop, open_list_modal=_noop)
    group = build_group(bot)
    # a top-level subcommand, or one of a group (`/moji privacy forget-me`: Discord's 25 subcommands)
    names = {command.name for command in group.commands}
    names |= {c.name for command in group.commands for c in getattr(command, "commands", ())}
    assert name in names, f"/moji {name} is missing on Discord"


@pytest.mark.parametrize("name", NAMES)
def test_slack_and_the_terminal_parse_every_command(name: str) -> None:
    pytest.importorskip("slack_bolt")
    from adapters.slack.commands import help_view, parse_slash

    assert parse_slash(name)[0] == name  # /moji NAME on Slack
    assert split("/" + name)[0] == name  # /NAME in the terminal
    assert f"/moji {name}" in help_view(Registry([TOY])).plain()
