"""The web companion's HTTP side: pages, the live channel, moves — on aiohttp.

Routes (``G`` is a game id):

- ``GET /g/G``: the game's page when the request carries the game's session cookie (its own page,
  from its folder, :mod:`adapters.web.pages`; a watcher of a game without one gets
  :mod:`adapters.web.watch`'s page); else the opening page, whose script
  posts the link's secret (the URL's fragment) to ``/g/G/session``;
- ``POST /g/G/session``: a link's secret, once, for a session cookie (HttpOnly, SameSite=Strict,
  path ``/g/G``; Secure behind https);
- ``GET /g/G/events``: Server-Sent Events, each the page's new live part (rendered for its viewer;
  a game's watchers share one coalesced feed, :class:`adapters.web.watch.Watching`);
- ``POST /g/G/preview``, ``POST /g/G/move``: a move's preview; a move (both written by the game's
  page's view, :mod:`games.common.page`), judged by the game;
- ``GET /static/…``: the page's own scripts and styles (no CDN, no bundler).

A request for a game another process runs is passed on to that process (:mod:`adapters.web.proxy`).

Every response carries a strict Content-Security-Policy (``'self'``, no inline script or style),
``Referrer-Policy: no-referrer`` and ``nosniff``; every POST and the live channel refuse another
site's ``Origin``; each session has its own rate limit.

The routes are an application of their own, which a process mounts on its one HTTP server
(:meth:`bot.process.health.HealthServer.mount`, which runs no middleware of a mounted app): so each
handler hardens its own response, and pages are rendered by the server's own Jinja2
environment (autoescaping), never through the request's application.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
from aiohttp import web

from adapters.web import pages
from adapters.web.companion import GameGone, WebCompanion
from adapters.web.i18n import install, page_language
from adapters.web.links import SESSION_TTL, chat_of
from adapters.web.live import MARKS, Rendered, cut, sse
from adapters.web.models import PageModel
from adapters.web.proxy import GONE, MOVING, PageProxy, Peer
from adapters.web.text import web_html
from adapters.web.watch import Watching
from bot.core.clock import Clock
from games.common.page import BadRequest
from games.common.speech import N_, _, _n, current, speaking
from storage.weblinks import Grant

log = logging.getLogger(__name__)

HERE = Path(__file__).parent
COOKIE = "moji_page"
CSP = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: Seconds between keep-alive comments on a quiet live channel (proxies close idle streams).
HEARTBEAT = 15.0
#: Milliseconds a page's live channel waits before it reconnects (EventSource's ``retry``).
RECONNECT_MS = 1000
#: What a page is told while its game changes hands (its owner died; another adopts it).
MOVING_TEXT = N_("This game is moving to another moji process: one moment…")
#: Requests a session may make in a burst, then per second (previews, moves, live channels).
BURST, RATE = 30, 5.0


@dataclass
class Bucket:
    """One session's allowance (a token bucket on the injected clock)."""

    tokens: float
    at: float

    def take(self, now: float) -> bool:
        """Take one request's token; False when the session is over its allowance."""
        self.tokens = min(BURST, self.tokens + (now - self.at) * RATE)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class WebServer:
    """The companion's aiohttp application (mount it with :meth:`routes`, or run :meth:`app`)."""

    def __init__(
        self, companion: WebCompanion, clock: Clock, public_url: str, proxy: PageProxy | None = None
    ) -> None:
        self.companion = companion
        self.clock = clock
        #: Passes requests for games other processes run on to them (None: one process only).
        self.proxy = proxy
        self.origin = ""
        self.secure = False
        self.public_url(public_url)
        self.buckets: dict[str, Bucket] = {}
        #: Each game's watchers' live part, shared: game id -> its latest rendering.
        self.watching: dict[tuple[str, str], Rendered] = {}
        #: Watchers' pages and live channels (adapters/web/watch.py): one coalesced feed per game.
        self.watch = Watching(companion, TEMPLATES, clock)
        #: The wake-up of each live channel open here (set all at once when the server stops).
        self.live: set[asyncio.Event] = set()
        self.closing = False

    def public_url(self, url: str) -> None:
        """The base of every link (``PUBLIC_URL``): its origin is the one pages come from."""
        split = urlsplit(url)
        self.origin = f"{split.scheme}://{split.netloc}"
        self.secure = split.scheme == "https"

    def app(self) -> web.Application:
        """The companion's routes as an application (run it, or mount it on the process's server)."""
        app = web.Application()
        for method, path, handler in (
            ("GET", "/g/{game}", self.page),
            ("POST", "/g/{game}/session", self.open_session),
            ("GET", "/g/{game}/events", self.events),
            ("POST", "/g/{game}/preview", self.preview),
            ("POST", "/g/{game}/move", self.move),
            ("GET", "/static/{name}", self.static),
        ):
            app.router.add_route(method, path, hardened(self.spoken(handler)))
        app.on_shutdown.append(self.end_live_channels)
        return app

    async def end_live_channels(self, app: web.Application | None = None) -> None:
        """The server is stopping: every live channel ends now rather than hold the stop up
        (the pages reconnect, to whichever process runs their game next)."""
        self.closing = True
        for wake in self.live:
            wake.set()
        self.watch.close()
        if self.proxy is not None:
            await self.proxy.close()  # (a live channel passed on to another process ends too)

    def language(self, request: web.Request) -> str:
        """The language of ``request``'s answer: the browser's (``Accept-Language``) where a
        catalogue speaks it, else the language its game's chat speaks (docs/LANGUAGES.md)."""
        game = request.match_info.get("game", "")
        return page_language(request.headers.get("Accept-Language"), self.companion.languages.get(game))

    def spoken(self, handler: Handler) -> Handler:
        """``handler`` answering in :meth:`language` (pages, live updates, refusals)."""

        async def handle(request: web.Request) -> web.StreamResponse:
            with speaking(self.language(request)):
                return await handler(request)

        return handle

    def render(self, template: str, context: dict[str, Any], *, status: int = 200) -> web.Response:
        """A page, rendered with autoescaping."""
        html = TEMPLATES.get_template(template).render(context)
        return web.Response(text=html, content_type="text/html", status=status)

    async def static(self, request: web.Request) -> web.Response:
        """One of the pages' own files (scripts, styles, icon) or a game's page's script or styles
        (:mod:`adapters.web.pages`): a fixed list, nothing else."""
        name = request.match_info["name"]
        found = STATIC.get(name)
        if found is None:
            asset = pages.asset(name)
            if asset is None:
                raise web.HTTPNotFound()
            found = (asset, _KINDS[Path(name).suffix])
        body, kind = found
        return web.Response(body=body, content_type=kind, headers={"Cache-Control": "public, max-age=300"})

    # ------------------------------------------------------------ checks

    def _same_origin(self, request: web.Request) -> bool:
        """A POST or live channel from a page of ours: no other site's Origin, and the browser's
        own word (``Sec-Fetch-Site``) where it gives it."""
        origin = request.headers.get("Origin")
        if origin is not None and origin not in (self.origin, _request_origin(request)):
            return False
        site = request.headers.get("Sec-Fetch-Site")
        return site is None or site in ("same-origin", "none")

    async def _grant(self, request: web.Request) -> Grant:
        """The session's grant for this request's game, or an HTTP error saying why not."""
        secret = request.cookies.get(COOKIE, "")
        grant = await self.companion.links.session(secret)
        if grant is None:
            raise _json_error(401, _("Your page's session has ended: open a fresh link from the chat."))
        if grant.game_id != request.match_info["game"]:
            raise _json_error(
                403, _("This session is for another game: open this game's link from its chat.")
            )
        bucket = self.buckets.setdefault(secret, Bucket(BURST, self.clock.now()))
        if not bucket.take(self.clock.now()):
            raise _json_error(429, _("Slow down a little: too many requests from this page."))
        if len(self.buckets) > 10_000:
            self.buckets.clear()
        return grant

    async def _body(self, request: web.Request) -> dict[str, Any]:
        if not self._same_origin(request):
            raise _json_error(403, _("Requests come from moji's own pages only."))
        if request.content_type != "application/json":
            raise _json_error(415, _("Send JSON."))
        if request.content_length is not None and request.content_length > 4096:
            raise _json_error(413, _("That request is too large."))
        try:
            body = await request.json()
        except (ValueError, UnicodeDecodeError):
            raise _json_error(400, _("That request is not JSON.")) from None
        if not isinstance(body, dict):
            raise _json_error(400, _("That request is not a JSON object."))
        return body

    # ------------------------------------------------------------ pages

    async def page(self, request: web.Request) -> web.StreamResponse:
        """The game's page, or the opening page that trades the link's secret for a session."""
        game = request.match_info["game"]
        grant = await self.companion.links.session(request.cookies.get(COOKIE, ""))
        if grant is None or grant.game_id != game:
            return self.render("open.html", {"game": game})
        away = await self._away(request, grant)
        if away is not None:
            return away
        watched = self.watch.page(grant)  # (a watcher of a game without a page of its own)
        if watched is not None:
            return watched
        try:
            model = self.companion.model(grant)
        except GameGone as exc:
            return self.render("gone.html", {"reason": str(exc)}, status=410)
        page = TEMPLATES.get_template(pages.template_of(model.game)).render(self._context(model))
        return web.Response(text=MARKS.sub("", page), content_type="text/html")

    def _context(self, model: PageModel) -> dict[str, Any]:
        # (script_game: base.html gives the page's script its game's messages)
        return {"m": model, "now": self.clock.now(), "script_game": model.game}

    async def open_session(self, request: web.Request) -> web.Response:
        """A link's secret, once, for this game's session cookie."""
        body = await self._body(request)
        secret = body.get("token")
        opened = await self.companion.links.open(secret if isinstance(secret, str) else "")
        if opened is None:
            raise _json_error(
                403, _("This link has been used already, or has expired: ask for a fresh one in the chat.")
            )
        if opened.grant.game_id != request.match_info["game"]:
            raise _json_error(403, _("This link is for another game."))
        response = web.json_response({"ok": True})
        response.set_cookie(
            COOKIE,
            opened.secret,
            path=f"/g/{opened.grant.game_id}",
            httponly=True,
            samesite="Strict",
            secure=self.secure,
            max_age=int(SESSION_TTL),
        )
        return response

    async def events(self, request: web.Request) -> web.StreamResponse:
        """The live channel: the page's live part, rendered afresh each time its game changes."""
        if not self._same_origin(request):
            raise _json_error(403, _("The live channel is for moji's own pages only."))
        grant = await self._grant(request)
        away = await self._away(request, grant)
        if away is not None:
            return away
        response = await _stream(request)
        if grant.watcher and not self.watch.has_own_page(grant):  # (a race: one coalesced feed)
            await self.watch.stream(grant, response, HEARTBEAT)
            return response
        wake = self.companion.follow(grant)
        self.live.add(wake)
        shown: Rendered | None = None
        try:
            wake.set()  # the current state first
            while not self.closing:
                try:
                    await asyncio.wait_for(wake.wait(), HEARTBEAT)
                except TimeoutError:
                    await response.write(b": still here\n\n")
                    continue
                if self.closing:
                    break
                wake.clear()
                try:
                    update, shown = self._update(grant, shown)
                except GameGone as exc:
                    await response.write(sse("gone", {"reason": str(exc)}))
                    break
                if update is not None:
                    await response.write(update)
                if shown.ended:
                    break
        except (ConnectionResetError, asyncio.CancelledError):
            pass
        finally:
            self.live.discard(wake)
            self.companion.unfollow(grant, wake)
            if chat_of(grant) not in self.companion.pages:
                # (its change count starts again with the next page: a rendering kept under an
                # old count could pass for a new one)
                for key in [key for key in self.watching if key[0] == grant.game_id]:
                    self.watching.pop(key, None)
        return response

    def _render(self, grant: Grant) -> Rendered:
        """The page's live part now, cut into its regions. A player's is rendered for them alone;
        watchers of a game share one rendering per change of it."""
        version = self.companion.versions.get(chat_of(grant), 0)
        if grant.watcher:
            shared = self.watching.get((grant.game_id, current()))
            if shared is not None and shared.version == version:
                return shared
        model = self.companion.model(grant)
        html = TEMPLATES.get_template(pages.live_of(model.game)).render(self._context(model))
        rendered = cut(html, version, bool(model.ended))
        if grant.watcher:
            self.watching[(grant.game_id, current())] = rendered
            while len(self.watching) > 1000:
                self.watching.pop(next(iter(self.watching)))
        return rendered

    def _update(self, grant: Grant, shown: Rendered | None) -> tuple[bytes | None, Rendered]:
        """What a page that shows ``shown`` (None: nothing yet) is sent now: the whole live part
        (``state``), only its changed regions (``patch``), or nothing (None: nothing it shows
        changed); and what it shows then."""
        now = self._render(grant)
        if shown is None or shown.skeleton != now.skeleton:
            return now.state(), now
        if now is shown or (now.regions == shown.regions and now.ended == shown.ended):
            return None, shown
        return now.patch(shown), now

    async def _away(self, request: web.Request, grant: Grant) -> web.StreamResponse | None:
        """The answer to a request whose game another process runs (passed on to it), or that
        is changing hands ("moving": ask again in a moment); None when it is served here (or
        by nobody: the caller says so)."""
        if self.proxy is None:
            return None
        passed_on = self.proxy.passed_on(request)
        if self.companion.session_for(grant) is not None or grant.game_id in self.companion.ended:
            return None
        # (a request passed on here is never passed on again: its game moved meanwhile)
        where = MOVING if passed_on else await self.proxy.where(grant)
        if where == GONE:
            return None
        if isinstance(where, Peer):
            answer = await self.proxy.forward(request, where)
            if answer is not None:
                return answer
        return await self._moving(request)

    async def _moving(self, request: web.Request) -> web.StreamResponse:
        """Answer a page whose game is changing hands: try again in a moment."""
        if request.path.endswith("/events"):
            # a stream that ends at once: the browser's EventSource reconnects after ``retry``
            # (an error status would make it give up)
            response = await _stream(request)
            await response.write(f": {_(MOVING_TEXT)}\n\n".encode())
            return response
        if request.method == "GET":
            page = self.render("gone.html", {"reason": _(MOVING_TEXT)}, status=503)
            page.headers["Refresh"] = "2"
            page.headers["Retry-After"] = "2"
            return page
        raise _json_error(503, _(MOVING_TEXT))

    async def preview(self, request: web.Request) -> web.StreamResponse:
        """What the page's move would do (the words and score placed tiles make…), by the game."""
        body = await self._body(request)
        grant = await self._grant(request)
        away = await self._away(request, grant)
        if away is not None:
            return away
        return await _game_call(self.companion.preview, grant, body)

    async def move(self, request: web.Request) -> web.StreamResponse:
        """A move from the page, judged by the game exactly as a typed one."""
        body = await self._body(request)
        grant = await self._grant(request)
        away = await self._away(request, grant)
        if away is not None:
            return away
        return await _game_call(self.companion.play, grant, body)


