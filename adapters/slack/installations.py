"""Multi-workspace distribution: OAuth installations kept in moji's database.

:class:`DatabaseInstallationStore` implements slack-sdk's
``AsyncInstallationStore`` over :class:`~adapters.slack.store.SlackStore`, so
every process sharing the database can serve every workspace that installed
the app. :class:`SignedStateStore` issues OAuth ``state`` values signed with
the app's secret (valid in any process, short-lived) and accepts each once: the
first use claims its nonce in the database (:meth:`SlackStore.claim_once`) until
it expires, so a second use, in any process, is refused. Bolt also pins the
state to the installing browser with a cookie.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import datetime
from typing import Any

from slack_sdk.oauth.installation_store.async_installation_store import AsyncInstallationStore
from slack_sdk.oauth.installation_store.models.bot import Bot
from slack_sdk.oauth.installation_store.models.installation import Installation
from slack_sdk.oauth.state_store.async_state_store import AsyncOAuthStateStore

from adapters.slack.store import InstallKey, SlackStore
from bot.core.clock import Clock

log = logging.getLogger(__name__)

_EXPIRES = {"bot_token_expires_at", "user_token_expires_at"}


def to_json(data: dict[str, Any]) -> dict[str, Any]:
    """An installation dict with datetimes as epoch seconds (JSON-ready)."""
    out: dict[str, Any] = {}
    for key, value in data.items():
        if isinstance(value, datetime):
            value = int(value.timestamp()) if key in _EXPIRES else value.timestamp()
        out[key] = value
    return out


class DatabaseInstallationStore(AsyncInstallationStore):
    """slack-sdk's installation store over moji's database."""

    def __init__(
        self,
        store: SlackStore,
        on_change: Callable[[str | None], None] = lambda team: None,
        on_install: Callable[[str | None], Awaitable[None]] | None = None,
    ) -> None:
        self.store = store
        #: Told the team id whenever a workspace's installation is saved or deleted.
        self.on_change = on_change
        #: Told the team id once a workspace (re)installed moji (a pending deletion is cancelled).
        self.on_install = on_install

    @property
    def logger(self) -> logging.Logger:
        return log

    async def async_save(self, installation: Installation) -> None:
        """Keep the installation (per installing user, and as the workspace's latest)."""
        data = to_json(installation.to_dict_for_copying())
        key = InstallKey(installation.enterprise_id, installation.team_id, installation.user_id)
        await self.store.save_installation(key, data)
        self.on_change(installation.team_id)
        if self.on_install is not None:
            await self.on_install(installation.team_id)

    async def async_save_bot(self, bot: Bot) -> None:
        """Bots are saved with their installation (see :meth:`async_save`)."""

    async def async_find_installation(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        user_id: str | None = None,
        is_enterprise_install: bool | None = False,
    ) -> Installation | None:
        """The installation of a workspace (or of one user in it)."""
        if is_enterprise_install:
            team_id = None
        data = await self.store.find_installation(InstallKey(enterprise_id, team_id, user_id))
        if data is None:
            return None
        return Installation(**data)

    async def async_find_bot(
        self,
        *,
        enterprise_id: str | None,
        team_id: str | None,
        is_enterprise_install: bool | None = False,
    ) -> Bot | None:
        """The workspace's bot token (from its latest installation)."""
        installation = await self.async_find_installation(
            enterprise_id=enterprise_id, team_id=team_id, is_enterprise_install=is_enterprise_install
        )
        if installation is None or not installation.bot_token:
            return None
        return installation.to_bot()

    async def async_delete_bot(self, *, enterprise_id: str | None, team_id: str | None) -> None:
        """Forget the workspace's bot (uninstall, tokens revoked)."""
        await self.store.delete_installation(InstallKey(enterprise_id, team_id))
        self.on_change(team_id)

    async def async_delete_installation(
        self, *, enterprise_id: str | None, team_id: str | None, user_id: str | None = None
    ) -> None:
        """Forget a workspace's installations (or one user's)."""
        await self.store.delete_installation(InstallKey(enterprise_id, team_id, user_id))
        self.on_change(team_id)


#: The :meth:`SlackStore.claim_once` kind of a used OAuth state.
STATE_USED = "oauth-state"


class SignedStateStore(AsyncOAuthStateStore):
    """OAuth ``state`` values signed with a secret, ``nonce.expiry.signature``, each accepted once."""

    def __init__(self, secret: str, clock: Clock, store: SlackStore, *, expires_in: int = 600) -> None:
        if not secret:
            raise ValueError("the OAuth state store needs a secret")
        self._key = secret.encode()
        self.clock = clock
        #: Where a used state's nonce is claimed (shared by every process).
        self.store = store
        self.expires_in = expires_in

    @property
    def logger(self) -> logging.Logger:
        return log

    def _sign(self, payload: str) -> str:
        digest = hmac.new(self._key, payload.encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).decode().rstrip("=")

    async def async_issue(self, *args: Any, **kwargs: Any) -> str:
        """A fresh state value."""
        payload = f"{secrets.token_urlsafe(16)}.{int(self.clock.now()) + self.expires_in}"
        return f"{payload}.{self._sign(payload)}"

    async def async_consume(self, state: str) -> bool:
        """True when ``state`` was issued by us, has not expired and was not used before."""
        payload, _, signature = state.rpartition(".")
        if not payload or not hmac.compare_digest(signature.encode(), self._sign(payload).encode()):
            return False
        nonce, _, expiry = payload.rpartition(".")
        try:
            expires = int(expiry)
        except ValueError:
            return False
        now = self.clock.now()
        if now > expires:
            return False
        if not await self.store.claim_once(STATE_USED, nonce, float(expires), now):
            log.warning("slack: an OAuth state was used a second time; refused")
            return False
        return True
