"""Play in the terminal: one local table, you against computer players.

Type a word to claim cards; lines starting with ``/`` are commands
(``/skip``, ``/why``, ``/define WORD``, ``/help``, ``/rules``, ``/quit``).
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import sys
from collections.abc import AsyncIterator, Callable, Mapping, Sequence

from adapters.terminal.live import LiveTable, input_source, own_part
from adapters.terminal.render import BOLD, DIM, RESET, render
from adapters.terminal.render import text as own_text
from bot.core.clock import Clock
from bot.core.commands import CommandError, resolve, split
from bot.core.events import ChatKey, Command, Edit, MessageRef, Outbound, Player, Post, Private, React, Text
from bot.core.platform import Capabilities
from bot.core.views import View
from bot.delivery.delivery import Tap
from bot.hosting.manager import GameManager
from bot.inbound.runtime import Runtime
from bot.inbound.wiring import FrontDoor
from bot.sessions.state import SessionError
from games.common import speech
from games.common.speech import N_, _, _n, _p, speaking
from games.common.text import tidy

log = logging.getLogger(__name__)

CHAT = ChatKey("terminal", "local", "table")
#: The adapter's ``game`` that plays today's daily (``python -m bot terminal --daily``) instead.
DAILY = "daily"
YOU = Player("terminal", "you", "You", is_admin=True)
#: What ``python -m bot`` prints before a local game when no platform is configured.
LOCAL_GAME = N_(
    "No Discord or Slack token is configured, so here is a local game. (See README: Configuration.)"
)


def system_language(environ: Mapping[str, str] | None = None) -> str:
    """The language the terminal speaks: the system locale, as command-line programs read it
    (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``: the first one set decides), when a catalogue
    speaks it; English for ``C``, ``POSIX``, none set, or a language moji does not speak."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").strip()
        if value:
            return speech.resolve(value) or "en"
    return "en"


def you(language: str) -> Player:
    """The terminal's one person, named "You" in the language spoken (games address them so)."""
    with speaking(language):
        name = _p("player", "You")
    return Player("terminal", "you", name, is_admin=True, locale=language)


def local_game_banner(environ: Mapping[str, str] | None = None) -> str:
    """:data:`LOCAL_GAME` in the system's language."""
    with speaking(system_language(environ)):
        return _(LOCAL_GAME)


class TerminalPlatform:
    """The terminal as the runtime sees it (:class:`bot.core.platform.Platform`): one local table, one
    person, who runs it (an admin), and nothing that crosses to another process."""

    name = "terminal"
    #: Private notes are printed for the one player, marked "only you see this"; no threads nor
    #: buttons (commands are typed); a line is timed by the clock as it is read. The terminal is
    #: its one person's own chat: the daily is played right here.
    capabilities = Capabilities(
        ephemeral=False, threads=False, buttons=False, timestamp_precision=0.001, own_chat=True
    )
    codec = None

    def may_adopt(self, chat: ChatKey) -> bool:
        """A terminal game is never carried on by another process."""
        return False

    async def is_admin(
        self, player: Player, chat: ChatKey, *, interaction: object | None = None, fresh: bool = False
    ) -> bool:
        """The person at the terminal runs their own table."""
        return player.platform == YOU.platform and player.user_id == YOU.user_id


def welcome(bold: str, reset: str) -> str:
    """The welcome for a race."""
    return (
        _(
            "{bold}moji{reset} — name a word that uses at least two of the face-up letters, "
            "before the bots do.",
            bold=bold,
            reset=reset,
        )
        + "\n"
        + _("Type a word and press Enter. Commands: /skip (stuck), /why, /define WORD, /rules, /help, /quit.")
        + "\n"
    )


def welcome_turns(bold: str, reset: str, title: str, summary: str) -> str:
    """The welcome for a turn-based game: its own title and summary."""
    return (
        _("{bold}{title}{reset} — {summary}", bold=bold, reset=reset, title=title, summary=summary)
        + "\n"
        + _("Type your move and press Enter when it is your turn (/rules shows how moves are written).")
        + "\n"
        + _("Commands: /hand (your own tiles or cards), /why, /define WORD, /rules, /help, /quit.")
        + "\n"
    )