async def _game_call(
    call: Callable[[Grant, dict[str, Any]], Any], grant: Grant, body: dict[str, Any]
) -> web.Response:
    """A page's preview or move, written by its game's view: its answer, or the HTTP error saying
    why not."""
    try:
        found = call(grant, body)
        if asyncio.iscoroutine(found):
            found = await found
    except BadRequest as exc:
        raise _json_error(400, str(exc)) from None
    except PermissionError as exc:
        raise _json_error(403, str(exc)) from None
    except GameGone as exc:
        raise _json_error(410, str(exc)) from None
    if isinstance(found, dict):  # a preview
        return web.json_response(scored(found))
    if found is not None:  # the game's refusal, in its own words
        return web.json_response({"ok": False, "reason": found}, status=422)
    return web.json_response({"ok": True})


async def _stream(request: web.Request) -> web.StreamResponse:
    """A live channel's response, started: Server-Sent Events, never buffered or cached, and
    the browser told to reconnect after :data:`RECONNECT_MS` when it ends."""
    response = web.StreamResponse(
        headers={
            "Content-Type": "text/event-stream",
            "Cache-Control": "no-store",
            "X-Accel-Buffering": "no",  # nginx: pass each update on at once
            "X-Content-Type-Options": "nosniff",
        }
    )
    await response.prepare(request)
    await response.write(f"retry: {RECONNECT_MS}\n\n".encode())
    return response


