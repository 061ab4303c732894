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
from bot.handlers import about, playing
from bot.handlers.common import MOVE_HINT, Handler, no_votes, reply
from bot.handlers.playing import private_text
from bot.host import GameHost

#: Command name (as in :data:`bot.commands.COMMANDS`) → its handler.
HANDLERS: dict[str, Handler] = {
    "start": playing.start,
    "join": playing.join,
    "leave": playing.leave,
    "go": playing.go,
    "stop": playing.stop,
    "skip": playing.skip,
    "vote": playing.vote,
    "why": playing.why,
    "hand": playing.hand,
    "board": playing.board,
    "play": playing.play,
    "list": playing.word_list,
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
        name, args = command_of(cmd.name, cmd.args)
        await HANDLERS[name](host, cmd, args)
    except CommandError as exc:
        await reply(host, cmd, views.error(str(exc)))


__all__ = ["HANDLERS", "MOVE_HINT", "Handler", "dispatch", "no_votes", "private_text", "reply"]
