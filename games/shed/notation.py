"""The move notation: one line is one whole turn, moves separated by ``;``.

==============================  ==================================================
typed                           means
==============================  ==================================================
``WHO`` or ``play WHO``         a new word from your hand (several words: ``WHO CAT``)
``SOCK+H -> SHOCK``             add H from your hand to the table word SOCK
``SOCK -> SHOCK``               the same: the letters your hand adds are worked out
``SHOCK-H+WO -> WHO SOCK``      take H from SHOCK, add W and O: WHO and SOCK
``CAT SHOCK -> CHAT SOCK``      move letters between table words
``#3+S -> CATS``                a table word by its number
``WH*O``                        ``*`` before a letter: that letter is a joker
``trade Q`` / ``trade Q Bob``   Deck Trade / Trade action cards (``*`` trades a joker)
``skip Bob`` / ``swap Bob``     Skip / Swap Hands action cards
``+2 Bob`` / ``+2 all``         Draw Two / All Draw Two action cards
``draw``                        draw a card and end your turn (also ``pass``)
==============================  ==================================================

:func:`parse` turns a line into :data:`Op` values or raises :class:`NotationError`
with a reason; :func:`unparse` writes ops back (``parse(unparse(ops)) == ops``).
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from functools import cache

from games.common.grammar import excerpt
from games.common.languages import ENGLISH, MAX_MARKS, Language
from games.common.speech import _
from games.common.text import user

MAX_LINE = 400
MAX_OPS = 12
MAX_WORD = 20

ARROWS = ("->", "=>", "→", "=")


@dataclass(frozen=True, slots=True)
class _Patterns:
    """The notation's patterns over one language's letters (German adds ä ö ü, Spanish ñ)."""

    language: Language
    term: re.Pattern[str]  # a table word, its number, or +/- letters
    word: re.Pattern[str]  # letters, each may have * before it
    marked: re.Pattern[str]  # letters and stars in any order
    one: re.Pattern[str]  # one letter or *


@cache
def _patterns(language: Language) -> _Patterns:
    letter = "[" + re.escape(language.alphabet) + "]"
    starred = "[*" + re.escape(language.alphabet) + "]"
    return _Patterns(
        language,
        re.compile(rf"\s*([+-]?)\s*(#?\d+|{starred}+)\s*"),
        re.compile(rf"(\*?{letter})+"),
        re.compile(rf"{starred}+"),
        re.compile(starred),
    )


class NotationError(ValueError):
    """A friendly reason why a line could not be read."""


@dataclass(frozen=True, slots=True)
class Source:
    """A table word named in a move: by its letters (``word``) or its number (``index``)."""

    word: str = ""
    index: int | None = None
    take: str = ""  # letters the move takes from it (``-H``); "" when not said


@dataclass(frozen=True, slots=True)
class Form:
    """Make words: from the hand alone (no ``sources``) or with table words.

    ``plus`` is the hand letters given after ``+`` (``*`` a joker), or None
    when the engine should work them out. ``words`` are the resulting words,
    lower-case, with ``*`` before a letter a joker plays.
    """

    words: tuple[str, ...]
    sources: tuple[Source, ...] = ()
    plus: str | None = None


@dataclass(frozen=True, slots=True)
class Act:
    """Play an action card (a key of ``games.shed.cards.ACTIONS``)."""

    card: str
    target: str = ""  # an opponent as typed ("bob", "2"), "all", or "" (the only opponent)
    give: str = ""  # the letter traded away ("*": a joker)


@dataclass(frozen=True, slots=True)
class Draw:
    """Draw a card and end the turn."""


Op = Form | Act | Draw


def letters(word: str) -> str:
    """A notation word without its joker marks: ``wh*o`` -> ``who``."""
    return word.replace("*", "")


def _fold(text: str, language: Language = ENGLISH) -> str:
    """Case and accents fold to ``language``'s letters (as answers do everywhere: German keeps
    ä ö ü, Spanish ñ, ß is ss); a pile of accent marks is no move."""
    out: list[str] = []
    marks = 0
    for composed in unicodedata.normalize("NFC", text):
        if composed.isalpha():
            folded = language.fold(composed)
            if folded is not None:
                out.append(folded)
                marks = sum(1 for ch in unicodedata.normalize("NFD", composed) if unicodedata.combining(ch))
                continue
        for ch in unicodedata.normalize("NFKD", composed):
            if unicodedata.combining(ch):
                marks += 1
                if marks > MAX_MARKS:
                    raise NotationError(
                        _("That has a pile of accent marks on one letter: type plain letters.")
                    )
                continue
            marks = 0
            out.append(ch.lower())
    return "".join(out)


def _word(token: str, pat: _Patterns, table: bool = False) -> str:
    if not pat.word.fullmatch(token):
        shown = user(token.upper())
        if "*" in token and pat.marked.fullmatch(token):
            raise NotationError(
                _("In {word}, put * just before the letter a joker plays, like WH*O.", word=shown)
            )
        if table:
            raise NotationError(
                _("{word} is not a table word: use letters only (and * before a joker's letter).", word=shown)
            )
        raise NotationError(
            _("{word} is not a word: use letters only (and * before a joker's letter).", word=shown)
        )
    if len(letters(token)) > MAX_WORD:
        raise NotationError(_("{word}… is too long for a word.", word=user(token.upper()[:MAX_WORD])))
    return token


def parse(text: str, language: Language = ENGLISH) -> tuple[Op, ...]:
    """Read one turn in ``language``'s letters; raises :class:`NotationError` with a reason."""
    pat = _patterns(language)
    line = _fold(text, language).strip()
    if not line:
        raise NotationError(_("Say what to play, like `WHO`, `SOCK+H -> SHOCK` or `draw`."))
    if len(line) > MAX_LINE:
        raise NotationError(_("That move is too long."))
    parts = [p.strip() for p in line.replace("\n", ";").split(";")]
    parts = [p for p in parts if p]
    if not parts:
        raise NotationError(_("Say what to play, like `WHO`, `SOCK+H -> SHOCK` or `draw`."))
    if len(parts) > MAX_OPS:
        raise NotationError(_("At most {count} moves in one turn.", count=MAX_OPS))
    ops = tuple(_op(part, pat) for part in parts)
    if any(isinstance(op, Draw) for op in ops) and len(ops) > 1:
        raise NotationError("`draw` is a whole turn on its own: draw only when you play nothing else.")
    return ops


