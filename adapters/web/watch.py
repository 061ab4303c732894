"""Watching a game live: the public view of any game of a chat, for anyone with its watch link.

A watcher's page shows what the channel sees, as it happens: a race's face-up cards, its takes
(who took which cards with which word), the scores, the challenge in force and the hourglass; a
turn-based game's public board or table, the scores, whose turn and the last moves. It is built
from the game's *public* snapshot (``snapshot(None)``) and the messages the channel was sent, so
no hand, rack or private list can reach it. (The watchers of a game with a page of its own,
:mod:`adapters.web.pages`, open that page, built for a watcher: no rack, no hand.)

**Coalesced updates.** A race changes many times a second (a take is an announcement, a table, a
reaction, a flip…). The watchers of a game share one :class:`Feed`: a single task renders the
game's live part when it changed, hands the same bytes to every watcher's channel, then lets
changes gather for :data:`WINDOW` seconds before rendering again. So a burst of changes costs one
rendering, a watcher gets the latest state within ``WINDOW`` plus one rendering, and a slow
watcher never holds the others up (each channel sends the newest update when it is ready,
skipping any it missed).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Any

import jinja2
from aiohttp import web

from adapters.web.companion import GameGone, WebCompanion
from adapters.web.links import chat_of
from adapters.web.live import sse
from adapters.web.models import CellModel, PageModel, SeatModel, cells
from adapters.web.pages import live_of, named, page_of
from bot.core.clock import Clock
from bot.sessions.session import Session
from games.common.grammar import is_you
from games.common.protocol import Snapshot
from games.common.speech import N_, _, _n, current, speaking
from games.common.text import plain
from storage.weblinks import Grant

log = logging.getLogger(__name__)

#: Seconds a game's changes gather before its watchers' next rendering (the coalescing window).
WINDOW = 0.25
#: Games whose last watch view is kept for pages still open when the game ends.
KEEP = 1000
COLOURS = {"red": "red", "blue": "blue", "yellow": "yellow", "green": "green"}
#: The cards' colours, as a card's accessible name says them.
COLOUR_NAMES = {"red": N_("red"), "blue": N_("blue"), "yellow": N_("yellow"), "green": N_("green")}


@dataclass(frozen=True, slots=True)
class CardModel:
    """One face-up card, as a watcher's page shows it."""

    letter: str
    colour: str
    points: int
    owner: str  # the name of the player whose stack it came from ("" for none)
    under: int
    #: Its whole name for people who cannot see it: "Q, red, 10 points, Ann's card, 2 underneath".
    label: str


@dataclass(frozen=True, slots=True)
class WatchModel:
    """Everything a watcher's page shows: only what the channel sees."""

    title: str
    game_id: str
    game: str  # the game's registry name
    realtime: bool
    cards: tuple[CardModel, ...]
    board: tuple[tuple[CellModel, ...], ...]
    seats: tuple[SeatModel, ...]
    lines: tuple[str, ...]
    deadline: float | None
    log: tuple[str, ...]  # the last plays, oldest first
    ended: str = ""

    @property
    def latest(self) -> str:
        """The newest play (a take, a move), announced politely to screen readers."""
        return plain(self.log[-1]) if self.log else ""


def watch_model(
    session: Session, snapshot: Snapshot, log_lines: tuple[str, ...], *, ended: str = ""
) -> WatchModel:
    """A watcher's view of ``session``'s game from its public ``snapshot``."""
    names = {seat: plain(name) for seat, name in session.names().items()}
    cards = tuple(
        _card(
            face.letter,
            COLOURS.get(face.colour, ""),
            face.points,
            names.get(face.owner or "", ""),
            face.under,
        )
        for face in snapshot.cards
    )
    return WatchModel(
        title=plain(snapshot.title),
        game_id=session.game_id,
        game=session.info.name,
        realtime=session.info.realtime,
        cards=cards,
        board=cells(snapshot),
        seats=tuple(
            SeatModel(plain(s.name), s.score, plain(s.detail), s.active and not ended, False)
            for s in snapshot.seats
        ),
        lines=tuple(plain(line) for line in snapshot.lines if line.strip()),
        deadline=None if ended else snapshot.deadline,
        log=log_lines,
        ended=ended,
    )


