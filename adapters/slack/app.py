"""The Slack adapter: a slack-bolt ``AsyncApp`` in front of the game manager.

Inbound: ``/moji`` (acknowledged first, always within Slack's 3 s, then
handled), button presses, channel messages (answers), reactions (votes), DMs
(private answers) and the App Home tab. Every Events API delivery is handled
once: Slack's redeliveries (``X-Slack-Retry-Num``) are recognised by event id
and by message timestamp and dropped.

Outbound: :class:`~adapters.slack.transport.SlackTransport`. Connections: Socket
Mode (``SLACK_APP_TOKEN``) or HTTP (``/slack/events`` on ``HOST:PORT``, added to the
process's one :class:`~bot.process.health.HealthServer` with ``/healthz``, ``/readyz`` and
``/metrics``), one workspace by bot token or many by OAuth
(:mod:`adapters.slack.installations`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

from aiohttp import web
from slack_bolt.adapter.aiohttp import to_aiohttp_response, to_bolt_request
from slack_bolt.async_app import AsyncAck, AsyncApp, AsyncBoltContext
from slack_bolt.authorization.async_authorize import AsyncInstallationStoreAuthorize
from slack_bolt.oauth.async_oauth_settings import AsyncOAuthSettings
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from adapters.slack.commands import SLASH, help_view, parse_slash, slack_time
from adapters.slack.direct import SlackDirect
from adapters.slack.home import home_view
from adapters.slack.installations import DatabaseInstallationStore, SignedStateStore
from adapters.slack.paced import PacedWebClient
from adapters.slack.people import Directory
from adapters.slack.pictures import Renderer
from adapters.slack.platform import SlackPlatform
from adapters.slack.settings import BOT_SCOPES, SlackSettings, retry_handlers
from adapters.slack.signing import verify_signature
from adapters.slack.stamps import SlackTs
from adapters.slack.store import PLATFORM, Schedule, SlackStore, slack_store
from adapters.slack.threads import SlackPairingThreads
from adapters.slack.transport import Interaction, SlackTransport, Style
from bot.core import views
from bot.core.clock import Clock
from bot.core.commands import CommandError
from bot.core.events import (
    Button,
    ChatKey,
    Command,
    Inbound,
    MessageRef,
    Player,
    Private,
    PrivateText,
    Reaction,
    Text,
)
from bot.core.ordering import Turn
from bot.core.registry import Registry
from bot.features.housekeeping import workspace_back, workspace_removed
from bot.features.schedule import Schedules
from bot.features.schedule_spec import SLACK_MENTION
from bot.features.scheduler import Scheduler
from bot.hosting.host import Recovery
from bot.inbound.builder import build
from bot.inbound.wiring import FrontDoor, Services
from bot.process.health import HealthServer
from bot.process.httpguard import QuietLog
from bot.process.retry import NETWORK_ERRORS, Backoff, keep_trying
from games.common.protocol import CardFace
from games.common.speech import N_, _, _n, speaking, spoken_from

log = logging.getLogger(__name__)


class _TokenFromClient(logging.Filter):
    """Bolt warns that SLACK_BOT_TOKEN is "unused" when we hand it a ready client; it is not."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "`token` will be unused" not in record.getMessage()


class _NoOAuthCode(logging.Filter):
    """Bolt logs a failed OAuth exchange with its one-time ``code``: the log gets ``code: …``."""

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if "with code:" in message:
            record.msg, record.args = re.sub(r"with code: \S+", "with code: …", message), ()
        return True


class _ReconnectInOneLine(logging.Filter):
    """Socket Mode's reconnection loop logs a traceback every 10 s while Slack is out of reach:
    one line (a warning) says the same."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and str(record.msg).startswith("Failed to connect"):
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


bolt_log = logging.getLogger("adapters.slack.bolt")
bolt_log.addFilter(_TokenFromClient())
bolt_log.addFilter(_NoOAuthCode())
bolt_log.addFilter(_ReconnectInOneLine())

BOT_TOKEN_HELP = (
    "copy the Bot User OAuth Token (xoxb-…) again from api.slack.com/apps → your app → "
    "OAuth & Permissions (reinstall the app if it was revoked)"
)
APP_TOKEN_HELP = (
    "make an app-level token (xapp-…) with the connections:write scope at api.slack.com/apps → "
    "your app → Basic Information → App-Level Tokens, and switch Socket Mode on"
)


class _SlackDown(Exception):
    """Slack answered, but with a server error or its rate limit: try again later."""


#: How long a scheduled word break's lobby stays open before the game starts by itself.
BREAK_JOIN_WINDOW = 120.0
#: An event from a workspace cancels its pending deletion; checked at most this often (s) per team.
BACK_CHECK_EVERY = 600.0
#: A channel moji joined itself is left once no game has run there for this long (seconds).
LEAVE_AFTER = 900.0
#: Message subtypes that are a person's new message (edits, deletions, joins… are not).
ANSWER_SUBTYPES = frozenset({None, "thread_broadcast", "file_share"})


INVITE_ME = N_("I can't post in this channel yet. Invite me with `/invite @moji`, then `/moji start` again.")
#: Web API errors meaning the bot is not allowed in the channel.
NOT_ALLOWED = frozenset({"not_in_channel", "channel_not_found", "is_archived", "restricted_action"})


def typed_text(text: str) -> str:
    """What a person typed, without Slack's escaping or formatting marks (``*word*`` → ``word``)."""
    text = text.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")
    return text.strip().strip("*_~`").strip()


