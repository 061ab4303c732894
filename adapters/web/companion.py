"""What a web page may see and do in a game, decided on the server.

A page holds a :class:`~storage.weblinks.Grant` (from its session): one game of one chat, as one
player or as a watcher. Every view is built here from the game's own snapshot for that viewer
(a watcher's is the public one: no rack, no hand), and every move is checked against the grant
and then handed to the chat's :class:`~bot.inbound.runtime.Runtime` as the command a typed move is
(``play H8 across WORD``: the game's own page writes it, :mod:`games.common.page`), so the game
judges it exactly as it judges chat, and answers in the same words. Pages follow their games
through :meth:`WebCompanion.tap`, which the delivery layer of each attached runtime shows every
message.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field, replace
from typing import Any

from adapters.web.links import Links, chat_of
from adapters.web.models import PageModel, SeatModel, cells
from adapters.web.pages import load, page_of
from bot.core.events import ChatKey, Command, Edit, Outbound, Player, Post, Private, React
from bot.core.views import HAND, OPEN_LINK, ButtonSpec, View
from bot.delivery.delivery import Tap
from bot.hosting.handlers.watching import is_offer
from bot.inbound.runtime import Runtime
from bot.sessions.session import Session
from bot.sessions.state import Phase
from games.common.page import GameView, Refused
from games.common.speech import _, _p, speaking
from games.common.text import plain
from storage.daily import is_daily_game
from storage.weblinks import Grant

log = logging.getLogger(__name__)

#: The action id of a table's Watch live link button (a platform that wants one has it).
WATCH_LINK = "moji-link:watch"


class GameGone(Exception):
    """The page's game is not (or no longer) running here; the message says what to do."""


@dataclass
class PageReply:
    """A page's move travels as a command whose interaction is this: the command's private
    answer (a refusal, in the game's words) comes back here instead of to the chat."""

    answers: list[str] = field(default_factory=list)

    def answer(self, view: View) -> None:
        """Keep a private answer for the page."""
        self.answers.append(view.plain())


def _with_button(view: View, button: ButtonSpec) -> View:
    """``view`` with ``button`` added (once: a view that has one for its action keeps it)."""
    if any(b.action == button.action for b in view.buttons):
        return view
    return replace(view, buttons=(*view.buttons, button))