def _card(letter: str, colour: str, points: int, owner: str | None, under: int) -> CardModel:
    parts = [letter or _("blank")]
    if colour:
        parts.append(_(COLOUR_NAMES[colour]) if colour in COLOUR_NAMES else colour)
    parts.append(_n("{count} point", "{count} points", points))
    if owner:
        parts.append(_("your card") if is_you(owner) else _("{name}'s card", name=owner))
    if under:
        parts.append(_n("{count} underneath", "{count} underneath", under))
    return CardModel(letter, colour, points, owner or "", under, ", ".join(parts))


def ended_model(last: WatchModel | None, page: PageModel, game_id: str, result: str) -> WatchModel:
    """A finished game's watch view: its final scores and last plays (from the companion's
    record of it), the cards as they were last shown."""
    return WatchModel(
        title=page.title,
        game_id=game_id,
        game=last.game if last else "",
        realtime=last.realtime if last else False,
        cards=last.cards if last else (),
        board=page.board,
        seats=tuple(replace_active(s) for s in page.seats),
        lines=(),
        deadline=None,
        log=page.log,
        ended=result,
    )


def replace_active(seat: SeatModel) -> SeatModel:
    """A seat of a finished game (nobody's turn)."""
    return SeatModel(seat.name, seat.score, seat.detail, False, False)


@dataclass
class Feed:
    """One game's live update, shared by its watchers' channels."""

    grant: Grant
    #: The language its watchers read (a feed per game and language).
    language: str = "en"
    #: How many updates were published (a channel sends the newest when it is behind).
    version: int = 0
    update: bytes = b""
    #: The last update: the game ended (or is gone), the channels close after sending it.
    final: bool = False
    #: Set (and replaced) at each publication.
    fresh: asyncio.Event = field(default_factory=asyncio.Event)
    watchers: int = 0
    renders: int = 0
    task: asyncio.Task[None] | None = None


