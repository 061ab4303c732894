"""What every command handler shares: the handler's shape, private replies, the chat's session."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot import views
from bot.events import Button, Command, Private, PrivateText
from bot.host import GameHost
from bot.session import Session
from bot.session_core import SessionError

#: A command handler: (the host, the command as sent, its arguments after the verb).
Handler = Callable[[GameHost, Command, tuple[str, ...]], Awaitable[None]]

MOVE_HINT = "On your turn, type your move here or `play MOVE`."


async def reply(host: GameHost, event: Command | Button | PrivateText, view: views.View) -> None:
    """Answer ``event``'s sender privately (in the interaction it came with, if any)."""
    interaction = getattr(event, "interaction", None)
    await host.outbox.send(Private(event.chat, event.player, view, interaction))


def session_of(host: GameHost, cmd: Command) -> Session:
    """The chat's game or lobby; none is a friendly error."""
    session = host.sessions.get(cmd.chat)
    if session is None:
        raise SessionError("There's no game in this channel. Start one with `start`.")
    return session
