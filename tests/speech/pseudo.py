"""The pseudo-language scan: what moji printed while speaking ``qps`` must hold no text that did
not come through the catalogue.

Speaking :data:`games.common.speech.PSEUDO`, every message comes out as ``⟦message⟧``. What is
left outside the marks is what people typed or played (names, words, letters, moves), numbers,
symbols and markup, or a bug: moji's own text that skipped the catalogue. :func:`unmarked` finds
the last kind: a run of two or more letters with a lower-case one among them (moji's sentences
are written in sentence case; the words and letters of a game are shown in capitals), outside
the marks and outside user-text spans, that is not one of the ``allowed`` words (a word with two
capitals or more is a played one whose blanks are in lower case: ``STONe``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from games.common.speech import CLOSE, OPEN
from games.common.text import CLOSE as USER_CLOSE
from games.common.text import OPEN as USER_OPEN

_WORD = re.compile(r"[^\W\d_]{2,}")
#: Markup and names that are no sentence: URL parts, emoji shortcodes, moji's own name.
ALWAYS_ALLOWED = frozenset({"moji", "MOJO", "http", "https", "localhost", "ms"})


def outside_marks(text: str) -> str:
    """``text`` with every ``⟦…⟧`` (nested too) and every user-text span blanked out."""
    out: list[str] = []
    depth = 0
    user = False
    for ch in text:
        if ch == OPEN:
            depth += 1
        elif ch == CLOSE:
            depth = max(0, depth - 1)
        elif ch == USER_OPEN:
            user = True
        elif ch == USER_CLOSE:
            user = False
        out.append(ch if depth == 0 and not user and ch not in (OPEN, CLOSE) else " ")
    return "".join(out)


def unmarked(text: str, allowed: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` that a player would read and that skipped the catalogue."""
    permitted = ALWAYS_ALLOWED | {word.lower() for word in allowed} | set(allowed)
    found = []
    for word in _WORD.findall(outside_marks(text)):
        if word in permitted or word.lower() in permitted or word.isupper():
            continue
        if sum(ch.isupper() for ch in word) >= 2:  # a played word with blanks: STONe, AXe
            continue
        found.append(word)
    return found


def without_links(text: str) -> str:
    """Addresses are no words (a Slack link's label is kept, a Slack date token's fallback too)."""
    text = re.sub(r"<(?:https?://|!date\^)[^|>]*\|", "<", text)
    return re.sub(r"https?://\S+", " ", text)


#: English words that are no word of Dutch, French, German or Spanish: moji speaking English.
ENGLISH = frozenset(
    [
        "the",
        "your",
        "you",
        "with",
        "and",
        "cards",
        "card",
        "turn",
        "wins",
        "takes",
        "left",
        "players",
        "tiles",
        "their",
        "this",
        "that",
        "are",
        "have",
        "for",
        "from",
        "what",
        "which",
        "who",
        "its",
        "been",
        "would",
        "should",
        "there",
    ]
)
_CODE = re.compile(r"`[^`]*`")
_PLACEHOLDER = re.compile(r"\{[A-Za-z_]+\}")
#: Options as typed (``cards=3``, ``language=de``): the words players type are English everywhere.
_OPTION = re.compile(r"\S+=\S*")


def played(word: str) -> bool:
    """Whether ``word`` is shown as a word played in a game, not a word of a sentence: in
    capitals, a joker's letter in lower case (shed's ``THe``), where a sentence's words are lower
    case or capitalised."""
    return any(ch.isupper() for ch in word[1:])


def english_words(texts: list[str], allowed: set[str]) -> list[str]:
    """The English words of ``texts`` (commands in backticks, addresses and ``allowed`` aside)."""
    found = []
    for text in texts:
        bare = _OPTION.sub(" ", _PLACEHOLDER.sub(" ", _CODE.sub(" ", without_links(text))))
        for word in re.findall(r"[^\W\d_]+", bare):
            if word.lower() in ENGLISH and word not in allowed and not played(word):
                found.append(word)
    return found
