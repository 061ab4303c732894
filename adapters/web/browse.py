"""Browsing a workspace on the web: leaderboards, player pages, replays.

A workspace whose admin turned the web on (``config web on``) has a random token, and its pages
live under ``/w/<token>/`` (:mod:`storage.browse`); ``config web off`` forgets the token, so every
page of it, old links included, answers 404. Routes (``T`` is the token):

- ``GET /w/T/``: a leaderboard (``?game=&period=&season=&lang=&by=rating``), read with the very
  queries ``leaderboard`` uses in chat;
- ``GET /w/T/p/USER``: a player's page: record per game, ratings and their trend, best words,
  recent games;
- ``GET /w/T/games``: the finished games whose logs are kept (voided games never);
- ``GET /w/T/r/GAME?step=N``: a finished game replayed from its log, step by step (links and
  the arrow keys): the public table only;
- ``GET /w/T/tournaments…``: the workspace's tournaments (:mod:`adapters.web.tournaments`).

Every page is read from the database at each request (``forget-me`` and ``purge`` take a person
off every page at once), rendered server-side by the companion's Jinja2 environment (autoescaped)
and hardened like every page of the companion (strict CSP, no inline script, no Referer).
"""

from __future__ import annotations

import logging
import math
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from aiohttp import web

from adapters.web.i18n import accepted, page_language
from adapters.web.replay import Replay, replay
from adapters.web.server import TEMPLATES, Handler, hardened
from adapters.web.tournaments import TournamentPages
from adapters.web.wiring import Mounts
from bot.core.clock import Clock
from bot.core.ratings import PROVISIONAL_GAMES, is_provisional, number
from bot.core.registry import Registry
from bot.features.workspace_settings import setting_values
from games.common.languages import LANGUAGES
from games.common.speech import N_, _, _n, current, speaking
from storage.browse import BrowseStore, browse_of
from storage.periods import PERIODS
from storage.records import LeaderboardRow
from storage.tournament_records import TournamentStore

if TYPE_CHECKING:
    from bot.features.workspace import Workspace
    from storage.base import Store

log = logging.getLogger(__name__)

#: Rows a leaderboard page shows (chat shows the first 10 of the same query).
BOARD_ROWS = 50
#: Replays kept rendered in memory (a replay is rebuilt from its log when it is not).
REPLAYS_KEPT = 32
#: Pages an address may load in a burst, then per second (behind a proxy every visitor shares the
#: proxy's address: generous, only against a runaway client).
PAGE_BURST, PAGE_RATE = 120, 20.0
#: Games a player's page and the games' list show.
RECENT_GAMES, LISTED_GAMES = 10, 50


#: How the rating scale reads, under a board of ratings (as ``leaderboard … rating`` says it).
def scale() -> str:
    """How the rating scale reads, in the language spoken."""
    return _n(
        "A newcomer starts at {start}; a rating is provisional for its first game.",
        "A newcomer starts at {start}; a rating is provisional for its first {count} games.",
        PROVISIONAL_GAMES,
        start=1000,
    )


PERIOD_NAMES = {
    "day": N_("today"),
    "week": N_("this week"),
    "month": N_("this month"),
    "season": N_("this season"),
    "all": N_("all time"),
}


