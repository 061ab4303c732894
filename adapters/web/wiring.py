"""The web companion in a process that serves Discord or Slack (``bot.process.app.serve``).

With ``PUBLIC_URL`` set, a :class:`~adapters.web.companion.WebCompanion` is attached to every
platform's runtime and its routes are mounted on the process's one HTTP server (HOST:PORT,
behind the reverse proxy that ``PUBLIC_URL`` names). Without it, :class:`WebOff` tells each
player of a game with a page of its own (:mod:`adapters.web.pages`) once, in their private note,
how an operator turns pages on.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Protocol

from aiohttp import web

from adapters.web.companion import WebCompanion
from adapters.web.links import Links
from adapters.web.pages import page_of
from adapters.web.proxy import PageProxy
from adapters.web.server import WebServer
from bot.core.clock import Clock
from bot.core.events import Outbound, Private
from bot.delivery.delivery import Tap
from bot.inbound.builder import Companion
from bot.inbound.runtime import Runtime
from games.common.speech import N_, _, speaking
from storage.weblinks import WebLinkStore

#: What a player of a game with a page is told once when the process has no PUBLIC_URL.
HOW_TO_ENABLE = N_(
    "Tip: this game can be played in a browser (drag tiles or cards, see each move's words and score). "
    "Whoever runs moji turns it on by setting PUBLIC_URL (docs/WEB.md)."
)


class Mounts(Protocol):
    """The process's HTTP server, as far as the companion needs it."""

    def mount(self, app: web.Application) -> None:
        """Serve ``app``'s routes too."""
        ...


def companion_for(
    public_url: str,
    links: WebLinkStore,
    clock: Clock,
    http: Mounts | None,
    *,
    proxy: PageProxy | None = None,
) -> Companion:
    """The process's web companion (pages mounted on ``http``), or :class:`WebOff` without a
    ``public_url`` or a server to serve pages on. With a ``proxy``, page requests for games
    another process runs are passed on to it (several processes on one database)."""
    if not public_url or http is None:
        return WebOff()
    companion = WebCompanion(Links(links, clock, public_url))
    http.mount(WebServer(companion, clock, public_url, proxy).app())
    if proxy is not None:
        proxy.start()
    return companion


class WebOff:
    """No pages in this process: each player of a game with a page learns once how to turn them on."""

    def __init__(self) -> None:
        self.told: set[tuple[str, str, str]] = set()

    def attach(self, runtime: Runtime, taps: list[Tap] | None = None) -> None:
        """Add the hint to the private notes of ``runtime``'s games with a page (``taps``: the
        list of taps of the outbox its sessions send to; by default its delivery layer's)."""

        async def tap(message: Outbound) -> Outbound | None:
            if not isinstance(message, Private) or message.view.kind != "private":
                return message
            session = runtime.session(message.chat)
            if session is None or page_of(session.info) is None:
                return message
            who = (message.chat.platform, message.chat.workspace_id, message.player.user_id)
            if who in self.told:
                return message
            self.told.add(who)
            with speaking(message.view.locale):  # (the note's own language)
                tip = _(HOW_TO_ENABLE)
            return replace(message, view=replace(message.view, lines=(*message.view.lines, tip)))

        (runtime.outbox.taps if taps is None else taps).append(tap)
