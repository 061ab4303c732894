"""The process's one HTTP server: health, readiness, metrics, and the platforms' own routes.

``python -m bot`` starts one :class:`HealthServer` on ``HOST:PORT`` in every serving mode
(Discord, Slack Socket Mode, Slack HTTP mode, both); the terminal game needs none.

- ``GET /healthz`` (and ``/health``, kept for existing Slack deployments): 200 while the
  event loop answers, with the number of games and lobbies open. It says nothing about the
  database or the platforms: a process that answers it should not be restarted.
- ``GET /readyz``: 200 when every readiness check passes — the database answers a trivial
  query within :data:`DB_TIMEOUT` seconds, and each running platform is connected — else
  503; the JSON body names each check and its state in a few fixed words (``failing``,
  ``starting``…), never an error's text: that is logged, once per change.
- ``GET /metrics``: :mod:`bot.core.metrics` in Prometheus' text format.

A platform adds its readiness check with :meth:`HealthServer.add_check` and its routes
(Slack's ``/slack/events``, ``/pictures/…``, OAuth) with :meth:`HealthServer.mount`, at
any time, also after the server started. Probe requests are logged at DEBUG only, and no
request's query values are logged at all (:func:`logged_path`).

Slow and greedy clients are bounded by :mod:`bot.process.httpguard` (:class:`~bot.process.httpguard.Limits`):
header, body and idle deadlines, and connections per address.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from aiohttp import web
from aiohttp.web_log import AccessLogger

from bot.core import metrics as metrics_module
from bot.process.httpguard import Guard, Limits

log = logging.getLogger(__name__)

#: Seconds the database has to answer the readiness query.
DB_TIMEOUT = 2.0
#: Seconds any other readiness check has to answer.
CHECK_TIMEOUT = 2.0
#: Paths of the probes, which are not logged at INFO (they come every few seconds).
PROBES = frozenset({"/healthz", "/health", "/readyz", "/metrics"})

#: A readiness check: True (or an awaitable of True) when ready.
Check = Callable[[], bool | Awaitable[bool]]


class Pingable(Protocol):
    """A store that can say whether the database answers (:meth:`storage.base.Store.ping`)."""

    async def ping(self) -> None: ...


def logged_path(request: web.BaseRequest) -> str:
    """The request's path as the access log shows it: query values hidden (``?code=…&state=…``).

    A query can carry secrets (OAuth's one-time ``code`` and ``state``); its keys are enough
    to tell requests apart. A workspace's web pages' private path (``/w/<token>/…``,
    adapters/web/browse.py) is logged without its token.
    """
    path = request.rel_url.raw_path
    if path.startswith("/w/"):
        _, slash, rest = path[3:].partition("/")
        path = "/w/…" + slash + rest
    if not request.query_string:
        return path
    return path + "?" + "&".join(f"{key}=…" for key in request.query)


class ProbeQuietAccessLogger(AccessLogger):
    """aiohttp's access log, with the probes at DEBUG instead of INFO and no query values.

    The line is ``address "METHOD /path?key=… HTTP/1.1" status bytes "user agent" (seconds)``;
    no Referer (Slack's authorize page, which sends people to the OAuth redirect, has the
    ``state`` in its address).
    """

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        if request.path in PROBES:
            if self.logger.isEnabledFor(logging.DEBUG):
                self.logger.debug("%s %s %s (%.4f s)", request.method, request.path, response.status, time)
            return
        if not self.logger.isEnabledFor(logging.INFO):
            return
        version = request.version
        self.logger.info(
            '%s "%s %s HTTP/%d.%d" %d %d "%s" (%.4f s)',
            request.remote or "-",
            request.method,
            logged_path(request),
            version.major,
            version.minor,
            response.status,
            response.body_length,
            request.headers.get("User-Agent", "-"),
            time,
        )


class _Failing:
    """A check that fails for a known reason ("starting", "stopping", "cannot reach …")."""

    def __init__(self, reason: str, *, starting: bool = False) -> None:
        self.reason = reason
        #: The platform is still on its way up (its routes may not be mounted yet).
        self.starting = starting

    def __call__(self) -> bool:
        return False


class HealthServer:
    """One aiohttp server for probes, metrics and the platforms' routes."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        metrics: metrics_module.Metrics | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.host = host
        self.port = port
        #: Slow and greedy clients' limits (:mod:`bot.process.httpguard`).
        self.guard = Guard(limits or Limits())
        #: None: the process's current metrics (:func:`bot.core.metrics.current`) when scraped.
        self.metrics = metrics
        self.checks: dict[str, tuple[Check, float]] = {}
        self._mounted: list[web.Application] = []
        self._runner: web.AppRunner | None = None
        self._listener: asyncio.Server | None = None
        #: Each check's last state, to log a change once.
        self._states: dict[str, str] = {}
        self.app = self._build()

    # ------------------------------------------------------------ what it serves

    def add_check(self, name: str, check: Check, *, timeout: float = CHECK_TIMEOUT) -> None:
        """``/readyz`` also needs ``check()`` to be true (replaces a check of the same name)."""
        self.checks[name] = (check, timeout)

    def expect(self, name: str) -> None:
        """A check that fails ("starting") until :meth:`add_check` replaces it (a platform's)."""
        self.checks.setdefault(name, (_Failing("starting", starting=True), CHECK_TIMEOUT))

    def pending(self, name: str, reason: str) -> None:
        """The check ``name`` fails with ``reason`` while its platform is still starting (e.g.
        "cannot reach Slack (…); trying again in 4 s"), until :meth:`add_check` replaces it."""
        self.checks[name] = (_Failing(reason, starting=True), CHECK_TIMEOUT)

    def fail(self, name: str, reason: str) -> None:
        """The check ``name`` fails with ``reason`` from now on (a platform that stopped…)."""
        self.checks[name] = (_Failing(reason), CHECK_TIMEOUT)

    def starting(self) -> bool:
        """True while a platform :meth:`expect`-ed has not added its own check yet."""
        return any(isinstance(check, _Failing) and check.starting for check, _ in self.checks.values())

    def remove_check(self, name: str) -> None:
        """Forget a check (a platform that stopped)."""
        self.checks.pop(name, None)

    def watch_database(self, store: Pingable, *, timeout: float = DB_TIMEOUT) -> None:
        """``/readyz`` needs the database to answer :meth:`~storage.base.Store.ping` in time."""

        async def database() -> bool:
            await store.ping()
            return True

        self.add_check("database", database, timeout=timeout)

    def mount(self, app: web.Application) -> None:
        """Serve ``app``'s routes too (its shutdown callbacks run with the server's; its startup
        and cleanup signals and middlewares are not run)."""
        self._mounted.append(app)

    def unmount(self, app: web.Application) -> None:
        """Stop serving ``app``'s routes."""
        if app in self._mounted:
            self._mounted.remove(app)

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        """Listen on ``host:port`` (port 0: any free port; :attr:`port` says which)."""
        runner = web.AppRunner(
            self.app,
            access_log_class=ProbeQuietAccessLogger,
            handle_signals=False,
            **self.guard.handler_args(),
        )
        await runner.setup()
        try:
            listener = await self.guard.listen(runner, self.host, self.port)
        except BaseException:
            await runner.cleanup()
            raise
        self._runner, self._listener = runner, listener
        if listener.sockets:  # the port actually bound (PORT=0)
            self.port = int(listener.sockets[0].getsockname()[1])
        log.info("http: listening on %s:%d (/healthz, /readyz, /metrics)", self.host, self.port)

    async def stop(self) -> None:
        """Stop listening, and close the connections still open."""
        runner, self._runner = self._runner, None
        listener, self._listener = self._listener, None
        if listener is not None:
            listener.close()
        self.guard.close()
        if runner is not None:
            await runner.cleanup()

    # ------------------------------------------------------------ handlers

    def _build(self) -> web.Application:
        app = web.Application(middlewares=[self.guard.middleware])
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/health", self._healthz)
        app.router.add_get("/readyz", self._readyz)
        app.router.add_get("/metrics", self._metrics)
        app.router.add_route("*", "/{path:.*}", self._mounted_route)
        app.on_shutdown.append(self._shut_mounted)
        return app

    async def _shut_mounted(self, app: web.Application) -> None:
        """Run the mounted apps' shutdown callbacks (a live channel's end, say) as aiohttp runs
        the server's own: before it waits for the requests still being answered."""
        for mounted in self._mounted:
            for callback in mounted.on_shutdown:
                await callback(mounted)

    def _current_metrics(self) -> metrics_module.Metrics:
        return self.metrics if self.metrics is not None else metrics_module.current()

    async def _healthz(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "games": self._current_metrics().sessions()})

    async def readiness(self) -> tuple[bool, dict[str, str]]:
        """Every check's state (``ok`` or a short fixed reason), all run at once; True when all are ok.

        The states are shown to anyone who asks ``/readyz``, so they never carry an error's
        text (a database error names its user, host and port): that goes to the log, once
        each time a check's state changes.
        """
        names = list(self.checks)
        results = await asyncio.gather(*(self._run(*self.checks[name]) for name in names))
        states: dict[str, str] = {}
        for name, (state, detail) in zip(names, results, strict=True):
            states[name] = state
            self._log_change(name, state, detail)
        return all(state == "ok" for state in states.values()), states

    def _log_change(self, name: str, state: str, detail: str) -> None:
        before = self._states.get(name)
        self._states[name] = state
        if state == before or (before is None and state == "ok"):
            return
        if state == "ok":
            log.info("readiness: %s is ok again", name)
        else:
            log.warning("readiness: %s is %s%s", name, state, f": {detail}" if detail else "")

    @staticmethod
    async def _run(check: Check, within: float) -> tuple[str, str]:
        """The check's state and, for the log only, what went wrong."""
        if isinstance(check, _Failing):
            return check.reason, ""
        try:
            outcome = check()
            if inspect.isawaitable(outcome):
                outcome = await asyncio.wait_for(outcome, within)
        except TimeoutError:
            return f"no answer within {within:g} s", ""
        except Exception as exc:
            text = str(exc).strip().splitlines()
            return "failing", f"{type(exc).__name__}: {text[0] if text else ''}"[:300]
        return ("ok", "") if outcome else ("not connected", "")

    async def _readyz(self, request: web.Request) -> web.Response:
        ready, states = await self.readiness()
        failed = [name for name, state in states.items() if state != "ok"]
        body = {"status": "ready" if ready else "unready", "checks": states, "failed": failed}
        return web.json_response(body, status=200 if ready else 503)

    async def _metrics(self, request: web.Request) -> web.Response:
        body = self._current_metrics().exposition()
        return web.Response(body=body, headers={"Content-Type": metrics_module.CONTENT_TYPE})

    async def _mounted_route(self, request: web.Request) -> web.StreamResponse:
        """A route of a mounted app (resolved by that app's own router)."""
        allowed: set[str] = set()
        for app in list(self._mounted):
            match = await app.router.resolve(request)
            error = match.http_exception
            if error is None:
                request.match_info.update(match)  # its path parameters ({key}…)
                return await match.handler(request)
            if isinstance(error, web.HTTPMethodNotAllowed):
                allowed |= set(error.allowed_methods)
        if allowed:
            raise web.HTTPMethodNotAllowed(request.method, allowed)
        if self.starting():
            # a platform's routes may not be mounted yet: "try again" (Slack retries), not "no such page"
            raise web.HTTPServiceUnavailable(headers={"Retry-After": "1"}, text="moji is starting")
        raise web.HTTPNotFound()
