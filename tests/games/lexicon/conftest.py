"""Shared fixtures for the lexicon tests (the committed data file, loaded once)."""

from __future__ import annotations

import pytest

from games.lexicon import Lexicon, load


@pytest.fixture(scope="session")
def lex() -> Lexicon:
    return load("casual")


@pytest.fixture(scope="session")
def tlex() -> Lexicon:
    return load("tournament")