def scored(preview: dict[str, Any]) -> dict[str, Any]:
    """A preview with its score said in the page's language (``points``: "12 points")."""
    score = preview.get("score")
    if isinstance(score, int) and not isinstance(score, bool):
        preview["points"] = _n("{count} point", "{count} points", score)
    return preview


def _request_origin(request: web.Request) -> str:
    return f"{request.scheme}://{request.host}"


def _json_error(status: int, reason: str) -> web.HTTPException:
    """An HTTP error whose body says why, as the page shows it: ``{"ok": false, "reason": …}``."""
    body = json.dumps({"ok": False, "reason": reason})
    if status == 413:
        return web.HTTPRequestEntityTooLarge(
            max_size=4096, actual_size=4097, text=body, content_type="application/json"
        )
    errors: dict[int, type[web.HTTPException]] = {
        400: web.HTTPBadRequest,
        401: web.HTTPUnauthorized,
        403: web.HTTPForbidden,
        410: web.HTTPGone,
        415: web.HTTPUnsupportedMediaType,
        429: web.HTTPTooManyRequests,
        503: web.HTTPServiceUnavailable,
    }
    return errors[status](text=body, content_type="application/json")


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def hardened(handler: Handler) -> Handler:
    """``handler`` whose every response (errors too) carries the security headers: a strict CSP,
    no Referer, no sniffing, no framing, and no caching of anything but static files."""

    async def handle(request: web.Request) -> web.StreamResponse:
        try:
            response = await handler(request)
        except web.HTTPException as exc:
            _harden(exc, request.path)
            raise
        _harden(response, request.path)
        return response

    return handle


def _harden(response: web.StreamResponse, path: str) -> None:
    if response.prepared:  # (the live channel set its own before streaming)
        return
    response.headers["Content-Security-Policy"] = CSP
    response.headers["Referrer-Policy"] = "no-referrer"
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["X-Frame-Options"] = "DENY"
    if not path.startswith("/static/"):
        response.headers.setdefault("Cache-Control", "no-store")


#: The pages' templates (autoescaped).
TEMPLATES = jinja2.Environment(
    loader=jinja2.ChoiceLoader(
        [jinja2.FileSystemLoader(str(HERE / "templates")), jinja2.FunctionLoader(pages.template)]
    ),
    autoescape=True,
    undefined=jinja2.StrictUndefined,
)
TEMPLATES.filters["chat"] = web_html
install(TEMPLATES)
_KINDS = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
#: The page's own files, read once: name -> (bytes, content type).
STATIC: dict[str, tuple[bytes, str]] = {
    path.name: (path.read_bytes(), _KINDS[path.suffix])
    for path in (HERE / "static").iterdir()
    if path.suffix in _KINDS
}
