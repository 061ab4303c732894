"""The command handlers: one function per core command of the grammar (:mod:`bot.core.commands`),
one per kind of game verb (:mod:`bot.hosting.handlers.verbs`).

:func:`handle` takes each admitted event of a chat this process runs to what handles it: a
message to its session, a button or a reaction as the command or vote it stands for
(:mod:`bot.hosting.handlers.buttons`), private words to :func:`~bot.hosting.handlers.playing.private_text`.

:data:`HANDLERS` maps each core command's name to its handler; :func:`dispatch` reads a command
with the grammar of the host's games (aliases resolved, mistakes explained) and calls its
handler, or the handler of the kind of verb the chat's game declares. A handler gets the
:class:`~bot.hosting.host.GameHost`, never the manager itself. A new core command is a
:class:`~bot.core.commands.CommandSpec` plus one line here (tests/bot/test_commands.py checks that
every core command has its handler); a game's own verb is a declaration in its game only.
"""

from __future__ import annotations

from bot.core import views
from bot.core.commands import CommandError, grammar
from bot.core.events import Button, Command, Inbound, PrivateText, Reaction, Text
from bot.hosting.handlers import about, daily, playing, tournament, verbs, watching
from bot.hosting.handlers.buttons import REACTION_VOTES, button_command
from bot.hosting.handlers.common import MOVE_HINT, Handler, asker_speech, reply
from bot.hosting.handlers.playing import private_text
from bot.hosting.host import GameHost
from bot.sessions.state import Phase, SessionError
from games.common.speech import speaking

#: Core command name (as in :data:`bot.core.commands.COMMANDS`) → its handler.
HANDLERS: dict[str, Handler] = {
    "start": playing.start,
    "join": playing.join,
    "leave": playing.leave,
    "go": playing.go,
    "stop": playing.stop,
    "why": playing.why,
    "hand": playing.hand,
    "board": playing.board,
    "play": playing.play,
    "watch": watching.watch,
    "define": about.define,
    "rules": about.rules,
    "leaderboard": about.leaderboard,
    "stats": about.stats,
    "season": about.season,
    "schedule": about.schedule,
    "config": about.config,
    "words": about.words,
    "daily": daily.daily,
    "tournament": tournament.tournament,
    "privacy": about.privacy,
    "forget-me": about.forget_me,
    "purge": about.purge,
    "help": about.help_,
}


async def dispatch(host: GameHost, cmd: Command) -> None:
    """Handle ``cmd``: a mistake in it (:class:`~bot.core.commands.CommandError`) is answered privately;
    a :class:`~bot.sessions.state.SessionError` goes on to the caller."""
    try:
        name, args = grammar(host.registry).command_of(cmd.name, cmd.args)
        handler = HANDLERS.get(name)
        if handler is not None:
            await handler(host, cmd, args)
        else:  # a game's own verb
            await verbs.run(host, cmd, name, args)
    except CommandError as exc:
        await reply(host, cmd, views.error(str(exc)))


async def handle(host: GameHost, event: Inbound) -> None:
    """Hand ``event`` (admitted, and this process's to handle) to its session or its command's
    handler. A :class:`~bot.sessions.state.SessionError` answers a command, button or private
    words privately (a message or a reaction gets no answer); any other error goes on to the
    caller, the host's one error handler.

    A command, a button or private words are answered in the asker's language (their own
    locale, else the chat's); what the whole chat reads, the session speaks in the chat's."""
    if isinstance(event, Command | Button | PrivateText):
        with speaking(await asker_speech(host, event)):
            await _handle(host, event)
    else:
        await _handle(host, event)


async def _handle(host: GameHost, event: Inbound) -> None:
    try:
        if isinstance(event, Text):
            session = host.sessions.get(event.chat)
            if session is not None and not event.edited:
                await session.text(
                    event.player, event.text, event.sent_at, event.message_ref, read=event.read
                )
        elif isinstance(event, Command):
            await dispatch(host, event)
        elif isinstance(event, Button):
            name, args = button_command(event.action) or ("", ())
            if name:
                await dispatch(host, Command(name, args, event.chat, event.player, event.interaction))
        elif isinstance(event, Reaction):
            choice = REACTION_VOTES.get(event.emoji)
            session = host.sessions.get(event.chat)
            if choice and session is not None and session.phase is Phase.RUNNING:
                await session.vote(event.player, choice)
        else:
            await private_text(host, event)
    except SessionError as exc:
        if isinstance(event, Command | Button | PrivateText):
            await reply(host, event, views.error(str(exc)))


__all__ = ["HANDLERS", "MOVE_HINT", "Handler", "dispatch", "handle", "private_text", "reply"]
