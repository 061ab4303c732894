"""The lexicon a board game judges words by, in the game's language."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from games.lexicon import Lexicon


def lexicon(dictionary: str, language: str = "en") -> Lexicon:
    """The lexicon of ``dictionary`` in ``language`` (English keeps the call it always made)."""
    from games.lexicon import load

    if language == "en":
        return load(dictionary)
    # every language's lexicon comes from the same loader (issue 22's lexicon branch)
    loader: Callable[..., Lexicon] = load
    return loader(dictionary, language=language)
