"""The lexicon a board game judges words by, in the game's language."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.lexicon import Lexicon


def lexicon(dictionary: str, language: str = "en") -> Lexicon:
    """The lexicon of ``dictionary`` in ``language``."""
    from games.lexicon import load

    return load(dictionary, language=language)
