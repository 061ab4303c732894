"""The one verdict on a word in MOJO: the lexicon of the game's language under the board's rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from games.common.languages import language as language_named
from games.common.words import GameWords, Judge, WordRules

if TYPE_CHECKING:
    from games.lexicon import Lexicon

#: Ban codes a board word may not fall under (plain dictionary words only).
BOARD_BANS = frozenset({"proper", "abbrev", "contraction"})


def lexicon(dictionary: str, language: str = "en") -> Lexicon:
    """The lexicon of ``dictionary`` in ``language``."""
    from games.lexicon import load

    return load(dictionary, language=language)


def game_words(
    dictionary: str,
    language: str = "en",
    judge: Judge | None = None,
    added: frozenset[str] = frozenset(),
    banned: frozenset[str] = frozenset(),
) -> GameWords:
    """The verdict of a MOJO game judged by ``dictionary`` in ``language`` (the lexicon, or
    ``judge``), with a workspace's own ``added`` and ``banned`` words.

    Every word a move forms (its main word and its cross-words) is judged by it, and the computer
    players' trie (so their moves and the "best move you missed") is built from it.
    """
    rules = WordRules(dictionary=dictionary, bans=BOARD_BANS, added=added, banned=banned)
    found = judge if judge is not None else lexicon(dictionary, language)
    return GameWords(found, rules, language_named(language))