def delivery_id(body: dict[str, Any], request: AsyncBoltRequest) -> str:
    """Slack's name for one slash command or button press: its ``trigger_id`` (a replay of the
    signed request carries the same), else a digest of the signed timestamp and body (what a
    replay repeats too). moji handles each once (see :mod:`bot.inbound.once`)."""
    trigger = str(body.get("trigger_id") or "")
    if trigger:
        return trigger
    stamp = (request.headers.get("x-slack-request-timestamp") or [""])[0]
    return "sha256:" + hashlib.sha256(f"{stamp}:{request.raw_body}".encode()).hexdigest()


def _refusal(typed: str, registry: Registry) -> str:
    """Why ``/moji`` text cannot be read, in the language spoken."""
    try:
        parse_slash(typed, registry)
    except CommandError as exc:
        return str(exc)
    return ""


def _cannot_post(exc: BaseException) -> bool:
    return isinstance(exc, SlackApiError) and exc.response.get("error") in NOT_ALLOWED


class SlackAdapter:
    """One Bolt app, one game manager, one scheduler."""

    def __init__(
        self,
        settings: SlackSettings,
        svc: Services,
        clock: Clock,
        *,
        store: SlackStore | None = None,
        renderer: Renderer | None = None,
    ) -> None:
        self.settings = settings
        self.svc = svc
        self.clock = clock
        self.store = store if store is not None else slack_store(svc.store)
        #: Every call made outside the delivery layer (Bolt's too): paced on the delivery layer's
        #: buckets (see adapters/slack/paced.py), retried after Retry-After should Slack still say 429.
        self.client = PacedWebClient(
            token=settings.bot_token or None, base_url=settings.base_url, retry_handlers=retry_handlers()
        )
        #: The delivery layer's client: a 429 reaches its pacer instead of being retried here.
        self.paced_client = AsyncWebClient(
            token=settings.bot_token or None,
            base_url=settings.base_url,
            retry_handlers=retry_handlers(rate_limited=False),
        )
        self._clients: dict[str, AsyncWebClient] = {}
        self._paced_clients: dict[str, AsyncWebClient] = {}
        self.installations = DatabaseInstallationStore(self.store, self._forget_client, self._installed)
        picture_url = settings.public_url if not settings.socket_mode else ""
        #: The Web API calls; :attr:`outbox` decides which to make and paces them.
        self.transport = SlackTransport(self.paced_client_for, self._style, renderer, picture_url=picture_url)
        #: The core: delivery, manager, fair share, router and metrics, wired once (bot/inbound/runtime.py).
        #: Several processes on one database: events go to the process that runs their chat.
        self.people = Directory(self.client_for, self._admin_group, clock)
        self.platform = SlackPlatform(self.people)
        self.scheduler = Scheduler(self.store, clock, self._timezone, self.start_break, platform=PLATFORM)
        self.runtime = build(
            self.platform,
            self.transport,
            svc,
            clock,
            settle=settings.settle,
            lobby_timeout=settings.lobby_timeout,
            refusal_marks=self.transport.refusal_marks,
            door=FrontDoor(
                # a daily is played in the player's IM with moji (bot/features/daily.py)
                direct=lambda delivery: SlackDirect(self.client_for, delivery),
                # a tournament's pairings play in threads of its channel (bot/features/tournaments/)
                threads=SlackPairingThreads,
                on_closed=(self._game_closed,),
                on_forget=(lambda platform, team, user: self.people.forget(team, user),),
                on_purge=(self._purged,),
                scheduler=self.scheduler,
                schedules=Schedules(
                    self.scheduler, self._timezone, SLACK_MENTION, slack_time, what="word break"
                ),
            ),
        )
        self.outbox = self.runtime.outbox
        self.router = self.runtime.router
        self.transport.lost = self._refused_channel
        self.client.pacer = self.outbox.pacer
        self.transport.pictures.wire(clock, self.outbox.pacer, self.store.card_files, self._deck)
        #: team → when an event from it last cancelled a pending deletion (see :meth:`_active`).
        self._back_checked: dict[str, float] = {}
        #: Requests to /slack/events refused (unsigned, or signed but unreadable), logged quietly.
        self.refusals = QuietLog(log, "slack: refused requests to /slack/events")
        #: (team, channel) → whether moji joined it itself (then it leaves once idle, see
        #: :meth:`_game_closed`) rather than finding itself there (invited: it stays).
        self._joined: dict[tuple[str, str], bool] = {}
        #: Leaves waiting for a channel's idle time to pass.
        self._leaving: dict[tuple[str, str], asyncio.Task[None]] = {}
        #: Workspaces whose token may not leave channels (no channels:manage): moji stays there.
        self._cannot_leave: set[str] = set()
        #: Bolt's own token revocation listeners (OAuth: the installations go at once).
        self._revoked: Callable[..., Awaitable[Any]] | None = None
        self._uninstalled: Callable[..., Awaitable[Any]] | None = None
        self.app = self._build_app()
        #: Waits between tries when Slack is out of reach at start (see :meth:`check_tokens`).
        self.backoff = Backoff()

    # ------------------------------------------------------------ setup

    def _build_app(self) -> AsyncApp:
        settings = self.settings
        if settings.oauth:
            app = AsyncApp(
                signing_secret=settings.signing_secret,
                client=self.client,
                logger=bolt_log,
                installation_store=self.installations,
                # Bolt's installation-store authorizer calls auth.test for every inbound event
                # unless its cache is on (keyed by token: a reinstall's new token is looked up
                # afresh, an uninstalled workspace finds no token before the cache is read).
                # (Bolt takes an AsyncAuthorize here as such; its annotation only says Callable.)
                authorize=AsyncInstallationStoreAuthorize(  # type: ignore[arg-type]
                    logger=bolt_log,
                    installation_store=self.installations,
                    client_id=settings.client_id,
                    client_secret=settings.client_secret,
                    cache_enabled=True,
                    client=self.client,
                ),
                oauth_settings=AsyncOAuthSettings(
                    client_id=settings.client_id,
                    client_secret=settings.client_secret,
                    scopes=list(BOT_SCOPES),
                    installation_store=self.installations,
                    state_store=SignedStateStore(
                        settings.state_secret or settings.client_secret, self.clock, self.store
                    ),
                    logger=bolt_log,
                ),
            )
            self._revoked = app.default_tokens_revoked_event_listener()
            self._uninstalled = app.default_app_uninstalled_event_listener()
        else:
            app = AsyncApp(
                signing_secret=settings.signing_secret or None, client=self.client, logger=bolt_log
            )
        app.event("app_uninstalled")(self._on_uninstalled)
        app.event("tokens_revoked")(self._on_tokens_revoked)
        app.command(SLASH)(self._on_command)
        app.action(re.compile(r"^moji:"))(self._on_button)
        # a link button (a web page): Slack opens the page and tells us; we only ack
        app.action(re.compile(r"^moji-link:"))(self._on_link)
        app.event("message")(self._on_message)
        app.event("reaction_added")(self._on_reaction)
        app.event("app_home_opened")(self._on_home)
        app.event("app_mention")(self._ignore)
        app.event("reaction_removed")(self._ignore)
        for gone in ("channel_deleted", "group_deleted", "channel_archive", "group_archive"):
            app.event(gone)(self._on_channel_gone)
        for left in ("channel_left", "group_left", "member_left_channel"):
            app.event(left)(self._on_left)
        return app

    async def client_for(self, team_id: str) -> AsyncWebClient:
        """The Web API client for a workspace (its own bot token under OAuth).

        It retries a call Slack refused for its rate limit, after Retry-After: for the
        calls made outside the delivery layer (people, App Home, joins, word breaks).
        """
        if not self.settings.oauth:
            return self.client
        return await self._client(self._clients, team_id, rate_limited=True)

    async def paced_client_for(self, team_id: str) -> AsyncWebClient:
        """The delivery layer's client for a workspace: a 429 raises, for the pacer to handle."""
        if not self.settings.oauth:
            return self.paced_client
        return await self._client(self._paced_clients, team_id, rate_limited=False)

    async def _client(
        self, cache: dict[str, AsyncWebClient], team_id: str, *, rate_limited: bool
    ) -> AsyncWebClient:
        client = cache.get(team_id)
        if client is None:
            bot = await self.installations.async_find_bot(enterprise_id=None, team_id=team_id)
            if bot is None:
                raise LookupError(f"moji is not installed in Slack workspace {team_id}")
            client = (PacedWebClient if rate_limited else AsyncWebClient)(
                token=bot.bot_token,
                base_url=self.settings.base_url,
                retry_handlers=retry_handlers(rate_limited=rate_limited),
            )
            if isinstance(client, PacedWebClient):
                client.pacer, client.team = self.outbox.pacer, team_id
            cache[team_id] = client
        return client

    def _forget_client(self, team_id: str | None) -> None:
        """A workspace was (re)installed or uninstalled: its token may have changed."""
        self._clients.pop(team_id or "", None)
        self._paced_clients.pop(team_id or "", None)

    # ------------------------------------------------------------ installed, removed, purged

    async def _on_uninstalled(self, body: dict[str, Any], context: AsyncBoltContext) -> None:
        """The workspace uninstalled moji: its installation goes now, its data after the grace
        period (see :func:`bot.features.housekeeping.workspace_removed`)."""
        if self._uninstalled is not None:
            await self._uninstalled(context=context)
        await self._removed(str(body.get("team_id") or context.team_id or ""), "app_uninstalled")

    async def _on_tokens_revoked(
        self, body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext
    ) -> None:
        """Tokens were revoked: the bot's token means moji is gone from the workspace."""
        if self._revoked is not None:
            await self._revoked(event=event, context=context)
        if (event.get("tokens") or {}).get("bot"):
            await self._removed(str(body.get("team_id") or context.team_id or ""), "tokens_revoked")

    async def _removed(self, team: str, reason: str) -> None:
        if not team:
            return
        self._back_checked.pop(team, None)  # the next event from the team cancels the deletion
        self._forget_client(team)
        await workspace_removed(self.svc.store, PLATFORM, team, self.clock.now(), reason)

    async def _installed(self, team: str | None) -> None:
        """A workspace installed moji (again): its data stays."""
        if team:
            self._back_checked[team] = self.clock.now()
            await workspace_back(self.svc.store, PLATFORM, team)

    def _active(self, team: str) -> None:
        """An event from a workspace: moji is there, so a deletion pending for it is cancelled
        (checked in the background, at most every :data:`BACK_CHECK_EVERY` s per team)."""
        if team and not self.settings.oauth and not self.client.team:
            self.client.team = team  # one bot token: its calls draw from this workspace's buckets
        now = self.clock.now()
        last = self._back_checked.get(team)
        if not team or (last is not None and now - last < BACK_CHECK_EVERY):
            return
        self._back_checked[team] = now
        self.runtime.spawn(self._still_here(team), f"slack {team} is active")

    async def _still_here(self, team: str) -> None:
        try:
            await workspace_back(self.svc.store, PLATFORM, team)
        except Exception:
            self._back_checked.pop(team, None)
            log.exception("slack: could not cancel the deletion pending for %s", team)

    def _purged(self, platform: str, team: str) -> None:
        self.people.forget_team(team)
        self._forget_client(team)
        self._joined = {key: ours for key, ours in self._joined.items() if key[0] != team}

    async def _settings(self, team: str) -> dict[str, Any]:
        return dict(await self.svc.workspace.settings(ChatKey(PLATFORM, team, "")))

    def _deck(self, chat: ChatKey) -> tuple[CardFace, ...]:
        """The faces of the deck the game (or lobby) in ``chat`` plays with, when it declares one."""
        session = self.runtime.session(chat)
        if session is None or session.info.faces is None:
            return ()
        return session.info.faces(session.options)

    async def _style(self, chat: ChatKey) -> Style:
        values = await self._settings(chat.workspace_id)
        return Style(quiet=bool(values.get("quiet")), reasons=bool(values.get("reasons")))

    async def _timezone(self, team: str) -> str:
        return str((await self._settings(team)).get("timezone") or "UTC")

    async def _admin_group(self, team: str) -> str:
        return str((await self._settings(team)).get("admin-role") or "")

    async def _chat_language(self, team: str) -> str | None:
        """The language the workspace's games speak to a whole channel (its ``config language``)."""
        try:
            value = (await self._settings(team)).get("language")
        except Exception:
            log.exception("slack: could not read the settings of workspace %s", team)
            return None
        return str(value) if value else None

    async def _voice(self, team: str, player: Player) -> str:
        """The language of what one person alone reads: their Slack locale where moji speaks it,
        else the workspace's (docs/LANGUAGES.md)."""
        return spoken_from(player.locale, await self._chat_language(team))

    # ------------------------------------------------------------ lifecycle

    async def start(self) -> Recovery:
        """Rebuild unfinished games and start the word-break scheduler."""
        recovery = await self.runtime.recover()  # (then the word breaks)
        self.runtime.spawn(self.runtime.housekeeping(), "slack housekeeping")
        return recovery

    async def wind_down(self) -> None:
        """The process is stopping: judge what is settling, tell the races, send what is queued."""
        await self.runtime.wind_down()

    async def close(self) -> None:
        """Stop every game task, the scheduler and pending picture uploads."""
        await self.runtime.close()
        await self.transport.pictures.close()

    def web_app(self) -> web.Application:
        """Slack's HTTP endpoints: events, pictures, OAuth (when distributing); ``/health`` too
        (a server of its own; :class:`~bot.process.health.HealthServer` answers it when mounted there)."""
        app = web.Application()
        app.router.add_post("/slack/events", self._http_events)
        app.router.add_get("/pictures/{key}.png", self._http_picture)
        if self.settings.oauth:
            app.router.add_get("/slack/install", self._http_install)
            app.router.add_get("/slack/oauth_redirect", self._http_oauth_redirect)
        app.router.add_get("/health", self._http_health)
        app.router.add_get("/healthz", self._http_health)
        return app

    async def _http_picture(self, request: web.Request) -> web.Response:
        """A table picture, by its content address (public tables only; see adapters.slack.pictures)."""
        png = await self.transport.pictures.serve(request.match_info["key"])
        if png is None:
            return web.Response(status=404, text="no such picture")
        return web.Response(
            body=png, content_type="image/png", headers={"Cache-Control": "public, max-age=86400, immutable"}
        )

    async def _http_events(self, request: web.Request) -> web.Response:
        """Slack's deliveries: the signature is checked on the raw bytes before anything is parsed.

        A request not signed with the signing secret (missing, wrong, stale or malformed
        headers) gets 401, a signed one that cannot be parsed 400; either quietly (DEBUG, and
        one WARNING a minute at most), so nobody can fill the log from outside.
        """
        raw = await request.read()  # at most the server's body limit (413 beyond it)
        why = verify_signature(self.settings.signing_secret, raw, request.headers, time.time())
        if why:
            self.refusals.note(request.remote, why)
            return web.json_response({"error": "invalid request"}, status=401)
        try:
            bolt_request = AsyncBoltRequest(
                body=raw.decode("utf-8"), query=request.query_string, headers=dict(request.headers)
            )
            if not isinstance(bolt_request.body, dict):
                raise ValueError("not an object")
        except (ValueError, TypeError, AttributeError, LookupError) as exc:  # (JSON, UTF-8, shape)
            self.refusals.note(request.remote, f"signed but unreadable body ({type(exc).__name__})")
            return web.json_response({"error": "unreadable body"}, status=400)
        if await self._over_allowance(bolt_request.body):
            return web.Response(status=200)  # acknowledged, and refused
        response = await self.app.async_dispatch(bolt_request)
        return await to_aiohttp_response(response)

    async def _over_allowance(self, body: dict[str, Any]) -> bool:
        """A slash command whose sender is over their allowance (:mod:`bot.core.fairshare`, the rule
        the runtime applies to every event) is refused on arrival, before Bolt
        and the chat's line: a flood of them costs little."""
        user, team = str(body.get("user_id") or ""), str(body.get("team_id") or "")
        if body.get("command") != SLASH or not user or not team:
            return False
        chat = ChatKey(PLATFORM, team, str(body.get("channel_id") or ""))
        player = Player(
            PLATFORM, user, str(body.get("user_name") or user), locale=self.people.known_locale(team, user)
        )
        interaction = Interaction(str(body.get("response_url") or ""), str(body.get("trigger_id") or ""))
        event = Command("", (), chat, player, interaction)
        if not self.runtime.refused_on_arrival(event):
            return False
        await self.runtime.refuse(event)
        return True

    async def _http_install(self, request: web.Request) -> web.Response:
        flow = self.app.oauth_flow
        assert flow is not None
        return await to_aiohttp_response(await flow.handle_installation(await to_bolt_request(request)))

    async def _http_oauth_redirect(self, request: web.Request) -> web.Response:
        flow = self.app.oauth_flow
        assert flow is not None
        return await to_aiohttp_response(await flow.handle_callback(await to_bolt_request(request)))

    async def _http_health(self, request: web.Request) -> web.Response:
        return web.json_response({"status": "ok", "games": len(self.runtime.chats())})

    async def run(self, http: HealthServer | None = None) -> None:
        """Serve until cancelled: Socket Mode or HTTP (``/slack/events``).

        ``http`` is the process's HTTP server (``python -m bot`` starts it): Slack's routes
        and its readiness check (``slack``) are added to it. Without one, the adapter starts
        a server of its own on ``HOST:PORT`` (the same probes, no database check unless the
        store can ping).
        """
        own = http is None
        server = http if http is not None else self._own_server()
        events = None if self.settings.socket_mode else self.web_app()
        try:
            if own:
                await server.start()
            socket_url = await self.check_tokens(server)
            await self.start()
            if events is not None:
                server.mount(events)
            if self.settings.socket_mode:
                from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

                handler = AsyncSocketModeHandler(self.app, self.settings.app_token)
                handler.client.wss_uri = socket_url  # the connection opened by the token check

                async def connected() -> bool:
                    return bool(await handler.client.is_connected())

                server.add_check(PLATFORM, connected)
                try:
                    log.info("slack: connecting in Socket Mode")
                    await handler.start_async()  # type: ignore[no-untyped-call]
                finally:
                    await handler.close_async()  # type: ignore[no-untyped-call]
            else:
                server.add_check(PLATFORM, lambda: True)  # HTTP mode: ready once its routes are served
                log.info("slack: listening on http://%s:%d/slack/events", server.host, server.port)
                await asyncio.Event().wait()
        finally:
            server.fail(PLATFORM, "stopped")
            if events is not None:
                server.unmount(events)
            if own:
                await server.stop()
            await self.close()

    async def check_tokens(self, server: HealthServer | None = None) -> str | None:
        """Before anything else: Slack accepts the bot token (``auth.test``) and, in Socket Mode,
        the app token (it opens the connection's URL, returned for the handler to use).

        A token Slack rejects is a :class:`bot.process.app.StartupError` naming the setting to fix;
        Slack out of reach (no network, DNS, Slack's own 5xx) is one log line per try, tried
        again after :attr:`backoff`'s waits, with ``/readyz`` saying why. OAuth (many
        workspaces) has no one bot token to check.
        """
        from bot.process.app import StartupError

        settings = self.settings

        def failing(reason: str) -> None:
            if server is not None:
                server.pending(PLATFORM, reason)

        async def call(token: str, method: str, setting: str, fix: str) -> dict[str, Any]:
            client = AsyncWebClient(token=token, base_url=settings.base_url, retry_handlers=[])

            async def once() -> dict[str, Any]:
                try:
                    response = await client.api_call(method)
                except SlackApiError as exc:
                    status = exc.response.status_code
                    if status >= 500 or status == 429:
                        raise _SlackDown(f"Slack answered HTTP {status}") from None
                    error = exc.response.get("error") or f"HTTP {status}"
                    raise StartupError(f"Slack rejected {setting} ({error}): {fix}") from None
                return dict(response.data) if isinstance(response.data, dict) else {}

            return await keep_trying(
                once,
                what="Slack",
                clock=self.clock,
                log=log,
                backoff=self.backoff,
                retry_on=(*NETWORK_ERRORS, _SlackDown),
                failing=failing,
            )

        url: str | None = None
        if not settings.oauth:
            who = await call(settings.bot_token, "auth.test", "SLACK_BOT_TOKEN", BOT_TOKEN_HELP)
            log.info("slack: signed in as %s in workspace %s", who.get("user"), who.get("team_id"))
            self.client.team = self.client.team or str(who.get("team_id") or "")
        if settings.socket_mode:
            opened = await call(
                settings.app_token, "apps.connections.open", "SLACK_APP_TOKEN", APP_TOKEN_HELP
            )
            url = str(opened.get("url") or "") or None
        return url

    def _own_server(self) -> HealthServer:
        server = HealthServer(self.settings.host, self.settings.port)
        store = self.svc.store
        if callable(getattr(store, "ping", None)):
            server.watch_database(store)
        return server

    # ------------------------------------------------------------ inbound

    @staticmethod
    def _delivery_ids(body: dict[str, Any], event: dict[str, Any]) -> list[str]:
        """The platform's ids for one Events API delivery: its event id and, for a message, its
        channel and ``ts`` (a redelivery repeats both; see :meth:`Runtime.ingest`)."""
        keys = [str(body.get("event_id") or "")]
        if event.get("type") == "message" and event.get("ts"):
            keys.append(f"{event.get('channel')}:{event['ts']}")
        return keys

    def _first_delivery(self, body: dict[str, Any], event: dict[str, Any]) -> bool:
        """(For the events the runtime does not see: the App Home tab.)"""
        return self.runtime.first_delivery(*self._delivery_ids(body, event))

    async def _reply(self, chat: ChatKey, player: Player, view: views.View, interaction: object) -> None:
        await self.outbox.send(Private(chat, player, view, interaction))

    async def _on_command(self, ack: AsyncAck, body: dict[str, Any], request: AsyncBoltRequest) -> None:
        """``/moji …``: acknowledge at once, then do the work (in the chat's arrival order)."""
        chat = ChatKey(PLATFORM, str(body["team_id"]), str(body["channel_id"]))
        turn = self.runtime.ticket(chat)
        self._active(chat.workspace_id)
        try:
            await ack()
            await turn.wait()  # (one lookup of a person at a time: a flood of theirs costs one)
            await self._command(body, chat, delivery_id(body, request), turn)
        finally:
            turn.done()

    async def _command(
        self, body: dict[str, Any], chat: ChatKey, delivery: str = "", turn: Turn | None = None
    ) -> None:
        team, channel, user = chat.workspace_id, chat.channel_id, str(body["user_id"])
        interaction = Interaction(
            str(body.get("response_url") or ""), delivery or str(body.get("trigger_id") or "")
        )
        self.people.remember(team, user, str(body.get("user_name") or ""))
        player = await self.people.player(team, user)
        typed = str(body.get("text") or "")
        try:
            name, args = parse_slash(typed, self.svc.registry)
        except CommandError:
            with speaking(await self._voice(team, player)):  # (a refusal of what they typed: theirs alone)
                refusal = views.error(_refusal(typed, self.svc.registry))

            async def unreadable(event: Inbound) -> None:
                await self._reply(chat, event.player, refusal, interaction)

            await self.runtime.ingest(
                Command("", (), chat, player, interaction), turn=turn, answer=unreadable
            )
            return
        if name == "help":

            async def help_here(event: Inbound) -> None:
                with speaking(await self._voice(team, player)):
                    answer = help_view(self.svc.registry)
                await self._reply(chat, event.player, answer, interaction)

            await self.runtime.ingest(
                Command(name, args, chat, player, interaction), turn=turn, answer=help_here
            )
            return
        if name == "start":
            self._join_soon(team, channel)
        errors = len(self.runtime.errors)
        await self.runtime.ingest(Command(name, args, chat, player, interaction), turn=turn)
        if name == "start" and any(_cannot_post(exc) for exc in self.runtime.errors[errors:]):
            with speaking(await self._voice(team, player)):
                refusal = views.error(_(INVITE_ME))
            await self._reply(chat, player, refusal, interaction)

    def _join_soon(self, team: str, channel: str) -> None:
        """Join the channel in the background: moji posts in public channels without being in
        them (chat:write.public), so the lobby never waits for conversations.join's budget
        (Tier 3, paced like every call); joining is only for reading the answers."""
        key = (team, channel)
        leaving = self._leaving.pop(key, None)
        if leaving is not None:
            leaving.cancel()  # a new game before the idle time passed: moji stays
        if key not in self._joined:
            self.runtime.spawn(self._join_channel(team, channel), f"join {channel}")

    async def _join_channel(self, team: str, channel: str) -> None:
        """Join a public channel a game starts in, so its messages reach us."""
        key = (team, channel)
        leaving = self._leaving.pop(key, None)
        if leaving is not None:
            leaving.cancel()  # a new game before the idle time passed: moji stays
        if key in self._joined:
            return
        self._joined[key] = False
        try:
            client = await self.client_for(team)
            joined = await client.conversations_join(channel=channel)
        except Exception as exc:  # private channels and DMs need an /invite instead
            log.info("could not join %s: %s", channel, exc)
            return
        # "already_in_channel": moji was there before (invited, or joined by an earlier process)
        warnings = [joined.get("warning"), *((joined.get("response_metadata") or {}).get("warnings") or [])]
        self._joined[key] = "already_in_channel" not in warnings

    def _game_closed(self, chat: ChatKey) -> None:
        """A game ended: a channel moji joined itself is left once it has been idle for
        :data:`LEAVE_AFTER` seconds (every message in a channel moji is in counts toward the
        workspace's Events API budget). Channels moji was invited to stay."""
        key = (chat.workspace_id, chat.channel_id)
        if not self._joined.get(key) or chat.workspace_id in self._cannot_leave or key in self._leaving:
            return
        self._leaving[key] = self.runtime.spawn(self._leave_when_idle(key), f"leave {chat.channel_id}")

    async def _leave_when_idle(self, key: tuple[str, str]) -> None:
        team, channel = key
        try:
            await self.clock.sleep_until(self.clock.now() + LEAVE_AFTER)
            if self.runtime.chats(team, channel) or not self._joined.get(key):
                return
            self._joined.pop(key, None)  # the next game joins again
            client = await self.client_for(team)
            await client.conversations_leave(channel=channel)
            log.info("slack: left %s in %s (no game there for %.0f s)", channel, team, LEAVE_AFTER)
        except SlackApiError as exc:
            error = exc.response.get("error")
            if error in ("missing_scope", "not_allowed_token_type", "restricted_action"):
                self._cannot_leave.add(team)
                log.info(
                    "slack workspace %s: moji may not leave channels (%s); it stays in them", team, error
                )
            else:
                log.info("slack: could not leave %s: %s", channel, error)
        finally:
            if self._leaving.get(key) is asyncio.current_task():
                del self._leaving[key]

    async def _on_link(self, ack: AsyncAck) -> None:
        """A link button was pressed (the game's web page opens in the browser): nothing to do."""
        await ack()

    async def _on_button(
        self, ack: AsyncAck, body: dict[str, Any], action: dict[str, Any], request: AsyncBoltRequest
    ) -> None:
        """A lobby or table button (Join, Leave, Start, Skip, votes)."""
        team = str((body.get("team") or {}).get("id") or body.get("team_id") or "")
        container = body.get("container") or {}
        channel = str((body.get("channel") or {}).get("id") or container.get("channel_id"))
        thread = container.get("thread_ts") or (body.get("message") or {}).get("thread_ts")
        chat = await self._chat_in(team, channel, thread)
        turn = self.runtime.ticket(chat)
        self._active(team)
        try:
            await ack()
            await turn.wait()
            await self._button(body, action, chat, delivery_id(body, request), turn)
        finally:
            turn.done()

    async def _button(
        self,
        body: dict[str, Any],
        action: dict[str, Any],
        chat: ChatKey,
        delivery: str = "",
        turn: Turn | None = None,
    ) -> None:
        team, user = chat.workspace_id, str((body.get("user") or {}).get("id"))
        self.people.remember(team, user, str((body.get("user") or {}).get("name") or ""))
        player = await self.people.player(team, user)
        interaction = Interaction(
            str(body.get("response_url") or ""), delivery or str(body.get("trigger_id") or "")
        )
        await self.runtime.ingest(Button(chat, player, str(action.get("action_id")), interaction), turn=turn)

    async def _on_message(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        """A message: an answer in a channel with a game, or a private answer by DM."""
        if event.get("subtype") not in ANSWER_SUBTYPES or event.get("bot_id") or not event.get("user"):
            self._first_delivery(body, event)  # (remembered: a redelivery of it is dropped as well)
            return
        team = str(body.get("team_id") or event.get("team") or "")  # ours, even in shared channels
        user, channel, ts = str(event["user"]), str(event.get("channel")), str(event.get("ts"))
        text = typed_text(str(event.get("text") or ""))
        sent_at = self._sent_at(ts)
        if event.get("channel_type") == "im":
            if self._first_delivery(body, event):
                self._active(team)
                await self._on_direct_message(team, user, text, sent_at, channel, ts)
            return
        if not self.runtime.first_delivery(*self._delivery_ids(body, event)):
            return  # a redelivery (X-Slack-Retry-Num)
        chat = await self._chat_in(team, channel, event.get("thread_ts"))
        self._active(team)
        if not self.runtime.listening(chat):
            return  # the common case: chatter in a channel without a game (nor a command opening one)
        if not event.get("thread_ts") and not self.transport.threads.get(chat):
            self.outbox.saw_message(chat)  # the live table moves up (a quiet game's is in its thread)
        turn = self.runtime.ticket(chat)
        try:
            player = await self.people.player(team, user)
            await self.runtime.ingest(Text(chat, player, text, sent_at, MessageRef(chat, ts)), turn=turn)
        finally:
            turn.done()

    async def _chat_in(self, team: str, channel: str, thread_ts: object) -> ChatKey:
        """The chat of a message or button in ``channel``: the channel's, or a thread's where a
        game of its own runs there (a tournament's pairing, here or in another process)."""
        if thread_ts:
            threaded = ChatKey(PLATFORM, team, channel, str(thread_ts))
            if self.runtime.runs(threaded) or await self.runtime.has_game(threaded):
                return threaded
        return ChatKey(PLATFORM, team, channel)

    def _sent_at(self, ts: str) -> float:
        """A message's time from its ``ts``, read exactly (see :mod:`adapters.slack.stamps`); a
        malformed one (Slack never sends one) is timed on arrival instead."""
        stamp = SlackTs.parse(ts)
        if stamp is None:
            log.warning("slack: a message with the malformed ts %r is timed on arrival", ts[:40])
            return self.clock.now()
        return stamp.seconds_float()

    async def _on_direct_message(
        self, team: str, user: str, text: str, sent_at: float, channel: str = "", ts: str = ""
    ) -> None:
        """A DM to the bot: a word of the daily its sender plays in that IM (a game whose chat it
        is), else a private answer for the running game the sender plays in."""
        direct = await self.runtime.chat_of_direct(user, channel) if channel else None
        if direct is not None and direct.workspace_id == team:
            turn = self.runtime.ticket(direct)
            try:
                player = await self.people.player(team, user)
                event = Text(direct, player, text, sent_at, MessageRef(direct, ts))
                await self.runtime.ingest(event, turn=turn)
            finally:
                turn.done()
            return
        player = await self.people.player(team, user)
        chat = await self.runtime.game_of(team, player)
        if chat is None:
            client = await self.client_for(team)
            with speaking(await self._voice(team, player)):
                text = _("You're not in a running game. Type `/moji help` in a channel to start one.")
            await client.chat_postMessage(channel=user, text=text)
            return
        await self.runtime.ingest(PrivateText(chat, player, text, sent_at))

    async def _on_reaction(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        """👍 / 👎 on a disputed answer are votes."""
        item = event.get("item") or {}
        team = str(body.get("team_id") or "")
        chat = ChatKey(PLATFORM, team, str(item.get("channel")))
        if not self.runtime.listening(chat) or item.get("type") != "message":
            return
        player = await self.people.player(team, str(event.get("user")))
        ref = MessageRef(chat, str(item.get("ts")))
        reaction = Reaction(chat, player, str(event.get("reaction")), ref)
        await self.runtime.ingest(reaction, ids=self._delivery_ids(body, event))

    async def _on_home(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        """Publish the App Home tab: leaderboard and next word break."""
        if event.get("tab") not in (None, "home") or not self._first_delivery(body, event):
            return
        team, user = str(body.get("team_id") or ""), str(event.get("user"))
        player = await self.people.player(team, user)
        chat = ChatKey(PLATFORM, team, "home")
        with speaking(await self._voice(team, player)):  # (their own Home tab: their language)
            try:
                board = await self.svc.workspace.leaderboard(
                    Command("leaderboard", (), chat, player), (), self.svc.registry
                )
            except CommandError as exc:
                board = views.message(str(exc), "info")
            home = home_view(board, self.scheduler.upcoming(team))
        client = await self.client_for(team)
        await client.views_publish(user_id=user, view=home)

    # ------------------------------------------------------------ lost channels

    async def _on_channel_gone(self, body: dict[str, Any], event: dict[str, Any]) -> None:
        """A channel was deleted or archived (https://api.slack.com/events/channel_deleted,
        …/channel_archive, …/group_deleted, …/group_archive): its games end."""
        team = str(body.get("team_id") or "")
        channel = event.get("channel")
        channel_id = str(channel.get("id") if isinstance(channel, dict) else channel or "")
        if team and channel_id:
            await self._channel_lost(team, channel_id, str(event.get("type")))

    async def _on_left(self, body: dict[str, Any], event: dict[str, Any], context: AsyncBoltContext) -> None:
        """The bot left or was removed from a channel (``channel_left`` / ``group_left``: "You
        left a channel"; ``member_left_channel`` naming the bot's own user): its games end.
        Anyone else leaving changes nothing here."""
        if event.get("type") == "member_left_channel" and event.get("user") != context.bot_user_id:
            return
        team = str(body.get("team_id") or event.get("team") or "")
        channel = str(event.get("channel") or "")
        if team and channel:
            await self._channel_lost(team, channel, str(event.get("type")))

    def _refused_channel(self, chat: ChatKey, error: str) -> None:
        """Slack refused a call because the channel is gone for the bot (the event may come
        later, or never: events are not guaranteed)."""
        self.runtime.spawn(self._channel_lost(chat.workspace_id, chat.channel_id, error), "channel lost")

    async def _channel_lost(self, team: str, channel: str, why: str) -> None:
        self._joined.pop((team, channel), None)  # a channel unarchived later is joined again
        ended = await self.runtime.channel_gone(team, channel, why)
        if ended:
            log.info("slack: %s in %s: games %s voided", why, channel, ", ".join(ended))

    async def _ignore(self, body: dict[str, Any]) -> None:
        """Events we subscribe to but do not act on (kept quiet in the logs)."""

    # ------------------------------------------------------------ word breaks

    async def start_break(self, schedule: Schedule, when: float) -> None:
        """A scheduled word break is due: a notice, its lobby, and the game a bit later."""
        minutes = max(1, round(BREAK_JOIN_WINDOW / 60))
        self._join_soon(schedule.workspace_id, schedule.channel_id)
        with speaking(await self._chat_language(schedule.workspace_id)):  # (the whole channel reads it)
            notice = _n(
                "☕ Word break! Press *Join* below; the game starts in {count} minute.",
                "☕ Word break! Press *Join* below; the game starts in {count} minutes.",
                minutes,
            )
            await self.runtime.start_scheduled(schedule, when, notice, join_window=BREAK_JOIN_WINDOW)