class WebCompanion:
    """The web front door: the runtimes of the platforms whose games it shows, the pages open
    on each chat, and what each page may see and do."""

    def __init__(self, links: Links) -> None:
        self.links = links
        self.clock = links.clock
        self.runtimes: dict[str, Runtime] = {}
        #: Each chat's open pages: each wakes when its game changed (it renders its own view).
        self.pages: dict[ChatKey, set[asyncio.Event]] = {}
        #: A finished game's last public state and result, by game id (for pages still open).
        self.ended: dict[str, tuple[PageModel, str]] = {}
        #: Each running game's watch link (game id -> link), made once by this process.
        self.watch_links: dict[str, str] = {}
        #: Each chat's number of changes so far (watchers' pages share a rendering per change).
        self.versions: dict[ChatKey, int] = {}
        #: Each chat's last moves, as the chat read them (accepted moves and announcements).
        self.moves: dict[ChatKey, list[str]] = {}
        #: The language each game's chat speaks (game id -> code), from what its game said:
        #: a page whose browser names no language moji speaks speaks this one.
        self.languages: dict[str, str] = {}

    # ------------------------------------------------------------ wiring

    def attach(self, runtime: Runtime, taps: list[Tap] | None = None) -> None:
        """Serve pages of ``runtime``'s games: follow what its games say (``taps``: the list of
        taps of the outbox its sessions send to; by default its delivery layer's)."""
        self.runtimes[runtime.platform.name] = runtime
        load(runtime.registry)  # (the games' pages, read once: their templates and scripts)
        (runtime.outbox.taps if taps is None else taps).append(self.tap)

    async def tap(self, message: Outbound) -> Outbound | None:
        """Shown every message of an attached runtime's games, before the platform: a page's own
        reply is answered here (None: the platform never sees it); a player's private note of a
        game with a page (MOJO, paths, shed, dice) gets a link button to their page; a "your
        turn" message the My rack button (whose private answer carries the link: a message in
        the channel never carries one); the answer to ``watch``, and every running game's table
        where the platform has buttons, get the game's watch link; any other change wakes the
        chat's pages. What it adds speaks the message's own language."""
        if not isinstance(message, Post | Private):
            return await self._tapped(message)
        with speaking(message.view.locale):
            return await self._tapped(message)

    async def _tapped(self, message: Outbound) -> Outbound | None:
        if isinstance(message, Private):
            if isinstance(message.interaction, PageReply):
                message.interaction.answer(message.view)
                return None
            if message.view.kind == "private":
                return await self._with_link(message)
            if is_offer(message.view):
                return await self._watch_offer(message)
            return message
        chat = message.ref.chat if isinstance(message, Edit | React) else message.chat
        if isinstance(message, Post):
            self._remember(chat, message.view)
            session = self._running(chat)
            if session is not None:
                self.languages[session.game_id] = message.view.locale
                while len(self.languages) > 10_000:
                    self.languages.pop(next(iter(self.languages)))
            if message.view.kind == "table" and self._link_buttons(chat):
                message = await self._with_watch_link(message)
            if message.view.kind == "turn" and self._paged(chat) is not None:
                message = replace(
                    message,
                    view=_with_button(message.view, ButtonSpec(HAND, _p("button", "My rack"), "primary")),
                )
        self.changed(chat)
        return message

    def _paged(self, chat: ChatKey) -> Session | None:
        """``chat``'s running game, when it has a page of its own (:mod:`adapters.web.pages`)."""
        session = self._running(chat)
        if session is None:
            return None
        return session if page_of(session.info) is not None else None

    def _link_buttons(self, chat: ChatKey) -> bool:
        """Whether ``chat``'s platform shows buttons (a link button among them)."""
        runtime = self.runtimes.get(chat.platform)
        return runtime is not None and runtime.platform.capabilities.buttons

    async def watch_link(self, chat: ChatKey) -> str | None:
        """The watch link of ``chat``'s running game, any game (one link per game and process,
        used again and again); None when no game runs there, it is a daily (its cards are
        hidden until each player plays them), or no link could be made."""
        session = self._running(chat)
        if session is None or is_daily_game(session.game_id):
            return None
        link = self.watch_links.get(session.game_id)
        if link is None:
            try:
                link = await self.links.watch(chat, session.game_id)
            except Exception:  # what the link goes on matters more: it goes without one
                log.exception("could not make a watch link in %s", chat.label())
                return None
            self.watch_links[session.game_id] = link
            while len(self.watch_links) > 10_000:
                self.watch_links.pop(next(iter(self.watch_links)))
        return link

    async def _with_watch_link(self, message: Post) -> Post:
        """A running game's table with a **Watch live** link button: the game's public page, for
        anyone in the chat."""
        link = await self.watch_link(message.chat)
        if link is None:
            return message
        return replace(
            message,
            view=_with_button(message.view, ButtonSpec(WATCH_LINK, _p("button", "Watch live"), url=link)),
        )

    async def _watch_offer(self, message: Private) -> Private:
        """The answer to ``watch``
        (:func:`bot.hosting.handlers.watching.offer`) with the game's watch link."""
        link = await self.watch_link(message.chat)
        if link is None:
            text = _("I couldn't make a link to watch this game just now: try `watch` again in a moment.")
            return replace(message, view=replace(message.view, lines=(text,)))
        lines = (
            _(
                "Open the link to follow this game live in a browser: what the channel sees, as it "
                "happens (no one's hand, rack or list). Anyone in this chat may use it."
            ),
        )
        button = ButtonSpec(WATCH_LINK, _p("button", "Watch live"), "primary", url=link)
        return replace(message, view=replace(message.view, lines=lines, buttons=(button,)))

    async def _with_link(self, message: Private) -> Private:
        """A player's private note with a link button to their own page of the game."""
        session = self._paged(message.chat)
        if session is None or not session.is_player(message.player):
            return message
        if any(button.url for button in message.view.buttons):
            return message
        try:
            link = await self.links.mint(message.chat, session.game_id, message.player)
        except Exception:  # the note matters more than its link: it goes without one
            log.exception("could not make a web link for a private note in %s", message.chat.label())
            return message
        page = page_of(session.info)
        if page is None:
            return message
        button = ButtonSpec(OPEN_LINK, _(page.label), "primary", url=link)
        return replace(message, view=_with_button(message.view, button))

    def _remember(self, chat: ChatKey, view: View) -> None:
        runtime = self.runtimes.get(chat.platform)
        session = runtime.session(chat) if runtime is not None else None
        if view.kind == "announce" or view.kind == "result":
            said = list(session.state.said_before) if session is not None else []
            moves = self.moves.setdefault(chat, said)
            # kept as moji's text (user parts marked): the page renders it (adapters/web/text.py)
            moves.extend(line for line in (view.lines or (view.text(),)) if line.strip())
            del moves[:-8]
        if view.kind == "result" and session is not None and session.engine is not None:
            model = self._model(session, None, watcher=True)
            self.ended[session.game_id] = (model, view.plain())
            while len(self.ended) > 1000:
                self.ended.pop(next(iter(self.ended)))

    def changed(self, chat: ChatKey) -> None:
        """``chat``'s game changed: wake its pages."""
        self.versions[chat] = self.versions.get(chat, 0) + 1
        for wake in self.pages.get(chat, ()):
            wake.set()

    def follow(self, grant: Grant) -> asyncio.Event:
        """A page opens its live channel: an event set whenever its game changes."""
        wake = asyncio.Event()
        self.pages.setdefault(chat_of(grant), set()).add(wake)
        return wake

    def unfollow(self, grant: Grant, wake: asyncio.Event) -> None:
        """A page closed its live channel."""
        chat = chat_of(grant)
        pages = self.pages.get(chat)
        if pages is not None:
            pages.discard(wake)
            if not pages:
                del self.pages[chat]
                self.versions.pop(chat, None)

    # ------------------------------------------------------------ links

    async def link(self, chat: ChatKey, player: Player | None) -> str | None:
        """A fresh link to ``chat``'s running game, as ``player`` (None: a watch link); None when
        the chat has no game with a page of its own running here (or ``player`` does not play in it)."""
        session = self._running(chat)
        if session is None or page_of(session.info) is None:
            return None
        if player is not None and not session.is_player(player):
            return None
        return await self.links.mint(chat, session.game_id, player)

    # ------------------------------------------------------------ views

    def _running(self, chat: ChatKey) -> Session | None:
        runtime = self.runtimes.get(chat.platform)
        session = runtime.session(chat) if runtime is not None else None
        if session is None or session.phase is not Phase.RUNNING or session.engine is None:
            return None
        return session

    def session_for(self, grant: Grant) -> Session | None:
        """The running game ``grant`` opens, served here (None: ended, or not here)."""
        session = self._running(chat_of(grant))
        if session is None or session.game_id != grant.game_id:
            return None
        return session

    def model(self, grant: Grant) -> PageModel:
        """What ``grant``'s page shows now (a finished game's last state; else :class:`GameGone`)."""
        session = self.session_for(grant)
        if session is None:
            ended = self.ended.get(grant.game_id)
            if ended is not None:
                return replace(ended[0], watcher=grant.watcher, ended=ended[1])
            raise GameGone(_("This game is not running here any more. Open a fresh link from the chat."))
        return self._model(
            session, None if grant.watcher else self._player(session, grant), watcher=grant.watcher
        )

    def _player(self, session: Session, grant: Grant) -> Player:
        seat = f"{grant.platform}:{grant.user_id}"
        return Player(grant.platform, grant.user_id, session.names().get(seat, grant.user_id))

    def _model(self, session: Session, player: Player | None, *, watcher: bool) -> PageModel:
        seat = None if player is None else player.seat_id
        snapshot = session.snapshot(seat)
        seats = tuple(
            SeatModel(plain(s.name), s.score, plain(s.detail), s.active, s.seat == seat)
            for s in snapshot.seats
        )
        view = self._view(session)
        lines = tuple(line for line in snapshot.lines if view is None or not view.hides(line))
        running = session.phase is Phase.RUNNING
        return PageModel(
            title=plain(snapshot.title),
            game_id=session.game_id,
            watcher=watcher,
            board=cells(snapshot),
            seats=seats,
            lines=lines,
            deadline=snapshot.deadline,
            your_turn=running and any(s.you and s.active for s in seats),
            running=running,
            log=tuple(self.moves.get(session.chat, session.state.said_before)),
            game=session.info.name,
            part=None if view is None else view.part(session.engine, snapshot, seat),
        )

    # ------------------------------------------------------------ moves

    def preview(self, grant: Grant, body: dict[str, Any]) -> dict[str, Any]:
        """What ``grant``'s player's move on the page would do (the game's view asks the game's own
        preview); raises :class:`~games.common.page.BadRequest` for a request no page makes."""
        session, player = self._playing(grant)
        view = self._view(session)
        if view is None:
            return {"ok": False, "reason": _("This game has no preview here.")}
        return view.preview(session.engine, player.seat_id, body)

    async def play(self, grant: Grant, body: dict[str, Any]) -> str | None:
        """Make ``grant``'s player's move on the page: the game's view writes the words a player
        would type, which enter the chat's runtime as a typed ``play``; returns the game's refusal,
        in its own words, or None when played (raises :class:`~games.common.page.BadRequest` for a
        request no page makes)."""
        session, player = self._playing(grant)
        view = self._view(session)
        if view is None:
            return _("This game has no moves here.")
        try:
            words = view.words(session.engine, player.seat_id, body)
        except Refused as refused:
            return str(refused)  # (no typed move: nothing to send)
        return await self._ingest(grant, session, player, words)

    @staticmethod
    def _view(session: Session) -> GameView | None:
        page = page_of(session.info)
        return None if page is None else page.view

    async def _ingest(
        self, grant: Grant, session: Session, player: Player, words: tuple[str, ...]
    ) -> str | None:
        runtime = self.runtimes[grant.platform]
        reply = PageReply()
        await runtime.ingest(Command("play", words, session.chat, player, interaction=reply))
        return reply.answers[0] if reply.answers else None

    def _playing(self, grant: Grant) -> tuple[Session, Player]:
        if grant.watcher:
            raise PermissionError(_("This page only watches the game."))
        session = self.session_for(grant)
        if session is None:
            raise GameGone(_("This game is over, or not running here any more."))
        player = self._player(session, grant)
        if not session.is_player(player):
            raise PermissionError(_("You're not playing in this game."))
        return session, player