class Watching:
    """The watchers' pages and live channels of every game this process serves."""

    def __init__(
        self,
        companion: WebCompanion,
        templates: jinja2.Environment,
        clock: Clock,
        *,
        window: float = WINDOW,
        pause: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self.companion = companion
        self.templates = templates
        self.clock = clock
        #: The coalescing window, and how it is waited (tests inject their own pause).
        self.window = window
        self.pause = pause
        self.feeds: dict[tuple[str, str], Feed] = {}
        self.closing = False  # (the server is stopping: streams end)
        #: Each game's last watch view (for a page still open, or opened, after it ends).
        self.last: dict[str, WatchModel] = {}

    # ------------------------------------------------------------ what a watcher sees

    def has_own_page(self, grant: Grant) -> bool:
        """Whether ``grant``'s game has a page of its own that its watchers share with its players
        (a game whose registry entry names a page: :mod:`adapters.web.pages`), served and kept
        live by the server; the others (the race) are watched here."""
        session = self.companion.session_for(grant)
        if session is not None:
            return page_of(session.info) is not None
        ended = self.companion.ended.get(grant.game_id)
        return ended is not None and named(ended[0].game) is not None

    def model(self, grant: Grant) -> WatchModel:
        """What ``grant``'s watcher sees now (a finished game's last view; else :class:`GameGone`)."""
        ended = self.companion.ended.get(grant.game_id)
        last = self.last.get(grant.game_id)
        if ended is not None:
            return ended_model(last, ended[0], grant.game_id, ended[1])
        session = self.companion.session_for(grant)
        if session is None:
            if last is None:
                raise GameGone(_("This game is not running here any more. Open a fresh link from the chat."))
            # ended without a result (stopped, voided): as it was last seen, with how it ended
            plays = tuple(self.companion.moves.get(chat_of(grant), last.log))
            seats = tuple(replace_active(s) for s in last.seats)
            return replace(last, ended=_("This game has ended."), deadline=None, seats=seats, log=plays)
        plays = tuple(self.companion.moves.get(session.chat, session.state.said_before))
        model = watch_model(session, session.snapshot(None), plays)
        self.last[grant.game_id] = model
        while len(self.last) > KEEP:
            self.last.pop(next(iter(self.last)))
        return model

    def page(self, grant: Grant) -> web.Response | None:
        """A watcher's page of a game without a page of its own (None: it has one; the server
        shows that one)."""
        if not grant.watcher or self.has_own_page(grant):
            return None
        try:
            model = self.model(grant)
        except GameGone as exc:
            return self._render("gone.html", {"reason": str(exc)}, status=410)
        return self._render("watch.html", {"m": model, "now": self.clock.now()})

    def _render(self, template: str, context: dict[str, Any], *, status: int = 200) -> web.Response:
        html = self.templates.get_template(template).render(context)
        return web.Response(text=html, content_type="text/html", status=status)

    def _live(self, grant: Grant) -> tuple[str, bool]:
        """The live part of ``grant``'s watch page now, and whether the game has ended."""
        if self.has_own_page(grant):
            page = self.companion.model(grant)
            context = {"m": page, "now": self.clock.now()}
            return self.templates.get_template(live_of(page.game)).render(context), bool(page.ended)
        model = self.model(grant)
        return self.templates.get_template("watch_live.html").render({"m": model}), bool(model.ended)

    # ------------------------------------------------------------ the live channel

    async def stream(self, grant: Grant, response: web.StreamResponse, heartbeat: float) -> None:
        """Send ``grant``'s watcher each newest update of its game (the shared feed's), until
        the game ends or the page goes; a comment every ``heartbeat`` seconds of quiet."""
        feed = self._join(grant)
        seen = 0
        try:
            while not self.closing:
                if feed.version > seen:
                    seen = feed.version
                    await response.write(feed.update)
                    if feed.final:
                        return
                    continue
                try:  # (a timeout in this task: no task of its own per wait, as wait_for makes)
                    async with asyncio.timeout(heartbeat):
                        await feed.fresh.wait()
                except TimeoutError:
                    await response.write(b": still here\n\n")
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self._leave(feed)

    def close(self) -> None:
        """The server is stopping: every watcher's stream ends now."""
        self.closing = True
        for feed in self.feeds.values():
            feed.fresh.set()

    def _join(self, grant: Grant) -> Feed:
        key = (grant.game_id, current())
        feed = self.feeds.get(key)
        if feed is None or (feed.final and feed.task is None):
            feed = self.feeds[key] = Feed(grant, current())
            feed.task = asyncio.ensure_future(self._publish(feed))
        feed.watchers += 1
        return feed

    def _leave(self, feed: Feed) -> None:
        feed.watchers -= 1
        if feed.watchers <= 0:
            if feed.task is not None:
                feed.task.cancel()
                feed.task = None
            key = (feed.grant.game_id, feed.language)
            if self.feeds.get(key) is feed:
                del self.feeds[key]

    async def _publish(self, feed: Feed) -> None:
        """The feed's one renderer: at each change (gathered over the window), one rendering."""
        with speaking(feed.language):
            await self._published(feed)

    async def _published(self, feed: Feed) -> None:
        wake = self.companion.follow(feed.grant)
        wake.set()  # the current state first
        try:
            while True:
                await wake.wait()
                wake.clear()
                try:
                    html, final = self._live(feed.grant)
                    update = sse("state", {"html": html, "ended": final})
                except GameGone as exc:
                    update, final = sse("gone", {"reason": str(exc)}), True
                except (
                    Exception
                ):  # a rendering that fails must not end the feed: try again at the next change
                    log.exception("could not render the watch view of game %s", feed.grant.game_id)
                    continue
                feed.version += 1
                feed.renders += 1
                feed.update, feed.final = update, final
                fresh, feed.fresh = feed.fresh, asyncio.Event()
                fresh.set()
                if final:
                    feed.task = None
                    return
                await self.pause(self.window)
        finally:
            self.companion.unfollow(feed.grant, wake)
