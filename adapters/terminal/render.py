"""Render neutral views as terminal text, with ANSI colours when wanted.

Card colours are never the only cue: each colour also has a shape
(red ●, blue ■, yellow ▲, green ◆), so colour-blind players can tell them apart.

What people typed (marked as user text in the view, see :mod:`games.common.text`) is shown by
:func:`text` without its control characters (``ESC`` and the rest become spaces, so no colour,
cursor or title sequence can reach the terminal) and without bidirectional overrides.
"""

from __future__ import annotations

import re

from prompt_toolkit.utils import get_cwidth

from bot.core.commands import CommandError, resolve
from bot.core.views import View, duration
from games.common.protocol import CardFace
from games.common.speech import _, speaking
from games.common.text import plain, spans, tidy

RESET = "\033[0m"
BOLD = "\033[1m"
DIM = "\033[2m"
_CARD_STYLE = {
    "red": ("\033[97;41m", "●"),
    "blue": ("\033[97;44m", "■"),
    "yellow": ("\033[30;43m", "▲"),
    "green": ("\033[30;42m", "◆"),
    "": ("\033[30;47m", "·"),
}
_KIND_STYLE = {
    "error": "\033[31m",
    "private": "\033[35m",
    "result": "\033[1;33m",
    "lobby": "\033[36m",
    "info": "\033[36m",
    "help": "\033[36m",
    "announce": "",
    "leaderboard": "\033[33m",
    "table": "",
}


_CODE = re.compile(r"`([^`\n]+)`")
_SLASH_MOJI = re.compile(r"/moji (?=[a-z])")


def _as_typed_here(match: re.Match[str]) -> str:
    span = match.group(1)
    try:
        resolve(span.split()[0])
    except (CommandError, IndexError):
        return match.group(0)  # a move or a word, typed here as it is
    return f"`/{span.lstrip('/')}`"


def commands_as_typed(text: str) -> str:
    """Chat replies name commands as `go` or /moji go (how Discord and Slack take them);
    the terminal takes them as /go, so that is what it shows."""
    return _CODE.sub(_as_typed_here, _SLASH_MOJI.sub("/", text))


def text(value: str) -> str:
    """moji's text for the terminal: its own parts as written, user parts without control
    characters or bidirectional overrides."""
    return "".join(tidy(part) if mine else part for part, mine in spans(value))


_HOLE = "\x00"


def shown(line: str) -> str:
    """A line of a message as the terminal shows it: commands as typed here (only in moji's own
    words: a player's text is never rewritten) and user parts as :func:`text` shows them."""
    parts = spans(line)
    own = "".join(part if not mine else f"{_HOLE}{index}{_HOLE}" for index, (part, mine) in enumerate(parts))
    return re.sub(f"{_HOLE}(\\d+){_HOLE}", lambda m: tidy(parts[int(m.group(1))][0]), commands_as_typed(own))


def card(face: CardFace, colour: bool) -> str:
    """One card: shape, letter and points (``● A 1``), coloured when wanted."""
    style, shape = _CARD_STYLE.get(face.colour, _CARD_STYLE[""])
    under = f" +{face.under}" if face.under else ""
    body = f" {shape} {face.letter or '_'} {face.points}{under} "
    return f"{style}{BOLD}{body}{RESET}" if colour else f"[{body.strip()}]"


def render(view: View, *, colour: bool, now: float | None = None, width: int | None = None) -> str:
    """The whole view as terminal text.

    With a ``width`` (the window's columns), lines are wrapped to fit it: the players'
    scores go as many to a line as fit (a player's own line wraps after the score), cards
    and text wrap between words, so nothing is cut at the window's edge. A board's rows
    (``grid``) are never wrapped.
    """
    with speaking(view.locale):  # (its own words in the view's language)
        return _render(view, colour=colour, now=now, width=width)


