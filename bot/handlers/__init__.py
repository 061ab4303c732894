"""The command handlers: one function per core command of the grammar (:mod:`bot.commands`),
one per kind of game verb (:mod:`bot.handlers.verbs`).

:data:`HANDLERS` maps each core command's name to its handler; :func:`dispatch` reads a command
with the grammar of the host's games (aliases resolved, mistakes explained) and calls its
handler, or the handler of the kind of verb the chat's game declares. A handler gets the
:class:`~bot.host.GameHost`, never the manager itself. A new core command is a
:class:`~bot.commands.CommandSpec` plus one line here (tests/bot/test_commands.py checks that
every core command has its handler); a game's own verb is a declaration in its game only.
"""

from __future__ import annotations

from bot import views
from bot.commands import CommandError, grammar
from bot.events import Command
from bot.handlers import about, playing, verbs
from bot.handlers.common import MOVE_HINT, Handler, reply
from bot.handlers.playing import private_text
from bot.host import GameHost

#: Core command name (as in :data:`bot.commands.COMMANDS`) → its handler.
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
    "define": about.define,
    "rules": about.rules,
    "leaderboard": about.leaderboard,
    "stats": about.stats,
    "season": about.season,
    "schedule": about.schedule,
    "config": about.config,
    "words": about.words,
    "privacy": about.privacy,
    "forget-me": about.forget_me,
    "purge": about.purge,
    "help": about.help_,
}


async def dispatch(host: GameHost, cmd: Command) -> None:
    """Handle ``cmd``: a mistake in it (:class:`~bot.commands.CommandError`) is answered privately;
    a :class:`~bot.session_core.SessionError` goes on to the caller."""
    try:
        name, args = grammar(host.registry).command_of(cmd.name, cmd.args)
        handler = HANDLERS.get(name)
        if handler is not None:
            await handler(host, cmd, args)
        else:  # a game's own verb
            await verbs.run(host, cmd, name, args)
    except CommandError as exc:
        await reply(host, cmd, views.error(str(exc)))


__all__ = ["HANDLERS", "MOVE_HINT", "Handler", "dispatch", "private_text", "reply"]
