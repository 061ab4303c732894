"""Moji's message text: plain strings in which what people typed is marked as *user text*.

Every text a game or the bot builds for people to read (a view's title, lines, seat names and
details, a refusal's reason) is a ``str``. Wherever it carries something a person supplied — a
display name, a word or move they typed, an option value, a quoted excerpt — that part is wrapped
by :func:`user` between two Unicode noncharacters (U+FDD0 … U+FDD1). The markers travel through
every f-string, ``join``, ``upper`` and ``listing`` untouched, so a sentence is built as before
(``_("{name} plays {word}", name=name, word=word)``) and its user parts stay known. Each platform's renderer
reads the text with :func:`spans` and escapes the user parts for its own markup (Discord markdown
and mentions, Slack mrkdwn and its ``<…>`` tokens, the terminal's control sequences); moji's own
text keeps its markup (a `command` in backticks, a mention moji wrote on purpose). No renderer
lets a marker through: :func:`plain` drops them for anything shown as plain text.

Why in-band markers rather than a ``UserText`` type: a type is lost the moment a name goes into
an f-string, so every sentence of every game would have to be rebuilt from typed pieces; a marked
``str`` keeps the games' text building unchanged and pure (this module is stdlib only, and lives
in ``games/common`` because the games' own refusals quote input through
:func:`games.common.grammar.excerpt`). Noncharacters are Unicode's code points for a program's
internal use, never meant to be interchanged; :func:`user` strips any that arrive in user text,
so a person cannot open or close a span of their own.
"""

from __future__ import annotations

import re
import unicodedata

#: Opens and closes a span of user text (Unicode noncharacters: internal use only).
OPEN, CLOSE = "\ufdd0", "\ufdd1"
_MARKERS = str.maketrans("", "", OPEN + CLOSE)
_MARK = re.compile(f"([{OPEN}{CLOSE}])")

#: Bidirectional embeddings, overrides and isolates (and their pops): in a name they would reorder
#: the rest of moji's sentence ("‮won by" shown backwards), so user text never carries them.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
#: Control characters and line or paragraph separators: shown as a space in user text.
_BREAKS = frozenset({"Cc", "Zl", "Zp"})


def user(text: str) -> str:
    """``text`` marked as typed by a person (a name, a word, a quoted excerpt): every renderer
    escapes it for its markup. It is made one line first (:func:`tidy`), so a message split into
    lines never cuts a user span in two; markers already inside it are dropped (idempotent)."""
    return f"{OPEN}{tidy(text)}{CLOSE}"


def plain(text: str) -> str:
    """``text`` without its markers: what it says, for plain-text uses (comparisons, a picture,
    a screen reader's line). User parts are not escaped: only a renderer knows its markup."""
    return text.translate(_MARKERS)


def spans(text: str) -> list[tuple[str, bool]]:
    """``text`` cut into ``(part, is_user)`` pieces, markers removed, empty pieces left out.

    A close marker without an open one is ignored; an open marker without a close one runs
    to the end of the text (so a cut text still escapes the rest of its user part).
    """
    if OPEN not in text and CLOSE not in text:  # (most of moji's text: nobody's name in it)
        return [(text, False)] if text else []
    out: list[tuple[str, bool]] = []
    inside = False
    for token in _MARK.split(text):
        if token in (OPEN, CLOSE):
            inside = token == OPEN
        elif token:
            out.append((token, inside))
    return out


def tidy(text: str) -> str:
    """User text made safe to show on one line anywhere: control characters (newlines, tabs,
    ``ESC``…) become spaces and bidirectional overrides and isolates are removed. Zero-width and
    other format characters stay (a ZWJ joins an emoji; they are not markup)."""
    if text.isprintable():  # (no control, format or unassigned character: nothing to do)
        return text
    return "".join(
        " " if unicodedata.category(ch) in _BREAKS else ch for ch in text if ch not in BIDI_CONTROLS
    ).translate(_MARKERS)


__all__ = ["BIDI_CONTROLS", "CLOSE", "OPEN", "plain", "spans", "tidy", "user"]
