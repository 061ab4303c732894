"""What every command handler shares: the handler's shape, private replies, the chat's session."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot.core import views
from bot.core.events import Button, Command, Private, PrivateText
from bot.hosting.host import GameHost, chat_speech
from bot.sessions.session import Session
from bot.sessions.state import SessionError
from games.common.speech import N_, _, spoken_from

#: A command handler: (the host, the command as sent, its arguments after the verb).
Handler = Callable[[GameHost, Command, tuple[str, ...]], Awaitable[None]]

MOVE_HINT = N_("On your turn, type your move here or `play MOVE`.")


async def asker_speech(host: GameHost, event: Command | Button | PrivateText) -> str:
    """The language of what ``event``'s sender alone reads: their own locale where a catalogue
    speaks it, else the chat's."""
    return spoken_from(event.player.locale, await chat_speech(host, event.chat))


async def reply(host: GameHost, event: Command | Button | PrivateText, view: views.View) -> None:
    """Answer ``event``'s sender privately (in the interaction it came with, if any)."""
    interaction = getattr(event, "interaction", None)
    await host.outbox.send(Private(event.chat, event.player, view, interaction))


def session_of(host: GameHost, cmd: Command) -> Session:
    """The chat's game or lobby; none is a friendly error."""
    session = host.sessions.get(cmd.chat)
    if session is None:
        raise SessionError(_("There's no game in this channel. Start one with `start`."))
    return session
