"""The web companion: a game of a chat, on a real board in a browser.

moji's fourth front door on the platform runtime. A page views a game that lives in a chat of
another platform (Discord, Slack, the terminal, or the local web game of ``python -m bot web``);
a move made on a page is a move of that chat's game by that player, handed to the chat's
:class:`~bot.inbound.runtime.Runtime` as the same neutral event as a typed ``play`` (same validation,
refusal texts, game log, per-chat order). Pages follow their game live (Server-Sent Events):
the delivery layer shows the companion every message of the games it serves
(:attr:`bot.delivery.delivery.Delivery.taps`).

- :mod:`adapters.web.links`: single-use links (the secret in the URL's fragment) and the short
  sessions they open, kept as hashes in the database (:mod:`storage.weblinks`);
- :mod:`adapters.web.pages`: each game's own page, one folder of the game's (``games/<game>/web/``:
  its view, templates, script and styles), found through the registry; nothing here names a game;
- :mod:`adapters.web.companion`: what a page may see and do, authorised on the server;
- :mod:`adapters.web.models`: what the pages' templates read, from a game's neutral snapshot;
- :mod:`adapters.web.server`: the aiohttp routes, security headers, the live channel
  (:mod:`adapters.web.live`: the live part cut into regions);
- :mod:`adapters.web.watch`: watchers' pages of a game without a page of its own (a race's cards
  and takes) and every watcher's coalesced live feed;
- :mod:`adapters.web.local`: ``python -m bot web``, a game against computer players on 127.0.0.1.

Several processes: a page's *move* reaches the process that runs its game as any event does
(the chat's runtime routes it, :mod:`bot.inbound.routing`); a page's *view* is served by the process
that runs the game — see docs/WEB.md ("Several processes").
"""

from adapters.web.companion import WebCompanion

__all__ = ["WebCompanion"]
