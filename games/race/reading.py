"""What a race takes from a player's typing: answers (and, in Eagle Eyes, private word lists).

The session gives a race only what reads as an answer here, and the game's log keeps only
that: everything else typed in the channel while a race runs is chatter, never judged nor
stored. The engines apply the same reading (``Referee.normalize``, :func:`contraction`).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping

from games.common.options import OptionValue
from games.common.protocol import Reading
from games.common.speech import _
from games.common.words import MULTIWORD_THEMES
from games.race.options import RaceConfig

#: The most words in one answer of a theme whose answers may be several words (STAR WARS,
#: SCRAMBLED EGGS): a longer sentence is chatter, even of letters only.
MAX_ANSWER_WORDS = 6
#: Words that hand in an Eagle Eyes list (the whole message).
DONE_WORDS = frozenset({"done", "finished", "skip"})
#: The most items of one Eagle Eyes list message that are read.
MAX_LIST_ITEMS = 200

_CONTRACTION = re.compile(r"^\s*([^\W\d_]+(?:['’][^\W\d_]+)+)\s*[.!?]*\s*$")


def contraction(text: str) -> str | None:
    """``DON'T``: letters with an apostrophe inside, which is no plain answer but deserves a reason."""
    match = _CONTRACTION.match(text)
    return match.group(1) if match else None


class RaceReader:
    """The answers of one race (its options and seed: a challenge of the round can draw a theme)."""

    def __init__(self, cfg: RaceConfig) -> None:
        self.language = cfg.lang
        self.multiword = bool(cfg.themes & MULTIWORD_THEMES)
        variations = cfg.variations
        #: Eagle Eyes takes private lists (Off the Grid, when both are chosen, wins: see ``create``).
        self.lists = "eagle-eyes" in variations and "off-the-grid" not in variations

    @classmethod
    def of(cls, options: Mapping[str, OptionValue], seed: int) -> RaceReader:
        """The reader of a race with ``options`` and ``seed``."""
        return cls(RaceConfig.for_game(options, random.Random(seed)))

    def is_answer(self, text: str) -> bool:
        """True when ``text`` is written like an answer: a word of the language's letters (a few
        words for a multi-word theme), or a contraction (refused with a reason)."""
        folded = self.language.fold(text, multiword=self.multiword)
        if folded is not None:
            return folded.count(" ") < MAX_ANSWER_WORDS
        return contraction(text) is not None

    def read(self, text: str, *, private: bool = False) -> Reading:
        """An answer typed in the channel, or (``private``) an Eagle Eyes list."""
        if private:
            return self._list(text)
        if self.is_answer(text):
            return Reading(text)
        if self.multiword:
            return Reading(
                None,
                _(
                    "That's not an answer: an answer is one word of letters, "
                    "or up to {count} words for this theme.",
                    count=MAX_ANSWER_WORDS,
                ),
            )
        return Reading(None, _("That's not an answer: an answer is one word of letters."))

    def _list(self, text: str) -> Reading:
        if not self.lists:
            return Reading(None, _("This game takes no private word lists: type your words in the channel."))
        if text.strip().lower() in DONE_WORDS:
            return Reading(text.strip())
        splitter = r"[\n,;]+" if self.multiword else r"[\s,;]+"
        items = [item.strip() for item in re.split(splitter, text)]
        words = [w for w in items if w and self.language.fold(w, multiword=self.multiword) is not None]
        if not words:
            return Reading(None, _("That list has no words: send words of letters, like `cat act tact`."))
        return Reading(("\n" if self.multiword else " ").join(words[:MAX_LIST_ITEMS]))


def reads(options: Mapping[str, OptionValue], seed: int) -> RaceReader:
    """:attr:`GameInfo.reads` of the race."""
    return RaceReader.of(options, seed)