@dataclass
class Allowance:
    """One address's allowance of pages (a token bucket on the injected clock)."""

    tokens: float
    at: float

    def take(self, now: float, burst: float, rate: float) -> bool:
        """Take one page's token; False when the address is over its allowance."""
        self.tokens = min(burst, self.tokens + (now - self.at) * rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One line of a leaderboard page."""

    rank: int
    user_id: str
    name: str
    points: str
    games: int
    wins: int
    best: str


class BrowseServer:
    """The browsing pages of every workspace that turned its web on."""

    def __init__(self, store: Store, registry: Registry, clock: Clock) -> None:
        found = browse_of(store)
        if found is None:
            raise ValueError("this store keeps no web pages (storage.browse)")
        self.store = store
        self.browse: BrowseStore = found
        self.registry = registry
        self.clock = clock
        self.replays: OrderedDict[tuple[str, str], Replay] = OrderedDict()
        self.buckets: dict[str, Allowance] = {}
        #: Pages an address may load in a burst, then per second.
        self.burst, self.rate = float(PAGE_BURST), PAGE_RATE
        kept = getattr(store, "tournaments", None)
        #: The tournament pages (None: this store keeps no tournaments).
        self.tournaments = TournamentPages(self, kept) if isinstance(kept, TournamentStore) else None

    def app(self) -> web.Application:
        """The browsing routes as an application (run it, or mount it on the process's server)."""
        app = web.Application()
        self.add_routes(app)
        return app

    def add_routes(self, app: web.Application) -> None:
        """Add the browsing routes to ``app`` (a test serves them next to a game's pages)."""
        for path, handler in (
            ("/w/{token}", self.slash),
            ("/w/{token}/", self.leaderboard),
            ("/w/{token}/p/{user}", self.player),
            ("/w/{token}/games", self.games),
            ("/w/{token}/r/{game}", self.replay),
            *(self.tournaments.routes() if self.tournaments is not None else ()),
        ):
            app.router.add_route("GET", path, hardened(self.spoken(handler)))

    def spoken(self, handler: Handler) -> Handler:
        """``handler`` answering in the reader's language (``Accept-Language``) where a catalogue
        speaks it, else in the workspace's (its ``language`` setting): docs/LANGUAGES.md."""

        async def handle(request: web.Request) -> web.StreamResponse:
            with speaking(await self.language(request)):
                return await handler(request)

        return handle

    async def language(self, request: web.Request) -> str:
        """The language of ``request``'s page."""
        liked = accepted(request.headers.get("Accept-Language"))
        if liked is not None:
            return liked
        found = await self.browse.workspace(request.match_info.get("token", ""))
        if found is None:
            return "en"
        raw = await self.store.get_settings(found[0], found[1])
        return page_language(None, str(setting_values(raw)["language"]))

    # ------------------------------------------------------------ helpers

    def render(self, template: str, context: dict[str, Any], *, status: int = 200) -> web.Response:
        """A page, rendered with autoescaping."""
        html = TEMPLATES.get_template(template).render(
            {"has_tournaments": self.tournaments is not None, **context}
        )
        return web.Response(text=html, content_type="text/html", status=status)

    async def workspace_of(self, request: web.Request) -> tuple[str, str, str]:
        """(platform, workspace id, base path) of the request's token, or a 404 page; each
        address is allowed a burst of requests, then a few a second."""
        remote = request.remote or ""
        bucket = self.buckets.setdefault(remote, Allowance(self.burst, self.clock.now()))
        if not bucket.take(self.clock.now(), self.burst, self.rate):
            raise web.HTTPTooManyRequests(text=_("Slow down a little: too many requests."))
        if len(self.buckets) > 10_000:
            self.buckets.clear()
        token = request.match_info["token"]
        found = await self.browse.workspace(token)
        if found is None:
            raise self.missing()
        return found[0], found[1], f"/w/{token}/"

    def missing(self, **what: bool) -> web.HTTPNotFound:
        """The 404 page (``what``: ``player=True``, ``game=True``, ``tournament=True``)."""
        return web.HTTPNotFound(
            text=TEMPLATES.get_template("browse/missing.html").render(what), content_type="text/html"
        )

    def _title(self, game: str) -> str:
        info = self.registry.find(game)
        return info.title if info is not None else game

    def _games(self) -> list[tuple[str, str]]:
        return [(info.name, info.title) for info in self.registry]

    # ------------------------------------------------------------ pages

    async def slash(self, request: web.Request) -> web.StreamResponse:
        """``/w/T``: the leaderboard's own address ends with a slash."""
        _platform, _workspace, base = await self.workspace_of(request)
        raise web.HTTPFound(base)

    async def leaderboard(self, request: web.Request) -> web.Response:
        """A leaderboard by game, period or season, language, or by rating: the chat's queries."""
        platform, workspace, base = await self.workspace_of(request)
        query = request.query
        info = self.registry.find(query.get("game", "")) if query.get("game") else None
        game = info.name if info is not None else ""
        lang = query.get("lang", "")
        lang = lang if lang in LANGUAGES else ""
        by = "rating" if query.get("by") == "rating" else "points"
        period = query.get("period", "all")
        period = period if period in PERIODS else "all"
        seasons = await self.store.seasons(platform, workspace)
        current = seasons[-1].number if seasons else 1
        season = _int(query.get("season", ""))
        if season is not None and not any(s.number == season for s in seasons) and season != current:
            season = None
        rows: list[BoardRow]
        if by == "rating":
            chosen = info or self.registry.default
            if not lang:
                has_language = any(spec.name == "language" for spec in chosen.options)
                raw = await self.store.get_settings(platform, workspace)
                lang = str(setting_values(raw)["language"]) if has_language else "en"
            game = chosen.name
            rated = await self.store.rating_board(platform, workspace, game, lang, BOARD_ROWS)
            rows = [
                BoardRow(
                    r.rank,
                    r.user_id,
                    r.display_name,
                    _("{rating} (provisional)", rating=number(r.rating))
                    if is_provisional(r.games)
                    else number(r.rating),
                    r.games,
                    r.wins,
                    "",
                )
                for r in rated
            ]
            caption = _(
                "Ratings — {game} ({language})", game=self._title(game), language=_language_name(lang)
            )
        else:
            found: list[LeaderboardRow]
            if season is not None:
                found = await self.store.season_leaderboard(
                    platform, workspace, game or None, season, BOARD_ROWS, language=lang or None
                )
                when = _("season {number}", number=season)
            else:
                found = await self.store.leaderboard(
                    platform,
                    workspace,
                    game or None,
                    period,
                    datetime.now(UTC),
                    BOARD_ROWS,
                    language=lang or None,
                )
                when = _(PERIOD_NAMES[period])
            rows = [
                BoardRow(
                    r.rank, r.user_id, r.display_name, str(r.points), r.games, r.wins, r.best_word.upper()
                )
                for r in found
            ]
            shown = self._title(game) if game else _("all games")
            if lang:
                caption = _(
                    "Leaderboard — {game}, {period}, in {language}",
                    game=shown,
                    period=when,
                    language=_language_name(lang),
                )
            else:
                caption = _("Leaderboard — {game}, {period}", game=shown, period=when)
        return self.render(
            "browse/leaderboard.html",
            {
                "base": base,
                "caption": caption,
                "rows": rows,
                "by": by,
                "game": game,
                "period": period,
                "season": season,
                "lang": lang,
                "games": self._games(),
                "periods": [(key, _(name)) for key, name in PERIOD_NAMES.items()],
                "seasons": [s.number for s in seasons] or [1],
                "languages": [(code, language.spoken) for code, language in LANGUAGES.items()],
                "scale": scale(),
            },
        )

    async def player(self, request: web.Request) -> web.Response:
        """A player's page: record per game, ratings and trend, best words, recent games."""
        platform, workspace, base = await self.workspace_of(request)
        user_id = request.match_info["user"]
        page = (
            await self.browse.player(platform, workspace, user_id, recent=RECENT_GAMES)
            if len(user_id) < 100
            else None
        )
        if page is None:
            raise self.missing(player=True)
        ratings = await self.store.player_ratings(platform, workspace, user_id)
        trends = [
            {
                "title": _(
                    "{game} ({language})", game=self._title(r.game), language=_language_name(r.language)
                ),
                "rating": number(r.rating),
                "provisional": is_provisional(r.games),
                "games": r.games,
                "wins": r.wins,
                "trend": [number(x) for x in r.trend],
                "change": _change(r.trend),
                "points": _sparkline(r.trend),
                "leaderboard": "?" + urlencode({"by": "rating", "game": r.game, "lang": r.language}),
            }
            for r in ratings
        ]
        return self.render(
            "browse/player.html",
            {
                "base": base,
                "p": page,
                "ratings": trends,
                "title": self._title,
                "when": _when,
            },
        )

    async def games(self, request: web.Request) -> web.Response:
        """The workspace's finished games whose logs are kept, newest first."""
        platform, workspace, base = await self.workspace_of(request)
        found = await self.browse.finished_games(platform, workspace, limit=LISTED_GAMES)
        return self.render(
            "browse/games.html", {"base": base, "games": found, "title": self._title, "when": _when}
        )

    async def replay(self, request: web.Request) -> web.Response:
        """A finished game, step by step from its log: the public table after each move."""
        platform, workspace, base = await self.workspace_of(request)
        game_id = request.match_info["game"]
        shown = await self._replay(platform, workspace, game_id)
        if shown is None:
            raise self.missing(game=True)
        last = len(shown.steps) - 1
        step = min(max(_int(request.query.get("step", "")) or 0, 0), last)
        return self.render(
            "browse/replay.html",
            {"base": base, "r": shown, "n": step, "last": last, "s": shown.steps[step]},
        )

    async def _replay(self, platform: str, workspace: str, game_id: str) -> Replay | None:
        """The replay of a finished game of the workspace whose log is kept (read afresh, so a
        game forgotten or purged since is gone; its steps are kept a while)."""
        stored = await self.browse.finished_game(platform, workspace, game_id)
        if stored is None:
            for key in [key for key in self.replays if key[0] == game_id]:
                self.replays.pop(key, None)
            return None
        kept = self.replays.get((game_id, current()))  # (a replay speaks its reader's language)
        if kept is not None:
            self.replays.move_to_end((game_id, current()))
            return kept
        info = self.registry.find(stored.record.game)
        if info is None:
            return None
        try:
            made = replay(info, stored)
        except Exception:  # a log this version cannot replay: said so, not a crash
            log.exception("could not replay game %s", game_id)
            return None
        self.replays[(game_id, current())] = made
        while len(self.replays) > REPLAYS_KEPT:
            self.replays.popitem(last=False)
        return made


def browse_for(
    public_url: str, store: Store, registry: Registry, workspace: Workspace, clock: Clock, http: Mounts | None
) -> BrowseServer | None:
    """With ``public_url`` and a server to mount on: serve the browsing pages there, and have
    ``leaderboard`` and ``stats`` offer their link (a workspace whose web is on). Else None."""
    if not public_url or http is None or browse_of(store) is None:
        return None
    server = BrowseServer(store, registry, clock)
    http.mount(server.app())
    workspace.web_url = public_url
    return server


def _int(text: str) -> int | None:
    try:
        value = int(text)
    except ValueError:
        return None
    return value if 0 <= value < 1_000_000 else None


def _language_name(code: str) -> str:
    found = LANGUAGES.get(code)
    return found.name if found is not None else code


def _when(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _change(trend: tuple[float, ...]) -> str:
    if len(trend) < 2:
        return _("first rated game")
    change = round(trend[-1]) - round(trend[0])
    games = len(trend) - 1
    if change > 0:
        return _n(
            "up {change} over the last game", "up {change} over the last {count} games", games, change=change
        )
    if change < 0:
        return _n(
            "down {change} over the last game",
            "down {change} over the last {count} games",
            games,
            change=-change,
        )
    return _n("level over the last game", "level over the last {count} games", games)


def _sparkline(trend: tuple[float, ...], width: int = 120, height: int = 28) -> str:
    """The trend as an SVG polyline's points (drawn by attributes: no inline style)."""
    if len(trend) < 2:
        return ""
    low, high = min(trend), max(trend)
    span = (high - low) or 1.0
    step = width / (len(trend) - 1)
    return " ".join(
        f"{i * step:.1f},{height - 2 - (value - low) / span * (height - 4):.1f}"
        for i, value in enumerate(trend)
        if math.isfinite(value)
    )