def _op(part: str, pat: _Patterns) -> Op:
    words = part.split()
    head = words[0]
    if head in {"draw", "pass"} and len(words) == 1:
        return Draw()
    if _has_arrow(part):
        return _form(part, pat)
    if head == "play" and len(words) > 1:
        return Form(tuple(_word(w, pat) for w in words[1:]))
    if head in {"trade", "skip", "swap", "+2", "draw2", "draw-two"} or part.startswith("+2"):
        return _action(part, pat)
    return Form(tuple(_word(w, pat) for w in words))


def _has_arrow(part: str) -> bool:
    return any(arrow in part for arrow in ARROWS)


def _action(part: str, pat: _Patterns) -> Act:
    if part.startswith("+2"):
        head, rest = "+2", part[2:].strip()
    else:
        head, _sep, rest = part.partition(" ")
        rest = rest.strip()
    if head == "trade":
        give, _sep, target = rest.partition(" ")
        if not pat.one.fullmatch(give):
            raise NotationError(_("Say which card to trade away, like `trade Q` or `trade Q Bob`."))
        target = target.strip()
        return Act("trade" if target else "deck-trade", target, give)
    # no target: the engine takes the only opponent, or asks which one
    if head == "skip":
        return Act("skip", rest)
    if head == "swap":
        return Act("swap-hands", rest)
    if rest in {"all", "everyone", "everybody"}:
        return Act("all-draw-two", "all")
    return Act("draw-two", rest)


def _form(part: str, pat: _Patterns) -> Form:
    for arrow in ARROWS:
        if arrow in part:
            left, right = part.split(arrow, 1)
            break
    if any(arrow in right for arrow in ARROWS):
        raise NotationError(_("Use one arrow per move; separate moves with `;`."))
    results = tuple(_word(w, pat) for w in right.split())
    if not results:
        raise NotationError(_("Say the words after the arrow, like `SOCK+H -> SHOCK`."))
    sources: list[Source] = []
    plus: str | None = None
    pos = 0
    left = left.strip()
    if not left:
        raise NotationError(_("Name the table word before the arrow, like `SOCK+H -> SHOCK`."))
    while pos < len(left):
        match = pat.term.match(left, pos)
        if match is None or match.end() == pos:
            bad = left[pos:].split()[0]
            raise NotationError(
                _("I can't read {text}: table words are letters or #numbers, like `#2+S`.", text=excerpt(bad))
            )
        pos = match.end()
        sign, body = match.groups()
        if sign == "+":
            if not pat.marked.fullmatch(body):
                raise NotationError(
                    _("After + come letters from your hand (* for a joker), not {text}.", text=excerpt(body))
                )
            plus = (plus or "") + body
        elif sign == "-":
            if not sources:
                raise NotationError(_("Say which table word the letters after - come from, like `SHOCK-H`."))
            if not pat.marked.fullmatch(body):
                raise NotationError(_("After - come the letters you take, not {text}.", text=excerpt(body)))
            last = sources[-1]
            sources[-1] = Source(last.word, last.index, last.take + body)
        elif body.lstrip("#").isdigit():
            sources.append(Source(index=int(body.lstrip("#"))))
        else:
            sources.append(Source(_word(body, pat, table=True).replace("*", "")))
    if not sources:
        raise NotationError(_("Name the table word before the arrow, like `SOCK+H -> SHOCK`."))
    if len(sources) > 6:
        raise NotationError(_("At most {count} table words in one move.", count=6))
    return Form(results, tuple(sources), plus)


def unparse(ops: tuple[Op, ...]) -> str:
    """Write ops back in the notation (the inverse of :func:`parse`)."""
    return "; ".join(_unparse_op(op) for op in ops)


def _unparse_op(op: Op) -> str:
    return _unparse_raw(op).strip()


def _unparse_raw(op: Op) -> str:
    if isinstance(op, Draw):
        return "draw"
    if isinstance(op, Act):
        if op.card == "deck-trade":
            return f"trade {op.give.upper()}"
        if op.card == "trade":
            return f"trade {op.give.upper()} {op.target}"
        if op.card == "skip":
            return f"skip {op.target}"
        if op.card == "swap-hands":
            return f"swap {op.target}"
        if op.card == "all-draw-two":
            return "+2 all"
        return f"+2 {op.target}"
    words = " ".join(w.upper() for w in op.words)
    if not op.sources:
        return f"play {words}"
    left = " ".join(
        (s.word.upper() if s.index is None else f"#{s.index}") + (f"-{s.take.upper()}" if s.take else "")
        for s in op.sources
    )
    if op.plus is not None:
        left += f"+{op.plus.upper()}"
    return f"{left} -> {words}"
