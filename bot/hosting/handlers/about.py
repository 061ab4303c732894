"""The commands about moji and the workspace: help, rules, define, leaderboard, stats, season,
schedule, config, words, privacy, forget-me, purge."""

from __future__ import annotations

from bot.core import views
from bot.core.commands import CommandError, help_lines
from bot.core.events import Command
from bot.features.define import answer as define_answer
from bot.features.define import fold as define_word
from bot.features.define import parse_define
from bot.hosting.handlers.common import reply
from bot.hosting.handlers.daily import board as daily_board
from bot.hosting.host import GameHost
from games.common.grammar import excerpt
from games.common.languages import language
from games.common.speech import _


async def help_(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``help``."""
    await reply(
        host, cmd, views.View(kind="help", title=_("moji commands"), lines=tuple(help_lines(host.registry)))
    )


async def rules(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``rules [game]`` (the game here, else the default one)."""
    if args:
        info = host.registry.find(args[0])
        if info is None:
            raise CommandError(
                _(
                    "There is no game called {name}. Games: {games}.",
                    name=excerpt(args[0]),
                    games=", ".join(host.registry.names()),
                )
            )
    else:
        session = host.sessions.get(cmd.chat)
        info = session.info if session else host.registry.default
    await reply(host, cmd, views.rules(info))


async def define(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``define WORD [language=…]``: its meaning, and whether the game here takes it."""
    typed, code = parse_define(args)
    session = host.sessions.get(cmd.chat)
    if code is None:
        # the game's language here, else this workspace's
        code = (
            session.state.language
            if session is not None
            else str((await host.workspace.settings(cmd.chat))["language"])
        )
    lang = language(code)
    word = define_word(typed, lang)
    verdict = None
    if session is not None and session.state.language == lang.code:
        verdict = await session.word_verdict(word)
    await reply(host, cmd, define_answer(word, lang, verdict))


async def leaderboard(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``leaderboard …`` (``leaderboard daily``: the daily's own board, :mod:`bot.hosting.handlers.daily`)."""
    if [a.lower() for a in args] == ["daily"]:
        await reply(host, cmd, await daily_board(host, cmd))
        return
    await reply(host, cmd, await host.workspace.leaderboard(cmd, args, host.registry))


async def stats(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``stats [player]``."""
    await reply(host, cmd, await host.workspace.stats(cmd, args))


async def season(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``season [N | reset]``."""
    await reply(host, cmd, await host.workspace.season(cmd, args))


async def schedule(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``schedule …``, where the platform runs scheduled games."""
    if host.schedules is None:
        raise CommandError(_("Scheduled games run on Discord and Slack, where moji stays online."))
    await reply(host, cmd, await host.schedules.command(host.registry, cmd.chat, cmd.player, args))


async def config(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``config [key [value]]``."""
    await reply(host, cmd, await host.workspace.config(cmd, args))


async def words(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``words add|ban|remove WORD``."""
    await reply(host, cmd, await host.workspace.words(cmd, args))


async def privacy(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``privacy``."""
    await reply(host, cmd, await host.privacy.privacy(cmd))


async def forget_me(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``forget-me [confirm]``."""
    await reply(host, cmd, await host.privacy.forget_me(cmd, args))


async def purge(host: GameHost, cmd: Command, args: tuple[str, ...]) -> None:
    """``purge [confirm]``."""
    await reply(host, cmd, await host.privacy.purge(cmd, args))
