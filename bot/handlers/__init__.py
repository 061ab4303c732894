"""The command handlers: one function per verb of the command grammar (:mod:`bot.commands`).

:data:`HANDLERS` maps each command's name to its handler; :func:`dispatch` reads a command
with the grammar (aliases resolved, mistakes explained) and calls it. A handler gets the
:class:`~bot.host.GameHost`, never the manager itself. A new verb is a
:class:`~bot.commands.CommandSpec` plus one line here (tests/bot/test_commands.py checks that
every verb has its handler).
"""

from __future__ import annotations

from bot import views
from bot.commands import CommandError, command_of
from bot.events import Command
from bot.handlers import games, info
from bot.handlers.common import MOVE_HINT, Handler, no_votes, reply
from bot.handlers.games import private_text
from bot.host import GameHost

#: Command name (as in :data:`bot.commands.COMMANDS`) → its handler.
HANDLERS: dict[str, Handler] = {
    "start": games.start,
    "join": games.join,
    "leave": games.leave,
    "go": games.go,
    "stop": games.stop,
    "skip": games.skip,
    "vote": games.vote,
    "why": games.why,
    "hand": games.hand,
    "board": games.board,
    "play": games.play,
    "list": games.word_list,
    "define": info.define,
    "rules": info.rules,
    "leaderboard": info.leaderboard,
    "stats": info.stats,
    "season": info.season,
    "schedule": info.schedule,
    "config": info.config,
    "words": info.words,
    "privacy": info.privacy,
    "forget-me": info.forget_me,
    "purge": info.purge,
    "help": info.help_,
}


async def dispatch(host: GameHost, cmd: Command) -> None:
    """Handle ``cmd``: a mistake in it (:class:`~bot.commands.CommandError`) is answered privately;
    a :class:`~bot.session.SessionError` goes on to the caller."""
    try:
        name, args = command_of(cmd.name, cmd.args)
        await HANDLERS[name](host, cmd, args)
    except CommandError as exc:
        await reply(host, cmd, views.error(str(exc)))


__all__ = ["HANDLERS", "MOVE_HINT", "Handler", "dispatch", "no_votes", "private_text", "reply"]
