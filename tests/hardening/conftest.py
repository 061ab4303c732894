"""The Discord harness the hardening tests share: the same fixtures as tests/adapters/discord.

``registry`` (the toy game), ``services`` (a real SQLite store) and ``h`` (the real
discord.py client against the fake Discord) come from the Discord adapter's tests; a
module overrides ``registry`` to play another game.
"""

from __future__ import annotations

import pytest

from tests.adapters.discord.conftest import Harness, h, registry, services

__all__ = ["discord_bot", "h", "registry", "services"]


@pytest.fixture
def discord_bot(h: Harness) -> Harness:
    """The running bot on the fake Discord (``h`` under the name these tests read better with)."""
    return h
