"""Links to a game's page and the sessions they open.

A link is ``PUBLIC_URL/g/<game id>#<secret>``: the secret is in the fragment, which a browser
never sends (no request line, log or Referer holds it). The page posts it once to
``/g/<game id>/session`` and gets a session cookie instead (HttpOnly, SameSite=Strict, path
``/g/<game id>``). Only SHA-256 hashes of secrets are stored (:mod:`storage.weblinks`), so the
processes sharing the database all know every link, and none can be rebuilt from the table.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

from bot.core.clock import Clock
from bot.core.events import ChatKey, Player
from storage.weblinks import WATCH, Grant, WebLinkStore, digest

#: How long a link in chat may wait to be opened (a turn may last days: My rack gives a fresh one).
LINK_TTL = 24 * 3600.0
#: How long a page's session lasts (then the page asks for a fresh link from chat).
SESSION_TTL = 4 * 3600.0
#: How long a game's watch link works (a turn-based game may last days; a new table, a new one).
WATCH_TTL = 7 * 24 * 3600.0


@dataclass(frozen=True, slots=True)
class Opened:
    """A session a link opened: its secret (for the cookie) and what it grants."""

    secret: str
    grant: Grant


def grant_for(chat: ChatKey, game_id: str, player: Player | None) -> Grant:
    """What a link to ``chat``'s game ``game_id`` opens, as ``player`` (None: a watcher)."""
    return Grant(
        chat.platform,
        chat.workspace_id,
        chat.channel_id,
        chat.thread_id,
        game_id,
        "" if player is None else player.user_id,
    )


def chat_of(grant: Grant) -> ChatKey:
    """The chat whose game ``grant`` opens."""
    return ChatKey(grant.platform, grant.workspace_id, grant.channel_id, grant.thread_id)


class Links:
    """Mints links, exchanges them for sessions, and reads sessions."""

    def __init__(self, store: WebLinkStore, clock: Clock, public_url: str) -> None:
        self.store = store
        self.clock = clock
        self.public_url = public_url.rstrip("/")

    async def mint(self, chat: ChatKey, game_id: str, player: Player | None) -> str:
        """A fresh single-use link to the game's page (the secret in its fragment)."""
        secret = secrets.token_urlsafe(32)
        now = self.clock.now()
        await self.store.add_link(digest(secret), grant_for(chat, game_id, player), now + LINK_TTL, now)
        return f"{self.public_url}/g/{game_id}#{secret}"

    async def watch(self, chat: ChatKey, game_id: str) -> str:
        """A watch link to the game's public page: usable by anyone, again and again, until it
        expires (it opens no player's seat, nothing private)."""
        secret = secrets.token_urlsafe(32)
        now = self.clock.now()
        grant = grant_for(chat, game_id, None)
        await self.store.add_link(digest(secret), grant, now + WATCH_TTL, now, kind=WATCH)
        return f"{self.public_url}/g/{game_id}#{secret}"

    async def open(self, secret: str) -> Opened | None:
        """Use a link's secret, once: a new session (None: unknown, used or expired)."""
        if not secret or len(secret) > 200:
            return None
        session = secrets.token_urlsafe(32)
        now = self.clock.now()
        grant = await self.store.exchange(digest(secret), digest(session), now + SESSION_TTL, now)
        return None if grant is None else Opened(session, grant)

    async def session(self, secret: str) -> Grant | None:
        """The grant of a live session (None: unknown or expired)."""
        if not secret or len(secret) > 200:
            return None
        return await self.store.session(digest(secret), self.clock.now())
