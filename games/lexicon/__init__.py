"""The moji lexicon: a fast, fair, explainable word judge.

>>> from games.lexicon import load
>>> from games.common.words import WordRules
>>> lex = load("casual")
>>> lex.judge("walked", WordRules(bans=frozenset({"ed"}))).message
'WALKED is past tense ending in -ed (from WALK), banned in this game.'

Everything comes from one committed data file built by ``python -m games.lexicon.build``
(see docs/LEXICON.md); at run time only the standard library is used.
"""

from __future__ import annotations

from games.lexicon.core import DICTIONARIES, Lexicon, judge, load

__all__ = ["DICTIONARIES", "Lexicon", "judge", "load"]