class TerminalOutbox:
    """Prints views; remembers the table's deadline for countdown warnings.

    With a ``live`` table (a real terminal), the table is drawn in place under the prompt
    and only what changed on it is printed.
    """

    def __init__(
        self, write: Callable[[str], None], clock: Clock, *, colour: bool, live: LiveTable | None = None
    ) -> None:
        self._write = write
        self._clock = clock
        self.colour = colour
        self.live = live
        self._ids = itertools.count(1)
        self.words: dict[str, str] = {}
        self.deadline: float | None = None
        self.deadline_changed = asyncio.Event()
        #: Shown every message first (as :attr:`bot.delivery.delivery.Delivery.taps`): the web companion
        #: adds the board's link to the player's rack notes when ``PUBLIC_URL`` is set.
        self.taps: list[Tap] = []
        #: The person's own view of the running game (their rack or hand), or None: the adapter
        #: asks the core (:meth:`TerminalAdapter.own_view`); drawn under the live table (or under
        #: each printed table when there is none).
        self.own_view: Callable[[], View | None] = lambda: None

    async def send(self, message: Outbound) -> MessageRef | None:
        for tap in self.taps:
            shown = await tap(message)
            if shown is None:
                return None
            message = shown
        if isinstance(message, Post | Private):
            view = message.view
            if view.kind == "table":
                self.deadline = view.deadline
                self.deadline_changed.set()
            elif view.kind == "result":
                self.deadline = None
                self.deadline_changed.set()
                if self.live is not None:
                    self.live.show(None)
            if self.live is not None and view.kind == "table" and isinstance(message, Post):
                changes = self.live.show(view)
                self.live.show_own(self.own_view())
                if changes:
                    self._write(changes + "\n")
                ref = MessageRef(message.chat, f"p{next(self._ids)}")
                if isinstance(message, Post) and message.receipt is not None:
                    message.receipt(ref)
                return ref
            text = render(view, colour=self.colour, now=self._clock.now())
            if isinstance(message, Post) and view.kind == "table":
                # printed tables (a pipe, TERM=dumb) carry the person's rack too, as the live one
                own = own_part(view, self.own_view())
                if own is not None:
                    text += "\n" + render(own, colour=self.colour, now=self._clock.now())
            if isinstance(message, Private) and view.kind != "error":
                with speaking(view.locale):
                    only = _("(only you see this)")
                text += f"\n{DIM if self.colour else ''}{only}{RESET if self.colour else ''}"
            self._write(text + "\n")
            if self.live is not None and isinstance(message, Private):
                self.live.show_own(self.own_view())  # (a private note: the rack may have changed)
            return MessageRef(message.chat, f"p{next(self._ids)}") if isinstance(message, Post) else None
        if isinstance(message, React):
            word = self.words.pop(message.ref.message_id, "")
            if message.mark == "accepted":
                self._write(self._paint("32", f"  ✔ {tidy(word.upper())}") + "\n")
            else:
                reason = message.reason or _("not accepted")
                self._write(self._paint("31", f"  ✘ {tidy(word.upper())}: {own_text(reason)}") + "\n")
            return None
        if isinstance(message, Edit):
            return None  # the lobby is not re-drawn in the terminal
        return None

    def _paint(self, code: str, text: str) -> str:
        return f"\033[{code}m{text}{RESET}" if self.colour else text


