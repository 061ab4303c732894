"""The app manifest asks for exactly what the adapter uses."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("slack_bolt")

from adapters.slack.settings import BOT_SCOPES

MANIFEST = Path(__file__).parents[3] / "adapters" / "slack" / "manifest.yml"


def listed_under(key: str) -> list[str]:
    """The ``- item`` lines right after ``key:`` (the manifest is plain YAML; no parser needed)."""
    lines = MANIFEST.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"{key}:")
    items = []
    for line in lines[start + 1 :]:
        if not line.strip().startswith("- "):
            break
        items.append(line.strip()[2:].strip())
    return items


def test_scopes_match_the_oauth_settings() -> None:
    assert sorted(listed_under("bot")) == sorted(BOT_SCOPES)


def test_events_and_command() -> None:
    events = set(listed_under("bot_events"))
    needed = {"message.channels", "message.groups", "message.im", "reaction_added", "app_home_opened"}
    assert needed | {"app_uninstalled", "tokens_revoked"} <= events
    # lost channels end their games (docs/SLACK.md, "Lost channels")
    lost = {
        "channel_deleted",
        "channel_archive",
        "channel_left",
        "group_deleted",
        "group_archive",
        "group_left",
    }
    assert lost | {"member_left_channel"} <= events
    text = MANIFEST.read_text(encoding="utf-8")
    assert "command: /moji" in text and "should_escape: true" in text
    assert "home_tab_enabled: true" in text and "is_enabled: true" in text
