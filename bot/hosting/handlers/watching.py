"""``watch``: a link to follow the chat's game live in a browser (the web companion, docs/WEB.md).

The core knows no web page: it answers with :func:`offer`, a private note that says how the
pages are turned on. A process that serves pages (``PUBLIC_URL`` set) has a web companion among
its delivery layer's taps; it recognises the note (:func:`is_offer`) and gives it the game's watch
link instead. So a process without pages, or a test's core without a companion, still answers
with a clear reason.
"""

from __future__ import annotations

from bot.core import views
from bot.core.events import Command
from bot.hosting.handlers.common import reply
from bot.hosting.host import GameHost
from bot.sessions.state import Phase, SessionError
from games.common.speech import N_, _, speaking

#: The title of :func:`offer`'s note (what the web companion recognises it by).
OFFER_TITLE = N_("Watch this game live")
#: What the note says when no companion gives it a link: how an operator turns the pages on.
NO_PAGES = N_(
    "Watching a game live in a browser needs moji's web pages, which are not turned on here: "
    "whoever runs moji turns them on by setting PUBLIC_URL (docs/WEB.md)."
)


def offer(game: str) -> views.View:
    """The private answer to ``watch`` for a running game of ``game`` (a name: ``race``)."""
    return views.View(kind="info", title=_(OFFER_TITLE), lines=(_(NO_PAGES),), game=game)


def is_offer(view: views.View) -> bool:
    """Whether ``view`` is :func:`offer`'s note (still without its link)."""
    if view.kind != "info":
        return False
    with speaking(view.locale):
        return view.title == _(OFFER_TITLE) and view.lines == (_(NO_PAGES),)


async def watch(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``watch``: privately, a link to the live view of the game running in this chat."""
    session = host.sessions.get(cmd.chat)
    if session is None:
        raise SessionError(
            _(
                "There's no game in this channel to watch (a turn-based game plays in a thread of its "
                "own: ask there). Start one with `start`."
            )
        )
    if session.phase is not Phase.RUNNING or session.engine is None:
        raise SessionError(
            _(
                "The {game} game here hasn't started yet: ask for `watch` once it has.",
                game=_(session.info.title),
            )
        )
    await reply(host, cmd, offer(session.info.name))