class TerminalAdapter:
    """Runs local games until the player quits."""

    def __init__(
        self,
        manager: GameManager,
        outbox: TerminalOutbox,
        lines: AsyncIterator[str],
        write: Callable[[str], None],
        *,
        game: str,
        options: Sequence[str],
        countdown: int = 3,
        language: str | None = None,
    ) -> None:
        #: The language the terminal speaks (the system locale's unless given: tests give it).
        self.language: str = speech.resolve(language) or system_language()
        #: The person at the terminal, named in that language.
        self.you = you(self.language)
        #: Every line goes through the same inbound pipeline as a chat platform's events; the
        #: adapter talks to this runtime only (``manager`` is the core it is built on).
        self.runtime = Runtime(
            TerminalPlatform(),
            manager,
            door=FrontDoor(on_closed=(self._on_closed,), on_tournament_game=(self._game_started,)),
        )
        self.outbox = outbox
        self.lines = lines
        self.write = write
        self.game = game
        self.options = tuple(options)
        self.countdown = countdown
        self._ended = asyncio.Event()
        self._refs = itertools.count(1)
        self._reader: asyncio.Future[str | None] | None = None
        outbox.own_view = self.own_view
        #: A tournament's game of the person's began here (the director starts it, not us).
        self._tournament_game = asyncio.Event()

    def own_view(self) -> View | None:
        """The person's own view of the turn-based game running here, as the core gives it to
        them (:meth:`~bot.sessions.announce.Announcer.private_view`, what ``/hand`` shows: the table
        with their rack or hand); None in a race, before the deal, or when they have no seat."""
        session = self.runtime.session(CHAT)
        if session is None or session.info.realtime:
            return None
        try:
            return session.announcer.private_view(self.you)
        except SessionError:
            return None

    def _game_started(self, chat: ChatKey) -> None:
        if chat == CHAT:
            self._tournament_game.set()

    async def _in_tournament(self) -> bool:
        """Whether a tournament is open or running here (its games start by themselves)."""
        return await self.runtime.in_tournament(CHAT)

    def _on_closed(self, chat: ChatKey) -> None:
        if chat == CHAT:
            self._ended.set()
            if self.outbox.live is not None:
                self.outbox.live.show(None)  # the game is over: no table to keep in place

    async def run(self) -> int:
        """Play games until /quit or end of input; returns an exit status. Everything it says
        (and every task it starts) speaks :attr:`language`."""
        with speaking(self.language):
            await self._speak_in_chat()
            return await self._run()

    async def _speak_in_chat(self) -> None:
        """The terminal's own workspace speaks the system's language (its ``language`` setting:
        the chat's speech, and its games' default words), so the table, turns and results speak
        it too. English where it is set to nothing else yet is left unwritten."""
        store = self.runtime.workspace.store
        if store is None:
            return
        try:
            raw = await store.get_settings(CHAT.platform, CHAT.workspace_id)
            if raw.get("language", "en") != self.language:
                await store.set_setting(
                    CHAT.platform, CHAT.workspace_id, "language", self.language, self.you.user_id
                )
        except Exception:  # the game matters more than its language: it goes on in the last one
            log.exception("could not set the terminal's language to %s", self.language)

    async def _run(self) -> int:
        colour = self.outbox.colour
        bold, reset = (BOLD, RESET) if colour else ("", "")
        info = self.runtime.registry.find("race" if self.game == DAILY else self.game)
        if info is None or info.realtime:
            self.write(welcome(bold, reset))
        else:
            self.write(welcome_turns(bold, reset, _(info.title), _(info.summary)))
        warnings = self.runtime.spawn(self._warn_before_deadlines(), "terminal countdown")
        self.runtime.run_tournaments()
        try:
            while True:
                if not await self._play_one():
                    return 0
                if not await self._again():
                    return 0
        finally:
            warnings.cancel()
            if self._reader is not None:
                self._reader.cancel()  # a prompt still waiting for a line
            self.write(_("Thanks for playing moji!") + "\n")

    async def _again(self) -> bool:
        """After a game: Enter plays again, /quit stops; any other command is answered as it is
        during a game or in the lobby; a word typed a moment too late is neither."""
        again = _("Press Enter to play again, or type /quit.")
        self.write(again + "\n")
        while True:
            if self.runtime.runs(CHAT):
                return True  # a tournament's game of yours has begun (or one /start opened)
            answer = await self._line_or_game()
            if answer is None and self.runtime.runs(CHAT):
                return True
            if answer is None or answer.strip().lower() in {"/quit", "/exit", "quit", "q"}:
                return False
            line = answer.strip()
            if not line:
                return True
            if line.startswith("/"):
                if not await self._command(line):
                    return False
                if not self.runtime.runs(CHAT):
                    self.write(again + "\n")  # (the answer scrolled the question away)
                continue
            self.write(_("(The game is over.) Press Enter to play again, or type /quit.") + "\n")

    async def _next_line(self) -> str | None:
        """The next typed line (None at the end of input).

        A read still pending when a game ends is kept for the next question: cancelling it
        would close the input, as if the player had quit.
        """
        reader = self._reader
        if reader is None:
            reader = self._reader = asyncio.ensure_future(self._read())
        try:
            return await asyncio.shield(reader)
        finally:
            if reader.done():
                self._reader = None

    async def _line_or_game(self) -> str | None:
        """The next typed line, or None when a tournament's game begins here first (or at the end
        of input)."""
        self._tournament_game.clear()
        if self.runtime.runs(CHAT):
            return None
        reader = asyncio.ensure_future(self._next_line())
        begun = asyncio.ensure_future(self._tournament_game.wait())
        try:
            done, _pending = await asyncio.wait({reader, begun}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            begun.cancel()
        if reader in done:
            return reader.result()
        reader.cancel()  # (the read itself stays pending, for the next question)
        with contextlib.suppress(asyncio.CancelledError):
            await reader
        return None

    async def _read(self) -> str | None:
        try:
            return await anext(self.lines)
        except StopAsyncIteration:
            return None

    async def _play_one(self) -> bool:
        """One game; False when the player quit."""
        self._ended.clear()
        if self.game == DAILY:  # dealt at once: once a day, so a second one is refused and we stop
            await self.runtime.ingest(Command("daily", (), CHAT, self.you))
            if not self.runtime.runs(CHAT):
                return False
        elif self.runtime.runs(CHAT):
            pass  # a tournament's game of yours began here: play it
        elif await self._in_tournament():
            self.write(
                _(
                    "Your next tournament game starts here when its round is paired: /tournament "
                    "says where it stands."
                )
                + "\n"
            )
        else:
            await self.runtime.ingest(Command("start", (self.game, *self.options), CHAT, self.you))
            if not self.runtime.runs(CHAT):
                return False  # the start was refused; the reason is on screen
            for n in range(self.countdown, 0, -1):
                self.write(f"{n}…\n")
                await self.runtime.clock.sleep_until(self.runtime.clock.now() + 1)
            self.write(_("Go!") + "\n")
            await self.runtime.ingest(Command("go", (), CHAT, self.you))
        ended = asyncio.ensure_future(self._ended.wait())
        try:
            while not self._ended.is_set():
                reader = asyncio.ensure_future(self._next_line())
                done, _pending = await asyncio.wait({reader, ended}, return_when=asyncio.FIRST_COMPLETED)
                if reader not in done:
                    reader.cancel()  # (the read itself stays pending, for the next question)
                    with contextlib.suppress(asyncio.CancelledError):
                        await reader
                    break
                line = reader.result()
                if line is None:
                    await self._quit()
                    return False
                if not await self._line(line.strip()):
                    return False
        finally:
            ended.cancel()
        return True

    async def _quit(self) -> None:
        if self.runtime.runs(CHAT):
            await self.runtime.ingest(Command("stop", (), CHAT, self.you))

    async def _command(self, line: str) -> bool:
        """A typed ``/command``, through the runtime as any platform's; False when it stops the
        game and the terminal (``/stop``, ``/quit``)."""
        typed = line.split()[0]
        try:
            resolve(typed, self.runtime.registry)
        except CommandError:
            # (the chat reply says "Try `help`": here commands start with a slash)
            shown = typed if len(typed) <= 24 else typed[:23] + "…"
            self.write(
                "✖ "
                + _("I don't know the command {command}. Type /help for the list.", command=repr(shown))
                + "\n"
            )
            return True
        try:
            name, args = split(line, self.runtime.registry)
        except CommandError as exc:
            self.write(f"✖ {own_text(str(exc))}\n")
            return True
        if name == "stop":
            await self._quit()
            return False
        await self.runtime.ingest(Command(name, args, CHAT, self.you))
        return True

    async def _line(self, line: str) -> bool:
        if not line:
            return True
        if line.startswith("/"):
            return await self._command(line)
        session = self.runtime.session(CHAT)
        if session is not None and not session.info.realtime:
            # in a turn-based game a typed line is a move: `H8 across WORD` means `/play H8 across WORD`
            words = tuple(line.split())
            if words and words[0].lower() in {"play", "move"}:
                words = words[1:]
            await self.runtime.ingest(Command("play", words, CHAT, self.you))
            return True
        ref = MessageRef(CHAT, f"t{next(self._refs)}")
        self.outbox.words[ref.message_id] = line
        await self.runtime.ingest(Text(CHAT, self.you, line, self.runtime.clock.now(), ref))
        return True

    async def _warn_before_deadlines(self) -> None:
        """Print a countdown as the hourglass runs out (10 s and 5 s left)."""
        clock = self.runtime.clock
        while True:
            self.outbox.deadline_changed.clear()
            deadline = self.outbox.deadline
            if deadline is None:
                await self.outbox.deadline_changed.wait()
                continue
            for left in (10, 5):
                if deadline - clock.now() <= left:
                    continue
                waiter = asyncio.ensure_future(clock.sleep_until(deadline - left))
                changed = asyncio.ensure_future(self.outbox.deadline_changed.wait())
                done, _pending = await asyncio.wait({waiter, changed}, return_when=asyncio.FIRST_COMPLETED)
                waiter.cancel()
                changed.cancel()
                if changed in done:
                    break
                self.write(_n("⏳ {count} second left!", "⏳ {count} seconds left!", left) + "\n")
            else:
                await self.outbox.deadline_changed.wait()


async def stdin_lines() -> AsyncIterator[str]:
    """Lines typed on standard input, without blocking the event loop.

    A terminal or a pipe is watched by the event loop; a file is read in a worker thread;
    ``/dev/null`` or a closed input has no lines (the event loop cannot watch ``/dev/null``:
    it would wait for ever instead of seeing the end of the input).
    """
    source = input_source()
    if source == "none":
        return
    if source == "file":
        while line := await asyncio.to_thread(sys.stdin.readline):
            yield line.rstrip("\n")
        return
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    while line_bytes := await reader.readline():
        yield line_bytes.decode("utf-8", errors="replace").rstrip("\n")
