"""What every command handler shares: the handler's shape, private replies, the chat's session."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from bot import views
from bot.events import Button, Command, Private, PrivateText
from bot.host import GameHost
from bot.session import Session
from bot.session_core import SessionError
from games.common.protocol import GameInfo

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


def no_votes(info: GameInfo, choice: str) -> str:
    """Why ``skip`` or ``vote`` does nothing in a turn-based game, and what to do instead."""
    moves = " or ".join(f"`{move}` ({label.lower()})" for label, move in info.turn_moves)
    instead = f"On your turn you can type {moves}, or your move." if moves else MOVE_HINT
    if choice == "skip":
        what = f"`skip` votes to discard stuck cards in a race; {info.title} has no skip vote."
    else:
        what = f"There's nothing to vote on in {info.title}: votes settle race answers."
    return f"{what} {instead} `rules {info.name}` explains the moves."
