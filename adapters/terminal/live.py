"""A terminal that holds still: the table stays at the bottom, the typed line stays whole.

Used only when standard input and output are both a real terminal (and ``TERM`` is not
``dumb``): a prompt_toolkit prompt reads the player's lines, everything printed appears
above it (``patch_stdout``), and the latest table sits in the prompt's bottom toolbar,
its hourglass ticking every second, with the player's own rack or hand under it in a
turn-based game (the terminal is one person's screen). Pipes, files and dumb terminals get
plain lines.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import stat
import sys
from collections.abc import AsyncIterator, Callable, Mapping
from dataclasses import dataclass

from adapters.terminal.render import BOLD, DIM, RESET, render, shown, text
from bot.core.clock import Clock
from bot.core.views import View
from games.common.speech import _, speaking


def interactive(env: Mapping[str, str] | None = None) -> bool:
    """True when the player types at a real, capable terminal (not a pipe, file or dumb terminal)."""
    env = os.environ if env is None else env
    if env.get("TERM", "").strip().lower() == "dumb":
        return False
    try:
        return sys.stdin.isatty() and sys.stdout.isatty()
    except (AttributeError, ValueError):  # closed or replaced streams
        return False


def input_source(stream: object | None = None) -> str:
    """What standard input is: ``"terminal"``, ``"pipe"`` (or socket), ``"file"``, or ``"none"``.

    ``"none"`` is anything else: ``/dev/null`` (systemd's and ``docker run -d``'s default), a
    closed or missing stream. A person can type only at a terminal; a pipe or a file holds
    moves written in advance (scripts, tests); ``"none"`` holds nothing to read.
    """
    stream = sys.stdin if stream is None else stream
    try:
        fd = getattr(stream, "fileno")()  # noqa: B009 (any object: None, a closed or fake stream)
        mode = os.fstat(fd).st_mode
        if os.isatty(fd):
            return "terminal"
    except (AttributeError, TypeError, ValueError, OSError):  # (io.UnsupportedOperation is both)
        return "none"
    if stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode):
        return "pipe"
    if stat.S_ISREG(mode):
        return "file"
    return "none"


def wants_colour(env: Mapping[str, str] | None = None) -> bool:
    """Colour by default on a terminal, unless ``NO_COLOR`` is set (to anything) or ``TERM=dumb``."""
    env = os.environ if env is None else env
    if env.get("NO_COLOR") or env.get("TERM", "").strip().lower() == "dumb":
        return False
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def own_part(table: View, own: View | None) -> View | None:
    """What the person's own view says that ``table`` does not (their rack or hand), as a
    private view (tinted as the private notes are); None: nothing."""
    if own is None:
        return None
    public = set(table.lines)
    mine = tuple(line for line in own.lines if line not in public)
    return View(kind="private", lines=mine, locale=own.locale) if mine else None


class LiveTable:
    """The latest table, drawn in a fixed area; only what changed on it scrolls.

    Under it, what the person's own view of the game adds to the table (:meth:`show_own`:
    their rack or hand, in the game's words), as a web page shows its player's own rack.
    """

    def __init__(self, clock: Clock, *, colour: bool) -> None:
        self._clock = clock
        self.colour = colour
        self.view: View | None = None
        self._last: View | None = None
        #: The person's own view of the game (their private view: the table with their rack or
        #: hand), or None.
        self.own: View | None = None
        #: Called when the table changes (redraws the fixed area).
        self.changed: Callable[[], None] = lambda: None

    def show(self, view: View | None) -> str:
        """Put ``view`` in the fixed area (None clears it); returns the lines to print above it.

        The cards' ``letters:`` line is printed each time the cards change, so the scrollback
        (and a screen reader) still reads every deal; the title and text lines when they change.
        """
        previous, self.view = self._last, view
        self._last = view
        if view is None:
            self.own = None  # no game: nothing of one's own to show either
        self.changed()
        if view is None:
            return ""
        bold, dim, reset = (BOLD, DIM, RESET) if self.colour else ("", "", "")
        out: list[str] = []
        if view.title and (previous is None or view.title != previous.title):
            out.append(f"{bold}{text(view.title)}{reset}")
        if view.grid and (previous is None or view.grid != previous.grid):
            out.extend("  " + text(row) for row in view.grid)
        if view.cards and (previous is None or view.cards != previous.cards):
            with speaking(view.locale):
                letters = _("letters: {letters}", letters=view.card_line())
            out.append(f"  {dim}{letters}{reset}")
        if view.lines and (previous is None or view.lines != previous.lines):
            out.extend(map(shown, view.lines))
        return "\n".join(out)

    def show_own(self, view: View | None) -> None:
        """Keep the person's own view of the game (None: they have none, e.g. not playing) to
        draw what it adds to the table under it. Only ever the person's own: the terminal is one
        person's screen, and no one else's view is handed here."""
        if view != self.own:
            self.own = view
            self.changed()

    def text(self, rows: int = 24, columns: int = 80) -> str:
        """The fixed area's text: a rule, then the table, then the person's own rack or hand
        (at most ``rows`` lines in all: the table gives way first), each line wrapped to fit
        in ``columns`` (the toolbar would cut a longer one at the edge).

        A board (``grid``) stays in the scrollback: it is printed whenever it changes.
        """
        if self.view is None:
            return ""
        dim, reset = (DIM, RESET) if self.colour else ("", "")
        width = max(1, columns)
        now = self._clock.now()
        view = dataclasses.replace(self.view, grid=())
        lines = render(view, colour=self.colour, now=now, width=width).split("\n")
        lines.insert(0, f"{dim}{'─' * max(1, min(columns - 1, 60))}{reset}")
        own = own_part(self.view, self.own)
        if own is not None:
            below = render(own, colour=self.colour, now=now, width=width).split("\n")
            lines = lines[: max(1, rows - len(below))] + below
        return "\n".join(lines[: max(1, rows)])


@dataclass
class Live:
    """What :func:`live_terminal` hands the adapter: typed lines and the fixed table."""

    lines: AsyncIterator[str]
    table: LiveTable


@contextlib.asynccontextmanager
async def live_terminal(clock: Clock, *, colour: bool) -> AsyncIterator[Live]:
    """A prompt_toolkit prompt with the table in its bottom toolbar; prints go above it."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.formatted_text import ANSI
    from prompt_toolkit.output import ColorDepth
    from prompt_toolkit.patch_stdout import patch_stdout
    from prompt_toolkit.styles import Style

    table = LiveTable(clock, colour=colour)

    def toolbar() -> ANSI:
        size = session.app.output.get_size()
        return ANSI(table.text(size.rows - 2, size.columns))

    session: PromptSession[str] = PromptSession(
        bottom_toolbar=toolbar,
        refresh_interval=1.0,  # the hourglass
        style=Style.from_dict({"bottom-toolbar": "noreverse", "bottom-toolbar.text": "noreverse"}),
        include_default_pygments_style=False,
        color_depth=None if colour else ColorDepth.DEPTH_1_BIT,
        erase_when_done=False,
    )
    table.changed = session.app.invalidate  # (does nothing while no prompt is shown)

    async def lines() -> AsyncIterator[str]:
        while True:
            try:
                yield await session.prompt_async("> ")
            except (EOFError, KeyboardInterrupt):  # Ctrl-D or Ctrl-C: the player is done
                return

    with patch_stdout(raw=True):  # raw: our own colours pass through
        yield Live(lines(), table)