def _render(view: View, *, colour: bool, now: float | None, width: int | None) -> str:
    tint = _KIND_STYLE.get(view.kind, "") if colour else ""
    end = RESET if tint else ""
    out: list[str] = []
    if view.title:
        for part in wrap(text(view.title), width):
            out.append(f"{BOLD if colour else ''}{tint}{part}{end}{RESET if colour else ''}")
    if view.cards:
        out.extend(pack([card(c, colour) for c in view.cards], width, gap="  "))
        dim, reset = (DIM, RESET) if colour else ("", "")
        out.extend(
            f"{dim}{part}{reset}"
            for part in wrap("  " + _("letters: {letters}", letters=view.card_line()), width, "    ")
        )
    out.extend("  " + text(row) for row in view.grid)
    prefix = "✖ " if view.kind == "error" else ""
    for line in view.lines:
        out.extend(f"{tint}{part}{end}" for part in wrap(f"{prefix}{shown(line)}", width, "  "))
    if view.seats:
        cells = []
        for seat in view.seats:
            mark = "▶" if seat.active else " "
            detail = f" ({text(seat.detail)})" if seat.detail else ""
            score = f":{_GLUE}{seat.score}"
            whole = tidy(plain(seat.name))  # a seat's name is all its player's own
            name = whole if width is None else shorten(whole, width - 3 - columns(score))
            cells.append(f"{mark}{name}{score}{detail}")  # (never wrapped before the score)
        out.extend(line.replace(_GLUE, " ") for line in pack(cells, width, gap=" │ "))
    if view.deadline is not None and now is not None and view.kind == "table":
        left = max(0, round(view.deadline - now))
        # one wording for every timer, as it ticks down
        out.append("  " + _("⏳ {time} left", time=time_left(left)))
    for button in view.buttons:
        if button.url:  # a link (the game's web page): printed whole, never wrapped
            out.append(f"  {text(button.label)}: {text(button.url)}")
    return "\n".join(out)


#: A space :func:`wrap` never breaks a line at (as wide as a space).
_GLUE = "\u00a0"
_ESCAPE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def columns(text: str) -> int:
    """How many terminal columns ``text`` takes (colour codes take none, wide characters two)."""
    return get_cwidth(_ESCAPE.sub("", text))


def shorten(text: str, room: int) -> str:
    """``text`` cut to ``room`` columns with an ellipsis when it is wider (a player's name on a
    narrow window: the score after it must show)."""
    if columns(text) <= room:
        return text
    cut = ""
    for ch in text:
        if columns(cut + ch) > max(1, room - 1):
            break
        cut += ch
    return cut.rstrip() + "…"


def wrap(text: str, width: int | None, indent: str = "  ") -> list[str]:
    """``text`` in lines of at most ``width`` columns, broken between words (None: one line).

    Lines after the first start with ``indent`` (text's own leading spaces are kept on the
    first); a word wider than the line stays whole. Only plain spaces break a line.
    """
    if width is None or columns(text) <= width:
        return [text]
    lead = text[: len(text) - len(text.lstrip(" "))]
    lines: list[str] = []
    line = ""
    for word in filter(None, text.split(" ")):
        if not line:
            line = (indent if lines else lead) + word
        elif columns(f"{line} {word}") <= width:
            line = f"{line} {word}"
        else:
            lines.append(line)
            line = indent + word
    lines.append(line)
    return lines


def pack(cells: list[str], width: int | None, *, gap: str, lead: str = "  ") -> list[str]:
    """``cells`` side by side after ``lead``, separated by ``gap``, as many to a line as fit in
    ``width`` columns; a cell wider than a line of its own wraps between its words."""
    if width is None:
        return [lead + gap.join(cells)]
    lines: list[str] = []
    line = ""
    for cell in cells:
        if line and columns(line + gap + cell) <= width:
            line += gap + cell
            continue
        if line:
            lines.append(line)
        parts = wrap(lead + cell, width, lead + "   ")
        lines.extend(parts[:-1])
        line = parts[-1]
    if line:
        lines.append(line)
    return lines


def time_left(seconds: int) -> str:
    """``28 s``, ``1 min 46 s``, ``71 h 59 min`` or ``4 days 2 h``: the one way moji writes a span of time."""
    return duration(seconds)
