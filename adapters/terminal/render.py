"""Render neutral views as terminal text, with ANSI colours when wanted.

Card colours are never the only cue: each colour also has a shape
(red ●, blue ■, yellow ▲, green ◆), so colour-blind players can tell them apart.
"""

from __future__ import annotations

from bot.views import View, duration
from games.common.protocol import CardFace

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


def card(face: CardFace, colour: bool) -> str:
    """One card: shape, letter and points (``● A 1``), coloured when wanted."""
    style, shape = _CARD_STYLE.get(face.colour, _CARD_STYLE[""])
    under = f" +{face.under}" if face.under else ""
    body = f" {shape} {face.letter or '_'} {face.points}{under} "
    return f"{style}{BOLD}{body}{RESET}" if colour else f"[{body.strip()}]"


def render(view: View, *, colour: bool, now: float | None = None) -> str:
    """The whole view as terminal text."""
    tint = _KIND_STYLE.get(view.kind, "") if colour else ""
    end = RESET if tint else ""
    out: list[str] = []
    if view.title:
        out.append(f"{BOLD if colour else ''}{tint}{view.title}{end}{RESET if colour else ''}")
    if view.cards:
        out.append("  " + "  ".join(card(c, colour) for c in view.cards))
        out.append(f"  {DIM if colour else ''}letters: {view.card_line()}{RESET if colour else ''}")
    out.extend("  " + row for row in view.grid)
    prefix = "✖ " if view.kind == "error" else ""
    out.extend(f"{tint}{prefix}{line}{end}" for line in view.lines)
    if view.seats:
        cells = []
        for seat in view.seats:
            mark = "▶" if seat.active else " "
            detail = f" ({seat.detail})" if seat.detail else ""
            cells.append(f"{mark}{seat.name}: {seat.score}{detail}")
        out.append("  " + " │ ".join(cells))
    if view.deadline is not None and now is not None and view.kind == "table":
        left = max(0, round(view.deadline - now))
        out.append(f"  ⏳ {time_left(left)} left")  # one wording for every timer, as it ticks down
    return "\n".join(out)


def time_left(seconds: int) -> str:
    """``28 s``, ``1 min 46 s``, ``71 h 59 min`` or ``4 days 2 h``: the one way moji writes a span of time."""
    return duration(seconds)
