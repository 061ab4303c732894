"""How the Slack adapter is configured and what it runs on.

:class:`SlackSettings` comes from :class:`bot.process.config.Config` (or a test);
it runs on :class:`bot.inbound.runtime.Services`; :data:`BOT_SCOPES` are the OAuth scopes (the same
as ``manifest.yml``).
"""

from __future__ import annotations

from dataclasses import dataclass

from slack_sdk.http_retry.async_handler import AsyncRetryHandler
from slack_sdk.http_retry.builtin_async_handlers import (
    AsyncConnectionErrorRetryHandler,
    AsyncRateLimitErrorRetryHandler,
    AsyncServerErrorRetryHandler,
)

from bot.process.config import Config

#: Bot scopes the app asks for (keep in step with manifest.yml).
BOT_SCOPES = (
    "app_mentions:read",
    "channels:history",
    "channels:join",
    "channels:manage",
    "channels:read",
    "chat:write",
    "chat:write.public",
    "commands",
    "files:write",
    "groups:history",
    "groups:read",
    "im:history",
    "im:write",
    "mpim:history",
    "reactions:read",
    "reactions:write",
    "usergroups:read",
    "users:read",
)


@dataclass(frozen=True, slots=True)
class SlackSettings:
    """How to reach Slack (from :class:`bot.process.config.Config`, or a test)."""

    bot_token: str = ""
    signing_secret: str = ""
    app_token: str = ""
    client_id: str = ""
    client_secret: str = ""
    state_secret: str = ""
    host: str = "0.0.0.0"
    port: int = 3000
    base_url: str = "https://slack.com/api/"
    settle: float = 0.15
    lobby_timeout: float = 600.0
    #: HTTP mode: the public address Slack reaches this server at (pictures are served from it).
    public_url: str = ""

    @property
    def oauth(self) -> bool:
        """Multi-workspace distribution (OAuth install flow) instead of one bot token."""
        return bool(self.client_id and self.client_secret)

    @property
    def socket_mode(self) -> bool:
        """Socket Mode (an app-level token) instead of HTTP."""
        return bool(self.app_token)


def settings_from_config(config: Config) -> SlackSettings:
    """The Slack settings in a :class:`bot.process.config.Config`."""
    return SlackSettings(
        bot_token=config.slack_bot_token,
        signing_secret=config.slack_signing_secret,
        app_token=config.slack_app_token,
        client_id=config.slack_client_id,
        client_secret=config.slack_client_secret,
        state_secret=config.slack_state_secret or config.slack_signing_secret,
        host=config.host,
        port=config.port,
        settle=config.settle,
        lobby_timeout=config.lobby_timeout,
        public_url=config.public_url,
    )


def retry_handlers(*, rate_limited: bool = True) -> list[AsyncRetryHandler]:
    """Retry on dropped connections, on 5xx answers and (unless ``rate_limited`` is False) on
    HTTP 429, waiting as Retry-After says.

    The delivery layer's calls pass ``rate_limited=False``: its pacer handles a 429 itself,
    on the adapter's clock, holding the bucket for every call that draws from it (the
    client's handler would sleep on the wall clock, holding the call's slot, unseen by the
    pacer and by every other call waiting on the same bucket).
    """
    handlers: list[AsyncRetryHandler] = [
        AsyncConnectionErrorRetryHandler(max_retry_count=2),
        AsyncServerErrorRetryHandler(max_retry_count=2),
    ]
    if rate_limited:
        handlers.insert(1, AsyncRateLimitErrorRetryHandler(max_retry_count=3))
    return handlers
