"""Shared fixtures for the lexicon tests (the committed data file, loaded once)."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from games.lexicon import Lexicon, load

settings.register_profile("lexicon", max_examples=40, deadline=None)
settings.register_profile("lexicon-long", max_examples=400, deadline=None)
settings.load_profile("lexicon-long" if os.environ.get("MOJI_FUZZ") == "long" else "lexicon")


@pytest.fixture(scope="session")
def lex() -> Lexicon:
    return load("casual")


@pytest.fixture(scope="session")
def tlex() -> Lexicon:
    return load("tournament")
